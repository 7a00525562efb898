"""The chaos run: Dispatch's bot processes and workers on one database,
end to end through the loopback Discord emulator, killed with SIGKILL at random and
restarted, then checked.

Used by tests/chaos/test_chaos.py (bounded) and bench/bench_chaos.py (longer, with figures).
The emulator runs in this process. Each bot process is the real bot
(tests/chaos_bot.py: ``create_bot`` on its own shard of ``plan.bots``, one guild per
shard); each worker is ``python -m bot worker``. A guild holds a share of the games,
one human member each, against Dispatch (Fort Sumter, Dispatch at level easy). The
humans click as players do: **My prompt** on the game's table post (a guild
interaction, so it reaches that guild's shard), then a button or a select of the
ephemeral prompt the bot answers with, and on, while that prompt still asks something.

The kills follow a schedule drawn from a seeded generator (which process, when; the
first kills go round the kinds, so every kind is killed), and each killed process is
started again at once: a bot process reconnects to the emulator on its shard. Discord
sends an interaction to a dead shard nowhere; the human clicks again later.

The checks, over what the emulator saw and what the database holds:

- **0 acknowledged clicks lost.** A click is acknowledged when the bot turned the
  clicked prompt into the next one (the deferred update completed by an edit, or the
  "your move was made" followup): the player saw the move taken. A bare deferral is
  not an acknowledgement (it is sent before the move is saved, so a kill may follow
  it; the player is then told nothing and clicks again). Every acknowledged click's
  move is in the game's record: an action of that player, with the clicked verb, made
  at or after the clicked version.
- **0 duplicate posts.** Every message the bot posted (not an answer to an
  interaction) carries the nonce of a row of the outbox; two messages for one row are
  that row delivered twice.
- **Each bot move applied once:** every move of Dispatch is its job's, and every job
  done has its move (jobs seen during the run count too: a finished game's job rows
  may be gone by the end).
- **Every game replays** from its actions to its stored state.
- **Each human move applied once:** no player has more moves recorded than her clicks.
- **A killed process's claims are taken over**: the seconds from its kill until no row
  of open work is claimed under its names (``takeovers``), for each kill that left some.

With ``Plan.faults`` the database fails too (``chaos_faults``): PostgreSQL restarted
(``chaos_server``, a server of the run's own) and every connection dropped with
``pg_terminate_backend``. With ``Plan.settle_s`` the play is followed by a settle phase
(no clicks, no faults, no kills): every post delivered, no game flagged damaged, no
game where Dispatch still owes a move, no process ended by itself, and every live
game's **My prompt** answering with a prompt. Then the humans click again and every
process gets SIGTERM: each must stop cleanly (exit 0), leaving no claim held.

The CPU the bot processes and the workers used during the play is read from ``/proc``
(``Outcome.bot_cpu_s``), for CPU per action.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import random
import signal
import sqlite3
import statistics
import sys
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import aiosqlite
import asyncpg

from bot.delivery.outbox import delivery_nonce
from bot.discord_app.custom_ids import parse, prompt_id
from bot.discord_app.interactions import APPLIED_NOT_SHOWN
from bot.process.lifecycle import STOP_TIMEOUT_S
from bot.storage.engines import PgConnection, is_postgres_url
from bot.storage.errors import StoreError
from bot.storage.liveness import SILENT_AFTER_S
from bot.storage.rows import ActionRow, BotJobRow
from bot.storage.session import Session
from bot.storage.store import Store
from bot.tables.bot_users import is_bot
from bot.tables.records.replay import export_game, replayed_state, stored_state
from tests.discord_helpers import choices_of, pick
from tests.emulator import Emulator, Message, User
from tests.emulator.state import Channel, Interaction

# The runner imports these by bare name (tests/ is on sys.path: conftest.py, bench_chaos.py);
# mypy names every file from the repository root (pyproject's [tool.mypy]).
if TYPE_CHECKING:
    from tests.chaos_faults import (
        Rows,
        beats_of,
        claims_of,
        cpu_seconds,
        drop_connections,
        held_claims,
        unsettled,
    )
    from tests.job_history import job_history, keep_job_history
else:
    from chaos_faults import (
        Rows,
        beats_of,
        claims_of,
        cpu_seconds,
        drop_connections,
        held_claims,
        unsettled,
    )
    from job_history import job_history, keep_job_history

ROOT = Path(__file__).resolve().parents[1]
BOT_PROCESS = ROOT / "tests" / "chaos_bot.py"
#: Discord fails an interaction that is not answered within 3 s.
CALLBACK_S = 3.0
#: How long a human waits for the deferred answer to be completed before clicking again.
ANSWER_S = 5.0
#: A fresh interpreter importing discord.py, on a loaded machine.
START_S = 60.0


@dataclass
class Plan:
    database: str
    bots: int
    workers: int
    games: int
    #: Seconds of play (after the games are set up).
    seconds: float
    #: Seconds between kills (drawn around it); 0: no kills (a throughput run).
    kill_every_s: float
    seed: int = 1
    #: Every search's budget, in the workers and the bot processes alike.
    iterations: int = 8
    folder: Path = field(default_factory=lambda: Path("."))
    #: Workers woken by PostgreSQL's LISTEN/NOTIFY (False: they only poll).
    listen: bool = True
    #: The least a run must see before it ends (acknowledged clicks, kills, a click
    #: acknowledged after the first kill): past ``seconds`` it plays on until it has, so
    #: a busy machine makes a run longer, never its outcome different (at most
    #: ``PATIENCE`` times ``seconds``).
    min_acks: int = 0
    min_kills: int = 0
    #: The database's faults, at even times through the play (``chaos_faults``):
    #: "restart" (needs ``server``) and "drop".
    faults: tuple[str, ...] = ()
    #: Seconds between the bot processes' background passes.
    background_s: float = 1.0
    #: The run's own PostgreSQL server (``chaos_server.PrivateServer``), to restart.
    server: Any = None
    #: Seconds the settle phase may wait for the games to settle; 0: no settle phase
    #: and no stop by SIGTERM (every process is killed at the end).
    settle_s: float = 0.0


@dataclass
class Seat:
    """One human and her game: the guild's shard, the game's thread."""

    user: User
    table: Channel
    shard: int
    thread: int | None = None
    game: int | None = None
    prompt: Message | None = None


@dataclass
class Outcome:
    #: Milliseconds from each acknowledged click to the prompt's edit.
    acks: list[float]
    #: Milliseconds from each click to the bot's first answer (the deferral).
    deferrals: list[float]
    #: Milliseconds from each human move to Dispatch's answer (from the record).
    answers: list[float]
    kills: list[tuple[str, float]]
    #: Seconds from a bot process's kill to its shard's games moving again.
    recoveries: list[float]
    lost: list[str]
    duplicates: list[str]
    twice: list[str]
    not_replaying: list[str]
    posts: int
    actions: int
    elapsed: float
    #: Seconds from a bot process's kill to its restart being connected again.
    reconnects: list[float] = field(default_factory=list)
    #: Seconds into the play of each acknowledged click.
    acked_at: list[float] = field(default_factory=list)
    #: Seconds to start the processes (all connected), and the games too, before play.
    connected_s: float = 0.0
    setup_s: float = 0.0
    #: Seconds from the kill of a process holding claims to none of them held.
    takeovers: list[float] = field(default_factory=list)
    #: Killed processes whose claims were still held when the run ended.
    not_taken_over: list[str] = field(default_factory=list)
    #: Each fault of the database and when (seconds into the play).
    faults: list[tuple[str, float]] = field(default_factory=list)
    #: Human moves recorded beyond the clicks that asked for them (applied twice).
    applied_twice: list[str] = field(default_factory=list)
    #: After the settle phase: posts not delivered, games damaged or stuck, processes
    #: that ended by themselves.
    unsettled: list[str] = field(default_factory=list)
    #: After SIGTERM to every process under load: a process that did not stop cleanly,
    #: a claim still held by a stopped process.
    unclean_stops: list[str] = field(default_factory=list)
    held_after_stop: list[str] = field(default_factory=list)
    #: CPU seconds the bot processes, and the workers, used during the play (of the
    #: processes alive at its end: a killed one's are not counted).
    bot_cpu_s: float = 0.0
    worker_cpu_s: float = 0.0
    #: Of ``actions``, the humans' (the rest are Dispatch's): the bot processes do far
    #: more for a human's move (the click, its prompts' pictures) than for Dispatch's.
    human_actions: int = 0
    #: The bot's posts that uploaded a board picture (one unchanged since the table's
    #: previous post links to it instead).
    board_uploads: int = 0

    def figures(self) -> list[str]:
        rec = sorted(self.recoveries)
        return [
            f"set-up: processes connected after {self.connected_s:.1f} s,"
            f" games begun after {self.setup_s:.1f} s",
            f"actions applied: {self.actions} in {self.elapsed:.1f} s"
            f" = {self.actions / self.elapsed:.1f} actions/s",
            f"clicks acknowledged: {len(self.acks)}; prompt edited after {_quantiles(self.acks)}"
            f"; deferred after {_quantiles(self.deferrals)}",
            f"Dispatch's answer to a human move: {_quantiles(self.answers)}",
            f"kills: {len(self.kills)} ({self._kinds()}); a killed bot process back on the"
            f" gateway after {_seconds(self.reconnects)}, its games moving again after"
            f" {_seconds(rec)}",
            f"posts by the bot: {self.posts} ({self.board_uploads} uploading a board);"
            f" duplicate posts: {len(self.duplicates)}",
            f"lost acknowledged clicks: {len(self.lost)}; bot moves not applied once:"
            f" {len(self.twice)}; games not replaying: {len(self.not_replaying)}",
            f"a killed process's claims taken over after {_seconds(self.takeovers)}"
            f" ({len(self.takeovers)} kills left claims; {len(self.not_taken_over)} still held"
            " at the end)",
            f"CPU during the play: bot processes {self.bot_cpu_s:.1f} s"
            f" = {self._per_action(self.bot_cpu_s)} per action"
            f" ({self._per_human_action(self.bot_cpu_s)} per human move, of"
            f" {self.human_actions}); workers"
            f" {self.worker_cpu_s:.1f} s = {self._per_action(self.worker_cpu_s)} per action",
            f"database faults: {self._faults()}; human moves applied twice:"
            f" {len(self.applied_twice)}; unsettled after the settle phase:"
            f" {len(self.unsettled)}; unclean stops: {len(self.unclean_stops)};"
            f" claims held by stopped processes: {len(self.held_after_stop)}",
        ]

    def _per_action(self, cpu_s: float) -> str:
        return f"{1000 * cpu_s / self.actions:.0f} ms" if self.actions and cpu_s else "n/a"

    def _per_human_action(self, cpu_s: float) -> str:
        if not (self.human_actions and cpu_s):
            return "n/a"
        return f"{1000 * cpu_s / self.human_actions:.0f} ms"

    def _faults(self) -> str:
        return ", ".join(f"{kind} at {at:.1f} s" for kind, at in self.faults) or "none"

    def _kinds(self) -> str:
        bots = sum(1 for name, _ in self.kills if name.startswith("bot"))
        return f"{bots} bot processes, {len(self.kills) - bots} workers"

    @property
    def failures(self) -> list[str]:
        return (
            self.lost
            + self.duplicates
            + self.twice
            + self.not_replaying
            + self.applied_twice
            + self.unsettled
            + self.unclean_stops
            + self.held_after_stop
        )


def _seconds(values: Sequence[float]) -> str:
    if not values:
        return "n/a"
    return f"p50 {statistics.median(values):.1f} s, max {max(values):.1f} s"


def _quantiles(values: Sequence[float]) -> str:
    if len(values) < 2:
        return "n/a"
    q = statistics.quantiles(values, n=100)
    return f"p50 {q[49]:.0f} ms, p99 {q[98]:.0f} ms"


# ------------------------------------------------------------------ the checks


def moves_not_once(actions: Sequence[ActionRow], jobs: Sequence[BotJobRow]) -> list[str]:
    """:func:`moves_not_once_by_status` over one game's job rows."""
    return moves_not_once_by_status(actions, {j.version: j.status for j in jobs})


