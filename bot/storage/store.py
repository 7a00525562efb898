"""The store: SQLite (one aiosqlite connection, WAL; the default) or PostgreSQL (an asyncpg
pool), schema through ``bot.storage.migrate``, engines in ``bot.storage.engines``.

All access goes through ``Store.read()`` or ``Store.transaction()``, which hand out a
``Session`` with the SQL. One connection is shared by every coroutine, so an open
transaction would otherwise swallow another coroutine's writes; the store lock keeps each
session whole. Sessions are short (no awaits on the network inside them).

``Store.open`` takes a file path (SQLite) or a ``postgresql://`` URL. On SQLite one process
owns the file (``ProcessLock``) and its single writer serialises every game. On PostgreSQL
several bot processes may share the database: a turn's transaction takes the game's
advisory lock (``Session.lock_game``) and the version check the buttons carry still
refuses a stale click; background work claims its rows with a lease (``claim_*``).
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import logging
import os
import secrets
import socket
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import aiosqlite
import asyncpg

try:
    import fcntl
except ImportError:  # not on Windows: one process per file is then up to the admin
    fcntl = None  # type: ignore[assignment]

from bot import errors
from bot.storage.engines import JOBS_QUEUED, PgConnection, is_postgres_url, translate_error
from bot.storage.migrate import migrate, migrate_postgres

log = logging.getLogger("dispatch.store")

Clock = Callable[[], float]

BUSY_TIMEOUT_MS = 5000

#: How long a claim of background work holds before another process may take it over
#: (migration 0018): longer than any one pass, short enough that a dead process's work
#: is soon done by another.
LEASE_S = 120.0


def dumps(data: Any) -> str:
    """The one JSON encoding we store: sorted keys, compact, so equal data is equal text."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@dataclass(frozen=True)
class NewGameRow:
    """A game as first written (``Session.insert_game``): a lobby at version 0."""

    guild_id: str | None
    channel_id: str
    game_name: str
    options: dict[str, Any]
    seed: int
    creator_id: str
    hotseat: bool
    state: dict[str, Any]


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
    #: Why background work could not handle this game (None: healthy); see ``mark_damaged``.
    damaged: str | None = None
    #: The finished game this one is a rematch of.
    rematch_of: int | None = None


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
    #: When the row's first send was started (None: never tried); see ``mark_sending``.
    sent_at: float | None = None


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
    #: How the game ended, for programs (``rules.core.types.Outcome``'s code).
    code: str = "unrecorded"


def _roles(text: Any) -> tuple[str, ...]:
    # A damaged cache must not break listings or the background pass: these columns only
    # drive "whose turn" displays and when to post, never the rules.
    try:
        value = json.loads(text)
    except (TypeError, ValueError):
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
        active_roles=_roles(r["active_roles"]),
        posted_log=r["posted_log"],
        created_at=r["created_at"],
        updated_at=r["updated_at"],
        turn_started_at=r["turn_started_at"],
        posted_active=_roles(r["posted_active"]),
        posted_step=str(r["posted_step"] or ""),
        damaged=r["damaged"],
        rematch_of=r["rematch_of"],
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
        sent_at=r["sent_at"],
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
#: The statuses of a game that is over (``Session.set_status`` drops its bot jobs).
ENDED = ("finished", "abandoned", "cancelled")

#: Undelivered outbox rows with their payloads (migration 0009: kept in their own table
#: and deleted on delivery; a row queued before it keeps its payload in the outbox).
_UNDELIVERED = (
    "SELECT o.id, o.game_id, o.kind, o.target, COALESCE(p.payload, o.payload) AS payload,"
    " o.created_at, o.attempts, o.last_error, o.next_attempt_at, o.sent_at"
    " FROM outbox o LEFT JOIN outbox_payloads p ON p.outbox_id = o.id"
    " WHERE o.delivered_at IS NULL"
)

#: The queries run on every action, delivery pass or listing, by name, with example
#: parameters. ``tests/test_store_scale.py`` asserts that SQLite answers each through an
#: index (EXPLAIN QUERY PLAN), so none of them slows down as finished games pile up.
#: How the last error of a table post parked by the courier begins: the channel refuses
#: every post until someone fixes it (``bot.delivery.courier``).
PARKED_ERROR = "table unreachable"

HOT_QUERIES: dict[str, tuple[str, tuple[Any, ...]]] = {
    "game": ("SELECT * FROM games WHERE id = ?", (1,)),
    "live_game_in_channel": (
        "SELECT * FROM games WHERE channel_id = ? AND status IN ('lobby', 'active')",
        ("c",),
    ),
    "latest_game_in_channel": (
        "SELECT * FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
        ("c",),
    ),
    "games_of_user": (
        "SELECT g.* FROM seats s JOIN games g ON g.id = s.game_id"
        " WHERE s.user_id = ? AND g.status IN ('lobby', 'active') GROUP BY g.id ORDER BY g.id",
        ("u",),
    ),
    # The background pass, every few seconds: only the ids of the games where the user
    # (one of Dispatch's seats) owes a decision, from the seats index and the cached
    # active roles, never a state.
    "games_awaiting": (
        "SELECT g.id FROM seats s JOIN games g ON g.id = s.game_id"
        " WHERE s.user_id = ? AND g.status = 'active' AND g.damaged IS NULL"
        # active_roles is a JSON list of names: a quoted role inside it (portable SQL).
        " AND g.active_roles LIKE '%\"' || s.role || '\"%'",
        ("u",),
    ),
    "seats": ("SELECT * FROM seats WHERE game_id = ? ORDER BY joined_at, role", (1,)),
    "actions": ("SELECT * FROM actions WHERE game_id = ? ORDER BY seq", (1,)),
    "undelivered_of_game": (
        _UNDELIVERED + " AND o.game_id = ? ORDER BY o.id",
        (1,),
    ),
    "undelivered": (_UNDELIVERED + " ORDER BY o.id", ()),
    "table_parked": (
        "SELECT 1 FROM outbox WHERE delivered_at IS NULL AND game_id = ? AND kind = 'table'"
        f" AND last_error LIKE '{PARKED_ERROR}%' LIMIT 1",
        (1,),
    ),
    "games_with_undelivered": (
        "SELECT DISTINCT game_id FROM outbox WHERE delivered_at IS NULL ORDER BY game_id",
        (),
    ),
    "due_timers": ("SELECT * FROM timers WHERE due_at <= ? ORDER BY due_at, id", (0.0,)),
    "timers": ("SELECT * FROM timers WHERE game_id = ? ORDER BY id", (1,)),
    "reminder_hours": (
        "SELECT reminder_hours FROM channel_settings WHERE channel_id = ?",
        ("c",),
    ),
    "result": ("SELECT * FROM results WHERE game_id = ?", (1,)),
    "live_prompts": ("SELECT * FROM live_prompts WHERE game_id = ?", (1,)),
}


# -- ratings (issue 26, section 4; migration 0012) ---------------------------------
#: The ratings' queries, held to an index like the hot queries above.
RATING_QUERIES: dict[str, tuple[str, tuple[Any, ...]]] = {
    "leaderboard": (
        "SELECT * FROM ratings WHERE scope = ? AND game_name = ?"
        " ORDER BY points DESC, player_id LIMIT ?",
        ("g", "toy", 10),
    ),
    "ratings_of": (
        "SELECT * FROM ratings WHERE scope = ? AND game_name = ? AND player_id = ?",
        ("g", "toy", "u"),
    ),
    "rating_changes": ("SELECT * FROM rating_changes WHERE game_id = ? ORDER BY role", (1,)),
    "decisions_by_role": (
        "SELECT role, COUNT(*) AS n FROM actions WHERE game_id = ? AND verb != 'undo'"
        " GROUP BY role",
        (1,),
    ),
    "hints_used": ("SELECT COALESCE(SUM(count), 0) AS n FROM hints WHERE game_id = ?", (1,)),
    "bot_estimates": ("SELECT * FROM bot_estimates WHERE game_id = ? ORDER BY version", (1,)),
}
HOT_QUERIES.update(RATING_QUERIES)


@dataclass(frozen=True)
class BotEstimateRow:
    """Dispatch's estimate of its chance after one of its moves (migration 0015)."""

    game_id: int
    version: int
    role: str
    estimate: float
    #: The public log text of the move.
    move: str


@dataclass(frozen=True)
class RatingRow:
    scope: str
    game_name: str
    player_id: str
    mu: float
    sigma: float
    #: The shown rating (see ``bot.tables.ratings.points``).
    points: float
    games: int
    wins: int


@dataclass(frozen=True)
class RatingChangeRow:
    game_id: int
    role: str
    player_id: str
    points_was: float
    points_now: float


def _rating(r: aiosqlite.Row) -> RatingRow:
    return RatingRow(
        scope=r["scope"],
        game_name=r["game_name"],
        player_id=r["player_id"],
        mu=r["mu"],
        sigma=r["sigma"],
        points=r["points"],
        games=r["games"],
        wins=r["wins"],
    )


# -- end of ratings -----------------------------------------------------------------


