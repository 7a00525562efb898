"""War Between the States benchmark: speed, balance and rendering. A plain script:

    /work/venv/bin/python bench/bench_war.py [--games 2000] [--random-games 200]

Prints: full random games per second (uniformly random legal actions); the win rate of
each side over many games with the same policy (rules.war.strategy) on both sides, with
draws, battles per game and how often the battle cap decided; and the median time and
size of a board PNG.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from render import board_png
from rules.war import GAME
from rules.war.steps import BATTLE_CAP
from rules.war.strategy import choose


def random_game(seed: int, record_undo: bool = True) -> dict[str, Any]:
    chooser = random.Random(seed)
    state = GAME.setup(seed=seed)
    while GAME.outcome(state) is None:
        role = chooser.choice(GAME.active_roles(state))
        actions = GAME.legal_actions(state, role)
        verb = chooser.choice(sorted(v for v in actions if v != "undo"))
        args = actions[verb]
        arg = chooser.choice(args) if isinstance(args, list) else None
        GAME.act(state, role, verb, arg, record_undo=record_undo)
    return state


def policy_game(seed: int, views: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    state = GAME.setup(seed=seed)
    while GAME.outcome(state) is None:
        role = GAME.active_roles(state)[0]
        view = GAME.view(state, role)
        if views is not None and len(views) < 400:
            views.append(GAME.view(state, None))
        verb, arg = choose(GAME, view)
        GAME.act(state, role, verb, arg)
    if views is not None:
        views.append(GAME.view(state, None))
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--random-games", type=int, default=200)
    options = parser.parse_args()

    for label, record_undo in (("with undo snapshots", True), ("simulation path", False)):
        started = time.perf_counter()
        for seed in range(options.random_games):
            random_game(seed, record_undo)
        elapsed = time.perf_counter() - started
        print(f"random play, {label}: {options.random_games / elapsed:.1f} full games/s")
    if not options.games:
        return

    wins = {"union": 0, "confederate": 0, None: 0}
    battles: list[int] = []
    capped = 0
    started = time.perf_counter()
    for seed in range(options.games):
        outcome = GAME.outcome(policy_game(10_000 + seed))
        assert outcome is not None
        wins[outcome["winner"]] += 1
        battles.append(outcome["score"]["battles"])
        capped += outcome["score"]["battles"] >= BATTLE_CAP
    elapsed = time.perf_counter() - started
    n = options.games
    print(f"policy vs policy over {n} games ({n / elapsed:.1f} games/s):")
    print(
        f"  Union {100 * wins['union'] / n:.1f}%  Confederacy {100 * wins['confederate'] / n:.1f}%"
        f"  draws {100 * wins[None] / n:.1f}%"
    )
    print(
        f"  battles per game: mean {statistics.mean(battles):.1f}, "
        f"median {statistics.median(battles)}, max {max(battles)}; battle cap reached {capped}x"
    )

    views: list[dict[str, Any]] = []
    policy_game(7, views)
    sample = views[:: max(1, len(views) // 60)]
    times, sizes = [], []
    for view in sample:
        started = time.perf_counter()
        data = board_png("war", view)
        times.append((time.perf_counter() - started) * 1000)
        sizes.append(len(data) / 1024)
    print(
        f"board render: median {statistics.median(times):.1f} ms over {len(sample)} boards; "
        f"PNG median {statistics.median(sizes):.1f} KB, max {max(sizes):.1f} KB"
    )


if __name__ == "__main__":
    main()
