"""The statements of the moves Dispatch owes (``bot_jobs``, migration 0019; ``db.bot_jobs``
of a session): one row per move owed, written with the turn that made it owed, and
claimed with a lease like the outbox, timers and clocks (SKIP LOCKED on PostgreSQL), so
that two processes never search the same move, and a dead process's job is claimed
again.

Kept bounded (migration 0020): a game's jobs go with the game (``Session.set_status`` to
an ended status), and a live game keeps only its newest few finished jobs besides the
pending ones (``owe_moves``): the claims only ever read pending rows, and the newest
finished one is what makes a second write of a move just made (``BotSeats.play_one``)
change nothing."""

from __future__ import annotations

from typing import Any

from bot.storage.engines import JOBS_QUEUED
from bot.storage.rows import (
    BotJobRow,
    read_bot_job,
)
from bot.storage.statements.base import Statements


class BotJobStatements(Statements):
    """The moves Dispatch owes: owed, claimed, settled, pruned."""

    __slots__ = ()

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

    async def settle_bot_jobs(self, game_id: int, version: int, acting: str | None) -> None:
        """The game reached ``version``: its pending jobs of earlier versions are over,
        done when their role is the one that acted, stale otherwise."""
        await self._run(
            "UPDATE bot_jobs SET status = CASE WHEN role = ? THEN 'done' ELSE 'stale' END,"
            " claimed_by = NULL, lease_until = NULL, finished_at = ?"
            " WHERE game_id = ? AND status = 'pending' AND version < ?",
            (acting or "", self.now, game_id, version),
        )

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
        return sorted((read_bot_job(r) for r in rows), key=lambda j: (j.created_at, j.game_id))

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
        return [read_bot_job(r) for r in rows]

    async def games_left_to_workers(self) -> set[int]:
        """The games with a pending job that is unclaimed (a worker takes it next) or
        under a live lease (being played)."""
        rows = await self._all(
            "SELECT DISTINCT game_id FROM bot_jobs WHERE status = 'pending'"
            " AND (claimed_by IS NULL OR lease_until > ?)",
            (self.now,),
        )
        return {int(r[0]) for r in rows}

    async def of_game(self, game_id: int) -> list[BotJobRow]:
        rows = await self._all(
            "SELECT * FROM bot_jobs WHERE game_id = ? ORDER BY version, role", (game_id,)
        )
        return [read_bot_job(r) for r in rows]

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