# -- clocks (issue 26, section 1; migration 0014_clocks) --------------------------
#: The clocks' queries, held to an index like the hot queries above: the expiry pass
#: reads only the running clocks whose deadline has passed, from ``clocks_deadline``.
CLOCK_QUERIES: dict[str, tuple[str, tuple[Any, ...]]] = {
    "expired_clocks": (
        "SELECT game_id, role, deadline FROM clocks"
        " WHERE deadline IS NOT NULL AND deadline <= ? ORDER BY deadline LIMIT ?",
        (0.0, 100),
    ),
    "clock_rows": ("SELECT * FROM clocks WHERE game_id = ? ORDER BY role", (1,)),
    "game_clock": ("SELECT * FROM game_clocks WHERE game_id = ?", (1,)),
    # The warnings pass (24 h and 2 h left), from its own partial index.
    "due_clock_warnings": (
        "SELECT game_id, role FROM clocks"
        " WHERE warn_at IS NOT NULL AND warn_at <= ? ORDER BY warn_at LIMIT ?",
        (0.0, 100),
    ),
    # Start-up, after downtime: the running clocks alone, from the same partial index.
    # Those running since before the last heartbeat move on by the whole downtime...
    "shift_running_clocks": (
        "UPDATE clocks SET running_since = running_since + ?, deadline = deadline + ?,"
        " warn_at = warn_at + ? WHERE deadline IS NOT NULL AND running_since <= ?",
        (0.0, 0.0, 0.0, 0.0),
    ),
    # ...those that started during it (a vacation that ended while the bot was down) by
    # the part they ran; a clock still paused (its start to come) spent nothing.
    "shift_clocks_started_while_down": (
        "UPDATE clocks SET deadline = deadline + (? - running_since),"
        " warn_at = warn_at + (? - running_since), running_since = ?"
        " WHERE deadline IS NOT NULL AND running_since > ? AND running_since < ?",
        (0.0, 0.0, 0.0, 0.0, 0.0),
    ),
}
HOT_QUERIES.update(CLOCK_QUERIES)


@dataclass(frozen=True)
class ClockRow:
    """One person's clock: seconds left when it last started or stopped, and while it
    runs, since when and until when."""

    role: str
    remaining_s: float
    running_since: float | None = None
    deadline: float | None = None
    #: While it runs: when its player is next warned (None: no warning to come).
    warn_at: float | None = None
    #: On a server whose clocks are claimed: when it ran out and the opponent was offered
    #: the win (migration 0016). It stays at zero, owing, until the game ends.
    flagged_at: float | None = None

    def left(self, now: float) -> float:
        """Seconds left at ``now`` (never below zero). A clock may start in the future
        (its player is on vacation until then): nothing is spent before it starts."""
        if self.running_since is None:
            return max(0.0, self.remaining_s)
        return max(0.0, self.remaining_s - max(0.0, now - self.running_since))

    def paused(self, now: float) -> bool:
        """It is its player's to run but starts later: they are on vacation."""
        return self.running_since is not None and self.running_since > now

    def expired(self, now: float) -> bool:
        """The clock runs and its deadline has come."""
        return self.deadline is not None and now >= self.deadline


# -- end of clocks ------------------------------------------------------------------
# -- vacations and claims on time (issue 26, section 1; migration 0016) ------------
#: Held to an index like the hot queries above: a player's vacations come from the
#: primary key (user, scope, start), the games whose clocks they pause from the seats'
#: index, never from a scan of live games.
VACATION_QUERIES: dict[str, tuple[str, tuple[Any, ...]]] = {
    "clock_rules": ("SELECT * FROM clock_rules WHERE guild_id = ?", ("g",)),
    "vacation_days_used": (
        "SELECT COALESCE(SUM(days), 0) AS n FROM vacations"
        " WHERE user_id = ? AND scope = ? AND starts_at > ?",
        ("u", "g", 0.0),
    ),
    "current_vacation": (
        "SELECT * FROM vacations WHERE user_id = ? AND scope = ? AND ends_at > ?"
        " ORDER BY starts_at DESC LIMIT 1",
        ("u", "g", 0.0),
    ),
    "vacations_back_due": (
        "SELECT * FROM vacations WHERE back_due = 1 AND ends_at <= ? ORDER BY ends_at LIMIT 50",
        (0.0,),
    ),
    "clocked_seats_of": (
        "SELECT c.game_id, c.role FROM seats s JOIN games g ON g.id = s.game_id"
        " JOIN clocks c ON c.game_id = s.game_id AND c.role = s.role"
        " WHERE s.user_id = ? AND g.status = 'active' AND COALESCE(g.guild_id, '') = ?"
        " ORDER BY c.game_id, c.role",
        ("u", "g"),
    ),
}
HOT_QUERIES.update(VACATION_QUERIES)


@dataclass(frozen=True)
class VacationRow:
    user_id: str
    scope: str
    starts_at: float
    ends_at: float
    days: int


# -- end of vacations and claims on time ------------------------------------------
# -- seats that change hands (issue 26, section 6; migration 0013) -----------------
SEAT_QUERIES: dict[str, tuple[str, tuple[Any, ...]]] = {
    "seat_changes": ("SELECT * FROM seat_changes WHERE game_id = ? ORDER BY id", (1,)),
    "seat_passed": (
        "SELECT * FROM seat_changes WHERE game_id = ? AND from_user = ? ORDER BY id DESC LIMIT 1",
        (1, "u"),
    ),
    "seat_offer": ("SELECT * FROM seat_offers WHERE id = ?", (1,)),
    "open_seat_offers": (
        "SELECT * FROM seat_offers WHERE game_id = ? AND status = 'open' ORDER BY id",
        (1,),
    ),
}
HOT_QUERIES.update(SEAT_QUERIES)


@dataclass(frozen=True)
class SeatChangeRow:
    id: int
    game_id: int
    role: str
    from_user: str
    to_user: str
    by_user: str
    #: "offer" (accepted), "reseat" (a moderator) or "handover" (to Dispatch).
    how: str
    at_version: int
    at: float


@dataclass(frozen=True)
class SeatOfferRow:
    id: int
    game_id: int
    role: str
    from_user: str
    to_user: str
    at_version: int
    created_at: float
    expires_at: float
    status: str


def _seat_change(r: aiosqlite.Row) -> SeatChangeRow:
    return SeatChangeRow(**{k: r[k] for k in SeatChangeRow.__dataclass_fields__})


def _seat_offer(r: aiosqlite.Row) -> SeatOfferRow:
    return SeatOfferRow(**{k: r[k] for k in SeatOfferRow.__dataclass_fields__})


# -- end of seats that change hands ---------------------------------------------------


def _sql(name: str) -> str:
    return HOT_QUERIES[name][0]


@dataclass(frozen=True)
class BotJobRow:
    """A move Dispatch owes (``bot_jobs``, migration 0019)."""

    game_id: int
    role: str
    version: int
    level: str
    status: str
    attempts: int
    claimed_by: str | None
    lease_until: float | None
    created_at: float


def _bot_job(r: aiosqlite.Row) -> BotJobRow:
    return BotJobRow(
        int(r["game_id"]),
        str(r["role"]),
        int(r["version"]),
        str(r["level"]),
        str(r["status"]),
        int(r["attempts"]),
        r["claimed_by"],
        float(r["lease_until"]) if r["lease_until"] is not None else None,
        float(r["created_at"]),
    )


