"""The chaos run at length, with figures (docs/deploy.md, *Measured: several processes, and
kill -9*), end to end through the loopback Discord emulator (tests/chaos.py says how a run
goes and what it checks).

    DISPATCH_TEST_POSTGRES=postgresql://user@127.0.0.1:5432/postgres \\
        python bench/bench_chaos.py [--seconds 30] [--games 30] [--kill-every 3]

1. Throughput, no kills: actions/s with 1, 2 and 3 bot processes (the real bot, one
   shard each; ``--bots``) and 2 workers on PostgreSQL, and with one bot process on
   SQLite (no workers: a SQLite file is one process's); and the CPU the bot processes
   used per action (from ``/proc``), with its rise from one bot process to two, then
   three (the players and the emulator run in this process, apart from the bots).
2. Waking the workers: 1 bot process and 2 workers on PostgreSQL with a few games (so
   the workers are idle when a move is owed), the workers only polling (every 0.5 s),
   then woken by LISTEN/NOTIFY: the time from a human's move to Dispatch's answer,
   p50/p99 (from the game records' timestamps).
3. Chaos: 3 bot processes and 2 workers on a PostgreSQL server of the run's own, a
   random one killed with SIGKILL every few seconds and restarted, PostgreSQL itself
   restarted twice mid-play and every connection dropped (``pg_terminate_backend``)
   three times: click acknowledgement p50/p99 (click to the prompt edited into the
   next), the time until a killed process's claims are taken over (at most 30 s is the
   aim) and until a killed bot process's games move again; then a settle phase and
   SIGTERM to every process under load, and the checks (0 acknowledged clicks lost, 0
   duplicate posts, each move applied once, every game replays, every game settled
   with a current prompt, every process stopped cleanly, no claim left held). Exits 1
   if a check fails.

The humans click as fast as the bot answers them (each her own game, one click at a
time), so actions/s is what the bot processes and the emulator serve to that many
players on this machine, not a ceiling of the database. ``uptime`` is printed with the
figures: the processes, the emulator and PostgreSQL share the machine's cores.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import asyncpg  # noqa: E402

from tests.chaos import Outcome, Plan, run_chaos  # noqa: E402
from tests.chaos_server import PrivateServer, private_server  # noqa: E402

#: The chaos part's faults of the database, spread evenly through its play.
FAULTS = ("drop", "restart", "drop", "restart", "drop")


async def _fresh_database(admin_url: str, name: str) -> str:
    conn = await asyncpg.connect(admin_url)
    try:
        await conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        await conn.execute(f"CREATE DATABASE {name}")
    finally:
        await conn.close()
    base, _, _ = admin_url.rstrip("/").rpartition("/")
    return f"{base}/{name}"


def _uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def plans(args: argparse.Namespace, urls: dict[str, str], folder: Path) -> list[tuple[str, Plan]]:
    games, seconds = args.games, args.seconds
    runs: list[tuple[str, Plan]] = []
    if "throughput" in args.parts:
        if args.sqlite:
            sqlite = Plan(str(folder / "s.sqlite3"), 1, 0, games, seconds, 0)
            runs.append(("throughput: SQLite, 1 bot process", sqlite))
        for bots in args.bots:
            plan = Plan(urls[f"tp{bots}"], bots, 2, games, seconds, 0)
            plan.background_s = args.background
            runs.append((f"throughput: PostgreSQL, {bots} bot process(es) + 2 workers", plan))
    if "wake" in args.parts:
        for listen in (False, True):
            how = "woken by LISTEN/NOTIFY" if listen else "polling every 0.5 s"
            plan = Plan(urls[f"wake{int(listen)}"], 1, 2, args.wake_games, seconds, 0)
            plan.listen = listen
            runs.append((f"wake: PostgreSQL, 1 bot process + 2 workers {how}", plan))
    return runs


def chaos_plan(args: argparse.Namespace, server: PrivateServer) -> Plan:
    plan = Plan(server.url, 3, 2, args.games, 2 * args.seconds, args.kill_every, seed=args.seed)
    plan.faults, plan.server, plan.settle_s = FAULTS, server, 60.0
    return plan


async def bench(args: argparse.Namespace, admin: str) -> int:
    folder = Path(tempfile.mkdtemp(prefix="dispatch-chaos-"))
    names = ["tp1", "tp2", "tp3", "wake0", "wake1"]
    urls = {name: await _fresh_database(admin, f"dispatch_chaos_{name}") for name in names}
    runs = plans(args, urls, folder)
    failed = False
    per_action: dict[int, float] = {}
    per_human: dict[int, float] = {}
    for n, (title, plan) in enumerate(runs):
        plan.folder = folder / f"run{n}"
        outcome = await _run(title, plan)
        failed |= bool(outcome.failures)
        if title.startswith("throughput: PostgreSQL") and outcome.actions:
            per_action[plan.bots] = outcome.bot_cpu_s / outcome.actions
            per_human[plan.bots] = outcome.bot_cpu_s / max(1, outcome.human_actions)
    for bots, cpu in sorted(per_action.items()):
        if bots > 1 and 1 in per_action:
            rise = 100 * (cpu / per_action[1] - 1)
            human = 100 * (per_human[bots] / per_human[1] - 1)
            print(
                f"bot CPU per action, {bots} bot processes against 1: {rise:+.0f}%"
                f" (per human move: {human:+.0f}%)"
            )
    if "chaos" in args.parts:
        with private_server() as server:
            if server is None:
                print("chaos: skipped, no PostgreSQL server programs here (initdb, pg_ctl)")
            else:
                plan = chaos_plan(args, server)
                plan.folder = folder / "chaos"
                title = "chaos: 3 bot processes + 2 workers, kill -9, PostgreSQL restarts"
                failed |= bool((await _run(title, plan)).failures)
    print(f"logs in {folder}")
    return 1 if failed else 0


async def _run(title: str, plan: Plan) -> Outcome:
    print(f"== {title}  [{_uptime()}]", flush=True)
    outcome = await run_chaos(plan)
    for line in outcome.figures():
        print(f"   {line}", flush=True)
    for problem in outcome.failures[:10]:
        print(f"   !! {problem}", flush=True)
    return outcome


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--kill-every", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--wake-games", type=int, default=3, help="games in the wake runs (workers often idle)"
    )
    parser.add_argument(
        "--parts", default="throughput,wake,chaos", help="which runs: throughput,wake,chaos"
    )
    parser.add_argument(
        "--bots", default="1,2,3", help="bot processes of the PostgreSQL throughput runs"
    )
    parser.add_argument(
        "--background",
        type=float,
        default=1.0,
        help="seconds between the bot processes' background passes (throughput runs)",
    )
    parser.add_argument(
        "--no-sqlite", dest="sqlite", action="store_false", help="no SQLite throughput run"
    )
    args = parser.parse_args()
    args.bots = [int(n) for n in args.bots.split(",")]
    admin = os.environ.get("DISPATCH_TEST_POSTGRES")
    if not admin:
        print("set DISPATCH_TEST_POSTGRES to a postgresql:// URL whose user may create databases")
        return 2
    return asyncio.run(bench(args, admin))


if __name__ == "__main__":
    sys.exit(main())
