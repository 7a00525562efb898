"""Fort Sumter: full random games per second, and average actions per game.

Run: .venv/bin/python bench/bench_fort_sumter.py [games]
Each game is played with uniformly random legal actions (never undo) through the real
contract (``act`` with its undo snapshots), from set-up to final scoring; then again on the
simulation path (``act(..., record_undo=False)``: no snapshots), which ends in the same
final states.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.fort_sumter import GAME


def play(seed: int, record_undo: bool = True) -> int:
    chooser = random.Random(seed)
    state = GAME.setup(seed=seed)
    actions = 0
    while GAME.outcome(state) is None:
        role = chooser.choice(GAME.active_roles(state))
        legal = GAME.legal_actions(state, role)
        verb = chooser.choice(sorted(v for v in legal if v != "undo"))
        args = legal[verb]
        arg = None if isinstance(args, bool) else chooser.choice(args)
        state = GAME.act(state, role, verb, arg, record_undo=record_undo)
        actions += 1
    return actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", type=int, nargs="?", default=300, help="games to play")
    games: int = parser.parse_args().games
    for label, record_undo in (("with undo snapshots", True), ("simulation path", False)):
        start = time.perf_counter()
        total = sum(play(seed, record_undo) for seed in range(games))
        elapsed = time.perf_counter() - start
        print(f"{label}: {games} games in {elapsed:.2f} s: {games / elapsed:.1f} games/s")
        print(f"  {total / games:.1f} actions per game, {total / elapsed:.0f} actions/s")


if __name__ == "__main__":
    main()
