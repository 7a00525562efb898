"""The SQLite store: one aiosqlite connection, WAL, schema through ``bot.migrate``.

All access goes through ``Store.read()`` or ``Store.transaction()``, which hand out a
``Session`` with the SQL. One connection is shared by every coroutine, so an open
transaction would otherwise swallow another coroutine's writes; the store lock keeps each
session whole. Sessions are short (no awaits on the network inside them).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiosqlite

from bot.migrate import migrate

Clock = Callable[[], float]

BUSY_TIMEOUT_MS = 5000


def dumps(data: Any) -> str:
    """The one JSON encoding we store: sorted keys, compact, so equal data is equal text."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@dataclass(frozen=True)
class GameRow:
    id: int
    guild_id: str | None
    channel_id: str
    game_name: str
    options_json: str
    seed: int
    status: str
    state_json: str | None
    version: int
    creator_id: str
    hotseat: bool
    active_roles: tuple[str, ...]
    posted_log: int
    created_at: float
    updated_at: float
    turn_started_at: float | None
    #: The roles and step of play the table's last post said it was waiting for.
    posted_active: tuple[str, ...] = ()
    posted_step: str = ""


@dataclass(frozen=True)
class SeatRow:
    game_id: int
    role: str
    user_id: str
    dm_failed: bool
    abandon_requested: bool
    private_seen: int
    joined_at: float
    #: The game version at which this seat's decision (prompt, actions, private news)
    #: last changed, and a digest of that decision; see migration 0002.
    prompt_version: int = 0
    prompt_digest: str = ""


@dataclass(frozen=True)
class OutboxRow:
    id: int
    game_id: int
    kind: str
    target: str | None
    payload_json: str
    created_at: float
    attempts: int
    last_error: str | None
    next_attempt_at: float


@dataclass(frozen=True)
class TimerRow:
    id: int
    game_id: int
    kind: str
    role: str | None
    user_id: str | None
    due_at: float
    interval_s: float
    fired: int


@dataclass(frozen=True)
class ActionRow:
    game_id: int
    seq: int
    role: str
    user_id: str
    verb: str
    arg: Any
    at: float


@dataclass(frozen=True)
class ResultRow:
    game_id: int
    winner: str | None
    reason: str
    score: dict[str, Any]
    finished_at: float


def _active_roles(text: str) -> tuple[str, ...]:
    # A damaged cache must not break listings: it only drives "whose turn" displays.
    try:
        value = json.loads(text)
    except ValueError:
        return ()
    return tuple(str(r) for r in value) if isinstance(value, list) else ()


def _game(r: aiosqlite.Row) -> GameRow:
    return GameRow(
        id=r["id"],
        guild_id=r["guild_id"],
        channel_id=r["channel_id"],
        game_name=r["game_name"],
        options_json=r["options"],
        seed=r["seed"],
        status=r["status"],
        state_json=r["state"],
        version=r["version"],
        creator_id=r["creator_id"],
        hotseat=bool(r["hotseat"]),
        active_roles=_active_roles(r["active_roles"]),
        posted_log=r["posted_log"],
        created_at=r["created_at"],
        updated_at=r["updated_at"],
        turn_started_at=r["turn_started_at"],
        posted_active=tuple(json.loads(r["posted_active"])),
        posted_step=r["posted_step"],
    )


def _seat(r: aiosqlite.Row) -> SeatRow:
    return SeatRow(
        game_id=r["game_id"],
        role=r["role"],
        user_id=r["user_id"],
        dm_failed=bool(r["dm_failed"]),
        abandon_requested=bool(r["abandon_requested"]),
        private_seen=r["private_seen"],
        joined_at=r["joined_at"],
        prompt_version=r["prompt_version"],
        prompt_digest=r["prompt_digest"],
    )


def _outbox(r: aiosqlite.Row) -> OutboxRow:
    return OutboxRow(
        id=r["id"],
        game_id=r["game_id"],
        kind=r["kind"],
        target=r["target"],
        payload_json=r["payload"],
        created_at=r["created_at"],
        attempts=r["attempts"],
        last_error=r["last_error"],
        next_attempt_at=r["next_attempt_at"],
    )


def _timer(r: aiosqlite.Row) -> TimerRow:
    return TimerRow(
        id=r["id"],
        game_id=r["game_id"],
        kind=r["kind"],
        role=r["role"],
        user_id=r["user_id"],
        due_at=r["due_at"],
        interval_s=r["interval_s"],
        fired=r["fired"],
    )