def moves_not_once_by_status(
    actions: Sequence[ActionRow],
    status: dict[int, str],
    read_at: Callable[[int], str] | None = None,
) -> list[str]:
    """What breaks "every move of Dispatch applied once, each from its job", given each
    job's status by version: action ``seq`` is made at version ``seq - 1``; a move at a
    version needs that version's job done, except the ``done`` a move implies (recorded
    with it, under the same player); and each job done has its move at its version.
    ``read_at`` adds what was read at a version to each problem found there."""
    by_seq = {a.seq: a for a in actions}
    problems: list[tuple[int, str]] = []
    for a in actions:
        if not is_bot(a.user_id):
            continue
        version = a.seq - 1
        before = by_seq.get(a.seq - 1)
        implied = (
            a.verb == "done"
            and version not in status
            and before is not None
            and is_bot(before.user_id)
        )
        if status.get(version) != "done" and not implied:
            problems.append((version, f"a move at version {version} without its job done"))
    for version, state in status.items():
        move = by_seq.get(version + 1)
        if state == "done" and (move is None or not is_bot(move.user_id)):
            problems.append((version, f"job at version {version} done without its move"))
    if read_at is None:
        return [text for _, text in problems]
    return [f"{text} ({read_at(version)})" for version, text in problems]


def acknowledged(emu: Emulator, record: Interaction) -> bool:
    """The bot showed the player her move taken: the clicked prompt edited into the
    next, or told her the move was made when that edit failed."""
    if record.type != 3 or not parse_action(record):
        return False
    told = any(APPLIED_NOT_SHOWN in emu.message(m).content for m in record.followup_ids if m)
    return record.edits > 0 or told


