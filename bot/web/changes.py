"""How the page hears that a game changed, and tells the pages watching it.

``Spectators`` keeps, per game, the queues of the live pages open on it. When it hears
of a change it reads the game once (``bot.web.reading``), builds the update once, and
puts the same bytes on every queue: two hundred spectators cost one read and one
encoding per turn, not two hundred.

Where it hears from, never by polling the store:
- PostgreSQL (in the bot's process or alone as ``dispatch web``): LISTEN on
  ``dispatch_games``, which a trigger NOTIFYs at every commit that changes a game's
  version or status (migration 0027), whichever process committed it.
- SQLite inside the bot's process: the manager's listeners (``ManagerHeard``), told
  after each committed change of a game (a move or an undo, a seat, a new game, a
  resignation, an abandon, a loss on time, a claimed win, a league's round deadline).
- SQLite alone (``dispatch web`` beside the bot): nothing can tell it, so its pages are
  not live and say to reload (``bot.web.app``, ``live=False``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from bot.tables.listeners import Owed

log = logging.getLogger("dispatch.web")

#: The updates a slow page may have waiting; past it the oldest is dropped (the newest
#: update carries the whole public state, so nothing is lost by skipping one).
QUEUE_SIZE = 4
#: Pages handed an update before the loop lets other work run (``Spectators._send``).
BATCH = 16
#: The LISTEN channel migration 0027's trigger notifies.
GAMES_CHANNEL = "dispatch_games"

#: What a change of a game becomes for its pages: the update's bytes, or None when the
#: game is gone or its record cannot be read.
Build = Callable[[int], Awaitable[bytes | None]]
#: The league a game is played in, if any (a league's page is told of its games).
LeagueOf = Callable[[int], Awaitable[int | None]]


class Spectators:
    """The live pages open on each game, and the one update per change they share."""

    def __init__(self, build: Build, league_of: LeagueOf | None = None) -> None:
        self._build = build
        self._league_of = league_of
        self._queues: dict[int, set[asyncio.Queue[bytes]]] = {}
        self._pending: set[int] = set()
        self._running: dict[int, asyncio.Task[None]] = {}
        self._looking: set[asyncio.Task[None]] = set()

    def join(self, game_id: int) -> asyncio.Queue[bytes]:
        queue: asyncio.Queue[bytes] = asyncio.Queue(QUEUE_SIZE)
        self._queues.setdefault(game_id, set()).add(queue)
        return queue

    def leave(self, game_id: int, queue: asyncio.Queue[bytes]) -> None:
        watching = self._queues.get(game_id)
        if watching is not None:
            watching.discard(queue)
            if not watching:
                del self._queues[game_id]

    def watching(self, game_id: int) -> int:
        return len(self._queues.get(game_id, ()))

    def heard(self, game_id: int) -> None:
        """A change of ``game_id`` was committed: its pages are sent it, and, when a
        league's page is open, the page of the league it is played in."""
        self._heard(game_id)
        if self._league_of is not None and any(key < 0 for key in self._queues):
            task = asyncio.get_running_loop().create_task(self._heard_league(game_id))
            self._looking.add(task)
            task.add_done_callback(self._looking.discard)

    def heard_league(self, league_id: int) -> None:
        """A change of league ``league_id`` was committed (its pages are kept under
        ``-league_id``, apart from games' numbers)."""
        self._heard(-league_id)

    async def _heard_league(self, game_id: int) -> None:
        assert self._league_of is not None
        try:
            league_id = await self._league_of(game_id)
        except Exception:
            log.exception("game=%d: its league could not be read", game_id)
            return
        if league_id is not None:
            self.heard_league(league_id)

    def _heard(self, game_id: int) -> None:
        """Changes heard while an update is being built are coalesced into one more
        build after it."""
        if game_id not in self._queues:
            return
        if game_id in self._running:
            self._pending.add(game_id)
            return
        task = asyncio.get_running_loop().create_task(self._update(game_id))
        self._running[game_id] = task

    async def _update(self, game_id: int) -> None:
        try:
            while True:
                self._pending.discard(game_id)
                try:
                    data = await self._build(game_id)
                except Exception:
                    log.exception("game=%d: the page's update could not be built", game_id)
                    data = None
                if data is not None:
                    await self._send(game_id, data)
                if game_id not in self._pending:
                    return
        finally:
            self._running.pop(game_id, None)

    async def _send(self, game_id: int, data: bytes) -> None:
        """Hand ``data`` to every page, a few at a time: each page handed it is a task
        ready to write, and the event loop runs ready tasks in turn, so a click that
        comes in while two hundred pages are handed an update waits behind ``BATCH`` of
        them, not all of them."""
        for number, queue in enumerate(tuple(self._queues.get(game_id, ())), 1):
            if queue.full():
                with contextlib.suppress(asyncio.QueueEmpty):
                    queue.get_nowait()
            queue.put_nowait(data)
            if number % BATCH == 0:
                await asyncio.sleep(0)

    async def close(self) -> None:
        """Stop: every open stream is handed an empty update, which ends it."""
        for queues in self._queues.values():
            for queue in queues:
                if queue.full():
                    with contextlib.suppress(asyncio.QueueEmpty):
                        queue.get_nowait()
                queue.put_nowait(b"")
        for task in tuple(self._running.values()):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


class ManagerHeard:
    """A listener of the bot's own manager (``bot.tables.listeners.TableListener``): on
    SQLite inside the bot's process, how the page hears of a committed change."""

    def __init__(self, spectators: Spectators) -> None:
        self.spectators = spectators

    async def decision_owed(self, news: Owed) -> None:
        self.spectators.heard(news.game.id)

    async def resumed(self) -> None:
        """Nothing to look again at: a page reads the game when it is opened."""

    async def closing(self) -> None:
        """The page stops with the process; nothing to do before the store closes."""


def heard_notification(spectators: Spectators) -> Callable[[str], None]:
    """What LISTEN hands a ``dispatch_games`` payload (the game's id as text) to."""

    def heard(payload: str) -> None:
        if payload.isdigit():
            spectators.heard(int(payload))

    return heard
