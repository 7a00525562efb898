"""The statements of the outbox: what must be delivered to Discord, queued in the
transaction of the change it tells, claimed with a lease by the process delivering it
(migration 0018) and marked once sent (``db.outbox`` of a session)."""

from __future__ import annotations

from typing import Any

from bot.storage.engines import POSTS_QUEUED
from bot.storage.queries import hot_sql
from bot.storage.rows import (
    OutboxRow,
    dumps,
    read_outbox,
)
from bot.storage.statements.base import Statements

_QUEUE = (
    "INSERT INTO outbox (game_id, kind, target, payload, created_at, next_attempt_at)"
    " VALUES (?, ?, ?, '', ?, ?)"
)


class OutboxStatements(Statements):
    """The outbox: queued, claimed, delivered, pruned."""

    __slots__ = ()

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

    async def renew_outbox(self, game_id: int, owner: str, lease_s: float) -> None:
        """``owner`` is still delivering the game's rows: its claim on those it holds
        lasts ``lease_s`` from now (rows another process took over are left alone)."""
        await self._run(
            "UPDATE outbox SET lease_until = ?"
            " WHERE delivered_at IS NULL AND game_id = ? AND claimed_by = ?",
            (self.now + lease_s, game_id, owner),
        )

    async def release_outbox(self, game_id: int, owner: str) -> None:
        await self._run(
            "UPDATE outbox SET claimed_by = NULL, lease_until = NULL"
            " WHERE delivered_at IS NULL AND game_id = ? AND claimed_by = ?",
            (game_id, owner),
        )

    async def posts_queued(self, game_id: int) -> None:
        """Tell the bot processes (``POSTS_QUEUED``) that ``game_id`` has posts waiting
        that this process will not deliver (a worker's); nothing on SQLite. The message
        is "<game id> <guild id>" (no guild: a game of DMs), so that the process whose
        shard serves the guild delivers them, and the others need not try."""
        if self.dialect == "postgresql":
            await self._run(
                "SELECT pg_notify(?, CAST(id AS TEXT) || ' ' || COALESCE(guild_id, ''))"
                " FROM games WHERE id = ?",
                (POSTS_QUEUED, game_id),
            )