LIVE = ("lobby", "active")


class Session:
    """The SQL, run on the store's connection while the store lock is held."""

    def __init__(self, db: aiosqlite.Connection, now: float) -> None:
        self.db = db
        #: One clock reading per session keeps the rows of one transaction consistent.
        self.now = now

    async def _one(self, sql: str, params: Iterable[Any] = ()) -> aiosqlite.Row | None:
        async with self.db.execute(sql, tuple(params)) as cur:
            return await cur.fetchone()

    async def _all(self, sql: str, params: Iterable[Any] = ()) -> list[aiosqlite.Row]:
        async with self.db.execute(sql, tuple(params)) as cur:
            return list(await cur.fetchall())

    async def _run(self, sql: str, params: Iterable[Any] = ()) -> int:
        async with self.db.execute(sql, tuple(params)) as cur:
            return cur.lastrowid or 0

    # games -------------------------------------------------------------------------
    async def insert_game(
        self,
        *,
        guild_id: str | None,
        channel_id: str,
        game_name: str,
        options: dict[str, Any],
        seed: int,
        creator_id: str,
        hotseat: bool,
        state: dict[str, Any],
    ) -> int:
        return await self._run(
            "INSERT INTO games (guild_id, channel_id, game_name, options, seed, status, state,"
            " version, creator_id, hotseat, created_at, updated_at)"
            " VALUES (?, ?, ?, ?, ?, 'lobby', ?, 0, ?, ?, ?, ?)",
            (
                guild_id,
                channel_id,
                game_name,
                dumps(options),
                seed,
                dumps(state),
                creator_id,
                int(hotseat),
                self.now,
                self.now,
            ),
        )

    async def game(self, game_id: int) -> GameRow | None:
        row = await self._one("SELECT * FROM games WHERE id = ?", (game_id,))
        return _game(row) if row else None

    async def live_game_in_channel(self, channel_id: str) -> GameRow | None:
        row = await self._one(
            "SELECT * FROM games WHERE channel_id = ? AND status IN ('lobby', 'active')",
            (channel_id,),
        )
        return _game(row) if row else None

    async def latest_game_in_channel(self, channel_id: str) -> GameRow | None:
        row = await self._one(
            "SELECT * FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,)
        )
        return _game(row) if row else None

    async def games_of_user(self, user_id: str, statuses: Iterable[str] = LIVE) -> list[GameRow]:
        statuses = tuple(statuses)
        marks = ", ".join("?" for _ in statuses)
        rows = await self._all(
            "SELECT DISTINCT g.* FROM games g JOIN seats s ON s.game_id = g.id"
            f" WHERE s.user_id = ? AND g.status IN ({marks}) ORDER BY g.id",
            (user_id, *statuses),
        )
        return [_game(r) for r in rows]

    async def all_games(self, statuses: Iterable[str] = LIVE) -> list[GameRow]:
        statuses = tuple(statuses)
        marks = ", ".join("?" for _ in statuses)
        rows = await self._all(
            f"SELECT * FROM games WHERE status IN ({marks}) ORDER BY id", statuses
        )
        return [_game(r) for r in rows]

    async def set_posted_turn(self, game_id: int, active: Iterable[str], step: str) -> None:
        await self._run(
            "UPDATE games SET posted_active = ?, posted_step = ? WHERE id = ?",
            (dumps(list(active)), step, game_id),
        )

    async def save_play(
        self,
        game_id: int,
        *,
        state: dict[str, Any],
        version: int,
        active_roles: Iterable[str],
        posted_log: int,
        turn_started_at: float | None,
    ) -> None:
        await self._run(
            "UPDATE games SET state = ?, version = ?, active_roles = ?, posted_log = ?,"
            " turn_started_at = ?, updated_at = ? WHERE id = ?",
            (
                dumps(state),
                version,
                dumps(list(active_roles)),
                posted_log,
                turn_started_at,
                self.now,
                game_id,
            ),
        )

    async def set_status(self, game_id: int, status: str) -> None:
        await self._run(
            "UPDATE games SET status = ?, updated_at = ? WHERE id = ?", (status, self.now, game_id)
        )

    # seats -------------------------------------------------------------------------
    async def seats(self, game_id: int) -> list[SeatRow]:
        rows = await self._all(
            "SELECT * FROM seats WHERE game_id = ? ORDER BY joined_at, role", (game_id,)
        )
        return [_seat(r) for r in rows]

    async def add_seat(self, game_id: int, role: str, user_id: str) -> None:
        await self._run(
            "INSERT INTO seats (game_id, role, user_id, joined_at) VALUES (?, ?, ?, ?)",
            (game_id, role, user_id, self.now),
        )

    async def remove_seat(self, game_id: int, role: str) -> None:
        await self._run("DELETE FROM seats WHERE game_id = ? AND role = ?", (game_id, role))

    async def set_dm_failed(self, game_id: int, role: str, failed: bool) -> None:
        await self._run(
            "UPDATE seats SET dm_failed = ? WHERE game_id = ? AND role = ?",
            (int(failed), game_id, role),
        )

    async def clear_dm_failed_for_user(self, user_id: str) -> int:
        async with self.db.execute(
            "UPDATE seats SET dm_failed = 0 WHERE user_id = ? AND dm_failed = 1", (user_id,)
        ) as cur:
            return cur.rowcount

    async def set_abandon_requested(self, game_id: int, role: str) -> None:
        await self._run(
            "UPDATE seats SET abandon_requested = 1 WHERE game_id = ? AND role = ?",
            (game_id, role),
        )

    async def set_private_seen(self, game_id: int, role: str, count: int) -> None:
        await self._run(
            "UPDATE seats SET private_seen = ? WHERE game_id = ? AND role = ?",
            (count, game_id, role),
        )

    async def set_prompt(self, game_id: int, role: str, version: int, digest: str) -> None:
        await self._run(
            "UPDATE seats SET prompt_version = ?, prompt_digest = ? WHERE game_id = ? AND role = ?",
            (version, digest, game_id, role),
        )

    # actions -----------------------------------------------------------------------
    async def append_action(
        self, game_id: int, seq: int, role: str, user_id: str, verb: str, arg: Any
    ) -> None:
        await self._run(
            "INSERT INTO actions (game_id, seq, role, user_id, verb, arg, at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (game_id, seq, role, user_id, verb, dumps(arg), self.now),
        )

    async def actions(self, game_id: int) -> list[ActionRow]:
        rows = await self._all("SELECT * FROM actions WHERE game_id = ? ORDER BY seq", (game_id,))
        return [
            ActionRow(
                game_id=r["game_id"],
                seq=r["seq"],
                role=r["role"],
                user_id=r["user_id"],
                verb=r["verb"],
                arg=json.loads(r["arg"]),
                at=r["at"],
            )
            for r in rows
        ]

    async def count_actions(self, game_id: int) -> int:
        row = await self._one("SELECT COUNT(*) FROM actions WHERE game_id = ?", (game_id,))
        return int(row[0]) if row else 0

    # outbox ------------------------------------------------------------------------
    async def queue(
        self, game_id: int, kind: str, target: str | None, payload: dict[str, Any]
    ) -> int:
        return await self._run(
            "INSERT INTO outbox (game_id, kind, target, payload, created_at, next_attempt_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, kind, target, dumps(payload), self.now, self.now),
        )

    async def undelivered(self, game_id: int | None = None) -> list[OutboxRow]:
        """Every undelivered row in order, due or not (the caller applies backoff)."""
        if game_id is None:
            rows = await self._all("SELECT * FROM outbox WHERE delivered_at IS NULL ORDER BY id")
        else:
            rows = await self._all(
                "SELECT * FROM outbox WHERE delivered_at IS NULL AND game_id = ? ORDER BY id",
                (game_id,),
            )
        return [_outbox(r) for r in rows]

    async def mark_delivered(self, outbox_id: int, note: str | None = None) -> None:
        await self._run(
            "UPDATE outbox SET delivered_at = ?, attempts = attempts + 1, last_error = ?"
            " WHERE id = ?",
            (self.now, note, outbox_id),
        )

    async def mark_failed(self, outbox_id: int, error: str, next_attempt_at: float) -> None:
        await self._run(
            "UPDATE outbox SET attempts = attempts + 1, last_error = ?, next_attempt_at = ?"
            " WHERE id = ?",
            (error[:500], next_attempt_at, outbox_id),
        )

    # timers ------------------------------------------------------------------------
    async def set_timer(
        self,
        game_id: int,
        kind: str,
        role: str | None,
        user_id: str | None,
        due_at: float,
        interval_s: float,
    ) -> None:
        await self._run(
            "INSERT INTO timers (game_id, kind, role, user_id, due_at, interval_s, fired)"
            " VALUES (?, ?, ?, ?, ?, ?, 0)"
            " ON CONFLICT (game_id, kind, role) DO UPDATE SET user_id = excluded.user_id,"
            " due_at = excluded.due_at, interval_s = excluded.interval_s, fired = 0",
            (game_id, kind, role, user_id, due_at, interval_s),
        )

    async def timers(self, game_id: int) -> list[TimerRow]:
        rows = await self._all("SELECT * FROM timers WHERE game_id = ? ORDER BY id", (game_id,))
        return [_timer(r) for r in rows]

    async def due_timers(self, now: float) -> list[TimerRow]:
        rows = await self._all("SELECT * FROM timers WHERE due_at <= ? ORDER BY due_at, id", (now,))
        return [_timer(r) for r in rows]

    async def reschedule_timer(self, timer_id: int, due_at: float, interval_s: float) -> None:
        await self._run(
            "UPDATE timers SET due_at = ?, interval_s = ?, fired = fired + 1 WHERE id = ?",
            (due_at, interval_s, timer_id),
        )

    async def delete_timers(self, game_id: int, role: str | None = None) -> None:
        if role is None:
            await self._run("DELETE FROM timers WHERE game_id = ?", (game_id,))
        else:
            await self._run("DELETE FROM timers WHERE game_id = ? AND role = ?", (game_id, role))

    async def delete_timer(self, timer_id: int) -> None:
        await self._run("DELETE FROM timers WHERE id = ?", (timer_id,))

    # results -----------------------------------------------------------------------
    async def record_result(
        self, game_id: int, winner: str | None, reason: str, score: dict[str, Any]
    ) -> None:
        await self._run(
            "INSERT OR REPLACE INTO results (game_id, winner, reason, score, finished_at)"
            " VALUES (?, ?, ?, ?, ?)",
            (game_id, winner, reason, dumps(score), self.now),
        )

    async def result(self, game_id: int) -> ResultRow | None:
        r = await self._one("SELECT * FROM results WHERE game_id = ?", (game_id,))
        if r is None:
            return None
        try:
            score = json.loads(r["score"])
        except ValueError:
            score = {}
        return ResultRow(r["game_id"], r["winner"], r["reason"], score, r["finished_at"])

    # channel settings --------------------------------------------------------------
    async def reminder_hours(self, channel_id: str, default: float) -> float:
        r = await self._one(
            "SELECT reminder_hours FROM channel_settings WHERE channel_id = ?", (channel_id,)
        )
        return float(r[0]) if r else default

    async def set_reminder_hours(self, channel_id: str, guild_id: str | None, hours: float) -> None:
        await self._run(
            "INSERT INTO channel_settings (channel_id, guild_id, reminder_hours) VALUES (?, ?, ?)"
            " ON CONFLICT (channel_id) DO UPDATE SET reminder_hours = excluded.reminder_hours",
            (channel_id, guild_id, hours),
        )


