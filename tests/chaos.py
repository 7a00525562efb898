"""The chaos run (issue 25 §6): bot processes and workers on one database, killed with
SIGKILL at random and restarted, then checked.

Used by tests/test_chaos.py (bounded) and bench/bench_chaos.py (longer, with figures).
Each "bot" process is tests/chaos_player.py (the manager's background pass and the bot
seats, plus a human's scripted clicks in its share of the games); each worker is
``dispatch worker``. The kills follow a schedule drawn from a seeded generator (which
process, when), so a run can be repeated. The checks: every acknowledged click is in the
game's record (0 lost), every move of Dispatch was applied once (one bot action per job
done, the jobs read with those their games' ends and pruning deleted: ``job_history``),
every game replays from its actions to its stored state.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from job_history import job_history, keep_job_history

from bot.delivery.port import NullFrontEnd
from bot.storage.store import ActionRow, BotJobRow, Store
from bot.tables.bot_users import bot_user
from bot.tables.bots import BotSeats
from bot.tables.manager import GameManager
from bot.tables.replay import export_game, replayed_state, stored_state
from bot.tables.requests import NewGame

ROOT = Path(__file__).resolve().parents[1]
HUMAN = "alice"
BOT = bot_user("normal")


@dataclass
class Plan:
    database: str
    bots: int
    workers: int
    games: int
    seconds: float
    #: Seconds between kills (drawn around it); 0: no kills (a throughput run).
    kill_every_s: float
    seed: int = 1
    iterations: int = 8
    folder: Path = field(default_factory=lambda: Path("."))


@dataclass
class Outcome:
    acks: list[tuple[int, int, float]]
    kills: list[tuple[str, float]]
    #: Seconds from a bot process's kill to its share of the games moving again.
    recoveries: list[float]
    lost: list[str]
    twice: list[str]
    not_replaying: list[str]
    actions: int
    elapsed: float

    def figures(self) -> list[str]:
        lat = sorted(a[2] for a in self.acks)
        q = statistics.quantiles(lat, n=100) if len(lat) >= 2 else [0.0] * 99
        rec = sorted(self.recoveries)
        return [
            f"actions applied: {self.actions} in {self.elapsed:.1f} s"
            f" = {self.actions / self.elapsed:.1f} actions/s",
            f"clicks acknowledged: {len(lat)}; p50 {q[49]:.1f} ms, p99 {q[98]:.1f} ms",
            f"kills: {len(self.kills)}; a killed bot process's games moving again after"
            f" p50 {statistics.median(rec) if rec else 0:.2f} s, max {max(rec, default=0):.2f} s",
            f"lost acknowledged actions: {len(self.lost)}; bot moves applied twice:"
            f" {len(self.twice)}; games not replaying: {len(self.not_replaying)}",
        ]


def moves_not_once(actions: Sequence[ActionRow], jobs: Sequence[BotJobRow]) -> list[str]:
    """What breaks "every move of Dispatch applied once, each from its job": action
    ``seq`` is made at version ``seq - 1``; a move at a version needs that version's job
    done, except the ``done`` a move implies (recorded with it, under the same player);
    and each job done has its move at its version."""
    status = {j.version: j.status for j in jobs}
    by_seq = {a.seq: a for a in actions}
    problems = []
    for a in actions:
        if a.user_id != BOT:
            continue
        version = a.seq - 1
        before = by_seq.get(a.seq - 1)
        implied = a.verb == "done" and version not in status and before is not None
        if status.get(version) != "done" and not (implied and before.user_id == BOT):
            problems.append(f"a move at version {version} without its job done")
    for j in jobs:
        move = by_seq.get(j.version + 1)
        if j.status == "done" and (move is None or move.user_id != BOT):
            problems.append(f"job at version {j.version} done without its move")
    return problems


async def make_games(database: str, count: int) -> list[int]:
    manager = await GameManager.open(database, NullFrontEnd())
    BotSeats.attach(manager, workers="thread").nudge = lambda game_id: None  # type: ignore[method-assign]
    # Games that end drop their jobs: the check reads them all from the history.
    await keep_job_history(manager.store)
    try:
        return [
            (
                await manager.create_game(
                    "g1",
                    f"c{n}",
                    HUMAN,
                    NewGame("fort_sumter", seat="secessionist", opponent_id=BOT),
                )
            ).id
            for n in range(count)
        ]
    finally:
        await manager.close()


def _env(plan: Plan) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if plan.database.startswith("postgresql"):
        env["DISPATCH_DATABASE_URL"] = plan.database
    else:
        env["DISPATCH_DB"] = plan.database
    env["DISPATCH_WORKER_ITERATIONS"] = str(plan.iterations)
    return env


def _start(plan: Plan, name: str) -> subprocess.Popen[bytes]:
    log = open(plan.folder / f"{name}.log", "ab")  # noqa: SIM115 - handed to the child
    if name.startswith("bot"):
        index = int(name[3:])
        args = [
            sys.executable,
            str(ROOT / "tests" / "chaos_player.py"),
            plan.database,
            str(index),
            str(plan.bots),
            str(plan.folder / f"acks-{index}.txt"),
            str(plan.iterations),
        ]
    else:
        args = [sys.executable, "-m", "bot", "worker"]
    return subprocess.Popen(args, cwd=ROOT, env=_env(plan), stdout=log, stderr=log)


def _read_acks(plan: Plan) -> list[tuple[int, int, float, float]]:
    """(game, version, milliseconds, when the line was seen) of every acknowledged click."""
    found = []
    for index in range(plan.bots):
        path = plan.folder / f"acks-{index}.txt"
        if path.exists():
            for line in path.read_text().splitlines():
                parts = line.split()
                if len(parts) == 3:
                    found.append((int(parts[0]), int(parts[1]), float(parts[2]), float(index)))
    return found


def _ack_count(plan: Plan, index: int) -> int:
    path = plan.folder / f"acks-{index}.txt"
    return len(path.read_text().splitlines()) if path.exists() else 0


def run_processes(plan: Plan) -> tuple[list[tuple[str, float]], list[float], float]:
    """Run the processes for ``plan.seconds`` with the kill schedule; returns the kills,
    the recovery times of killed bot processes and the elapsed time."""
    names = [f"bot{i}" for i in range(plan.bots)] + [f"worker{i}" for i in range(plan.workers)]
    procs = {name: _start(plan, name) for name in names}
    rng = random.Random(plan.seed)
    kills: list[tuple[str, float]] = []
    recoveries: list[float] = []
    waiting: dict[int, tuple[float, int]] = {}  # bot index: (killed at, acks then)
    started = time.monotonic()
    next_kill = started + (rng.uniform(0.5, 1.5) * plan.kill_every_s if plan.kill_every_s else 1e18)
    try:
        while (now := time.monotonic()) - started < plan.seconds:
            if now >= next_kill:
                name = rng.choice(names)
                procs[name].send_signal(signal.SIGKILL)
                procs[name].wait()
                kills.append((name, now - started))
                procs[name] = _start(plan, name)
                if name.startswith("bot"):
                    waiting[int(name[3:])] = (now, _ack_count(plan, int(name[3:])))
                next_kill = now + rng.uniform(0.5, 1.5) * plan.kill_every_s
            for index, (killed_at, count) in list(waiting.items()):
                if _ack_count(plan, index) > count:
                    recoveries.append(time.monotonic() - killed_at)
                    del waiting[index]
            time.sleep(0.02)
    finally:
        for proc in procs.values():
            proc.send_signal(signal.SIGKILL)
            proc.wait()
    return kills, recoveries, time.monotonic() - started


async def check(
    plan: Plan,
    games: list[int],
    elapsed: float,
    kills: list[tuple[str, float]],
    recoveries: list[float],
) -> Outcome:
    acks = _read_acks(plan)
    store = await Store.open(plan.database)
    lost: list[str] = []
    twice: list[str] = []
    not_replaying: list[str] = []
    total = 0
    try:
        for game in games:
            async with store.read() as db:
                actions = await db.actions(game)
                row = await db.game(game)
            jobs = await job_history(store, game)
            total += len(actions)
            assert row is not None
            acked = [a for a in acks if a[0] == game]
            human = sum(1 for a in actions if a.user_id == HUMAN)
            if human < len(acked) or any(v > row.version for _, v, _, _ in acked):
                lost.append(f"game {game}: {len(acked)} acknowledged, {human} recorded")
            twice += [f"game {game}: {p}" for p in moves_not_once(actions, jobs)]
            if replayed_state(await export_game(store, game)) != await _stored(store, game):
                not_replaying.append(f"game {game}")
    finally:
        await store.close()
    return Outcome(
        acks=[(g, v, ms) for g, v, ms, _ in acks],
        kills=kills,
        recoveries=recoveries,
        lost=lost,
        twice=twice,
        not_replaying=not_replaying,
        actions=total,
        elapsed=elapsed,
    )


async def _stored(store: Store, game: int) -> object:
    import json

    text = await stored_state(store, game)
    return json.loads(text) if text is not None else None


def chaos(plan: Plan) -> Outcome:
    """Set up the games, run the processes with kills, check the four properties."""
    plan.folder.mkdir(parents=True, exist_ok=True)
    games = asyncio.run(make_games(plan.database, plan.games))
    kills, recoveries, elapsed = run_processes(plan)
    return asyncio.run(check(plan, games, elapsed, kills, recoveries))
