"""A session: every statement the store sends, run on one connection while the session
lasts (``Store.read()`` or ``Store.transaction()`` hand one out).

``Session`` itself holds a game's own rows (the game, its seats, its actions, its lock);
everything else is in a group of statements named after what it is about, an attribute
of the session (``db.clocks.save_clocks(...)``, ``db.outbox.queue(...)``), each a small
class of ``bot.storage.statements``. The groups share the session's one context (its
connection and clock reading), made once per session. ``Session``'s own public names stay
few (``tests/project/test_architecture.py`` holds them to 30): a new kind of row gets a group."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

import aiosqlite

from bot.storage.engines import PgConnection, SqliteConnection
from bot.storage.errors import Damaged
from bot.storage.queries import ENDED, hot_sql
from bot.storage.rows import (
    ActionRow,
    GameRow,
    NewGameRow,
    SeatRow,
    dumps,
    read_game,
    read_seat,
)
from bot.storage.statements.base import SessionContext, Statements
from bot.storage.statements.bot_jobs import BotJobStatements
from bot.storage.statements.clocks import ClockStatements
from bot.storage.statements.hints import HintStatements
from bot.storage.statements.leagues import LeagueStatements
from bot.storage.statements.lobby import LobbyStatements
from bot.storage.statements.outbox import OutboxStatements
from bot.storage.statements.processes import ProcessStatements
from bot.storage.statements.prompts import PromptStatements
from bot.storage.statements.records import RecordStatements
from bot.storage.statements.seat_changes import SeatChangeStatements
from bot.storage.statements.settings import SettingStatements
from bot.storage.statements.timers import TimerStatements
from bot.storage.statements.upkeep import UpkeepStatements
from bot.storage.statements.web import WebStatements
from bot.storage.statements.workers import WorkerStatements


class Session(Statements):
    """A game's own rows, and every other statement in its group."""

    __slots__ = (
        "bot_jobs",
        "clocks",
        "hints",
        "leagues",
        "lobby",
        "outbox",
        "processes",
        "prompts",
        "records",
        "seat_changes",
        "settings",
        "timers",
        "upkeep",
        "web",
        "workers",
    )

    bot_jobs: BotJobStatements
    clocks: ClockStatements
    hints: HintStatements
    leagues: LeagueStatements
    lobby: LobbyStatements
    outbox: OutboxStatements
    processes: ProcessStatements
    prompts: PromptStatements
    records: RecordStatements
    seat_changes: SeatChangeStatements
    settings: SettingStatements
    timers: TimerStatements
    upkeep: UpkeepStatements
    web: WebStatements
    workers: WorkerStatements

    def __init__(
        self, db: aiosqlite.Connection | PgConnection | SqliteConnection, now: float
    ) -> None:
        # aiosqlite's own connection (a test's, a check's) is wrapped, so that its
        # failures are the store's errors as the engines' are.
        connection = db if isinstance(db, PgConnection | SqliteConnection) else SqliteConnection(db)
        context = SessionContext(connection, now)
        super().__init__(context)
        self.bot_jobs = BotJobStatements(context)
        self.clocks = ClockStatements(context)
        self.hints = HintStatements(context)
        self.leagues = LeagueStatements(context)
        self.lobby = LobbyStatements(context)
        self.outbox = OutboxStatements(context)
        self.processes = ProcessStatements(context)
        self.prompts = PromptStatements(context)
        self.records = RecordStatements(context)
        self.seat_changes = SeatChangeStatements(context)
        self.settings = SettingStatements(context)
        self.timers = TimerStatements(context)
        self.upkeep = UpkeepStatements(context)
        self.web = WebStatements(context)
        self.workers = WorkerStatements(context)

    async def lock_game(self, game_id: int) -> None:
        """Serialise this transaction with every other one on the game, in every process:
        PostgreSQL's transaction-scoped advisory lock, held until commit or rollback. On
        SQLite the store's single writer (BEGIN IMMEDIATE, one process) already does."""
        if self.dialect == "postgresql":
            await self._run("SELECT pg_advisory_xact_lock(?)", (game_id,))

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
        row = await self._one(hot_sql("game"), (game_id,))
        return read_game(row) if row else None

    async def version_of(self, game_id: int) -> int | None:
        row = await self._one("SELECT version FROM games WHERE id = ?", (game_id,))
        return int(row[0]) if row else None

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

    async def set_game_key(self, game_id: int, key: str) -> None:
        await self._run("INSERT INTO game_keys (game_id, key) VALUES (?, ?)", (game_id, key))

    async def game_key(self, game_id: int) -> str | None:
        """For the export (after the end, or a moderator's rescue) and the seed of
        Dispatch's searches (``bot.dispatch_players.seeding.search_seed``): never shown."""
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
            await self.bot_jobs.drop_bot_jobs(game_id)

    async def seats(self, game_id: int) -> list[SeatRow]:
        rows = await self._all(hot_sql("seats"), (game_id,))
        return [read_seat(r) for r in rows]

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
        rows = await self._all(hot_sql("actions"), (game_id,))
        found = []
        for r in rows:
            try:
                arg = json.loads(r["arg"])
            except (TypeError, ValueError):
                raise Damaged(game_id, f"action {r['seq']} is unreadable") from None
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

    async def action_at(self, game_id: int, seq: int) -> ActionRow | None:
        """The action recorded at ``seq`` (its primary key), or None: how a move whose
        COMMIT lost its connection finds out whether it was saved."""
        r = await self._one(
            "SELECT game_id, seq, role, user_id, verb, arg, at FROM actions"
            " WHERE game_id = ? AND seq = ?",
            (game_id, seq),
        )
        if r is None:
            return None
        try:
            arg = json.loads(r["arg"])
        except (TypeError, ValueError):
            raise Damaged(game_id, f"action {r['seq']} is unreadable") from None
        return ActionRow(r["game_id"], r["seq"], r["role"], r["user_id"], r["verb"], arg, r["at"])

    async def count_actions(self, game_id: int) -> int:
        row = await self._one("SELECT COUNT(*) FROM actions WHERE game_id = ?", (game_id,))
        return int(row[0]) if row else 0