def parse_action(record: Interaction) -> tuple[int, int, str] | None:
    """(game, version, verb) of a click on an action button or select."""
    custom_id = str(record.payload.get("data", {}).get("custom_id", ""))
    try:
        parsed = parse(custom_id)
    except ValueError:
        return None
    if parsed.kind not in ("action", "select"):
        return None
    return parsed.game_id, int(parsed.version or 0), str(parsed.verb)


def lost_clicks(
    emu: Emulator, records: Sequence[Interaction], actions: dict[int, list[ActionRow]]
) -> list[str]:
    lost = []
    for record in records:
        if not acknowledged(emu, record):
            continue
        action = parse_action(record)
        assert action is not None
        game, version, verb = action
        user = str(record.user.id)
        mine = [a for a in actions.get(game, []) if a.user_id == user]
        if not any(a.verb == verb and a.seq > version for a in mine):
            lost.append(f"game {game}: {verb} at version {version} acknowledged, not recorded")
    for game, rows in actions.items():
        acked = [r for r in records if acknowledged(emu, r) and parse_action(r)[0] == game]  # type: ignore[index]
        humans = {str(r.user.id) for r in acked}
        made = sum(1 for a in rows if a.user_id in humans)
        if made < len(acked):
            lost.append(f"game {game}: {len(acked)} clicks acknowledged, {made} moves recorded")
    return lost


def moves_beyond_clicks(
    records: Sequence[Interaction], actions: dict[int, list[ActionRow]]
) -> list[str]:
    """Each human's moves recorded beyond her clicks on action buttons and selects: a
    move applied twice (a click retried by Discord, or redelivered after a dropped
    connection, must not be). One click may record several rows under its player, all in
    its one transaction and so at one time (``at``): the ``done`` it implies, the forced
    choices taken for her after it, a select's several picks. A move is therefore a
    transaction's rows of one player, counted once."""
    clicks: dict[tuple[int, str], int] = {}
    for record in records:
        action = parse_action(record)
        if record.type == 3 and action is not None:
            key = (action[0], str(record.user.id))
            clicks[key] = clicks.get(key, 0) + 1
    problems = []
    for game, rows in actions.items():
        made: dict[str, set[float]] = {}
        for a in rows:
            if not is_bot(a.user_id):
                made.setdefault(a.user_id, set()).add(a.at)
        for user, moments in made.items():
            if len(moments) > clicks.get((game, user), 0):
                problems.append(
                    f"game {game}: {len(moments)} moves recorded for "
                    f"{clicks.get((game, user), 0)} clicks"
                )
    return problems


