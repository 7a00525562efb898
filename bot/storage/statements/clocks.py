"""The statements of time: a game's clock (migration 0014_clocks), a server's rules of
clocks and vacations, the vacations taken (migration 0016), and the running clocks
claimed with a lease by the background pass (``db.clocks`` of a session)."""

from __future__ import annotations

from collections.abc import Iterable

from bot.storage.queries import hot_sql
from bot.storage.rows import (
    ClockRow,
    VacationRow,
)
from bot.storage.statements.base import Statements


class ClockStatements(Statements):
    """Clocks, clock rules, vacations and the claims on running clocks."""

    __slots__ = ()

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
        r = await self._one(hot_sql("game_clock"), (game_id,))
        return (r["initial_s"], r["increment_s"], r["cap_s"]) if r else None

    async def clock_rows(self, game_id: int) -> list[ClockRow]:
        rows = await self._all(hot_sql("clock_rows"), (game_id,))
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
        rows = await self._all(hot_sql("expired_clocks"), (now, limit))
        return [(int(r["game_id"]), str(r["role"])) for r in rows]

    async def due_clock_warnings(self, now: float, limit: int = 100) -> list[tuple[int, str]]:
        """(game, role) of the running clocks whose next warning is due at ``now``."""
        rows = await self._all(hot_sql("due_clock_warnings"), (now, limit))
        return [(int(r["game_id"]), str(r["role"])) for r in rows]

    async def set_clock_warning(self, game_id: int, role: str, warn_at: float | None) -> None:
        await self._run(
            "UPDATE clocks SET warn_at = ? WHERE game_id = ? AND role = ?",
            (warn_at, game_id, role),
        )

    async def shift_running_clocks(self, since: float) -> None:
        """Give back to every clock what it ran between ``since`` and now (the bot was
        down): all of it for one running before, the part after its start for one that
        started meanwhile, nothing for one still paused (read through the deadline index)."""
        now, down = self.now, self.now - since
        # This order: once moved on, a clock of the first kind would match the second.
        await self._run(hot_sql("shift_clocks_started_while_down"), (now, now, now, since, now))
        await self._run(hot_sql("shift_running_clocks"), (down, down, down, since))

    async def clock_rules(self, guild_id: str) -> tuple[str, int] | None:
        """A server's (on_time, vacation_days), None when never set."""
        r = await self._one(hot_sql("clock_rules"), (guild_id,))
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
        r = await self._one(hot_sql("vacation_days_used"), (user_id, scope, since))
        return int(r["n"]) if r else 0

    async def current_vacation(self, user_id: str, scope: str) -> VacationRow | None:
        """The vacation ``user_id`` is on in ``scope`` now, if any."""
        r = await self._one(hot_sql("current_vacation"), (user_id, scope, self.now))
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
        rows = await self._all(hot_sql("vacations_back_due"), (self.now,))
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
        rows = await self._all(hot_sql("clocked_seats_of"), (user_id, scope))
        return [(int(r["game_id"]), str(r["role"])) for r in rows]

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
