"""The statements of work done in the background by any process: the moves Dispatch owes
(``bot_jobs``), the claims with a lease on the outbox, timers and clocks, and what keeps
them small. Part of ``bot.storage.session.Session``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.storage.engines import JOBS_QUEUED, POSTS_QUEUED
from bot.storage.rows import BotJobRow, TimerRow, read_bot_job, read_timer
from bot.storage.statements import Statements

#: The tables whose rows are claimed with a lease (``claimed_by``, ``lease_until``).
CLAIMED_TABLES = ("outbox", "timers", "clocks", "bot_jobs")


class BackgroundStatements(Statements):
    """Bot jobs, claims with a lease, pruning, the outbox lease renewed."""

    # -- AI workers anywhere: the jobs Dispatch owes (migration 0019) -----
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

    async def bot_jobs(self, game_id: int) -> list[BotJobRow]:
        rows = await self._all(
            "SELECT * FROM bot_jobs WHERE game_id = ? ORDER BY version, role", (game_id,)
        )
        return [read_bot_job(r) for r in rows]

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

    # -- end of AI workers anywhere -----------------------------------------------------

    # -- claims with a lease (migration 0018_claims) ---------------
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
        return sorted((read_timer(r) for r in rows), key=lambda t: (t.due_at, t.id))

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

    async def release_claims(self, owner: str, tables: Sequence[str]) -> None:
        """Give back every claim ``owner`` holds in ``tables`` (a clean stop)."""
        for table in tables:
            await self._run(
                f"UPDATE {table} SET claimed_by = NULL, lease_until = NULL WHERE claimed_by = ?",
                (owner,),
            )

    async def release_outbox(self, game_id: int, owner: str) -> None:
        await self._run(
            "UPDATE outbox SET claimed_by = NULL, lease_until = NULL"
            " WHERE delivered_at IS NULL AND game_id = ? AND claimed_by = ?",
            (game_id, owner),
        )

    # -- end of claims ------------------------------------------------------------------

    # -- bot_jobs kept bounded (migration 0020_bot_jobs_prune) ---------------
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

    # -- an outbox claim renewed during a long delivery ---------------------
    async def renew_outbox(self, game_id: int, owner: str, lease_s: float) -> None:
        """``owner`` is still delivering the game's rows: its claim on those it holds
        lasts ``lease_s`` from now (rows another process took over are left alone)."""
        await self._run(
            "UPDATE outbox SET lease_until = ?"
            " WHERE delivered_at IS NULL AND game_id = ? AND claimed_by = ?",
            (self.now + lease_s, game_id, owner),
        )

    # -- end of the outbox claim renewed --------------------------------------------------

    # -- a dead process's claims taken over (migration 0025_process_beats) --------------
    # Each claiming process beats under its names (``bot.storage.liveness``); a name that
    # stopped beating loses its claims to the first process still beating that sees it.

    async def beat_process(self, owners: Sequence[str]) -> None:
        """The processes named ``owners`` (this one's names) are alive now."""
        for owner in owners:
            await self._run(
                "INSERT INTO process_beats (owner, beat_at) VALUES (?, ?)"
                " ON CONFLICT (owner) DO UPDATE SET beat_at = excluded.beat_at",
                (owner, self.now),
            )

    async def silent_processes(self, before: float) -> list[str]:
        """The names whose last beat is older than ``before``."""
        rows = await self._all("SELECT owner FROM process_beats WHERE beat_at < ?", (before,))
        return [str(r[0]) for r in rows]

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

    # -- end of a dead process's claims taken over ----------------------------------------

    # -- every game's id and status, for ``dispatch store copy``'s replay check -----------
    async def game_statuses(self) -> list[tuple[int, str]]:
        rows = await self._all("SELECT id, status FROM games ORDER BY id")
        return [(int(r["id"]), str(r["status"])) for r in rows]
