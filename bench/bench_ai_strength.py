"""Strength of the computer opponents: win rates per pairing, each side separately.

Run: .venv/bin/python bench/bench_ai_strength.py [--games 20] [--normal 2000] [--hard 11000]
     [--game fort_sumter] [--pairing "hard:greedy"] [--jobs 4]

Pairings (the first player named is the one measured): hard vs random, hard vs greedy,
hard vs normal, normal vs greedy. ``--games`` games are played with the measured player
on each side (so 2 x games per pairing), from set-up seeds 10,000 on. The search levels
are a fixed number of iterations per search, as a bot seat's are: by default each game's
real level budgets (``rules.ai.level_iterations``, calibrated to about 1 s and 5 s of a
quiet core by ``bench/calibrate_levels.py``), or ``--normal``/``--hard`` for every game,
so a run is reproducible (the decision times it prints: one search per decision, except
the small decisions a search already planned, which cost nothing). "greedy" is the easy
level (the game's policy), "random" picks uniformly among the legal actions, and "fate"
is the Fate Die opponent: its side is run by the die (the game's ``fate`` option; Fort
Sumter and Lincoln) and what the die leaves open is decided by the greedy policy. A game
without a playsheet skips the "fate" pairings.

Prints one row per game and pairing: wins of the measured player as each side, draws,
and overall; then the decision times of each level (median and 99th percentile, CPU
seconds of the process that played the game).

``--jobs N`` plays N games at a time in worker processes (one core each). Every game is
the same whichever process plays it (its seeds and budgets are fixed), so the table does
not depend on N; only the wall time does. The full table (500 games a side and pairing at
the real budgets: docs/ai.md, *What is left*) is hundreds of CPU-hours, a job for a machine with
many cores rather than a laptop.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules import GAMES, Game
from rules.ai import GreedyPlayer, SearchPlayer, level_iterations, supports_search
from rules.core import Arg, View

PAIRINGS = ("hard:random", "hard:greedy", "hard:normal", "normal:greedy")
#: Each level against the Fate Die opponent, in games with a playsheet for it.
FATE_PAIRINGS = ("hard:fate", "normal:fate", "greedy:fate")


class RandomPlayer:
    def __init__(self, seed: int) -> None:
        self.chooser = random.Random(seed)

    def choose(self, view: View) -> tuple[str, Arg]:
        moves = [
            (verb, arg)
            for verb, args in view["actions"].items()
            if verb != "undo"
            for arg in (args if isinstance(args, list) else [None])
        ]
        return self.chooser.choice(moves)


#: The game settings a search player may change for its own searches (:func:`variant`),
#: and how each reads its value.
TWEAKS: dict[str, Any] = {
    "playout_horizon": int,
    "policy_margin": float,
    "guide": float,
    "prior": float,
}
#: The tweaks that are options of the search, not settings of the game: ``guide`` is the
#: epsilon of playouts guided by the game's automated player, ``prior`` the weight of its
#: choices as a prior in the tree (``rules.ai.ismcts``).
SEARCH_TWEAKS = frozenset({"guide", "prior"})


def parse_tweaks(text: str) -> dict[str, Any]:
    """``"name=value,..."`` (names from :data:`TWEAKS`) as settings; ValueError if not."""
    tweaks: dict[str, Any] = {}
    for item in filter(None, text.split(",")):
        name, _, value = item.partition("=")
        if name not in TWEAKS or not value:
            raise ValueError(f"{item}: a tweak is name=value, the names {', '.join(TWEAKS)}")
        tweaks[name] = TWEAKS[name](value)
    return tweaks


def variant(game: Game, tweaks: str) -> Game:
    """``game`` with the class settings of ``tweaks`` changed, for one player's searches
    (the game both players play stays as it is)."""
    settings = {
        name: value for name, value in parse_tweaks(tweaks).items() if name not in SEARCH_TWEAKS
    }
    for name in settings:
        if getattr(game, name, None) is None:
            raise ValueError(f"{game.name} has no setting {name} to change")
    subclass = type(f"{type(game).__name__}Variant", (type(game),), settings)
    tuned: Game = subclass()
    return tuned


def make(game: Game, role: str, level: str, seed: int, budgets: dict[str, int]) -> Any:
    """A player of ``level``: random, greedy, fate, or a search level named as a budget of
    ``budgets``, which may end in ``:name=value,...`` (its searches use :func:`variant`)."""
    if level == "random":
        return RandomPlayer(seed)
    if level in ("greedy", "fate"):
        return GreedyPlayer(game)
    _, _, tweaks = level.partition(":")
    searched = variant(game, tweaks) if tweaks else game
    options = parse_tweaks(tweaks)
    return SearchPlayer(
        searched,
        role,
        seed=seed,
        iterations=budgets[level],
        guide_epsilon=options.get("guide"),
        prior_weight=options.get("prior"),
    )


def play(
    game: Game,
    seed: int,
    levels: dict[str, str],
    budgets: dict[str, int],
    times: dict[str, list[float]],
) -> str | None:
    """One game; ``levels`` maps each role to a level; returns the winner and adds each
    decision's CPU time to ``times``."""
    players = {
        role: make(game, role, level, seed * 31 + i, budgets)
        for i, (role, level) in enumerate(levels.items())
    }
    fated = [role for role, level in levels.items() if level == "fate"]
    state = game.setup(seed=seed, options={"fate": fated[0]} if fated else None)
    while game.outcome(state) is None:
        role = game.active_roles(state)[0]
        view = game.view(state, role)
        player = players[role]
        searches = getattr(player, "searches", 0)
        started = time.process_time()
        verb, arg = player.choose(view)
        spent = time.process_time() - started
        times.setdefault(levels[role], []).append(spent)
        if getattr(player, "searches", 0) > searches:
            times.setdefault(levels[role] + " (searches only)", []).append(spent)
        game.act(state, role, verb, arg)
    outcome = game.outcome(state)
    assert outcome is not None
    return outcome["winner"]