class Store:
    """Owns the connection; open with ``await Store.open(path)``."""

    def __init__(self, db: aiosqlite.Connection, path: Path, clock: Clock) -> None:
        self._db = db
        self.path = path
        self.clock = clock
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path, clock: Clock = time.time) -> Store:
        path = Path(path)
        if path.parent and not path.parent.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: we issue BEGIN/COMMIT ourselves, so a transaction is
        # exactly the span of ``transaction()`` and nothing is committed behind our back.
        db = await aiosqlite.connect(path, isolation_level=None)
        db.row_factory = aiosqlite.Row
        try:
            await db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            await db.execute("PRAGMA journal_mode = WAL")
            await db.execute("PRAGMA foreign_keys = ON")
            # NORMAL is durable across application crashes in WAL mode; only a power
            # loss may drop the last transactions, never corrupt the file.
            await db.execute("PRAGMA synchronous = NORMAL")
            await migrate(db)
        except BaseException:
            await db.close()
            raise
        return cls(db, path, clock)

    async def close(self) -> None:
        async with self._lock:
            await self._db.close()

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Session]:
        async with self._lock:
            yield Session(self._db, self.clock())

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Session]:
        """BEGIN IMMEDIATE … COMMIT, rolled back if the block raises."""
        async with self._lock:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield Session(self._db, self.clock())
            except BaseException:
                await self._db.rollback()
                raise
            await self._db.commit()

    async def pragma(self, name: str) -> Any:
        async with self._lock, self._db.execute(f"PRAGMA {name}") as cur:
            row = await cur.fetchone()
        return row[0] if row else None