def duplicate_posts(emu: Emulator, outbox: dict[str, int]) -> tuple[int, list[str]]:
    """The bot's own posts (not answers to interactions), and the problems among them:
    a post whose nonce is no outbox row's (``outbox``: each row's nonce to its id), and
    two posts for one row."""
    posts = [
        m
        for m in emu.world.messages.values()
        if m.author.id == emu.bot_user.id and m.interaction_id is None and m.webhook_id is None
    ]
    problems = []
    per_row: dict[int, int] = {}
    for m in posts:
        row = outbox.get(str(m.nonce)) if m.nonce else None
        if row is None:
            problems.append(f"message {m.id} has no outbox row's nonce ({m.nonce!r})")
        else:
            per_row[row] = per_row.get(row, 0) + 1
    problems += [f"outbox row {r}: {count} messages" for r, count in per_row.items() if count > 1]
    problems += [
        f"a create without its nonce enforced: {c}"
        for c in emu.message_creates
        if not c.enforce_nonce
    ]
    return len(posts), problems


# ------------------------------------------------------------------ the database


#: How many times a read is asked again through the database's faults (0.2 s apart).
READ_ATTEMPTS = 300


class Reader:
    """Reads the shared database while the processes run, on a connection of its own:
    PostgreSQL's, or the SQLite file's (held by its one bot process) read-only."""

    def __init__(self, database: str) -> None:
        self.database = database
        self._pg: asyncpg.Connection | None = None
        self._db: aiosqlite.Connection | None = None
        # One read at a time: a connection serves one statement at once (asyncpg refuses
        # a second, and the first read's retry would end the other's connection).
        self._lock = asyncio.Lock()

    async def open(self) -> None:
        if is_postgres_url(self.database):
            self._pg = await asyncpg.connect(self.database)
        else:
            self._db = await aiosqlite.connect(f"file:{self.database}?mode=ro", uri=True)
            self._db.row_factory = aiosqlite.Row

    async def close(self) -> None:
        if self._pg is not None:
            self._pg.terminate()  # a read cancelled midway must not hold the close up
        if self._db is not None:
            await self._db.close()

    @contextlib.asynccontextmanager
    async def session(self) -> AsyncIterator[Session]:
        if self._pg is not None:
            yield Session(PgConnection(self._pg), time.time())
            return
        assert self._db is not None
        yield Session(self._db, time.time())

    async def rows(self, sql: str) -> list[Any]:
        """The rows of ``sql``; on PostgreSQL through the database's faults (a restart, a
        dropped connection): connected again and asked again until it answers."""
        async with self._lock:
            return await self._rows(sql)

    async def _rows(self, sql: str) -> list[Any]:
        for attempt in itertools.count():
            try:
                async with self.session() as db:
                    return list(await db.db.execute_fetchall(sql, ()))
            except (StoreError, sqlite3.OperationalError, asyncpg.PostgresError, OSError):
                # The store's own errors since PgConnection speaks them (Unavailable for a
                # connection the restart closed); the driver's for the SQLite reader.
                if self._pg is None or attempt >= READ_ATTEMPTS:
                    raise
            self._pg.terminate()
            await asyncio.sleep(0.2)
            with contextlib.suppress(OSError, asyncpg.PostgresError):
                self._pg = await asyncpg.connect(self.database)
        raise AssertionError("unreachable")


# ------------------------------------------------------------------ the processes


class Processes:
    """The bot processes (``bot0``...) and workers (``worker0``...), started, killed with
    SIGKILL and started again."""

    def __init__(self, plan: Plan, emu: Emulator) -> None:
        self.plan = plan
        self.emu = emu
        self.running: dict[str, asyncio.subprocess.Process] = {}
        self.names = [f"bot{i}" for i in range(plan.bots)]
        self.names += [f"worker{i}" for i in range(plan.workers)]

    def _env(self) -> dict[str, str]:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        if is_postgres_url(self.plan.database):
            env["DISPATCH_DATABASE_URL"] = self.plan.database
        else:
            env["DISPATCH_DB"] = self.plan.database
        env["DISPATCH_WORKER_ITERATIONS"] = str(self.plan.iterations)
        env["DISPATCH_WORKER_LISTEN"] = "on" if self.plan.listen else "off"
        env["DISPATCH_CHAOS_BACKGROUND_S"] = str(self.plan.background_s)
        return env

    async def start(self, name: str) -> None:
        plan = self.plan
        if name.startswith("bot"):
            args = [
                str(BOT_PROCESS),
                self.emu.api_base,
                self.emu.ws_url,
                self.emu.token,
                plan.database,
                name[3:],
                str(plan.bots),
                str(plan.folder),
                str(plan.iterations),
            ]
        else:
            args = ["-m", "bot", "worker"]
        with (plan.folder / f"{name}.log").open("ab") as log:
            self.running[name] = await asyncio.create_subprocess_exec(
                sys.executable, *args, cwd=ROOT, env=self._env(), stdout=log, stderr=log
            )

    async def kill(self, name: str) -> None:
        process = self.running.pop(name)
        if process.returncode is None:
            os.kill(process.pid, signal.SIGKILL)
        await process.wait()

    async def stop(self) -> None:
        for name in list(self.running):
            await self.kill(name)

    def cpu(self, kind: str) -> float:
        """CPU seconds used so far by the running processes of ``kind`` ("bot",
        "worker") and their children."""
        pids = [p.pid for name, p in self.running.items() if name.startswith(kind)]
        return cpu_seconds(pids)

    async def not_working(self, rows: Rows) -> dict[str, str]:
        """The processes that exited without being killed, or that no longer beat (a
        process hung in its own end): none should. Name -> what is wrong."""
        now = time.time()
        wrong = {}
        for name, process in self.running.items():
            if process.returncode is not None:
                wrong[name] = f"{name} ended by itself (exit {process.returncode})"
            elif not await beats_of(rows, process.pid, now - SILENT_AFTER_S):
                wrong[name] = f"{name} stopped beating (hung) for {SILENT_AFTER_S:.0f} s"
        return wrong

    async def terminate(self, rows: Rows) -> list[str]:
        """SIGTERM to every process at once; the ones that did not stop cleanly (exit 0
        within the stop's time, ``lifecycle.STOP_TIMEOUT_S``) are killed, and named."""
        # One that ended by itself or hung before is the settle phase's finding.
        for name in await self.not_working(rows):
            await self.kill(name)
        for process in self.running.values():
            process.send_signal(signal.SIGTERM)
        unclean = []
        for name in list(self.running):
            process = self.running[name]
            try:
                code = await asyncio.wait_for(process.wait(), STOP_TIMEOUT_S + 5.0)
            except TimeoutError:
                code = None
            if code != 0:
                unclean.append(f"{name} did not stop cleanly on SIGTERM (exit {code})")
            await self.kill(name)
        return unclean