class Session:
    """The SQL, run on the store's connection while the store lock is held."""

    def __init__(self, db: aiosqlite.Connection | PgConnection, now: float) -> None:
        #: The connection: aiosqlite's, or ``PgConnection`` (same three calls).
        self.db: Any = db
        #: "sqlite" or "postgresql", for the few statements that differ.
        self.dialect: str = getattr(db, "dialect", "sqlite")
        #: One clock reading per session keeps the rows of one transaction consistent.
        self.now = now

    # Each helper is one trip to the connection's thread (a cursor's execute, fetch and
    # close would be three): an action runs a dozen statements.
    async def _one(self, sql: str, params: Iterable[Any] = ()) -> aiosqlite.Row | None:
        rows = await self.db.execute_fetchall(sql, tuple(params))
        return next(iter(rows), None)

    async def _all(self, sql: str, params: Iterable[Any] = ()) -> list[aiosqlite.Row]:
        return list(await self.db.execute_fetchall(sql, tuple(params)))

    async def _run(self, sql: str, params: Iterable[Any] = ()) -> None:
        await self.db.execute_fetchall(sql, tuple(params))

    async def _insert(self, sql: str, params: Iterable[Any] = ()) -> int:
        row = await self.db.execute_insert(sql, tuple(params))
        return int(row[0]) if row else 0

    async def lock_game(self, game_id: int) -> None:
        """Serialise this transaction with every other one on the game, in every process:
        PostgreSQL's transaction-scoped advisory lock, held until commit or rollback. On
        SQLite the store's single writer (BEGIN IMMEDIATE, one process) already does."""
        if self.dialect == "postgresql":
            await self._run("SELECT pg_advisory_xact_lock(?)", (game_id,))

    # games -------------------------------------------------------------------------
    async def insert_game(self, game: NewGameRow) -> int:
        return await self._insert(
            "INSERT INTO games (guild_id, channel_id, game_name, options, seed, status, state,"
            " version, creator_id, hotseat, created_at, updated_at)"
            " VALUES (?, ?, ?, ?, ?, 'lobby', ?, 0, ?, ?, ?, ?)",
            (
                game.guild_id,
                game.channel_id,
                game.game_name,
                dumps(game.options),
                game.seed,
                dumps(game.state),
                game.creator_id,
                int(game.hotseat),
                self.now,
                self.now,
            ),
        )

    async def game(self, game_id: int) -> GameRow | None:
        row = await self._one(_sql("game"), (game_id,))
        return _game(row) if row else None

    async def version_of(self, game_id: int) -> int | None:
        row = await self._one("SELECT version FROM games WHERE id = ?", (game_id,))
        return int(row[0]) if row else None

    async def live_game_in_channel(self, channel_id: str) -> GameRow | None:
        row = await self._one(_sql("live_game_in_channel"), (channel_id,))
        return _game(row) if row else None

    async def latest_game_in_channel(self, channel_id: str) -> GameRow | None:
        row = await self._one(_sql("latest_game_in_channel"), (channel_id,))
        return _game(row) if row else None

    async def games_of_user(self, user_id: str) -> list[GameRow]:
        """The user's games being set up or played, oldest first."""
        rows = await self._all(_sql("games_of_user"), (user_id,))
        return [_game(r) for r in rows]

    async def games_awaiting(self, users: Iterable[str]) -> list[int]:
        """Ids of the healthy live games in which one of ``users`` owes a decision,
        in order. One query per user: an equality is always answered from the index."""
        found: set[int] = set()
        for user in users:
            found.update(int(r[0]) for r in await self._all(_sql("games_awaiting"), (user,)))
        return sorted(found)

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

    async def set_rematch_of(self, game_id: int, previous: int) -> None:
        await self._run("UPDATE games SET rematch_of = ? WHERE id = ?", (previous, game_id))

    # -- a keyed game's secret key, kept apart from the state (migration 0010) ---------

    async def set_game_key(self, game_id: int, key: str) -> None:
        await self._run("INSERT INTO game_keys (game_id, key) VALUES (?, ?)", (game_id, key))

    async def game_key(self, game_id: int) -> str | None:
        """For the export (after the end, or a moderator's rescue) and the seed of
        Dispatch's searches (``bot.seats.bots.search_seed``): never shown."""
        row = await self._one("SELECT key FROM game_keys WHERE game_id = ?", (game_id,))
        return str(row[0]) if row else None

    async def mark_damaged(self, game_id: int, reason: str) -> bool:
        """Record why a game cannot be handled; True when it was healthy until now."""
        rows = await self._all(
            "UPDATE games SET damaged = ? WHERE id = ? AND damaged IS NULL RETURNING id",
            (reason[:300], game_id),
        )
        return bool(rows)

    async def set_status(self, game_id: int, status: str) -> None:
        await self._run(
            "UPDATE games SET status = ?, updated_at = ? WHERE id = ?", (status, self.now, game_id)
        )
        if status in ENDED:
            # Every way a game ends passes here: its jobs go in the same transaction.
            await self.drop_bot_jobs(game_id)

    # seats -------------------------------------------------------------------------
    async def seats(self, game_id: int) -> list[SeatRow]:
        rows = await self._all(_sql("seats"), (game_id,))
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
        rows = await self._all(
            "UPDATE seats SET dm_failed = 0 WHERE user_id = ? AND dm_failed = 1 RETURNING 1",
            (user_id,),
        )
        return len(rows)

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

    async def update_seat(
        self, game_id: int, role: str, *, private_seen: int, prompt: tuple[int, str] | None
    ) -> None:
        """After an action: how much private news the seat has had, and, when its decision
        changed, the version and digest of its new prompt (one statement for both)."""
        if prompt is None:
            await self.set_private_seen(game_id, role, private_seen)
            return
        await self._run(
            "UPDATE seats SET private_seen = ?, prompt_version = ?, prompt_digest = ?"
            " WHERE game_id = ? AND role = ?",
            (private_seen, prompt[0], prompt[1], game_id, role),
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
        """The game's action log in order; ``CorruptGame`` when a row cannot be read (the
        message names the row, never what it holds)."""
        rows = await self._all(_sql("actions"), (game_id,))
        found = []
        for r in rows:
            try:
                arg = json.loads(r["arg"])
            except (TypeError, ValueError):
                raise errors.CorruptGame(game_id, f"action {r['seq']} is unreadable") from None
            found.append(
                ActionRow(
                    game_id=r["game_id"],
                    seq=r["seq"],
                    role=r["role"],
                    user_id=r["user_id"],
                    verb=r["verb"],
                    arg=arg,
                    at=r["at"],
                )
            )
        return found

    async def count_actions(self, game_id: int) -> int:
        row = await self._one("SELECT COUNT(*) FROM actions WHERE game_id = ?", (game_id,))
        return int(row[0]) if row else 0

    # outbox ------------------------------------------------------------------------
    async def queue(
        self, game_id: int, kind: str, target: str | None, payload: dict[str, Any]
    ) -> int:
        """Queue a post or message; always inside the transaction of the change it tells."""
        row_id = await self._insert(
            "INSERT INTO outbox (game_id, kind, target, payload, created_at, next_attempt_at)"
            " VALUES (?, ?, ?, '', ?, ?)",
            (game_id, kind, target, self.now, self.now),
        )
        await self._run(
            "INSERT INTO outbox_payloads (outbox_id, payload) VALUES (?, ?)",
            (row_id, dumps(payload)),
        )
        return row_id

    async def undelivered(self, game_id: int | None = None) -> list[OutboxRow]:
        """Every undelivered row in order, due or not (the caller applies backoff)."""
        if game_id is None:
            rows = await self._all(_sql("undelivered"))
        else:
            rows = await self._all(_sql("undelivered_of_game"), (game_id,))
        return [_outbox(r) for r in rows]

    async def table_parked(self, game_id: int) -> bool:
        """Whether the game's table posts wait, parked, for its channel to be fixed."""
        return await self._one(_sql("table_parked"), (game_id,)) is not None

    async def games_with_undelivered(self) -> list[int]:
        """Ids of the games that have something left to deliver (read from the index)."""
        return [int(r[0]) for r in await self._all(_sql("games_with_undelivered"))]

    async def mark_delivered(self, outbox_id: int, note: str | None = None) -> None:
        # The payload (a whole view) is never read again once delivered: a trigger deletes
        # it from outbox_payloads in this same statement (migration 0009), which frees its
        # pages for the next payloads; '' empties a row queued before that migration.
        await self._run(
            "UPDATE outbox SET delivered_at = ?, attempts = attempts + 1, last_error = ?,"
            " payload = '' WHERE id = ?",
            (self.now, note, outbox_id),
        )

    async def mark_sending(self, outbox_id: int) -> None:
        """Record that the row's first send starts now (later sends keep that time): from
        then on it may be on Discord whatever its mark says."""
        await self._run(
            "UPDATE outbox SET sent_at = ? WHERE id = ? AND sent_at IS NULL", (self.now, outbox_id)
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
            " due_at = excluded.due_at, interval_s = excluded.interval_s, fired = 0,"
            " claimed_by = NULL, lease_until = NULL",
            (game_id, kind, role, user_id, due_at, interval_s),
        )

    async def timers(self, game_id: int) -> list[TimerRow]:
        rows = await self._all(_sql("timers"), (game_id,))
        return [_timer(r) for r in rows]

    async def due_timers(self, now: float) -> list[TimerRow]:
        rows = await self._all(_sql("due_timers"), (now,))
        return [_timer(r) for r in rows]

    async def reschedule_timer(self, timer_id: int, due_at: float, interval_s: float) -> None:
        await self._run(
            "UPDATE timers SET due_at = ?, interval_s = ?, fired = fired + 1,"
            " claimed_by = NULL, lease_until = NULL WHERE id = ?",
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
        self,
        game_id: int,
        winner: str | None,
        reason: str,
        score: dict[str, Any],
        code: str = "unrecorded",
    ) -> None:
        await self._run(
            "INSERT INTO results (game_id, winner, reason, score, finished_at, code)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET"
            " winner = excluded.winner, reason = excluded.reason, score = excluded.score,"
            " finished_at = excluded.finished_at, code = excluded.code",
            (game_id, winner, reason, dumps(score), self.now, code),
        )

    async def result(self, game_id: int) -> ResultRow | None:
        r = await self._one(_sql("result"), (game_id,))
        if r is None:
            return None
        try:
            score = json.loads(r["score"])
        except ValueError:
            score = {}
        return ResultRow(r["game_id"], r["winner"], r["reason"], score, r["finished_at"], r["code"])

    # user settings -----------------------------------------------------------------
    async def notify_prefs(self, user_ids: Iterable[str]) -> dict[str, str]:
        """Where each of these users wants their turn announced (absent: the default)."""
        users = list(dict.fromkeys(user_ids))
        if not users:
            return {}
        marks = ", ".join("?" for _ in users)
        rows = await self._all(
            f"SELECT user_id, notify FROM user_settings WHERE user_id IN ({marks})", users
        )
        return {r["user_id"]: r["notify"] for r in rows}

    async def set_notify(self, user_id: str, notify: str) -> None:
        await self._run(
            "INSERT INTO user_settings (user_id, notify) VALUES (?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET notify = excluded.notify",
            (user_id, notify),
        )

    # live prompts --------------------------------------------------------------------
    async def live_prompts(self, game_id: int) -> dict[str, tuple[str, str]]:
        """``{user_id: (channel_id, message_id)}`` of the game's live prompt messages."""
        rows = await self._all(_sql("live_prompts"), (game_id,))
        return {r["user_id"]: (r["channel_id"], r["message_id"]) for r in rows}

    async def set_live_prompt(
        self, game_id: int, user_id: str, where: tuple[str, str] | None
    ) -> None:
        """Remember (or, with None, forget) the message holding a player's live prompt."""
        if where is None:
            await self._run(
                "DELETE FROM live_prompts WHERE game_id = ? AND user_id = ?", (game_id, user_id)
            )
            return
        await self._run(
            "INSERT INTO live_prompts (game_id, user_id, channel_id, message_id)"
            " VALUES (?, ?, ?, ?) ON CONFLICT (game_id, user_id) DO UPDATE SET"
            " channel_id = excluded.channel_id, message_id = excluded.message_id",
            (game_id, user_id, where[0], where[1]),
        )

    # solo card lists ---------------------------------------------------------------
    async def solo_card_list(self, scope: str, playsheet: str) -> tuple[str, int] | None:
        """The CSV card list imported for ``playsheet`` in ``scope``, and its card count."""
        r = await self._one(
            "SELECT csv, cards FROM solo_card_lists WHERE scope = ? AND playsheet = ?",
            (scope, playsheet),
        )
        return (str(r["csv"]), int(r["cards"])) if r else None

    async def set_solo_card_list(
        self, scope: str, playsheet: str, csv: str, cards: int, user_id: str
    ) -> None:
        await self._run(
            "INSERT INTO solo_card_lists (scope, playsheet, csv, cards, imported_by, imported_at)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (scope, playsheet) DO UPDATE SET"
            " csv = excluded.csv, cards = excluded.cards, imported_by = excluded.imported_by,"
            " imported_at = excluded.imported_at",
            (scope, playsheet, csv, cards, user_id, self.now),
        )

    async def delete_solo_card_list(self, scope: str, playsheet: str) -> bool:
        """Forget the card list of ``playsheet`` in ``scope``; False when there was none.
        Sessions that started with it keep their copy (it is in their options)."""
        where = (scope, playsheet)
        if await self.solo_card_list(*where) is None:
            return False
        await self._run("DELETE FROM solo_card_lists WHERE scope = ? AND playsheet = ?", where)
        return True

    # channel settings --------------------------------------------------------------
    async def reminder_hours(self, channel_id: str, default: float) -> float:
        r = await self._one(_sql("reminder_hours"), (channel_id,))
        return float(r[0]) if r else default

    async def set_reminder_hours(self, channel_id: str, guild_id: str | None, hours: float) -> None:
        await self._run(
            "INSERT INTO channel_settings (channel_id, guild_id, reminder_hours) VALUES (?, ?, ?)"
            " ON CONFLICT (channel_id) DO UPDATE SET reminder_hours = excluded.reminder_hours",
            (channel_id, guild_id, hours),
        )

    # ratings (issue 26, section 4; migration 0012) ---------------------------------
    async def rating(self, scope: str, game_name: str, player_id: str) -> RatingRow | None:
        r = await self._one(_sql("ratings_of"), (scope, game_name, player_id))
        return _rating(r) if r is not None else None

    async def save_rating(self, rating: RatingRow) -> None:
        await self._run(
            "INSERT INTO ratings (scope, game_name, player_id, mu, sigma, points,"
            " games, wins, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (scope, game_name, player_id) DO UPDATE SET mu = excluded.mu,"
            " sigma = excluded.sigma, points = excluded.points, games = excluded.games,"
            " wins = excluded.wins, updated_at = excluded.updated_at",
            (
                rating.scope,
                rating.game_name,
                rating.player_id,
                rating.mu,
                rating.sigma,
                rating.points,
                rating.games,
                rating.wins,
                self.now,
            ),
        )

    async def leaderboard(self, scope: str, game_name: str, limit: int) -> list[RatingRow]:
        rows = await self._all(_sql("leaderboard"), (scope, game_name, limit))
        return [_rating(r) for r in rows]

    async def add_rating_change(self, change: RatingChangeRow) -> None:
        """Raises ``sqlite3.IntegrityError`` for a seat of a game already rated."""
        await self._run(
            "INSERT INTO rating_changes (game_id, role, player_id, points_was, points_now)"
            " VALUES (?, ?, ?, ?, ?)",
            (change.game_id, change.role, change.player_id, change.points_was, change.points_now),
        )

    async def rating_changes(self, game_id: int) -> list[RatingChangeRow]:
        rows = await self._all(_sql("rating_changes"), (game_id,))
        return [
            RatingChangeRow(
                r["game_id"], r["role"], r["player_id"], r["points_was"], r["points_now"]
            )
            for r in rows
        ]

    async def decisions_by_role(self, game_id: int) -> dict[str, int]:
        """How many actions each role took (undos not counted)."""
        rows = await self._all(_sql("decisions_by_role"), (game_id,))
        return {str(r["role"]): int(r["n"]) for r in rows}

    # -- clocks (issue 26, section 1; migration 0014_clocks) ----------------------------
    async def set_game_clock(
        self, game_id: int, initial_s: float, increment_s: float, cap_s: float
    ) -> None:
        await self._run(
            "INSERT INTO game_clocks (game_id, initial_s, increment_s, cap_s)"
            " VALUES (?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET"
            " initial_s = excluded.initial_s, increment_s = excluded.increment_s,"
            " cap_s = excluded.cap_s",
            (game_id, initial_s, increment_s, cap_s),
        )

    async def game_clock(self, game_id: int) -> tuple[float, float, float] | None:
        """(start, increment, cap) of the game's time control, None for no clock."""
        r = await self._one(_sql("game_clock"), (game_id,))
        return (r["initial_s"], r["increment_s"], r["cap_s"]) if r else None

    async def clock_rows(self, game_id: int) -> list[ClockRow]:
        rows = await self._all(_sql("clock_rows"), (game_id,))
        return [
            ClockRow(
                r["role"],
                r["remaining_s"],
                r["running_since"],
                r["deadline"],
                r["warn_at"],
                r["flagged_at"],
            )
            for r in rows
        ]

    async def save_clocks(self, game_id: int, rows: Iterable[ClockRow]) -> None:
        for c in rows:
            await self._run(
                "INSERT INTO clocks (game_id, role, remaining_s, running_since, deadline,"
                " warn_at, flagged_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (game_id, role) DO UPDATE SET remaining_s = excluded.remaining_s,"
                " running_since = excluded.running_since, deadline = excluded.deadline,"
                " warn_at = excluded.warn_at, flagged_at = excluded.flagged_at,"
                " claimed_by = NULL, lease_until = NULL",
                (
                    game_id,
                    c.role,
                    c.remaining_s,
                    c.running_since,
                    c.deadline,
                    c.warn_at,
                    c.flagged_at,
                ),
            )

    async def delete_clock(self, game_id: int, role: str) -> None:
        await self._run("DELETE FROM clocks WHERE game_id = ? AND role = ?", (game_id, role))

    async def expired_clocks(self, now: float, limit: int = 100) -> list[tuple[int, str]]:
        """(game, role) of the running clocks whose deadline is at or before ``now``."""
        rows = await self._all(_sql("expired_clocks"), (now, limit))
        return [(int(r["game_id"]), str(r["role"])) for r in rows]

    async def due_clock_warnings(self, now: float, limit: int = 100) -> list[tuple[int, str]]:
        """(game, role) of the running clocks whose next warning is due at ``now``."""
        rows = await self._all(_sql("due_clock_warnings"), (now, limit))
        return [(int(r["game_id"]), str(r["role"])) for r in rows]

    async def set_clock_warning(self, game_id: int, role: str, warn_at: float | None) -> None:
        await self._run(
            "UPDATE clocks SET warn_at = ? WHERE game_id = ? AND role = ?",
            (warn_at, game_id, role),
        )

    async def default_clock(self, guild_id: str) -> str | None:
        """A server's default clock for new games (None: never set)."""
        r = await self._one("SELECT clock FROM clock_defaults WHERE guild_id = ?", (guild_id,))
        return str(r[0]) if r else None

    async def set_default_clock(self, guild_id: str, clock: str) -> None:
        await self._run(
            "INSERT INTO clock_defaults (guild_id, clock) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET clock = excluded.clock",
            (guild_id, clock),
        )

    async def beat(self) -> None:
        """The bot is running at ``now`` (the heartbeat)."""
        await self._run(
            "INSERT INTO heartbeat (id, beat_at) VALUES (1, ?)"
            " ON CONFLICT (id) DO UPDATE SET beat_at = excluded.beat_at",
            (self.now,),
        )

    async def last_beat(self) -> float | None:
        r = await self._one("SELECT beat_at FROM heartbeat WHERE id = 1")
        return float(r[0]) if r else None

    async def shift_running_clocks(self, since: float) -> None:
        """Give back to every clock what it ran between ``since`` and now (the bot was
        down): all of it for one running before, the part after its start for one that
        started meanwhile, nothing for one still paused (read through the deadline index)."""
        now, down = self.now, self.now - since
        # This order: once moved on, a clock of the first kind would match the second.
        await self._run(_sql("shift_clocks_started_while_down"), (now, now, now, since, now))
        await self._run(_sql("shift_running_clocks"), (down, down, down, since))

    # -- end of clocks ------------------------------------------------------------------
    # hints (issue 27, section 4; migration 0015) -----------------------------------
    async def add_hint(self, game_id: int, role: str) -> None:
        """Count one ``/game hint`` by ``role``: the game is assisted from now on."""
        await self._run(
            "INSERT INTO hints (game_id, role, count) VALUES (?, ?, 1)"
            " ON CONFLICT (game_id, role) DO UPDATE SET count = hints.count + 1",
            (game_id, role),
        )

    async def hints_used(self, game_id: int) -> int:
        """How many hints were asked in the game, by every seat together."""
        r = await self._one(_sql("hints_used"), (game_id,))
        return int(r["n"]) if r is not None else 0

    async def add_bot_estimate(self, row: BotEstimateRow) -> None:
        await self._run(
            "INSERT INTO bot_estimates (game_id, version, role, estimate, move)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, version) DO UPDATE SET"
            " role = excluded.role, estimate = excluded.estimate, move = excluded.move",
            (row.game_id, row.version, row.role, row.estimate, row.move),
        )

    async def drop_bot_estimate(self, game_id: int, version: int) -> None:
        await self._run(
            "DELETE FROM bot_estimates WHERE game_id = ? AND version = ?", (game_id, version)
        )

    async def name_bot_move(self, game_id: int, version: int, move: str) -> None:
        await self._run(
            "UPDATE bot_estimates SET move = ? WHERE game_id = ? AND version = ?",
            (move, game_id, version),
        )

    async def bot_estimates(self, game_id: int) -> list[BotEstimateRow]:
        """Dispatch's estimates in a game, in the order of its moves."""
        rows = await self._all(_sql("bot_estimates"), (game_id,))
        return [
            BotEstimateRow(r["game_id"], r["version"], r["role"], r["estimate"], r["move"])
            for r in rows
        ]

    # seats that change hands (issue 26, section 6; migration 0013) -----------------
    async def set_seat_user(self, game_id: int, role: str, user_id: str, version: int) -> None:
        """The seat has a new holder: their DMs are presumed open, they asked nothing yet,
        and their prompt is fresh from ``version`` (the old holder's buttons are theirs)."""
        await self._run(
            "UPDATE seats SET user_id = ?, dm_failed = 0, abandon_requested = 0,"
            " prompt_version = ? WHERE game_id = ? AND role = ?",
            (user_id, version, game_id, role),
        )

    async def add_seat_change(
        self, game_id: int, role: str, users: tuple[str, str, str], how: str, version: int
    ) -> None:
        """``users``: (from, to, by)."""
        await self._run(
            "INSERT INTO seat_changes (game_id, role, from_user, to_user, by_user, how,"
            " at_version, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (game_id, role, *users, how, version, self.now),
        )

    async def seat_changes(self, game_id: int) -> list[SeatChangeRow]:
        return [_seat_change(r) for r in await self._all(_sql("seat_changes"), (game_id,))]

    async def seat_passed(self, game_id: int, user_id: str) -> SeatChangeRow | None:
        """The last seat ``user_id`` gave up in the game, if any."""
        r = await self._one(_sql("seat_passed"), (game_id, user_id))
        return _seat_change(r) if r is not None else None

    async def add_seat_offer(
        self, game_id: int, role: str, users: tuple[str, str], version: int, expires_at: float
    ) -> int:
        """``users``: (from, to). An earlier open offer of the same seat is withdrawn."""
        await self._run(
            "UPDATE seat_offers SET status = 'withdrawn'"
            " WHERE game_id = ? AND status = 'open' AND role = ?",
            (game_id, role),
        )
        return await self._insert(
            "INSERT INTO seat_offers (game_id, role, from_user, to_user, at_version,"
            " created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (game_id, role, *users, version, self.now, expires_at),
        )

    async def seat_offer(self, offer_id: int) -> SeatOfferRow | None:
        r = await self._one(_sql("seat_offer"), (offer_id,))
        return _seat_offer(r) if r is not None else None

    async def open_seat_offers(self, game_id: int) -> list[SeatOfferRow]:
        return [_seat_offer(r) for r in await self._all(_sql("open_seat_offers"), (game_id,))]

    async def set_offer_status(self, offer_id: int, status: str) -> None:
        await self._run("UPDATE seat_offers SET status = ? WHERE id = ?", (status, offer_id))

    async def withdraw_seat_offers(self, game_id: int) -> None:
        """Every open offer of the game lapses (a seat changed hands)."""
        await self._run(
            "UPDATE seat_offers SET status = 'withdrawn' WHERE game_id = ? AND status = 'open'",
            (game_id,),
        )

    # end of seats that change hands ------------------------------------------------

    # vacations and claims on time (issue 26, section 1; migration 0016) ------------
    async def clock_rules(self, guild_id: str) -> tuple[str, int] | None:
        """A server's (on_time, vacation_days), None when never set."""
        r = await self._one(_sql("clock_rules"), (guild_id,))
        return (str(r["on_time"]), int(r["vacation_days"])) if r else None

    async def set_clock_rules(self, guild_id: str, on_time: str, vacation_days: int) -> None:
        await self._run(
            "INSERT INTO clock_rules (guild_id, on_time, vacation_days) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET on_time = excluded.on_time,"
            " vacation_days = excluded.vacation_days",
            (guild_id, on_time, vacation_days),
        )

    async def vacation_days_used(self, user_id: str, scope: str, since: float) -> int:
        """Days of the vacations ``user_id`` began in ``scope`` after ``since``."""
        r = await self._one(_sql("vacation_days_used"), (user_id, scope, since))
        return int(r["n"]) if r else 0

    async def current_vacation(self, user_id: str, scope: str) -> VacationRow | None:
        """The vacation ``user_id`` is on in ``scope`` now, if any."""
        r = await self._one(_sql("current_vacation"), (user_id, scope, self.now))
        return VacationRow(**{k: r[k] for k in VacationRow.__dataclass_fields__}) if r else None

    async def add_vacation(self, row: VacationRow) -> None:
        """A vacation from now on, its end to be told at the player's tables (``back_due``)."""
        await self._run(
            "INSERT INTO vacations (user_id, scope, starts_at, ends_at, days, back_due)"
            " VALUES (?, ?, ?, ?, ?, 1)",
            (row.user_id, row.scope, row.starts_at, row.ends_at, row.days),
        )

    async def cut_vacation(self, row: VacationRow, ends_at: float, days: int) -> None:
        """End ``row`` early at ``ends_at``; it counts ``days`` from now on. Its end is told
        by whoever ends it, so it is no longer due to the background pass."""
        await self._run(
            "UPDATE vacations SET ends_at = ?, days = ?, back_due = 0"
            " WHERE user_id = ? AND scope = ? AND starts_at = ?",
            (ends_at, days, row.user_id, row.scope, row.starts_at),
        )

    async def vacations_back_due(self) -> list[VacationRow]:
        """Vacations that ran to their end by now and whose end is not told yet, the
        earliest end first (at most 50 a pass), from the index of the due ones."""
        rows = await self._all(_sql("vacations_back_due"), (self.now,))
        return [VacationRow(**{k: r[k] for k in VacationRow.__dataclass_fields__}) for r in rows]

    async def claim_vacation_back(self, row: VacationRow) -> bool:
        """Take the telling of ``row``'s end: True for the one transaction that takes it
        (of several processes' passes, the others find it taken)."""
        taken = await self._all(
            "UPDATE vacations SET back_due = 0"
            " WHERE user_id = ? AND scope = ? AND starts_at = ? AND back_due = 1"
            " RETURNING 1",
            (row.user_id, row.scope, row.starts_at),
        )
        return bool(taken)

    async def clocked_seats_of(self, user_id: str, scope: str) -> list[tuple[int, str]]:
        """(game, role) of each clocked seat ``user_id`` holds in a running game of
        ``scope`` (a server's id, '' for games outside one)."""
        rows = await self._all(_sql("clocked_seats_of"), (user_id, scope))
        return [(int(r["game_id"]), str(r["role"])) for r in rows]

    # end of vacations and claims on time -------------------------------------------

    # -- a thread per game (issue 26, section 2) ------------------------------------
    async def threads_setting(self, guild_id: str) -> bool | None:
        """Whether ``/game new`` opens a thread per game on this server (None: never set)."""
        r = await self._one("SELECT threads FROM thread_settings WHERE guild_id = ?", (guild_id,))
        return bool(r[0]) if r else None

    async def set_threads_setting(self, guild_id: str, on: bool) -> None:
        await self._run(
            "INSERT INTO thread_settings (guild_id, threads) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET threads = excluded.threads",
            (guild_id, int(on)),
        )

    async def set_game_lobby(self, game_id: int, channel_id: str, message_id: str | None) -> None:
        """The game's lobby post is ``message_id`` in ``channel_id`` (the thread's parent)."""
        await self._run(
            "INSERT INTO game_lobbies (game_id, channel_id, message_id) VALUES (?, ?, ?)"
            " ON CONFLICT (game_id) DO UPDATE SET channel_id = excluded.channel_id,"
            " message_id = excluded.message_id",
            (game_id, channel_id, message_id),
        )

    async def game_lobby(self, game_id: int) -> tuple[str, str | None] | None:
        """(channel, message) of the game's lobby post in a parent channel, if it has one."""
        r = await self._one(
            "SELECT channel_id, message_id FROM game_lobbies WHERE game_id = ?", (game_id,)
        )
        return (str(r[0]), str(r[1]) if r[1] is not None else None) if r else None

    async def live_games_from(self, channel_id: str) -> list[GameRow]:
        """The games being set up or played whose lobby is in ``channel_id`` (they live
        in threads of it), oldest first."""
        rows = await self._all(
            "SELECT games.* FROM game_lobbies JOIN games ON games.id = game_lobbies.game_id"
            " WHERE game_lobbies.channel_id = ? AND games.status IN ('lobby', 'active')"
            " ORDER BY games.id LIMIT 25",
            (channel_id,),
        )
        return [_game(r) for r in rows]

    async def move_game(self, game_id: int, channel_id: str) -> None:
        """The game is played in ``channel_id`` from now on; its table posts that waited
        for the old channel (parked) are due again, now."""
        await self._run(
            "UPDATE games SET channel_id = ?, updated_at = ? WHERE id = ?",
            (channel_id, self.now, game_id),
        )
        await self._run(
            "UPDATE outbox SET next_attempt_at = ?, last_error = NULL"
            " WHERE game_id = ? AND kind = 'table' AND delivered_at IS NULL",
            (self.now, game_id),
        )

    # -- AI workers anywhere: the jobs Dispatch owes (issue 25 §4; migration 0019) -----
    # One row per move owed, written with the turn that made it owed; claimed with a
    # lease like the outbox, timers and clocks (SKIP LOCKED on PostgreSQL), so that two
    # processes never search the same move, and a dead process's job is claimed again.

    async def owe_bot_move(self, game_id: int, role: str, version: int, level: str) -> bool:
        """Dispatch owes ``role``'s move at ``version`` (once: a second call changes
        nothing); True when the job is new."""
        # Only while the game is active: an ended game keeps no jobs (``drop_bot_jobs``).
        rows = await self._all(
            "INSERT INTO bot_jobs (game_id, role, version, level, created_at)"
            " SELECT CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS BIGINT),"
            " CAST(? AS TEXT), CAST(? AS DOUBLE PRECISION)"
            " WHERE EXISTS (SELECT 1 FROM games WHERE id = ? AND status = 'active')"
            " ON CONFLICT (game_id, role, version) DO NOTHING RETURNING game_id",
            (game_id, role, version, level, self.now, game_id),
        )
        if rows and self.dialect == "postgresql":
            # Delivered at commit: the idle workers LISTENing wake then (bot/workers).
            await self._run("SELECT pg_notify(?, '')", (JOBS_QUEUED,))
        return bool(rows)

    async def settle_bot_jobs(self, game_id: int, version: int, acting: str | None) -> int:
        """The game reached ``version``: its pending jobs of earlier versions are over,
        done when their role is the one that acted, stale otherwise. Returns how many."""
        rows = await self._all(
            "UPDATE bot_jobs SET status = CASE WHEN role = ? THEN 'done' ELSE 'stale' END,"
            " claimed_by = NULL, lease_until = NULL, finished_at = ?"
            " WHERE game_id = ? AND status = 'pending' AND version < ? RETURNING version",
            (acting or "", self.now, game_id, version),
        )
        return len(rows)

    async def claim_bot_jobs(
        self,
        owner: str,
        lease_s: float,
        *,
        max_attempts: int,
        limit: int = 1,
        game_id: int | None = None,
        lapsed_only: bool = False,
    ) -> list[BotJobRow]:
        """Claim pending jobs that no live lease holds and that have attempts left, oldest
        first; ``game_id``: that game's only; ``lapsed_only``: only jobs that another
        process claimed and lost (its lease ran out), for the bot while workers live."""
        where = "status = 'pending' AND attempts < ? AND (lease_until IS NULL OR lease_until <= ?)"
        params: list[Any] = [owner, self.now + lease_s, max_attempts, self.now]
        if game_id is not None:
            where += " AND game_id = ?"
            params.append(game_id)
        if lapsed_only:
            where += " AND claimed_by IS NOT NULL"
        params.append(limit)
        rows = await self._all(
            "UPDATE bot_jobs SET claimed_by = ?, lease_until = ?, attempts = attempts + 1"
            " WHERE (game_id, role, version) IN (SELECT game_id, role, version FROM bot_jobs"
            f" WHERE {where} ORDER BY created_at, game_id LIMIT ?{self._skip_locked()})"
            " RETURNING *",
            params,
        )
        return sorted((_bot_job(r) for r in rows), key=lambda j: (j.created_at, j.game_id))

    async def extend_bot_jobs(self, owner: str, lease_s: float) -> None:
        """Renew the leases ``owner`` holds (it is alive and still working)."""
        await self._run(
            "UPDATE bot_jobs SET lease_until = ? WHERE claimed_by = ? AND status = 'pending'",
            (self.now + lease_s, owner),
        )

    async def finish_bot_job(self, job: BotJobRow, status: str) -> None:
        """``job`` is over (done or stale), unless the turn's transaction settled it."""
        await self._run(
            "UPDATE bot_jobs SET status = ?, claimed_by = NULL, lease_until = NULL,"
            " finished_at = ? WHERE game_id = ? AND role = ? AND version = ?"
            " AND status = 'pending'",
            (status, self.now, job.game_id, job.role, job.version),
        )

    async def release_bot_jobs(self, owner: str) -> None:
        """Give back ``owner``'s claims at once (a clean stop: the attempt is not counted,
        so the next claimer starts where this one did)."""
        await self._run(
            "UPDATE bot_jobs SET claimed_by = NULL, lease_until = NULL,"
            " attempts = attempts - 1"
            " WHERE claimed_by = ? AND status = 'pending'",
            (owner,),
        )

    async def release_bot_job(self, job: BotJobRow, owner: str, *, counted: bool) -> None:
        """Give back one claim after its move failed; ``counted``: the attempt stays
        counted towards giving the job up."""
        back = "" if counted else ", attempts = attempts - 1"
        await self._run(
            f"UPDATE bot_jobs SET claimed_by = NULL, lease_until = NULL{back}"
            " WHERE game_id = ? AND role = ? AND version = ? AND claimed_by = ?",
            (job.game_id, job.role, job.version, owner),
        )

    async def fail_exhausted_bot_jobs(self, max_attempts: int) -> list[BotJobRow]:
        """Give up the pending jobs that used all their attempts and hold no live lease."""
        rows = await self._all(
            "UPDATE bot_jobs SET status = 'failed', claimed_by = NULL, lease_until = NULL,"
            " finished_at = ? WHERE status = 'pending' AND attempts >= ?"
            " AND (lease_until IS NULL OR lease_until <= ?) RETURNING *",
            (self.now, max_attempts, self.now),
        )
        return [_bot_job(r) for r in rows]

    async def bot_jobs(self, game_id: int) -> list[BotJobRow]:
        rows = await self._all(
            "SELECT * FROM bot_jobs WHERE game_id = ? ORDER BY version, role", (game_id,)
        )
        return [_bot_job(r) for r in rows]

    async def beat_worker(self, worker_id: str, *, done: int = 0, stale: int = 0) -> None:
        """``worker_id`` is alive now (and has made ``done`` moves, dropped ``stale``)."""
        await self._run(
            "INSERT INTO bot_workers (worker_id, started_at, heartbeat_at, jobs_done,"
            " jobs_stale) VALUES (?, ?, ?, ?, ?) ON CONFLICT (worker_id) DO UPDATE SET"
            " heartbeat_at = excluded.heartbeat_at, jobs_done = excluded.jobs_done,"
            " jobs_stale = excluded.jobs_stale",
            (worker_id, self.now, self.now, done, stale),
        )

    async def drop_worker(self, worker_id: str) -> None:
        await self._run("DELETE FROM bot_workers WHERE worker_id = ?", (worker_id,))

    async def workers_alive(self, within_s: float) -> int:
        """How many workers have beaten within the last ``within_s`` seconds."""
        r = await self._one(
            "SELECT COUNT(*) FROM bot_workers WHERE heartbeat_at > ?", (self.now - within_s,)
        )
        return int(r[0]) if r else 0

    # -- end of AI workers anywhere -----------------------------------------------------

    # -- claims with a lease (issue 25, section 3; migration 0018_claims) ---------------
    # Background work claims its rows before working, so that several processes on one
    # PostgreSQL database never handle the same row at once: ``owner`` is the claiming
    # process (``Store.instance``), ``lease_s`` how long its claim holds. A claim that
    # lapsed (its process died) is taken over; until then the row is the claimer's alone.

    def _skip_locked(self) -> str:
        return " FOR UPDATE SKIP LOCKED" if self.dialect == "postgresql" else ""

    async def claim_due_timers(
        self, now: float, owner: str, lease_s: float, limit: int = 100
    ) -> list[TimerRow]:
        """Claim the timers due at ``now`` that no live claim holds, in due order."""
        rows = await self._all(
            "UPDATE timers SET claimed_by = ?, lease_until = ? WHERE id IN ("
            "SELECT id FROM timers WHERE due_at <= ?"
            " AND (lease_until IS NULL OR lease_until <= ?)"
            f" ORDER BY due_at, id LIMIT ?{self._skip_locked()}) RETURNING *",
            (owner, now + lease_s, now, now, limit),
        )
        return sorted((_timer(r) for r in rows), key=lambda t: (t.due_at, t.id))

    async def _claim_clocks(
        self, column: str, now: float, owner: str, lease_s: float, limit: int
    ) -> list[tuple[int, str]]:
        rows = await self._all(
            "UPDATE clocks SET claimed_by = ?, lease_until = ? WHERE (game_id, role) IN ("
            f"SELECT game_id, role FROM clocks WHERE {column} IS NOT NULL AND {column} <= ?"
            " AND (lease_until IS NULL OR lease_until <= ?)"
            f" ORDER BY {column} LIMIT ?{self._skip_locked()})"
            f" RETURNING game_id, role, {column} AS due",
            (owner, now + lease_s, now, now, limit),
        )
        found = sorted(rows, key=lambda r: (r["due"], r["game_id"], r["role"]))
        return [(int(r["game_id"]), str(r["role"])) for r in found]

    async def claim_expired_clocks(
        self, now: float, owner: str, lease_s: float, limit: int = 100
    ) -> list[tuple[int, str]]:
        """Claim the running clocks whose deadline has come (``expired_clocks``)."""
        return await self._claim_clocks("deadline", now, owner, lease_s, limit)

    async def claim_clock_warnings(
        self, now: float, owner: str, lease_s: float, limit: int = 100
    ) -> list[tuple[int, str]]:
        """Claim the running clocks whose warning is due (``due_clock_warnings``)."""
        return await self._claim_clocks("warn_at", now, owner, lease_s, limit)

    async def release_clock(self, game_id: int, role: str, owner: str) -> None:
        await self._run(
            "UPDATE clocks SET claimed_by = NULL, lease_until = NULL"
            " WHERE game_id = ? AND role = ? AND claimed_by = ?",
            (game_id, role, owner),
        )

    async def release_timer(self, timer_id: int, owner: str) -> None:
        await self._run(
            "UPDATE timers SET claimed_by = NULL, lease_until = NULL"
            " WHERE id = ? AND claimed_by = ?",
            (timer_id, owner),
        )

    async def claim_outbox(self, game_id: int, owner: str, lease_s: float) -> bool:
        """Claim a game's undelivered rows, all of them (they go out in order): False when
        another process holds a live claim on any. Run inside a transaction that holds
        the game's lock (``Store.transaction(game=...)``)."""
        held = await self._one(
            "SELECT 1 FROM outbox WHERE delivered_at IS NULL AND game_id = ?"
            " AND claimed_by <> ? AND lease_until > ? LIMIT 1",
            (game_id, owner, self.now),
        )
        if held is not None:
            return False
        await self._run(
            "UPDATE outbox SET claimed_by = ?, lease_until = ?"
            " WHERE delivered_at IS NULL AND game_id = ?",
            (owner, self.now + lease_s, game_id),
        )
        return True

    async def release_outbox(self, game_id: int, owner: str) -> None:
        await self._run(
            "UPDATE outbox SET claimed_by = NULL, lease_until = NULL"
            " WHERE delivered_at IS NULL AND game_id = ? AND claimed_by = ?",
            (game_id, owner),
        )

    # -- end of claims ------------------------------------------------------------------

    # -- bot_jobs kept bounded (issue 25 §4; migration 0020_bot_jobs_prune) ---------------
    # A game's jobs go with the game (``set_status`` to an ended status), and a live game
    # keeps only its newest few finished jobs besides the pending ones (``owe_moves``):
    # the claims only ever read pending rows, and the newest finished one is what makes
    # a second write of a move just made (``BotSeats.play_one``) change nothing.

    async def drop_bot_jobs(self, game_id: int) -> None:
        """The game ended: every job of it goes, pending or finished (a process still
        searching one finds the game over and its job gone: nothing is applied)."""
        await self._run("DELETE FROM bot_jobs WHERE game_id = ?", (game_id,))

    async def prune_bot_jobs(self, game_id: int, keep: int) -> None:
        """Delete the game's finished jobs (done, stale, failed) older than its newest
        ``keep`` finished ones; pending jobs are never touched here."""
        await self._run(
            "DELETE FROM bot_jobs WHERE game_id = ? AND status <> 'pending' AND version <"
            " (SELECT MIN(version) FROM (SELECT version FROM bot_jobs WHERE game_id = ?"
            " AND status <> 'pending' ORDER BY version DESC LIMIT ?) AS newest)",
            (game_id, game_id, keep),
        )

    # -- end of bot_jobs kept bounded ----------------------------------------------------

    # -- an outbox claim renewed during a long delivery (issue 25 §3) ---------------------
    async def renew_outbox(self, game_id: int, owner: str, lease_s: float) -> None:
        """``owner`` is still delivering the game's rows: its claim on those it holds
        lasts ``lease_s`` from now (rows another process took over are left alone)."""
        await self._run(
            "UPDATE outbox SET lease_until = ?"
            " WHERE delivered_at IS NULL AND game_id = ? AND claimed_by = ?",
            (self.now + lease_s, game_id, owner),
        )

    # -- end of the outbox claim renewed --------------------------------------------------

    # -- every game's id and status, for ``dispatch store copy``'s replay check -----------
    async def game_statuses(self) -> list[tuple[int, str]]:
        rows = await self._all("SELECT id, status FROM games ORDER BY id")
        return [(int(r["id"]), str(r["status"])) for r in rows]

    # -- a hint still for the decision it was asked for (issue 27 §4, hint_desk) -----------
    async def acted_since(self, game_id: int, role: str, version: int) -> bool:
        """Whether ``role`` took an action after ``version`` (the actions' primary key:
        the game's actions from that version on)."""
        row = await self._one(
            "SELECT 1 FROM actions WHERE game_id = ? AND seq > ? AND role = ? LIMIT 1",
            (game_id, version, role),
        )
        return row is not None

    # -- end of a hint still for its decision -----------------------------------------------


class Store:
    """Owns the connection (SQLite) or the pool (PostgreSQL); open with ``Store.open``."""

    def __init__(
        self,
        db: aiosqlite.Connection | None,
        path: Path | str,
        clock: Clock,
        owner: ProcessLock | None,
        pool: asyncpg.Pool | None = None,
    ) -> None:
        self._db = db
        self._pool = pool
        #: The SQLite file, or the PostgreSQL URL.
        self.path = path
        self.clock = clock
        self._lock = asyncio.Lock()
        self._owner = owner
        #: This process's name in the claims it takes (migration 0018): host, pid, tag.
        self.instance = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"

    @property
    def dialect(self) -> str:
        return "postgresql" if self._pool is not None else "sqlite"

    @classmethod
    async def open(cls, path: str | Path, clock: Clock = time.time) -> Store:
        """Open (creating and migrating) the database file, or the PostgreSQL database a
        ``postgresql://`` URL names; a file is used by one process at a time.

        Raises ``StoreUnavailable`` with one sentence for an administrator when the file
        cannot be used: another Dispatch process has it, it is not a database or is
        damaged, it is read-only, the disk is full, or it stays locked past the timeout;
        or when the PostgreSQL server cannot be reached or refuses.
        """
        if is_postgres_url(path):
            return cls(None, str(path), clock, None, await _connect_postgres(str(path)))
        path = Path(path)
        try:
            if path.parent and not path.parent.exists():
                path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreUnavailable(path, f"its folder cannot be created ({exc.strerror})") from None
        # Creates a missing file, readable by the bot's own account only.
        owner = ProcessLock.acquire(path)
        try:
            db = await _connect(path)
            if owner.sole_holder:
                await _forget_claims(db)
        except BaseException:
            owner.release()
            raise
        return cls(db, path, clock, owner)

    async def close(self) -> None:
        if self._pool is not None:
            await self._pool.close()  # waits for the connections lent out to come back
            return
        async with self._lock:
            assert self._db is not None
            await self._db.close()
            if self._owner is not None:
                self._owner.release()
                self._owner = None

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[aiosqlite.Connection | PgConnection]:
        """A connection for one session: SQLite's one, under the store lock (one session
        at a time on it); or one of the PostgreSQL pool's, so that sessions run side by
        side, as those of several processes do (a game's transactions are kept one at a
        time by its advisory lock, ``Session.lock_game``; claims skip what is locked)."""
        if self._pool is None:
            async with self._lock:
                assert self._db is not None
                yield self._db
            return
        try:
            conn = await self._pool.acquire()
        except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as exc:
            log.warning("no connection to PostgreSQL: %r", exc)
            raise errors.SaveFailed() from None
        try:
            yield PgConnection(conn)
        finally:
            await self._pool.release(conn)

    # The three kinds of session. The database failing under them (disk full, locked past
    # the timeout, read-only, damaged pages, a server gone) becomes ``errors.SaveFailed``:
    # the player is told politely that nothing changed, and the transaction is rolled
    # back. A constraint violation (IntegrityError) is the caller's to handle and passes
    # through. PostgreSQL's errors arrive as sqlite3's classes (``bot.storage.engines``).

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Session]:
        async with self._connection() as db:
            try:
                yield Session(db, self.clock())
            except sqlite3.IntegrityError:
                raise
            except (sqlite3.Error, OSError) as exc:
                log.warning("reading the database failed: %r", exc)
                raise errors.SaveFailed(writing=False) from None

    @asynccontextmanager
    async def write(self) -> AsyncIterator[Session]:
        """One statement that commits by itself (no BEGIN/COMMIT round trips).

        For single-row bookkeeping such as marking an outbox row delivered; anything that
        must change several rows together uses ``transaction()``.
        """
        async with self._connection() as db:
            try:
                yield Session(db, self.clock())
            except sqlite3.IntegrityError:
                raise
            except (sqlite3.Error, OSError) as exc:
                log.warning("writing to the database failed: %r", exc)
                raise errors.SaveFailed() from None

    @asynccontextmanager
    async def transaction(self, game: int | None = None) -> AsyncIterator[Session]:
        """BEGIN (IMMEDIATE on SQLite) … COMMIT, rolled back if the block raises.

        ``game``: the transaction changes that game, and first takes its lock, so that
        the game's transactions in every process run one at a time (``Session.lock_game``).
        """
        async with self._connection() as db:
            begin, commit, rollback = _transaction_calls(db)
            try:
                await begin()
            except (sqlite3.Error, asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as exc:
                log.warning("starting a transaction failed: %r", exc)
                raise errors.SaveFailed() from None
            try:
                session = Session(db, self.clock())
                if game is not None:
                    await session.lock_game(game)
                yield session
                await commit()
            except BaseException as exc:
                with contextlib.suppress(
                    sqlite3.Error, asyncpg.PostgresError, asyncpg.InterfaceError, OSError
                ):
                    await rollback()
                if isinstance(exc, asyncpg.PostgresError | asyncpg.InterfaceError):
                    exc = _pg_error(exc)
                    if isinstance(exc, sqlite3.IntegrityError):
                        raise exc from None
                if isinstance(exc, sqlite3.IntegrityError) or not isinstance(
                    exc, sqlite3.Error | OSError
                ):
                    raise
                log.warning("a transaction failed and was rolled back: %r", exc)
                raise errors.SaveFailed() from None

    async def pragma(self, name: str) -> Any:
        """A SQLite pragma's value (None on PostgreSQL, which has none)."""
        if self._db is None:
            return None
        async with self._lock:
            rows = await self._db.execute_fetchall(f"PRAGMA {name}")
        row = next(iter(rows), None)
        return row[0] if row else None

    # -- bulk work on PostgreSQL (``dispatch store copy``) --------------------------------
    @asynccontextmanager
    async def bulk_connection(self) -> AsyncIterator[asyncpg.Connection]:
        """A connection of the PostgreSQL pool, held for bulk work that sessions do not
        speak (``dispatch store copy``: COPY into tables, moving the id sequences on).
        Not on SQLite, which has no pool: ``StoreUnavailable`` says so."""
        if self._pool is None:
            raise StoreUnavailable(self.path, "a bulk copy needs a PostgreSQL database")
        async with self._pool.acquire() as conn:
            yield conn


Step = Callable[[], Any]


def _transaction_calls(db: aiosqlite.Connection | PgConnection) -> tuple[Step, Step, Step]:
    """BEGIN, COMMIT and ROLLBACK on either engine's connection."""
    if isinstance(db, PgConnection):
        tx = db.conn.transaction()
        return tx.start, tx.commit, tx.rollback

    async def begin() -> None:
        await db.execute_fetchall("BEGIN IMMEDIATE")

    return begin, db.commit, db.rollback


def _pg_error(exc: BaseException) -> BaseException:
    return translate_error(exc) or exc


def _display(url: str) -> str:
    """The URL without its password, for messages and logs."""
    head, sep, tail = url.partition("@")
    if not sep or ":" not in head.split("//", 1)[-1]:
        return url
    scheme, _, user_pass = head.partition("//")
    return f"{scheme}//{user_pass.split(':', 1)[0]}:***@{tail}"


#: Connections a process keeps to PostgreSQL at most: its sessions run side by side on
#: them (a click, the courier, the background pass, the bot seats); more wait their turn.
POOL_SIZE = 8


async def _connect_postgres(url: str) -> asyncpg.Pool:
    """A small pool on the database, migrated; its failures as one sentence."""
    try:
        pool = await asyncpg.create_pool(
            url, min_size=1, max_size=POOL_SIZE, statement_cache_size=1024, command_timeout=60
        )
    except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError, ValueError) as exc:
        raise StoreUnavailable(_display(url), f"PostgreSQL refused it ({exc})") from None
    try:
        async with pool.acquire() as conn:
            await migrate_postgres(conn)
    except BaseException as exc:
        await pool.close()
        if isinstance(exc, asyncpg.PostgresError | asyncpg.InterfaceError | OSError):
            raise StoreUnavailable(_display(url), f"PostgreSQL refused it ({exc})") from None
        raise
    return pool


