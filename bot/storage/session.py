"""A session: every statement the store sends, run on one connection while the session
lasts (``Store.read()`` or ``Store.transaction()`` hand one out). The core rows of a
game are here (games, seats, actions, the outbox, timers, results, settings, live
prompts, solo card lists); the community layer's statements and the background work's
come from their own groups (``community_statements``, ``background_statements``)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from bot.storage.background_statements import BackgroundStatements
from bot.storage.community_statements import CommunityStatements
from bot.storage.errors import Damaged
from bot.storage.queries import ENDED, hot_sql
from bot.storage.rows import (
    ActionRow,
    GameRow,
    NewGameRow,
    OutboxRow,
    ResultRow,
    SeatRow,
    TimerRow,
    dumps,
    read_game,
    read_outbox,
    read_seat,
    read_timer,
)

_QUEUE = (
    "INSERT INTO outbox (game_id, kind, target, payload, created_at, next_attempt_at)"
    " VALUES (?, ?, ?, '', ?, ?)"
)


class Session(CommunityStatements, BackgroundStatements):
    """The SQL, run on the store's connection while the session lasts."""

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
        row = await self._one(hot_sql("game"), (game_id,))
        return read_game(row) if row else None

    async def version_of(self, game_id: int) -> int | None:
        row = await self._one("SELECT version FROM games WHERE id = ?", (game_id,))
        return int(row[0]) if row else None

    async def live_game_in_channel(self, channel_id: str) -> GameRow | None:
        row = await self._one(hot_sql("live_game_in_channel"), (channel_id,))
        return read_game(row) if row else None

    async def latest_game_in_channel(self, channel_id: str) -> GameRow | None:
        row = await self._one(hot_sql("latest_game_in_channel"), (channel_id,))
        return read_game(row) if row else None

    async def games_of_user(self, user_id: str) -> list[GameRow]:
        """The user's games being set up or played, oldest first."""
        rows = await self._all(hot_sql("games_of_user"), (user_id,))
        return [read_game(r) for r in rows]

    async def games_awaiting(self, users: Iterable[str]) -> list[int]:
        """Ids of the healthy live games in which one of ``users`` owes a decision,
        in order. One query per user: an equality is always answered from the index."""
        found: set[int] = set()
        for user in users:
            found.update(int(r[0]) for r in await self._all(hot_sql("games_awaiting"), (user,)))
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

    async def damaged_games(self) -> list[int]:
        """The games flagged damaged, for ``dispatch store check`` to look at again."""
        rows = await self._all("SELECT id FROM games WHERE damaged IS NOT NULL ORDER BY id")
        return [int(r[0]) for r in rows]

    async def clear_damaged(self, game_id: int) -> None:
        """The game loads and replays after all: background work takes it up again."""
        await self._run("UPDATE games SET damaged = NULL WHERE id = ?", (game_id,))

    async def set_status(self, game_id: int, status: str) -> None:
        await self._run(
            "UPDATE games SET status = ?, updated_at = ? WHERE id = ?", (status, self.now, game_id)
        )
        if status in ENDED:
            # Every way a game ends passes here: its jobs go in the same transaction.
            await self.drop_bot_jobs(game_id)

    # seats -------------------------------------------------------------------------
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

    # outbox ------------------------------------------------------------------------
    async def queue(
        self, game_id: int, kind: str, target: str | None, payload: dict[str, Any]
    ) -> None:
        """Queue a post or message; always inside the transaction of the change it tells."""
        row = (game_id, kind, target, self.now, self.now)
        if self.dialect == "postgresql":
            # One statement, which a batched turn sends with its others (bot.storage.batch).
            await self._run(
                "WITH queued AS (" + _QUEUE + " RETURNING id)"
                " INSERT INTO outbox_payloads (outbox_id, payload) SELECT id, ? FROM queued",
                (*row, dumps(payload)),
            )
            return
        row_id = await self._insert(_QUEUE, row)
        await self._run(
            "INSERT INTO outbox_payloads (outbox_id, payload) VALUES (?, ?)",
            (row_id, dumps(payload)),
        )

    async def undelivered(self, game_id: int | None = None) -> list[OutboxRow]:
        """Every undelivered row in order, due or not (the caller applies backoff)."""
        if game_id is None:
            rows = await self._all(hot_sql("undelivered"))
        else:
            rows = await self._all(hot_sql("undelivered_of_game"), (game_id,))
        return [read_outbox(r) for r in rows]

    async def prune_delivered(self, before: float, limit: int) -> int:
        """Delete up to ``limit`` rows delivered before ``before``, oldest first (their
        payloads went at delivery); returns how many. Undelivered rows are never touched."""
        ids = [int(r[0]) for r in await self._all(hot_sql("delivered_before"), (before, limit))]
        if ids:
            # By primary key: a delete joined to the look-up above is planned by
            # PostgreSQL as a scan of the whole outbox.
            marks = ", ".join("?" for _ in ids)
            await self._run(f"DELETE FROM outbox WHERE id IN ({marks})", ids)
        return len(ids)

    async def table_parked(self, game_id: int) -> bool:
        """Whether the game's table posts wait, parked, for its channel to be fixed."""
        return await self._one(hot_sql("table_parked"), (game_id,)) is not None

    async def games_with_undelivered(self) -> list[int]:
        """Ids of the games that have something left to deliver (read from the index)."""
        return [int(r[0]) for r in await self._all(hot_sql("games_with_undelivered"))]

    async def mark_delivered(self, outbox_id: int, note: str | None = None) -> None:
        # The payload (a whole view) is never read again once delivered: a trigger deletes
        # it from outbox_payloads in this same statement (migration 0009), which frees its
        # pages for the next payloads; '' empties a row queued before that migration.
        await self._run(
            "UPDATE outbox SET delivered_at = ?, attempts = attempts + 1, last_error = ?,"
            " payload = '', claimed_by = NULL, lease_until = NULL WHERE id = ?",
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
        rows = await self._all(hot_sql("timers"), (game_id,))
        return [read_timer(r) for r in rows]

    async def due_timers(self, now: float) -> list[TimerRow]:
        rows = await self._all(hot_sql("due_timers"), (now,))
        return [read_timer(r) for r in rows]

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
        r = await self._one(hot_sql("result"), (game_id,))
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

    async def forced_setting(self, user_id: str) -> str:
        """Whether forced choices are taken for this user ("auto", the default) or they
        are asked ("ask")."""
        row = await self._one("SELECT forced FROM user_settings WHERE user_id = ?", (user_id,))
        return str(row["forced"]) if row is not None else "auto"

    async def set_forced(self, user_id: str, forced: str) -> None:
        await self._run(
            "INSERT INTO user_settings (user_id, forced) VALUES (?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET forced = excluded.forced",
            (user_id, forced),
        )

    # live prompts --------------------------------------------------------------------
    async def live_prompts(self, game_id: int) -> dict[str, tuple[str, str]]:
        """``{user_id: (channel_id, message_id)}`` of the game's live prompt messages."""
        rows = await self._all(hot_sql("live_prompts"), (game_id,))
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
        r = await self._one(hot_sql("reminder_hours"), (channel_id,))
        return float(r[0]) if r else default

    async def set_reminder_hours(self, channel_id: str, guild_id: str | None, hours: float) -> None:
        await self._run(
            "INSERT INTO channel_settings (channel_id, guild_id, reminder_hours) VALUES (?, ?, ?)"
            " ON CONFLICT (channel_id) DO UPDATE SET reminder_hours = excluded.reminder_hours",
            (channel_id, guild_id, hours),
        )
