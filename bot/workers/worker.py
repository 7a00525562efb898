"""A ``dispatch worker``: claims the moves Dispatch owes and makes them.

The loop claims one pending job at a time from ``bot_jobs`` (``FOR UPDATE SKIP LOCKED``
on PostgreSQL, a lease of ``jobs.JOB_LEASE_S``, the attempt counted), reads the bot
role's own view (nothing hidden: the same view a bot seat decides on in the bot), runs
the level's search, and submits the move through the ``GameManager`` with the job's
version, so a job the game has moved past is refused there and dropped (counted as
stale), never applied twice. The table posts and DMs of its moves are left in the outbox
for the bot's processes to deliver: a worker needs no Discord connection.

While it runs it beats in ``bot_workers`` every third of a lease and renews the leases
it holds; the bot leaves jobs to it while it beats. Killed outright, its job's lease runs
out and another process (a worker, or the bot) takes it over. Idle, it looks again every
``POLL_S``, or at once when PostgreSQL notifies that a job was queued
(``bot.workers.wake``). On SIGTERM it stops between steps: the search in flight is
abandoned, its lease given back at once, its row removed, and it exits 0.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Mapping

from bot.delivery.port import GameInfo, PrivateMessage, SeatInfo, TablePost
from bot.dispatch_players.bots import BotSeats
from bot.dispatch_players.jobs import JOB_LEASE_S, JOB_MAX_ATTEMPTS
from bot.errors import withheld
from bot.storage.errors import StoreError
from bot.storage.liveness import Liveness
from bot.storage.rows import BotJobRow
from bot.workers.wake import Bell

log = logging.getLogger("dispatch.worker")

#: How long an idle worker waits before it looks for jobs again (on PostgreSQL it is
#: woken sooner, when a job is queued: ``bot.workers.wake``).
POLL_S = 0.5
#: The longest a worker waits before it looks again while the database is out of reach
#: (it doubles from ``POLL_S``).
OUT_OF_REACH_POLL_S = 5.0
#: A worker beats every third of its lease; one silent for this many beats is dead, and
#: its row is removed by any worker still beating.
DEAD_AFTER_BEATS = 10


class NotDelivered(RuntimeError):
    """A worker never posts: what its moves tell the players waits in the outbox."""


class OutboxOnly:
    """The front end of a worker: refuses, so that the courier leaves every row
    undelivered for the bot's processes (never marked delivered unsent)."""

    async def post_table(self, game: GameInfo, post: TablePost) -> None:
        raise NotDelivered("a worker leaves table posts to the bot")

    async def send_private(self, game: GameInfo, seat: SeatInfo, message: PrivateMessage) -> None:
        raise NotDelivered("a worker leaves private messages to the bot")


