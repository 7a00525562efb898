"""A turn on PostgreSQL: round trips and time of ``act()``, this tree against a git ref.

    DISPATCH_TEST_POSTGRES=postgresql://... .venv/bin/python bench/bench_turn_round_trips.py
        [--acts 60] [--rounds 4] [--compare REF]

Each side plays ``--acts`` random legal moves (seeded) of War between two players through
``GameManager.act(..., deliver=False)`` on a fresh database of the server, in a child
process (``--worker``) that imports the side's own ``bot``. Round trips are counted at
asyncpg's connection (every ``execute``, ``fetch``, ``fetchrow`` and ``fetchval``, and
each BEGIN, COMMIT and ROLLBACK): whatever waits for the server's answer, on either
side's code, the pool's reset of a connection given back included. The deliveries
after each move are made apart and not counted.

``--compare REF`` checks the ref out into a temporary ``git worktree`` (removed at the
end) and runs both sides in every round, alternating which goes first; each round's
ratio of median act() times (the ref's over this tree's) is paired, and the table gives
the median and range of the rounds. The load is printed before and after.

Not a test: it asserts nothing and prints figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

SEATS = ("alice", "bob")


def count_round_trips(tally: list[int]) -> None:
    """Count every call that waits for the server, on any asyncpg connection."""
    import asyncpg

    def counted(method: Any) -> Any:
        async def call(*args: Any, **kwargs: Any) -> Any:
            tally[0] += 1
            return await method(*args, **kwargs)

        return call

    connection = asyncpg.connection.Connection
    for name in ("execute", "fetch", "fetchrow", "fetchval"):
        setattr(connection, name, counted(getattr(connection, name)))
    transaction = asyncpg.transaction.Transaction
    for name in ("start", "commit", "rollback"):
        setattr(transaction, name, counted(getattr(transaction, name)))


async def play(url: str, acts: int, seed: int) -> dict[str, Any]:
    import asyncpg

    from bot.delivery.port import NullFrontEnd
    from bot.tables.manager import GameManager
    from bot.tables.requests import Move, NewGame

    name = f"bench_turns_{os.getpid()}_{secrets.token_hex(3)}"
    base = url.rstrip("/").rpartition("/")[0]
    admin = await asyncpg.connect(url)
    await admin.execute(f"CREATE DATABASE {name}")
    tally = [0]
    count_round_trips(tally)
    trips: list[int] = []
    times: list[float] = []
    rng = random.Random(seed)
    manager = await GameManager.open(f"{base}/{name}", NullFrontEnd())
    try:
        info = await manager.create_game(
            "g", "c", SEATS[0], NewGame("war", seed=seed, opponent_id=SEATS[1])
        )
        while len(trips) < acts:
            current = await manager.get_game_info(info.id)
            if current.status != "active":
                info = await manager.create_game(
                    "g", f"c{len(trips)}", SEATS[0], NewGame("war", opponent_id=SEATS[1])
                )
                continue
            role = rng.choice(current.active_roles)
            seat = current.seat_of(role)
            assert seat is not None
            pv = await manager.view_for(info.id, seat.user_id, role=role)
            choices = [
                (verb, arg)
                for verb, args in pv.view["actions"].items()
                if verb != "undo"
                for arg in (args if isinstance(args, list) else [None])
            ]
            verb, arg = rng.choice(choices)
            before, started = tally[0], time.perf_counter()
            move = Move(verb, arg, pv.version, role=role)
            await manager.act(info.id, seat.user_id, move, deliver=False)
            times.append((time.perf_counter() - started) * 1000)
            trips.append(tally[0] - before)
            await manager.deliver_due(info.id)
    finally:
        await manager.close()
        await admin.execute(f"DROP DATABASE {name} WITH (FORCE)")
        await admin.close()
    return {
        "trips": trips,
        "ms": times,
        "root": str(Path(sys.modules["bot"].__file__ or "").parents[1]),
    }


def measure(root: Path, url: str, acts: int, seed: int) -> dict[str, Any]:
    env = dict(os.environ, PYTHONPATH=str(root), PYTHONHASHSEED="0")
    command = [sys.executable, str(Path(__file__).resolve()), "--worker", url]
    command += ["--acts", str(acts), "--seed", str(seed)]
    out = subprocess.run(
        command, cwd=root, env=env, check=True, capture_output=True, text=True
    ).stdout
    answer: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    if Path(answer["root"]).resolve() != root.resolve():
        raise SystemExit(f"the worker for {root} imported bot from {answer['root']}")
    return answer


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.1f} (5 min {five:.1f})"


def report(sides: dict[str, Path], url: str, acts: int, rounds: int) -> None:
    named = ", ".join(f"{k}={v}" for k, v in sides.items())
    print(f"{acts} moves of War a round, {rounds} rounds; sides: {named}")
    print(f"before: {load()}")
    runs: dict[str, list[dict[str, Any]]] = {side: [] for side in sides}
    for round_ in range(rounds):
        order = list(sides) if round_ % 2 == 0 else list(reversed(sides))
        for side in order:
            runs[side].append(measure(sides[side], url, acts, seed=round_ + 1))
    for side in sides:
        trips = [t for run in runs[side] for t in run["trips"]]
        ms = [m for run in runs[side] for m in run["ms"]]
        print(
            f"{side:>4}: round trips an act() median {statistics.median(trips):.0f},"
            f" mean {statistics.mean(trips):.1f}, range {min(trips)}-{max(trips)};"
            f" act() median {statistics.median(ms):.1f} ms"
        )
    if len(sides) == 2:
        ratios = [
            statistics.median(r["ms"]) / statistics.median(n["ms"])
            for r, n in zip(runs["ref"], runs["now"], strict=True)
        ]
        print(
            "act() time ref/now per round: "
            + ", ".join(f"{r:.2f}" for r in ratios)
            + f"; median {statistics.median(ratios):.2f}, range {min(ratios):.2f}-{max(ratios):.2f}"
        )
    print(f"after: {load()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--acts", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--compare", help="a git ref to measure side by side")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.worker:
        print(json.dumps(asyncio.run(play(options.worker, options.acts, options.seed))))
        return
    url = os.environ.get("DISPATCH_TEST_POSTGRES")
    if not url:
        raise SystemExit(
            "set DISPATCH_TEST_POSTGRES=postgresql://... (a user that may create databases)"
        )
    # Only here, in the parent: a worker must import the rules of its own side alone.
    sys.path.insert(0, str(ROOT))
    from bench.sides import compared_sides

    with compared_sides(options.compare, "turn-trips-") as sides:
        report(sides, url, options.acts, options.rounds)


if __name__ == "__main__":
    main()