# ------------------------------------------------------------------ the run


@dataclass
class Run:
    plan: Plan
    emu: Emulator
    reader: Reader
    seats: list[Seat]
    processes: Processes
    awaiting: set[int] = field(default_factory=set)
    #: When ``awaiting`` was read (loop time).
    awaiting_at: float = 0.0
    #: Every job seen, its latest status: (game, version) -> status.
    jobs: dict[tuple[int, int], str] = field(default_factory=dict)
    acks: list[float] = field(default_factory=list)
    deferrals: list[float] = field(default_factory=list)
    #: (loop time, shard) of every acknowledged click.
    acked_at: list[tuple[float, int]] = field(default_factory=list)
    kills: list[tuple[str, float]] = field(default_factory=list)
    recoveries: list[float] = field(default_factory=list)
    #: Bot process index: when it was killed (loop time), until its shard moves again.
    down: dict[int, float] = field(default_factory=dict)
    created: float = field(default_factory=lambda: asyncio.get_running_loop().time())
    #: Seconds to start the processes (all connected), and the games too.
    connected_s: float = 0.0
    setup_s: float = 0.0
    #: When the play began (loop time).
    begun: float = 0.0
    #: Set when the play is over.
    stopping: asyncio.Event = field(default_factory=asyncio.Event)
    unsettled: list[str] = field(default_factory=list)
    unclean_stops: list[str] = field(default_factory=list)
    held_after_stop: list[str] = field(default_factory=list)
    #: Seconds from each bot process's kill to its shard's new session on the gateway.
    reconnects: list[float] = field(default_factory=list)
    watchers: list[asyncio.Task[None]] = field(default_factory=list)
    #: One per kill: until the killed process's claims are all taken over.
    takeover_watchers: list[asyncio.Task[None]] = field(default_factory=list)
    #: Seconds from each kill of a process holding claims until none was held.
    takeovers: list[float] = field(default_factory=list)
    #: Killed processes whose claims are still held: pid -> what was killed, and when.
    holding: dict[int, str] = field(default_factory=dict)
    faults: list[tuple[str, float]] = field(default_factory=list)


def _now() -> float:
    return asyncio.get_running_loop().time()


async def reconnected(run: Run, shard: int, killed_at: float) -> None:
    """Note how long the bot process of ``shard``, killed at ``killed_at``, took to be
    back on the emulator's gateway (a new session on its shard)."""
    gateway = run.emu.gateway
    world = run.emu.world
    with contextlib.suppress(TimeoutError):  # the emulator sees the socket close first
        await world.wait_until(lambda: not gateway.shard_connected(shard), 5.0, "the drop")
    with contextlib.suppress(TimeoutError):
        await world.wait_until(lambda: gateway.shard_connected(shard), START_S, "the return")
        run.reconnects.append(_now() - killed_at)


async def taken_over(run: Run, name: str, pid: int, killed_at: float) -> None:
    """Note how long the claims of process ``name`` (``pid``), killed at ``killed_at``,
    stayed held (none held at its death: nothing to note)."""
    if not await claims_of(run.reader.rows, pid):
        return
    run.holding[pid] = f"{name} (pid {pid}) killed at {killed_at - run.begun:.1f} s"
    while await claims_of(run.reader.rows, pid):
        if _now() - killed_at > TAKEOVER_WAIT_S:
            return  # still held: the check names it
        await asyncio.sleep(0.25)
    del run.holding[pid]
    run.takeovers.append(_now() - killed_at)


#: How long the database stays down when restarted: longer than a worker's poll and a
#: bot's background pass, so that every process meets the outage.
RESTART_DOWN_S = 2.0


#: How long the run waits for a killed process's claims to be taken over (twice the
#: 30 s aimed at; the leases alone took up to 120 s).
TAKEOVER_WAIT_S = 60.0


async def inject_faults(run: Run) -> None:
    """The plan's faults of the database, at even times through the play."""
    plan = run.plan
    started = _now()
    for n, kind in enumerate(plan.faults):
        at = plan.seconds * (n + 1) / (len(plan.faults) + 1)
        await asyncio.sleep(max(0.0, started + at - _now()))
        run.faults.append((kind, _now() - started))
        if kind == "restart":
            await plan.server.restart(RESTART_DOWN_S)
        else:
            await drop_connections(plan.database)


