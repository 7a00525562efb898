"""Pairing a big Swiss: the time to pair one round of ``--players`` players.

    .venv/bin/python bench/bench_leagues.py [--players 1000] [--rounds 7] [--seed 1]

Plays a Swiss of ``--rounds`` rounds with random results (a fixed seed: wins, draws and
now and then a forfeit), timing ``swiss_round`` for each round after the first, since the
first round has no history to weigh, and prints each time, the median and the worst. The
target is one second for a 1,000-player round (docs/leagues.md).

Not a test: it asserts nothing and prints figures.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.tables.leagues.entrants import Bye, Entrant, Outcome, Result  # noqa: E402
from bot.tables.leagues.swiss import swiss_round  # noqa: E402

OUTCOMES = [Outcome.FIRST_WINS] * 9 + [Outcome.SECOND_WINS] * 9 + [Outcome.DRAW] * 2
OUTCOMES += [Outcome.FIRST_FORFEITS]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    deal = random.Random(args.seed)
    entrants = [Entrant(f"p{i:05d}", deal.gauss(1500, 200)) for i in range(args.players)]
    results: list[Result] = []
    byes: list[Bye] = []
    times: list[float] = []
    for number in range(1, args.rounds + 1):
        started = time.perf_counter()
        paired = swiss_round(entrants, results, byes, number)
        took = time.perf_counter() - started
        if number > 1:
            times.append(took)
        print(f"round {number}: {len(paired.pairings)} games paired in {took * 1000:.0f} ms")
        results += [Result(p, deal.choice(OUTCOMES)) for p in paired.pairings]
        byes += paired.bye_records()
    print(
        f"{args.players} players, rounds 2-{args.rounds}: "
        f"median {statistics.median(times) * 1000:.0f} ms, worst {max(times) * 1000:.0f} ms"
    )


if __name__ == "__main__":
    main()
