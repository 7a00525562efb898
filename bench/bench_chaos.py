"""The chaos run at length, with figures (issue 25 §6).

    DISPATCH_TEST_POSTGRES=postgresql://user@127.0.0.1:5432/postgres \\
        python bench/bench_chaos.py [--seconds 120] [--games 200] [--kill-every 3]

1. Throughput, no kills: actions/s with 1, 2 and 3 bot processes (and 2 workers) on
   PostgreSQL, and with one process on SQLite (no workers: a SQLite file is one
   process's).
2. Chaos: 3 bot processes and 2 workers on PostgreSQL, a random one killed with SIGKILL
   every few seconds and restarted: click acknowledgement p50/p99, the time until a
   killed bot process's games move again, and the checks (0 acknowledged clicks lost,
   each bot move applied once, every game replays).

Each bot process is tests/chaos_player.py: the manager's background pass, Dispatch's
seats, and a human's scripted greedy clicks in its share of the games (no Discord: the
front end delivers nothing, so posts are not counted here; tests/test_delivery_nonce.py
and tests/test_discord_crash.py hold deliveries to exactly once).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import asyncpg  # noqa: E402
from chaos import Plan, chaos  # noqa: E402


async def _fresh_database(admin_url: str, name: str) -> str:
    conn = await asyncpg.connect(admin_url)
    try:
        await conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        await conn.execute(f"CREATE DATABASE {name}")
    finally:
        await conn.close()
    base, _, _ = admin_url.rstrip("/").rpartition("/")
    return f"{base}/{name}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--kill-every", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    admin = os.environ.get("DISPATCH_TEST_POSTGRES")
    if not admin:
        print("set DISPATCH_TEST_POSTGRES to a postgresql:// URL whose user may create databases")
        return 2
    folder = Path(tempfile.mkdtemp(prefix="dispatch-chaos-"))
    runs: list[tuple[str, Plan]] = [
        (
            "SQLite, 1 process",
            Plan(str(folder / "s.sqlite3"), 1, 0, args.games, args.seconds / 2, 0),
        ),
    ]
    for bots in (1, 2, 3):
        url = asyncio.run(_fresh_database(admin, f"dispatch_chaos_tp{bots}"))
        runs.append(
            (
                f"PostgreSQL, {bots} bot process(es) + 2 workers",
                Plan(url, bots, 2, args.games, args.seconds / 2, 0),
            )
        )
    url = asyncio.run(_fresh_database(admin, "dispatch_chaos_kill"))
    chaos_plan = Plan(url, 3, 2, args.games, args.seconds, args.kill_every, seed=args.seed)
    runs.append(("chaos: 3 bot processes + 2 workers, kill -9 at random", chaos_plan))
    failed = False
    for title, plan in runs:
        plan.folder = folder / title.split(",")[0].split(":")[0].replace(" ", "_") / str(plan.bots)
        outcome = chaos(plan)
        print(f"== {title}")
        for line in outcome.figures():
            print(f"   {line}")
        failed |= bool(outcome.lost or outcome.twice or outcome.not_replaying)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