async def _connect(path: Path) -> aiosqlite.Connection:
    """Connect, set the pragmas and migrate, turning SQLite's failures into one sentence."""
    try:
        # isolation_level=None: we issue BEGIN/COMMIT ourselves, so a transaction is
        # exactly the span of ``transaction()`` and nothing is committed behind our back.
        db = await aiosqlite.connect(path, isolation_level=None)
    except sqlite3.Error as exc:
        raise StoreUnavailable(path, _why(exc)) from None
    db.row_factory = aiosqlite.Row
    try:
        await db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        await db.execute("PRAGMA journal_mode = WAL")
        await db.execute("PRAGMA foreign_keys = ON")
        # NORMAL is durable across application crashes in WAL mode; only a power
        # loss may drop the last transactions, never corrupt the file.
        await db.execute("PRAGMA synchronous = NORMAL")
        await migrate(db)
        await _probe_writing(db)
    except (sqlite3.Error, OSError) as exc:
        await db.close()
        raise StoreUnavailable(path, _why(exc)) from None
    except BaseException:
        await db.close()
        raise
    return db


async def _probe_writing(db: aiosqlite.Connection) -> None:
    """Take the write lock once and let it go: a database SQLite could only open
    read-only (its folder or file not writable) fails here, at start, with one line,
    instead of at every write afterwards."""
    await db.execute("BEGIN IMMEDIATE")
    await db.execute("ROLLBACK")


