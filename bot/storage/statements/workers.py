"""The statements of ``dispatch worker`` processes (``bot_workers``): their beats and
counts, and the dead ones' rows removed (``db.workers`` of a session)."""

from __future__ import annotations

from bot.storage.statements.base import Statements


class WorkerStatements(Statements):
    """The workers that play Dispatch's moves: alive, counted, gone."""

    __slots__ = ()

    async def beat_worker(self, worker_id: str, *, done: int = 0, stale: int = 0) -> None:
        """``worker_id`` is alive now (and has made ``done`` moves, dropped ``stale``)."""
        await self._run(
            "INSERT INTO bot_workers (worker_id, started_at, heartbeat_at, jobs_done,"
            " jobs_stale) VALUES (?, ?, ?, ?, ?) ON CONFLICT (worker_id) DO UPDATE SET"
            " heartbeat_at = excluded.heartbeat_at, jobs_done = excluded.jobs_done,"
            " jobs_stale = excluded.jobs_stale",
            (worker_id, self.now, self.now, done, stale),
        )

    async def drop_dead_workers(self, silent_s: float) -> int:
        """Remove the rows of workers silent for ``silent_s`` (dead: killed, or their
        host gone), so ``bot_workers`` lists the living; returns how many went."""
        rows = await self._all(
            "DELETE FROM bot_workers WHERE heartbeat_at < ? RETURNING worker_id",
            (self.now - silent_s,),
        )
        return len(rows)

    async def drop_worker(self, worker_id: str) -> None:
        await self._run("DELETE FROM bot_workers WHERE worker_id = ?", (worker_id,))

    async def workers_alive(self, within_s: float) -> int:
        """How many workers have beaten within the last ``within_s`` seconds."""
        r = await self._one(
            "SELECT COUNT(*) FROM bot_workers WHERE heartbeat_at > ?", (self.now - within_s,)
        )
        return int(r[0]) if r else 0
