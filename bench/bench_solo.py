"""CDG Solo System benchmark: how fast the engine answers, and how big a session grows.

    .venv/bin/python bench/bench_solo.py [--actions 2000] [--seeds 3]

For each playsheet, plays uniformly random legal actions (never "end") and prints the
median and p99 time of one ``act`` in microseconds, the Fate Die rounds played, and the
size of the state as JSON at the end (it grows with the log and the card library).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.solo import GAME
from rules.solo.sheets import SHEETS


def moves(state: dict) -> list[tuple[str, object]]:  # type: ignore[type-arg]
    out: list[tuple[str, object]] = []
    for verb, args in GAME.view(state, "solo")["actions"].items():
        if verb == "end":
            continue
        out += [(verb, None)] if args is True else [(verb, a) for a in args]
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--actions", type=int, default=2000)
    parser.add_argument("--seeds", type=int, default=3)
    args = parser.parse_args()
    print(f"{'playsheet':20} {'median us':>10} {'p99 us':>8} {'rolls':>6} {'state KB':>9}")
    for name in SHEETS:
        times: list[float] = []
        rolls = 0
        size = 0
        for seed in range(args.seeds):
            chooser = random.Random(seed)
            state = GAME.setup(seed=seed, options={"playsheet": name})
            for _ in range(args.actions):
                verb, arg = chooser.choice(moves(state))
                start = time.perf_counter()
                state = GAME.act(state, "solo", verb, arg)
                times.append(time.perf_counter() - start)
                rolls += verb == "roll"
            size = max(size, len(json.dumps(state)))
        times.sort()
        median = statistics.median(times) * 1e6
        p99 = times[int(len(times) * 0.99)] * 1e6
        print(f"{name:20} {median:10.0f} {p99:8.0f} {rolls:6d} {size / 1024:9.1f}")


if __name__ == "__main__":
    main()