READ_ONLY = "it is read-only: Dispatch needs to write to it and to its folder"


def _why(exc: BaseException) -> str:
    text = str(exc).lower()
    if "not a database" in text or "malformed" in text or "corrupt" in text:
        return "it is not a Dispatch database, or it is damaged"
    if "readonly" in text or "read-only" in text or "permission" in text:
        return READ_ONLY
    if "full" in text:
        return "the disk is full"
    if "locked" in text or "busy" in text:
        return "another program keeps it locked"
    if "unable to open" in text:
        return "it cannot be opened (check the path and the folder's permissions)"
    return f"SQLite refused it ({exc})"


class StoreUnavailable(Exception):
    """The database file cannot be used; ``str()`` is one line for an administrator."""

    #: Exit code of ``python -m bot`` for this failure (a supervisor should not loop).
    exit_code = 3

    def __init__(self, path: Path | str, why: str) -> None:
        super().__init__(f"Cannot use the database {path}: {why}.")
        self.path = path


class StoreInUse(StoreUnavailable):
    """Another Dispatch process already runs on this database file."""

    exit_code = 4

    def __init__(self, path: Path) -> None:
        StoreUnavailable.__init__(
            self,
            path,
            "another Dispatch process is already using it (two would deliver every "
            "message twice); stop the other one first, or use PostgreSQL for several "
            "processes (DISPATCH_DATABASE_URL, docs/deploy.md)",
        )


