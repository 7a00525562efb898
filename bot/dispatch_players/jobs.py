"""The moves Dispatch owes, as jobs claimed with a lease (``bot_jobs``).

Each move owed is a job, written with the turn (``bot/tables/bot_jobs.py``), claimed by
one process at a time with a lease that its search renews, and given up, its game
flagged, after :data:`JOB_MAX_ATTEMPTS` claims without a move. A job is played through
``GameManager.act`` like a click, with the seat's role and the version it was decided
on, so a move decided on a view that has since changed is refused as stale.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import AsyncIterator, Callable

from bot import errors
from bot.dispatch_players.decision import Decision, NeedsHistory, SeatTurn
from bot.dispatch_players.estimates import EstimateKeeping
from bot.dispatch_players.searching import Searching
from bot.dispatch_players.seeding import search_seed
from bot.dispatch_players.turn_replay import own_turn
from bot.storage.rows import BotJobRow
from bot.tables.bot_users import is_bot, level_of
from bot.tables.requests import Move
from rules.core import Arg

log = logging.getLogger("dispatch.bots")

#: How long a claim on a job (``bot_jobs``) holds unless renewed: a process that died
#: loses its jobs to another after this; a search renews its lease every third of it.
JOB_LEASE_S = 60.0
#: Claims of one job before it is given up (the game flagged and the failure logged).
JOB_MAX_ATTEMPTS = 5


class JobPlay(Searching, EstimateKeeping):
    """Claims the jobs of the moves owed and plays them (set up by ``BotSeats.__init__``)."""

    #: This process's name in the job claims it takes (``bot_jobs``).
    owner: str
    #: Called after each bot move (game id, role, verb, arg); for logs and tests.
    on_move: Callable[[int, str, str, Arg], None] | None
    #: Moves made, and jobs dropped as stale, by this process.
    done: int
    stale: int
    #: Searches of this process's moves that the safety cap cut.
    cut: int

    async def play_one(self, game_id: int) -> bool:
        """Make one due bot move in ``game_id``; False when no bot owes one, or when its
        job is another process's (a live ``dispatch worker`` takes jobs first: this
        process takes only those whose lease ran out while workers live)."""
        info = await self.manager.get_game_info(game_id)
        if info.status != "active":
            return False
        due = [s for s in info.seats if s.role in info.active_roles and is_bot(s.user_id)]
        if not due:
            return False
        seat = due[0]
        # Under the game's lock: a game that ends meanwhile (its jobs dropped) is seen
        # ended here and gets no job written after its end.
        async with self.manager.store.transaction(game=game_id) as db:
            if await db.version_of(game_id) != info.version:
                # The game moved on since it was read (another process's moves): a job
                # written for the version read would come back after its move was made
                # and its row pruned, and be played a second time (as stale). Read again.
                return True
            # Written with the turn; again here for a seat just handed to Dispatch or a
            # game from before the jobs (a second write changes nothing).
            await db.bot_jobs.owe_bot_move(game_id, seat.role, info.version, level_of(seat.user_id))
            alive = await db.workers.workers_alive(JOB_LEASE_S)
            jobs = await db.bot_jobs.claim_bot_jobs(
                self.owner,
                JOB_LEASE_S,
                max_attempts=JOB_MAX_ATTEMPTS,
                game_id=game_id,
                lapsed_only=alive > 0,
            )
        if not jobs:
            return False
        try:
            outcome = await self.play_job(jobs[0])
        except BaseException:
            # Tried again after a growing wait (``_run``), as before the jobs: a failure
            # that this process saw is not counted; a claim lost with its process is.
            async with self.manager.store.write() as db:
                await db.bot_jobs.release_bot_job(jobs[0], self.owner, counted=False)
            raise
        return outcome != "over"

    async def play_job(self, job: BotJobRow, *, deliver: bool = True) -> str:
        """Search and submit the move of a claimed ``job``: "done" when it was applied,
        "stale" when the game moved on without it (dropped), "over" when the game ended.
        ``deliver=False``: the table posts are left to the bot's processes (a worker)."""
        info = await self.manager.get_game_info(job.game_id)
        seat = next((s for s in info.seats if s.role == job.role), None)
        if info.status != "active":
            await self._finish(job, "stale")
            return "over"
        if seat is None or not is_bot(seat.user_id) or job.role not in info.active_roles:
            await self._finish(job, "stale")
            return "stale"
        level = level_of(seat.user_id)
        pv = await self.manager.view_for(job.game_id, seat.user_id, role=seat.role)
        if pv.version != job.version or not pv.view.get("actions"):
            await self._finish(job, "stale")
            return "stale"
        async with self.manager.store.read() as db:
            secret = await db.game_key(job.game_id)  # never shown: only the seed is made of it
            played = await db.actions(job.game_id)
        mine = own_turn(played, seat.role)
        turn = SeatTurn(
            search_seed(job.game_id, seat.role, secret),
            mine,
            played=len(played),
            tail=tuple((action.verb, action.arg) for action in played[len(played) - mine :]),
        )
        async with self._renewing():
            try:
                decision = await self._decide(
                    info.game_name, job.game_id, seat.role, level, pv.view, turn
                )
            except NeedsHistory:  # this process kept no tree for the turn: grown again
                earlier = await self._earlier(job.game_id, seat.role, played, turn.turn, secret)
                decision = await self._decide(
                    info.game_name,
                    job.game_id,
                    seat.role,
                    level,
                    pv.view,
                    dataclasses.replace(turn, earlier=earlier),
                )
        verb, arg = decision.action
        if decision.cut:
            self._count_cut(job.game_id, seat.role, level, decision)
        # Kept before the move, so that the end post of a game this move ends counts it;
        # taken back if the move is refused.
        kept = await self._keep_estimate(job.game_id, seat.role, job.version, decision.estimate)
        try:
            done = await self.manager.act(
                job.game_id,
                seat.user_id,
                Move(verb, arg, job.version, role=seat.role),
                deliver=deliver,
            )
        except (errors.StalePrompt, errors.NotYourTurn, errors.GameNotActive) as refused:
            await self._drop_estimate(kept)
            # Stale: the game moved on meanwhile (the caller looks again at what is owed
            # now); not active: it ended while the bot thought (a resignation, an abandon).
            async with self.manager.store.write() as db:
                if await db.version_of(job.game_id) != job.version or isinstance(
                    refused, errors.GameNotActive
                ):
                    await db.bot_jobs.finish_bot_job(job, "stale")
                else:  # refused at the very version it owes: claimed again, uncounted
                    await db.bot_jobs.release_bot_job(job, self.owner, counted=False)
            self.stale += 1
            return "over" if isinstance(refused, errors.GameNotActive) else "stale"
        # The verb only: the argument may be a hidden choice (a face-down card, the
        # order of a Final Crisis), and whoever reads the server log may be a player.
        log.info("game=%d bot %s (%s) made a move: %s", job.game_id, seat.role, level, verb)
        await self._finish(job, "done")  # the turn's transaction settled it already
        self.done += 1
        if kept is not None:
            await self._name_move(kept, pv.view, done)
        if self.on_move is not None:
            self.on_move(job.game_id, seat.role, verb, arg)
        return "done"

    def _count_cut(self, game_id: int, role: str, level: str, decision: Decision) -> None:
        """Count a search the safety cap cut, and log it: how far it got, never what it
        chose (the argument may be a hidden choice)."""
        self.cut += 1
        log.warning(
            "game=%d bot %s (%s): the safety cap of %.0f CPU s cut its search after "
            "%s of %s iterations (%d cut here since the start)",
            game_id,
            role,
            level,
            decision.cap_seconds,
            decision.iterations,
            decision.budget,
            self.cut,
        )

    async def _finish(self, job: BotJobRow, status: str) -> None:
        async with self.manager.store.write() as db:
            await db.bot_jobs.finish_bot_job(job, status)
        if status == "stale":
            self.stale += 1

    @contextlib.asynccontextmanager
    async def _renewing(self) -> AsyncIterator[None]:
        """Renew this process's leases while a search runs (a long search keeps its job)."""

        async def renew() -> None:
            while True:
                await asyncio.sleep(JOB_LEASE_S / 3)
                async with self.manager.store.write() as db:
                    await db.bot_jobs.extend_bot_jobs(self.owner, JOB_LEASE_S)

        task = asyncio.get_running_loop().create_task(renew())
        try:
            yield
        finally:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)

    async def give_up_exhausted(self) -> list[BotJobRow]:
        """Jobs claimed :data:`JOB_MAX_ATTEMPTS` times without a move are given up: each
        is logged and its game flagged (a moderator can export or abandon it)."""
        async with self.manager.store.write() as db:
            failed = await db.bot_jobs.fail_exhausted_bot_jobs(JOB_MAX_ATTEMPTS)
            for job in failed:
                await db.mark_damaged(
                    job.game_id, f"Dispatch could not make its move after {job.attempts} attempts"
                )
        for job in failed:
            log.error(
                "game=%d: Dispatch's move for %s at version %d failed %d times; given up and "
                "the game flagged",
                job.game_id,
                job.role,
                job.version,
                job.attempts,
            )
        return failed