class Worker:
    """Claims and plays jobs until :meth:`stop`, with ``bots``: seats that do not listen
    to their manager (never attached), so this process plays the jobs it claims and
    nothing else."""

    def __init__(
        self,
        bots: BotSeats,
        *,
        lease_s: float = JOB_LEASE_S,
        poll_s: float = POLL_S,
        listen: bool = True,
    ) -> None:
        self.bots = bots
        self.manager = bots.manager
        self.lease_s = lease_s
        self.poll_s = poll_s
        #: The worker's name in its claims and in ``bot_workers``.
        self.id = self.bots.owner
        self._stopping = asyncio.Event()
        #: Set when a job may be waiting: queued (PostgreSQL's NOTIFY), or stopping.
        self._wake = asyncio.Event()
        self.bell = Bell(self.manager.store.path, self._wake, enabled=listen)
        self._current: asyncio.Task[str] | None = None
        #: Jobs whose move the database cut short, to give back uncounted once it answers.
        self._give_back: list[BotJobRow] = []
        #: Steps in a row that found the database out of reach (their backoff).
        self._away = 0
        #: When the last heartbeat reached the database (``time.monotonic``).
        self.last_beat = float("-inf")

    async def run(self) -> None:
        """Claim and play jobs until stopped."""
        beating = asyncio.get_running_loop().create_task(self._beat_forever())
        store = self.manager.store
        # Beats under its names, so that its claims are taken over soon if it dies.
        alive = Liveness(store, (self.id, store.instance))
        log.info("worker %s started", self.id)
        try:
            async with alive.running(self._stopping):
                await self._work()
        finally:
            beating.cancel()
            await asyncio.gather(beating, return_exceptions=True)
            await self.bell.close()

    async def _work(self) -> None:
        while not self._stopping.is_set():
            # Cleared before looking: a job queued during the look wakes the wait.
            self._wake.clear()
            wait = self.poll_s
            try:
                worked = await self.step()
                self._away = 0
            except StoreError:
                # The database out of reach (restarting, say): the store logged it
                # once; look again with backoff, up to every OUT_OF_REACH_POLL_S.
                self._away += 1
                worked, wait = (
                    False,
                    min(OUT_OF_REACH_POLL_S, self.poll_s * 2 ** min(self._away, 8)),
                )
            if not worked:
                await self.bell.ensure()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), wait)

    async def step(self) -> bool:
        """Claim one job and play it; False when there was none to claim."""
        await self.beat()
        while self._give_back:
            async with self.manager.store.write() as db:
                await db.bot_jobs.release_bot_job(self._give_back[0], self.id, counted=False)
            self._give_back.pop(0)
        await self.bots.give_up_exhausted()
        async with self.manager.store.write() as db:
            jobs = await db.bot_jobs.claim_bot_jobs(
                self.id, self.lease_s, max_attempts=JOB_MAX_ATTEMPTS
            )
        if not jobs:
            return False
        await self._play(jobs[0])
        return True

    async def _play(self, job: BotJobRow) -> None:
        self._current = asyncio.get_running_loop().create_task(
            self.bots.play_job(job, deliver=False)
        )
        try:
            outcome = await self._current
        except asyncio.CancelledError:
            if self._stopping.is_set():
                return  # stop() gives the lease back
            raise
        except StoreError:
            # The database went out of reach mid-move: the store said so once. The job
            # is given back once it answers again, its attempt not counted: a database
            # restart is no sign that the position kills its worker.
            self._give_back.append(job)
            return
        except Exception as exc:
            # Where and of what kind, not the message: a rules refusal may name a card in
            # the bot's hand, and whoever reads the server log may be a player.
            log.error(
                "game=%d: the move for %s at version %d failed (attempt %d)\n%s",
                job.game_id,
                job.role,
                job.version,
                job.attempts,
                withheld(exc),
            )
            with contextlib.suppress(StoreError):  # out of reach: the lease lapses instead
                async with self.manager.store.write() as db:
                    await db.bot_jobs.release_bot_job(job, self.id, counted=True)
            return
        finally:
            self._current = None
        log.info(
            "game=%d job for %s at version %d: %s", job.game_id, job.role, job.version, outcome
        )
        if outcome != "stale":
            await self._tell_bots(job.game_id)

    async def _tell_bots(self, game_id: int) -> None:
        """The move's posts wait in the outbox: the bot processes are told at once (if
        the telling fails, their next background pass finds the posts anyway)."""
        try:
            async with self.manager.store.write() as db:
                await db.outbox.posts_queued(game_id)
        except Exception as exc:
            log.warning("game=%d: could not tell the bot of its posts: %r", game_id, exc)

    async def beat(self) -> None:
        """This worker is alive: its row, its leases renewed, and the rows of workers
        silent for ``DEAD_AFTER_BEATS`` beats removed (they died without a clean stop)."""
        async with self.manager.store.write() as db:
            await db.workers.beat_worker(self.id, done=self.bots.done, stale=self.bots.stale)
            await db.bot_jobs.extend_bot_jobs(self.id, self.lease_s)
            await db.workers.drop_dead_workers(DEAD_AFTER_BEATS * self.lease_s / 3)
        self.last_beat = time.monotonic()

    async def _beat_forever(self) -> None:
        while True:
            await asyncio.sleep(self.lease_s / 3)
            try:
                await self.beat()
            except StoreError:
                pass  # out of reach: the store logged it once; the next beat tries again
            except Exception as exc:
                log.error("worker %s: the heartbeat failed\n%s", self.id, withheld(exc))

    async def stop(self) -> None:
        """Stop cleanly: abandon the search in flight, give its lease back, leave."""
        self._stopping.set()
        self._wake.set()
        current = self._current
        if current is not None:
            current.cancel()
            await asyncio.gather(current, return_exceptions=True)
        try:
            async with self.manager.store.write() as db:
                await db.bot_jobs.release_bot_jobs(self.id)
                await db.workers.drop_worker(self.id)
        except StoreError:
            # Out of reach: its leases lapse and its row goes after DEAD_AFTER_BEATS.
            log.warning("worker %s stopped without giving its leases back", self.id)
            return
        log.info("worker %s stopped", self.id)


def iterations_from(env: Mapping[str, str]) -> int | None:
    """``DISPATCH_WORKER_ITERATIONS``: every search's iterations instead of each level's
    budget (tests and benches); unset: the level's own budget."""
    raw = (env.get("DISPATCH_WORKER_ITERATIONS") or "").strip()
    if not raw:
        return None
    if not raw.isdigit() or int(raw) < 1:
        raise ValueError(f"DISPATCH_WORKER_ITERATIONS must be a positive number, not {raw!r}")
    return int(raw)