def play_apart(
    name: str, seed: int, levels: dict[str, str], budgets: dict[str, int]
) -> tuple[str | None, dict[str, list[float]]]:
    """``play`` in a worker process: the winner and the decision times of that game."""
    times: dict[str, list[float]] = {}
    return play(GAMES[name], seed, levels, budgets, times), times


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per pairing and side")
    parser.add_argument(
        "--normal", type=int, help="iterations of a normal search (default: the game's level)"
    )
    parser.add_argument(
        "--hard", type=int, help="iterations of a hard search (default: the game's level)"
    )
    parser.add_argument("--game", action="append", help="a game name (default: every one)")
    parser.add_argument("--pairing", action="append", help=f"one of {', '.join(PAIRINGS)}")
    parser.add_argument("--jobs", type=int, default=1, help="games played at a time")
    parser.add_argument(
        "--first-seed",
        type=int,
        default=0,
        help="skip this many set-up seeds of each side (to add games to an earlier run)",
    )
    options = parser.parse_args()
    workers = ProcessPoolExecutor(options.jobs) if options.jobs > 1 else None
    names = options.game or sorted(n for n in GAMES if supports_search(GAMES[n]))
    pairings = options.pairing or list(PAIRINGS + FATE_PAIRINGS)
    times: dict[str, list[float]] = {}
    budgets_of = {
        name: {
            level: given if given is not None else level_iterations(GAMES[name], level)
            for level, given in (("normal", options.normal), ("hard", options.hard))
        }
        for name in names
    }
    print(
        f"{options.games} games per pairing and side; iterations per search: "
        + "; ".join(f"{n} normal {b['normal']}, hard {b['hard']}" for n, b in budgets_of.items())
    )
    print(
        f"{'game':12} {'pairing':16} {'as first':>10} {'as second':>10} {'draws':>6} {'overall':>8}"
    )
    for name in names:
        game = GAMES[name]
        budgets = budgets_of[name]
        for pairing in pairings:
            measured, other = pairing.split(":")
            if "fate" in (measured, other) and "fate" not in game.default_options:
                continue
            # The sides alternate game by game, and each game is reported as it ends
            # (on standard error), so a run cut short still gives a balanced sample.
            order = [
                (index, 10_000 + options.first_seed + n + 100_000 * index)
                for n in range(options.games)
                for index in range(len(game.roles))
            ]
            sides = [
                {r: (measured if r == role else other) for r in game.roles} for role in game.roles
            ]
            if workers is None:
                results: Any = (
                    (index, seed, *play_apart(name, seed, sides[index], budgets))
                    for index, seed in order
                )
            else:
                futures = [
                    (index, seed, workers.submit(play_apart, name, seed, sides[index], budgets))
                    for index, seed in order
                ]
                results = ((i, seed, *future.result()) for i, seed, future in futures)
            wins = [0] * len(game.roles)
            draws = 0
            for index, seed, winner, spent in results:
                for level, values in spent.items():
                    times.setdefault(level, []).extend(values)
                wins[index] += winner == game.roles[index]
                draws += winner is None
                searched = spent.get(measured + " (searches only)", [])
                print(
                    f"  {name} {pairing} seed {seed}: {measured} as {game.roles[index]}, "
                    f"winner {winner}; {measured} won {sum(wins)} so far"
                    + (
                        f" ({len(searched)} searches, median {statistics.median(searched):.3f} s)"
                        if searched
                        else ""
                    ),
                    file=sys.stderr,
                    flush=True,
                )
            score = sum(wins) + 0.5 * draws
            rates = [
                f"{100 * won / options.games:.0f}% {role[:5]}"
                for won, role in zip(wins, game.roles, strict=True)
            ]
            overall = 100 * score / (2 * options.games)
            print(
                f"{name:12} {measured + ' v ' + other:16} {rates[0]:>10} {rates[1]:>10} "
                f"{draws:>6} {overall:>7.1f}%",
                flush=True,
            )
    if workers is not None:
        workers.shutdown()
    print("decision times (CPU s): level, decisions, median, p99, max")
    for level, values in sorted(times.items()):
        print(
            f"  {level:24} {len(values):6} {statistics.median(values):8.4f} "
            f"{percentile(values, 0.99):8.4f} {max(values):8.4f}"
        )


if __name__ == "__main__":
    main()
