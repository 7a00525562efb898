"""Lincoln: full random games per second, and average actions per game.

Run: .venv/bin/python bench/bench_lincoln.py [games]   (default 3,000)
Each game is played with uniformly random legal actions (never undo) on the simulation
path (``act(..., record_undo=False)``), from set-up to an ending; every game must end.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.lincoln import GAME


def play(seed: int) -> tuple[int, str]:
    chooser = random.Random(seed)
    state = GAME.setup(seed=seed)
    actions = 0
    while GAME.outcome(state) is None:
        role = GAME.active_roles(state)[0]
        legal = GAME.legal_actions(state, role)
        verb = chooser.choice(sorted(v for v in legal if v != "undo"))
        args = legal[verb]
        arg = None if isinstance(args, bool) else chooser.choice(args)
        state = GAME.act(state, role, verb, arg, record_undo=False)
        actions += 1
        if actions > 20_000:
            raise SystemExit(f"seed {seed} did not end")
    outcome = GAME.outcome(state)
    assert outcome is not None
    return actions, f"{outcome['winner']}/{outcome['code']}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", type=int, nargs="?", default=3000, help="games to play")
    games: int = parser.parse_args().games
    start = time.perf_counter()
    total = 0
    endings: Counter[str] = Counter()
    for seed in range(games):
        actions, ending = play(seed)
        total += actions
        endings[ending] += 1
    elapsed = time.perf_counter() - start
    print(f"{games} random games in {elapsed:.1f} s: {games / elapsed:.1f} games/s, all ended")
    print(f"  {total / games:.1f} actions per game, {total / elapsed:.0f} actions/s")
    for ending, count in endings.most_common():
        print(f"  {ending}: {count}")


if __name__ == "__main__":
    main()