async def watch(run: Run) -> None:
    """Keep ``run.awaiting`` (the games where the human owes a move) and ``run.jobs``
    fresh, from the database."""
    last_jobs = 0.0
    while not run.stopping.is_set():
        read_at = _now()
        rows = await run.reader.rows("SELECT id, active_roles FROM games WHERE status = 'active'")
        run.awaiting = {int(r[0]) for r in rows if HUMAN_SIDE in json.loads(r[1] or "[]")}
        run.awaiting_at = read_at
        if read_at - last_jobs > 0.5:
            last_jobs = read_at
            for r in await run.reader.rows("SELECT game_id, version, status FROM bot_jobs"):
                run.jobs[(int(r[0]), int(r[1]))] = str(r[2])
        await asyncio.sleep(0.1)


HUMAN_SIDE = "secessionist"


def prompt_post(run: Run, seat: Seat) -> Message | None:
    """The game's latest table post with its **My prompt** button."""
    assert seat.thread is not None and seat.game is not None
    wanted = prompt_id(seat.game)
    for message in reversed(run.emu.channel_messages(seat.thread)):
        if any(c.get("custom_id") == wanted for c in _components(message)):
            return message
    return None


def _components(message: Message) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for row in message.components:
        out.extend(row.get("components", []))
    return out


async def open_prompt(run: Run, seat: Seat) -> Message | None:
    """**My prompt** clicked on the table post: the ephemeral prompt it answers with."""
    post = prompt_post(run, seat)
    if post is None:
        return None
    assert seat.game is not None
    try:
        result = await run.emu.click(seat.user, post, prompt_id(seat.game))
    except RuntimeError:  # the shard's process is down: Discord cannot deliver it
        return None
    try:
        messages = await result.response(timeout=CALLBACK_S + ANSWER_S)
    except TimeoutError:
        return None
    return next((m for m in messages if choices_of(m)), None)


async def click(run: Run, seat: Seat, prompt: Message, rng: random.Random) -> bool:
    """One move: a button or select of ``prompt``. True when it was acknowledged."""
    custom_id, value = pick(choices_of(prompt), rng)
    emu = run.emu
    try:
        if value is None:
            result = await emu.click(seat.user, prompt, custom_id)
        else:
            result = await emu.select(seat.user, prompt, custom_id, [value])
    except RuntimeError:
        return False
    record = result.record
    sent = _now()
    try:
        await emu.world.wait_until(lambda: record.callback_type is not None, CALLBACK_S, "ack")
        run.deferrals.append((_now() - sent) * 1000)
        await emu.world.wait_until(
            lambda: acknowledged(emu, record) or record.followup_ids, ANSWER_S, "the answer"
        )
    except TimeoutError:
        return False
    if not acknowledged(emu, record):
        return False
    run.acks.append((_now() - sent) * 1000)
    run.acked_at.append((_now(), seat.shard))
    if seat.shard in run.down:
        run.recoveries.append(_now() - run.down.pop(seat.shard))
    return True


async def play(run: Run, seat: Seat, rng: random.Random) -> None:
    """The human of one game, until cancelled."""
    clicked_at = 0.0
    prompt: Message | None = None
    # Until ``run.stopping`` too: Python 3.11's ``wait_for`` may swallow a cancellation
    # that lands as its wait completes (the emulator's waits use it).
    while not run.stopping.is_set():
        if seat.game not in run.awaiting or run.awaiting_at < clicked_at:
            await asyncio.sleep(0.05)
            continue
        if prompt is None or not choices_of(run.emu.message(prompt.id)):
            prompt = await open_prompt(run, seat)
            if prompt is None:
                await asyncio.sleep(0.2)
                continue
        prompt = run.emu.message(prompt.id)
        clicked_at = _now()
        if not await click(run, seat, prompt, rng):
            prompt = None


async def kill_at_random(run: Run) -> None:
    """Kill a process every ``kill_every_s`` or so (the first ones going round the
    kinds: a bot process, a worker), and start it again at once."""
    plan, processes = run.plan, run.processes
    rng = random.Random(plan.seed)
    kinds = [[n for n in processes.names if n.startswith(k)] for k in ("bot", "worker")]
    first = [rng.choice(names) for names in kinds if names]
    started = _now()
    while True:
        # Stopped by ``run.stopping``, never cancelled: a process being started again
        # must be known to ``processes`` (and so be stopped), not left running.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(run.stopping.wait(), rng.uniform(0.5, 1.5) * plan.kill_every_s)
        if run.stopping.is_set():
            return
        name = first.pop(0) if first else rng.choice(processes.names)
        pid = processes.running[name].pid
        await processes.kill(name)
        run.kills.append((name, _now() - started))
        run.takeover_watchers.append(asyncio.create_task(taken_over(run, name, pid, _now())))
        await processes.start(name)
        if name.startswith("bot"):
            run.down.setdefault(int(name[3:]), _now())
            run.watchers.append(asyncio.create_task(reconnected(run, int(name[3:]), _now())))


async def set_up(plan: Plan, emu: Emulator) -> list[Seat]:
    """One guild per shard with a games channel, and one human per game, round-robin."""
    guilds = [emu.add_guild(f"Shard {k}", shard=(k, plan.bots)) for k in range(plan.bots)]
    tables = [emu.add_text_channel(g, "games") for g in guilds]
    return [
        Seat(emu.add_member(guilds[n % plan.bots], f"p{n}"), tables[n % plan.bots], n % plan.bots)
        for n in range(plan.games)
    ]


