"""Dispatch at the table: seats the bot plays itself.

A bot seat is an ordinary seat whose user id is one of :data:`BOT_USERS`
(``"Dispatch (easy)"``, ``"Dispatch (normal)"``, ``"Dispatch (hard)"``), so the lobby,
the turn, the table posts, undo, resignation, rematches and the action log all work for
it as for a person; the name says the level. It never gets private messages (the
courier skips them, ``skip_private``) and nobody is pinged on its behalf (it is not a
Discord user, so the front end writes its name as plain text).

:class:`BotSeats` is a room of its own that listens to the manager
(``bot.tables.listeners``): the manager never names it, and it is added where the
process is assembled (:meth:`BotSeats.attach`). It plays every bot move that is due,
through ``GameManager.act`` like a click, with the seat's role and the version it
decided on, so a move decided on a view that has since changed is refused as stale and
decided again (``jobs.py``). The decision itself (``decision.py``: the game's greedy
policy, or the search of ``rules.ai``, with a seed of ``seeding.py``) runs off the event
loop, in the game's worker (``processes.py``), and reads only the bot's own view. When
the manager announces a decision owed in a game with a bot seat, the seats
:meth:`BotSeats.nudge` it, which returns at once; the moves are made by a task.
:meth:`BotSeats.resume` (when the manager announces it resumed: on start, and on its
background pass every few seconds) makes every move that was due when a previous process
stopped, or that failed: a game whose bot move failed is tried again after a wait that
doubles with each failure in a row (:data:`RETRY_BASE_S` up to :data:`RETRY_CAP_S`), so a
move that keeps failing costs one attempt and one logged error every few minutes, not
every pass. The pass reads only the ids of the games where a bot seat owes a decision.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
from collections.abc import Callable
from typing import Any

import rules
import rules.ai.ismcts
from bot import errors
from bot.dispatch_players.jobs import JOB_LEASE_S, JobPlay
from bot.dispatch_players.manager_protocol import GameManager
from bot.dispatch_players.processes import default_processes, stop_worker_pool
from bot.storage.errors import StoreError
from bot.tables.bot_users import BOT_USERS, is_bot
from bot.tables.listeners import Owed
from rules import compiled

log = logging.getLogger("dispatch.bots")

#: After a failed bot move, the background pass waits this long before trying the game
#: again, twice as long after each further failure in a row, up to the cap.
RETRY_BASE_S = 10.0
RETRY_CAP_S = 900.0


class BotSeats(JobPlay):
    """Plays the bot seats of one manager's games, as one of its listeners."""

    @classmethod
    def attach(cls, manager: GameManager, **options: Any) -> BotSeats:
        """Seats with ``options`` (those of the constructor) that listen to ``manager``
        from now on, in place of any seats it had; the manager's hints search in their
        workers. Called where the process is assembled, before ``deliver_pending``
        (whose announcement makes the moves a previous run left owed)."""
        seats = cls(manager, **options)
        for listener in manager.listeners:
            if isinstance(listener, BotSeats):
                manager.remove_listener(listener)
        manager.add_listener(seats)
        manager.searches = seats
        log.info(
            "Dispatch's searches run the rules %s",
            "compiled (dispatch compile-rules)"
            if compiled.is_compiled(rules.ai.ismcts)
            else "from their sources (dispatch compile-rules makes them about twice as fast)",
        )
        return seats

    @classmethod
    def of(cls, manager: GameManager) -> BotSeats:
        """The seats listening to ``manager`` (``LookupError``: none)."""
        for listener in manager.listeners:
            if isinstance(listener, BotSeats):
                return listener
        raise LookupError("no bot seats listen to this manager")

    def __init__(
        self,
        manager: GameManager,
        *,
        workers: str = "process",
        iterations: int | None = None,
        cap_seconds: float | None = None,
        clock: Callable[[], float] | None = None,
        processes: int | None = None,
    ) -> None:
        if workers not in ("process", "thread", "daemon"):
            raise ValueError("workers is 'process', 'thread' or 'daemon'")
        self.manager = manager
        self.workers = workers
        #: Iterations of every search instead of each level's budget (tests, benches).
        self.iterations = iterations
        #: The safety cap in CPU seconds instead of each level's ``safety_seconds``.
        self.cap_seconds = cap_seconds
        #: The search thread's CPU clock for the cap (tests; None: ``time.thread_time``).
        self.clock = clock
        self.processes = max(1, processes or default_processes())
        #: One single-process pool per worker, started when first needed.
        self._pools = {}
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        #: Games whose last bot move failed: (failures in a row, when to try again).
        self._failed: dict[int, tuple[int, float]] = {}
        #: Called after each bot move (game id, role, verb, arg); for logs and tests.
        self.on_move = None
        #: This process's name in the job claims it takes (``bot_jobs``).
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        #: Set by ``close``: no move is started after it.
        self._closed = False
        #: Moves made, and jobs dropped as stale, by this process.
        self.done = 0
        self.stale = 0
        #: Searches of this process's moves that the safety cap cut.
        self.cut = 0

    # -- what the manager announces (``bot.tables.listeners``) -------------------------

    async def decision_owed(self, news: Owed) -> None:
        """A change was committed: in a game with a bot seat, play what it owes (a seat
        that owes nothing finds so at once, ``play_one``)."""
        if any(is_bot(seat.user_id) for seat in news.game.seats):
            self.nudge(news.game.id)

    async def resumed(self) -> None:
        await self.resume()

    async def closing(self) -> None:
        await self.close()

    # -- triggers -----------------------------------------------------------------

    def nudge(self, game_id: int) -> None:
        """Something changed in ``game_id``: play its due bot moves soon (returns at once)."""
        if self._closed:
            return
        task = self._tasks.get(game_id)
        if task is not None and not task.done():
            self._again.add(game_id)
            return
        self._tasks[game_id] = asyncio.get_running_loop().create_task(self._run(game_id))

    async def resume(self) -> int:
        """Nudge every live game in which a bot owes a move, except those waiting to
        retry a failed move; returns how many were nudged."""
        await self.give_up_exhausted()
        async with self.manager.store.read() as db:
            games = await db.lobby.games_awaiting(BOT_USERS.values())
            # While a worker lives it takes every job queued or held: this process need
            # only write a missing job or take one a dead process held. Nudging every
            # game at every pass cost each process as much, however many there were.
            workers = await db.workers.workers_alive(JOB_LEASE_S)
            theirs = await db.bot_jobs.games_left_to_workers() if workers else set()
        for gone in self._failed.keys() - set(games):  # over, or no longer the bot's move
            del self._failed[gone]
        now = self.manager.clock()
        due = [
            g
            for g in games
            if g not in theirs and (g not in self._failed or self._failed[g][1] <= now)
        ]
        for game_id in due:
            self.nudge(game_id)
        return len(due)

    async def idle(self) -> None:
        """Wait until no bot move is being made (tests, shutdown)."""
        while any(not t.done() for t in self._tasks.values()):
            await asyncio.gather(*self._tasks.values(), return_exceptions=True)

    async def close(self) -> None:
        """Stop now: no move is started from now on (a commit during the stop nudges in
        vain), the moves under way are abandoned, the worker processes stopped mid-search
        rather than waited for (a search can take minutes on a busy machine), and their
        jobs given back at once, uncounted, not left claimed by a stopped process until
        their lease runs out."""
        self._closed = True
        for task in self._tasks.values():
            task.cancel()
        await asyncio.gather(*self._tasks.values(), return_exceptions=True)
        pools = list(self._pools.values())
        self._pools.clear()
        await asyncio.gather(*(asyncio.to_thread(stop_worker_pool, pool) for pool in pools))
        try:
            async with self.manager.store.write() as db:
                await db.bot_jobs.release_bot_jobs(self.owner)
        except StoreError:  # the store is gone: the leases lapse on their own
            log.warning("the bot's jobs could not be given back: the database is out of reach")
        log.info(
            "Dispatch's seats close. Moves made here: %d; searches cut by the safety cap: %d",
            self.done,
            self.cut,
        )

    # -- the work -----------------------------------------------------------------

    async def _run(self, game_id: int) -> None:
        while True:
            self._again.discard(game_id)
            try:
                while await self.play_one(game_id):
                    pass
                self._failed.pop(game_id, None)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                failures = self._failed.get(game_id, (0, 0.0))[0] + 1
                wait = min(RETRY_CAP_S, RETRY_BASE_S * 2 ** min(failures - 1, 20))
                self._failed[game_id] = (failures, self.manager.clock() + wait)
                if isinstance(exc, StoreError):
                    return  # the database out of reach: the store said so once
                log.error(
                    "game=%d: a bot move failed (%d in a row); trying again in %.0f s\n%s",
                    game_id,
                    failures,
                    wait,
                    errors.withheld(exc),
                )
                return
            if game_id not in self._again:
                return