#: The tables whose rows background work claims with a lease (migrations 0018, 0019).
CLAIMED_TABLES = ("outbox", "timers", "clocks", "bot_jobs")


async def _forget_claims(db: aiosqlite.Connection) -> None:
    """A SQLite file is one process's (``ProcessLock``): a claim found in it when that
    process opens it was left by one that ended (a crash, a kill), and is given back at
    once rather than after its lease, so a restarted bot delivers what waited at once."""
    for table in CLAIMED_TABLES:
        await db.execute(
            f"UPDATE {table} SET claimed_by = NULL, lease_until = NULL WHERE claimed_by IS NOT NULL"
        )
    await db.commit()


class ProcessLock:
    """One Dispatch process per database file: an exclusive ``flock`` on the file itself.

    Locking the database file's own inode (not a ``<file>.lock`` beside it) means a hard
    link to the database under another name, or deleting a lock file while the bot runs,
    cannot let a second process in. ``flock`` locks are separate from the POSIX byte-range
    locks SQLite takes on the same file, so the two never interfere. The operating system
    drops the lock when the process ends, however it ends, so a crash never leaves a stale
    lock behind. Within one process the lock is shared by every store on the file (tests
    restart a manager on the same file), whatever name each used.

    Opening the file for writing is also where a read-only database file is found: it
    cannot be used, and the administrator is told so at start (exit code 3).
    """

    _held: ClassVar[dict[tuple[int, int], tuple[ProcessLock, int]]] = {}

    def __init__(self, key: tuple[int, int], fd: int) -> None:
        self.key = key
        self._fd = fd

    @classmethod
    def acquire(cls, path: Path) -> ProcessLock:
        known = _file_key(path)
        held = cls._held.get(known) if known is not None else None
        if held is not None:
            # Found by name, without opening it: closing a second descriptor of the file
            # would drop the POSIX locks this process's SQLite connections hold on it.
            cls._held[held[0].key] = (held[0], held[1] + 1)
            return held[0]
        fd = _open_for_writing(path)
        stat = os.fstat(fd)
        key = (stat.st_dev, stat.st_ino)
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                raise StoreInUse(path) from None
        lock = cls(key, fd)
        cls._held[key] = (lock, 1)
        return lock

    @property
    def sole_holder(self) -> bool:
        """Whether this is the process's only store on the file: then no other store,
        in this process or another, holds a claim in it."""
        return self._held.get(self.key, (self, 1))[1] == 1

    def release(self) -> None:
        lock, count = self._held.get(self.key, (self, 1))
        if count > 1:
            self._held[self.key] = (lock, count - 1)
            return
        self._held.pop(self.key, None)
        os.close(self._fd)  # closing the descriptor releases the lock


def _file_key(path: Path) -> tuple[int, int] | None:
    """The file's identity (device, inode): the same for every name of a hard link."""
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return (stat.st_dev, stat.st_ino)


def _open_for_writing(path: Path) -> int:
    """The database file opened read-write (created, readable by its owner only, when
    missing); a file or folder the bot may not write is refused here with one sentence.

    Every game is in here whole, hidden hands and secret keys included, hence 0600
    (SQLite gives its -wal and -shm files the same permissions).
    """
    try:
        return os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o600)
    except OSError as exc:
        if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
            raise StoreUnavailable(path, READ_ONLY) from None
        raise StoreUnavailable(path, _why(exc)) from None