async def start_games(run: Run) -> None:
    """Every human starts her game against Dispatch with ``/game new`` (all at once),
    then learns its id and thread from the database."""

    async def start(seat: Seat) -> None:
        result = await run.emu.slash(
            seat.user,
            seat.table,
            "game new",
            game="fort_sumter",
            opponent=run.emu.bot_user,
            side=HUMAN_SIDE,
            level="easy",
        )
        [first] = (await result.response(timeout=START_S))[:1]
        # In a text channel the answer is the table's opening post, edited into the lobby
        # once the thread is started from it: its latest version says the game is on.
        said = await run.emu.world.wait_until(
            lambda: (text := run.emu.message(first.id).text()) and "the game is on" in text,
            START_S,
            "the opening post to become the game's start",
        )
        assert said, run.emu.message(first.id).text()

    await asyncio.gather(*(start(seat) for seat in run.seats))
    rows = await run.reader.rows(
        "SELECT s.user_id, g.id, g.channel_id FROM seats s JOIN games g ON g.id = s.game_id"
    )
    where = {str(r[0]): (int(r[1]), int(r[2])) for r in rows}
    for seat in run.seats:
        seat.game, seat.thread = where[str(seat.user.id)]


async def wait_connected(run: Run) -> None:
    gateway = run.emu.gateway
    await run.emu.world.wait_until(
        lambda: all(gateway.shard_connected(k) for k in range(run.plan.bots)),
        START_S,
        "every shard connected",
    )
    await run.emu.wait_for_commands("game", timeout=START_S)


#: How many times ``Plan.seconds`` a run may take to reach its least progress.
PATIENCE = 10


def enough(run: Run) -> bool:
    """The run has seen the least its plan asks for."""
    plan = run.plan
    if len(run.acks) < plan.min_acks or len(run.kills) < plan.min_kills:
        return False
    if not plan.min_kills:
        return True
    first_kill = run.begun + run.kills[0][1]
    return any(at > first_kill for at, _ in run.acked_at)


async def play_on(run: Run) -> None:
    """Play ``plan.seconds``, then on until :func:`enough` (or ``PATIENCE`` runs out)."""
    await asyncio.sleep(run.plan.seconds)
    deadline = _now() + (PATIENCE - 1) * run.plan.seconds
    while not enough(run) and _now() < deadline:
        await asyncio.sleep(0.25)


async def keep_history(database: str) -> None:
    """Jobs a game's end or pruning deletes are kept for the check (``job_history``)."""
    store = await Store.open(database)
    try:
        await keep_job_history(store)
    finally:
        await store.close()


async def run_chaos(plan: Plan) -> Outcome:
    """Set up the guilds and games, play with kills for ``plan.seconds``, then check."""
    plan.folder.mkdir(parents=True, exist_ok=True)
    limit = PATIENCE * plan.seconds + 4 * START_S + 2 * plan.settle_s
    async with asyncio.timeout(limit), Emulator() as emu:
        seats = await set_up(plan, emu)
        processes = Processes(plan, emu)
        reader = Reader(plan.database)
        run = Run(plan, emu, reader, seats, processes)
        try:
            await keep_history(plan.database)  # migrated here, before any process opens it
            for name in processes.names:
                await processes.start(name)
            await wait_connected(run)  # each bot opened the database before connecting
            await reader.open()
            run.connected_s = _now() - run.created
            await start_games(run)
            run.setup_s = _now() - run.created
            begun, begun_wall = _now(), time.time()
            run.begun = begun
            tasks = [asyncio.create_task(watch(run))]
            tasks += [
                asyncio.create_task(play(run, seat, random.Random(plan.seed * 1000 + n)))
                for n, seat in enumerate(seats)
            ]
            killer = asyncio.create_task(kill_at_random(run)) if plan.kill_every_s else None
            faulter = asyncio.create_task(inject_faults(run)) if plan.faults else None
            cpu = {kind: processes.cpu(kind) for kind in ("bot", "worker")}
            await play_on(run)
            # A killed process's CPU goes with it: only a run without kills counts.
            cpu = {k: 0.0 if plan.kill_every_s else processes.cpu(k) - cpu[k] for k in cpu}
            await stop_playing(run, tasks)
            if killer is not None:
                await killer
            if faulter is not None:
                await faulter
            elapsed, ended_wall = _now() - begun, time.time()
            if plan.settle_s:
                run.unsettled = await settle(run)
                # Every kill's take-over seen through (or given up) while the living
                # still beat: after the stop nobody would take anything over.
                await asyncio.gather(*run.takeover_watchers, return_exceptions=True)
                await stop_under_load(run)
            for watcher in run.watchers + run.takeover_watchers:
                watcher.cancel()
            await asyncio.gather(*run.watchers, *run.takeover_watchers, return_exceptions=True)
        finally:
            await processes.stop()
            await reader.close()
        outcome = await check(run, (begun_wall, ended_wall), elapsed)
    outcome.bot_cpu_s, outcome.worker_cpu_s = cpu["bot"], cpu["worker"]
    return outcome


async def stop_playing(run: Run, tasks: Sequence[asyncio.Task[None]]) -> None:
    run.stopping.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


