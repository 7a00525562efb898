"""How long Dispatch takes to decide at each level, with the real search budgets.

Run: .venv/bin/python bench/bench_ai_decision_time.py [--decisions 16] [--game war ...]
     [--level normal --level hard]

The bot plays one side of a game against random play, deciding as a bot seat does: a
search of the level's budget of iterations in that game (``rules.ai.level_iterations``),
keeping its tree between the small decisions of a turn. Every decision is timed in CPU
seconds of this process. (``bench/calibrate_levels.py`` times fresh searches from
positions of real games, the figure the budgets are calibrated by.) A decision the
player takes from the tree of an earlier search (the small decisions of one turn share
one search) runs no search and costs next to nothing, so the two kinds are reported
apart: the median and 99th percentile of the decisions that ran a search, and how many
were answered from an earlier one. Mixing them would report a median halfway between the
two whenever about half the decisions reuse a tree.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules import GAMES
from rules.ai import LEVEL_SECONDS, SearchPlayer, level_iterations, supports_search


def timed_decisions(name: str, level: str, decisions: int, seed: int) -> tuple[list[float], int]:
    """CPU times of the searches behind ``decisions`` bot decisions, and how many other
    decisions reused an earlier search."""
    game = GAMES[name]
    chooser = random.Random(seed)
    searched: list[float] = []
    reused = 0
    while len(searched) + reused < decisions:
        state = game.setup(seed=seed)
        bot_role = game.roles[seed % 2]
        player = SearchPlayer(game, bot_role, seed=seed, iterations=level_iterations(game, level))
        seed += 1
        while game.outcome(state) is None and len(searched) + reused < decisions:
            role = chooser.choice(game.active_roles(state))
            view = game.view(state, role)
            if role == bot_role:
                searches = player.searches
                started = time.process_time()
                verb, arg = player.choose(view)
                spent = time.process_time() - started
                if player.searches > searches:
                    searched.append(spent)
                else:
                    reused += 1
            else:
                actions = {k: a for k, a in view["actions"].items() if k != "undo"}
                verb = chooser.choice(sorted(actions))
                arg = None if actions[verb] is True else chooser.choice(actions[verb])
            state = game.act(state, role, verb, arg)
    return searched, reused


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=16, help="bot decisions per row")
    parser.add_argument("--game", action="append", help="a game (default: every searchable)")
    parser.add_argument("--level", action="append", choices=sorted(LEVEL_SECONDS))
    options = parser.parse_args()
    names = options.game or sorted(n for n, g in GAMES.items() if supports_search(g))
    levels = options.level or sorted(LEVEL_SECONDS, key=LEVEL_SECONDS.__getitem__)
    print(f"{'game':12} {'level':7} {'searches':>8} {'median s':>9} {'p99 s':>7} {'reused':>7}")
    for name in names:
        for level in levels:
            searched, reused = timed_decisions(name, level, options.decisions, seed=100)
            if len(searched) > 1:
                p99 = statistics.quantiles(searched, n=100, method="inclusive")[98]
            else:
                p99 = max(searched, default=0.0)
            median = statistics.median(searched) if searched else 0.0
            print(f"{name:12} {level:7} {len(searched):>8} {median:>9.3f} {p99:>7.3f} {reused:>7}")


if __name__ == "__main__":
    main()
