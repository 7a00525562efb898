"""The search player never attempts an illegal action: many whole games at a tiny budget.

Run: .venv/bin/python bench/bench_ai_legality.py [--games 500] [--iterations 2]

For each game, ``--games`` games of the search player (normal and hard are the same
code with other budgets, so one tiny budget covers both) against uniformly random play,
the bot taking each side in turn, plus as many games of the search player against
itself; in games with a Fate Die playsheet, as many again with the bot's side run by the
die (the search, and the easy level's policy, must keep to the cards it allows). Every
action goes through the checked path (``act`` raises on anything not
listed) after an explicit check that it is one of ``view["actions"]``. Prints games,
bot decisions and failures (which must be 0) per game; the easy level is the game's
own policy, covered by its golden playthrough and balance benchmarks.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules import GAMES, Game, RulesError
from rules.ai import GreedyPlayer, SearchPlayer, supports_search


def one_game(
    game: Game, seed: int, iterations: int, both: bool, fate: str = ""
) -> tuple[int, list[str]]:
    """(bot decisions, problems) of one game; ``fate``: "search" or "easy" plays the bot's
    side run by the Fate Die with that player."""
    bot_role = game.roles[seed % 2]
    bots: dict[str, Any] = {
        bot_role: GreedyPlayer(game)
        if fate == "easy"
        else SearchPlayer(game, bot_role, seed=seed, iterations=iterations)
    }
    if both:
        other = game.opponent(bot_role)
        bots[other] = SearchPlayer(game, other, seed=seed + 1, iterations=iterations)
    chooser = random.Random(seed)
    state = game.setup(seed=seed, options={"fate": bot_role} if fate else None)
    decisions = 0
    problems: list[str] = []
    while game.outcome(state) is None:
        role = chooser.choice(game.active_roles(state))
        view = game.view(state, role)
        if role in bots:
            verb, arg = bots[role].choose(view)
            decisions += 1
            listed = view["actions"].get(verb)
            if verb == "undo" or listed is None or (listed is not True and arg not in listed):
                problems.append(f"seed {seed}: {role} chose unlisted {verb} {arg}")
        else:
            moves = [
                (v, a)
                for v, args in view["actions"].items()
                if v != "undo"
                for a in (args if isinstance(args, list) else [None])
            ]
            verb, arg = chooser.choice(moves)
        try:
            game.act(state, role, verb, arg)
        except RulesError as error:
            problems.append(f"seed {seed}: {role} {verb} {arg} refused: {error}")
            break
    return decisions, problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--iterations", type=int, default=2)
    parser.add_argument("--game", action="append")
    options = parser.parse_args()
    for name in options.game or sorted(n for n in GAMES if supports_search(GAMES[n])):
        game = GAMES[name]
        variants = [("vs random", False, ""), ("vs itself", True, "")]
        if "fate" in game.default_options:
            variants += [("fate, search", False, "search"), ("fate, easy", False, "easy")]
        for label, both, fate in variants:
            started = time.process_time()
            decisions = 0
            problems: list[str] = []
            for seed in range(options.games):
                made, found = one_game(game, 50_000 + seed, options.iterations, both, fate)
                decisions += made
                problems += found
            print(
                f"{name:12} {label:12} {options.games} games, {decisions} bot decisions, "
                f"{len(problems)} illegal ({time.process_time() - started:.0f} s)",
                flush=True,
            )
            for problem in problems[:5]:
                print("   ", problem)


if __name__ == "__main__":
    main()