async def settle(run: Run) -> list[str]:
    """The settle phase: no more clicks and no more faults; within ``plan.settle_s``
    every post is delivered and every live game waits for its human (Dispatch made the
    moves it owed). Then the problems: posts undelivered, games damaged, games where
    Dispatch still owes a move, processes that ended by themselves, and live games whose
    **My prompt** answers with no prompt (a player could not move)."""
    deadline = _now() + run.plan.settle_s
    while True:
        # A process killed just before the settle phase is back within it: started,
        # beating, its shard's session on the gateway again.
        problems = await unsettled(run.reader.rows) + await dispatch_owes(run)
        problems += (await run.processes.not_working(run.reader.rows)).values()
        if not run.emu.gateway.connected:
            problems.append("a shard has no session on the gateway")
        if not problems or _now() > deadline:
            break
        await asyncio.sleep(0.5)
    waiting = await run.reader.rows("SELECT id, active_roles FROM games WHERE status = 'active'")
    live = {int(r[0]) for r in waiting if HUMAN_SIDE in json.loads(r[1] or "[]")}
    for seat in run.seats:
        if seat.game in live and await open_prompt(run, seat) is None:
            problems.append(f"game {seat.game}: My prompt shows no current prompt")
    return problems


async def dispatch_owes(run: Run) -> list[str]:
    rows = await run.reader.rows("SELECT id, active_roles FROM games WHERE status = 'active'")
    return [
        f"game {r[0]}: stuck, Dispatch owes a move"
        for r in rows
        if HUMAN_SIDE not in json.loads(r[1] or "[]")
    ]


#: Seconds of clicking before the processes are stopped under that load.
LOAD_BEFORE_STOP_S = 1.5


async def stop_under_load(run: Run) -> None:
    """The humans click again; SIGTERM to every process meanwhile; then no process may
    have stopped uncleanly, and no claim may be left held by a stopped one."""
    run.stopping = asyncio.Event()
    run.down.clear()  # a recovery is the play's, not the settle phase's
    tasks = [asyncio.create_task(watch(run))]
    tasks += [
        asyncio.create_task(play(run, seat, random.Random(run.plan.seed * 2000 + n)))
        for n, seat in enumerate(run.seats)
    ]
    await asyncio.sleep(LOAD_BEFORE_STOP_S)
    run.unclean_stops = await run.processes.terminate(run.reader.rows)
    await stop_playing(run, tasks)
    run.held_after_stop = await held_claims(run.reader.rows, time.time())


async def check(run: Run, span: tuple[float, float], elapsed: float) -> Outcome:
    """The four checks over the emulator's record and the database's."""
    emu, plan = run.emu, run.plan
    store = await Store.open(plan.database)
    actions: dict[int, list[ActionRow]] = {}
    twice: list[str] = []
    not_replaying: list[str] = []
    try:
        for seat in run.seats:
            game = seat.game
            assert game is not None
            async with store.read() as db:
                actions[game] = await db.actions(game)
            jobs = await job_history(store, game)
            status = {v: s for (g, v), s in run.jobs.items() if g == game}
            status.update({j.version: j.status for j in jobs})

            def read_at(version: int, game: int = game, jobs: list[BotJobRow] = jobs) -> str:
                """What the check read at ``version``, for whoever must find out why: the
                job rows kept (deleted, then live) and the watcher's last sight."""
                kept = [(j.role, j.status, j.attempts) for j in jobs if j.version == version]
                return f"rows {kept}, watcher saw {run.jobs.get((game, version))}"

            problems = moves_not_once_by_status(actions[game], status, read_at)
            twice += [f"game {game}: {p}" for p in problems]
            text = await stored_state(store, game)
            stored = json.loads(text) if text is not None else None
            if replayed_state(await export_game(store, game)) != stored:
                not_replaying.append(f"game {game}")
        async with store.read() as db:
            rows = await db.db.execute_fetchall("SELECT id, created_at FROM outbox", ())
        outbox = {delivery_nonce(int(r[0]), float(r[1])): int(r[0]) for r in rows}
    finally:
        await store.close()
    posts, duplicates = duplicate_posts(emu, outbox)
    in_span = [a for rows in actions.values() for a in rows if span[0] <= a.at <= span[1]]
    return Outcome(
        acks=run.acks,
        deferrals=run.deferrals,
        answers=bot_answers(actions.values(), span),
        kills=run.kills,
        recoveries=run.recoveries,
        lost=lost_clicks(emu, emu.interactions, actions),
        duplicates=duplicates,
        twice=twice,
        not_replaying=not_replaying,
        posts=posts,
        actions=len(in_span),
        human_actions=sum(1 for a in in_span if not is_bot(a.user_id)),
        elapsed=elapsed,
        acked_at=[at - run.begun for at, _ in run.acked_at],
        reconnects=run.reconnects,
        connected_s=run.connected_s,
        setup_s=run.setup_s,
        board_uploads=sum(
            any(a.filename == "board.png" for a in m.attachments)
            for m in emu.world.messages.values()
            if m.author.id == emu.bot_user.id and m.interaction_id is None
        ),
        takeovers=run.takeovers,
        not_taken_over=list(run.holding.values()),
        faults=run.faults,
        applied_twice=moves_beyond_clicks(emu.interactions, actions),
        unsettled=run.unsettled,
        unclean_stops=run.unclean_stops,
        held_after_stop=run.held_after_stop,
    )


def bot_answers(games: Any, span: tuple[float, float]) -> list[float]:
    """Milliseconds from each human move to the move of Dispatch that followed it."""
    out = []
    for rows in games:
        for before, after in itertools.pairwise(rows):
            if span[0] <= before.at and not is_bot(before.user_id) and is_bot(after.user_id):
                out.append((after.at - before.at) * 1000)
    return out


def chaos(plan: Plan) -> Outcome:
    return asyncio.run(run_chaos(plan))
