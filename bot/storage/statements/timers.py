"""The statements of timers (reminders and the like), claimed with a lease when due
(migration 0018; ``db.timers`` of a session)."""

from __future__ import annotations

from bot.storage.queries import hot_sql
from bot.storage.rows import (
    TimerRow,
    read_timer,
)
from bot.storage.statements.base import Statements


class TimerStatements(Statements):
    """Timers: set, due, claimed, rescheduled, deleted."""

    __slots__ = ()

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

    async def of_game(self, game_id: int) -> list[TimerRow]:
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
        return sorted((read_timer(r) for r in rows), key=lambda t: (t.due_at, t.id))

    async def release_timer(self, timer_id: int, owner: str) -> None:
        await self._run(
            "UPDATE timers SET claimed_by = NULL, lease_until = NULL"
            " WHERE id = ? AND claimed_by = ?",
            (timer_id, owner),
        )
