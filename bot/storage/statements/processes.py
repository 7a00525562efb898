"""The statements of the processes themselves (``db.processes`` of a session): the bot's
heartbeat (what the clocks give back after a stop), each claiming process's beats
(migration 0025_process_beats, ``bot.storage.liveness``) and its claims given back.

Background work claims its rows before working, so that several processes on one
PostgreSQL database never handle the same row at once: ``owner`` is the claiming process
(``Store.instance``), ``lease_s`` how long its claim holds. A claim that lapsed (its
process died) is taken over; until then the row is the claimer's alone. A name that
stopped beating loses its claims to the first process still beating that sees it."""

from __future__ import annotations

from collections.abc import Sequence

from bot.storage.statements.base import Statements

#: The tables whose rows are claimed with a lease (``claimed_by``, ``lease_until``):
#: a dead process's claims in each go back at once, not when their leases lapse.
CLAIMED_TABLES = ("outbox", "timers", "clocks", "bot_jobs", "league_games", "league_posts")


class ProcessStatements(Statements):
    """The heartbeat, the processes' beats and their claims given back."""

    __slots__ = ()

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

    async def beat_process(self, owners: Sequence[str]) -> None:
        """The processes named ``owners`` (this one's names) are alive now."""
        for owner in owners:
            await self._run(
                "INSERT INTO process_beats (owner, beat_at) VALUES (?, ?)"
                " ON CONFLICT (owner) DO UPDATE SET beat_at = excluded.beat_at",
                (owner, self.now),
            )

    async def beats(self) -> dict[str, float]:
        """Every beating name and its last beat (stamped by the beater's own clock)."""
        rows = await self._all("SELECT owner, beat_at FROM process_beats", ())
        return {str(r[0]): float(r[1]) for r in rows}

    async def take_claims_from(self, owners: Sequence[str]) -> None:
        """``owners`` are dead: their claims go back to whoever claims next, a worker
        among them is no longer counted alive, and their beats are forgotten."""
        marks = ", ".join("?" for _ in owners)
        for table in CLAIMED_TABLES:
            await self._run(
                f"UPDATE {table} SET claimed_by = NULL, lease_until = NULL"
                f" WHERE claimed_by IN ({marks})",
                owners,
            )
        await self._run(f"DELETE FROM bot_workers WHERE worker_id IN ({marks})", owners)
        await self._run(f"DELETE FROM process_beats WHERE owner IN ({marks})", owners)

    async def release_claims(self, owner: str, tables: Sequence[str]) -> None:
        """Give back every claim ``owner`` holds in ``tables`` (a clean stop)."""
        for table in tables:
            await self._run(
                f"UPDATE {table} SET claimed_by = NULL, lease_until = NULL WHERE claimed_by = ?",
                (owner,),
            )
