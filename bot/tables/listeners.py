"""Who hears from the GameManager: listeners it announces what happened to.

The manager does not know who listens (Dispatch's own seats,
``bot.dispatch_players.bots``, are one listener, added where the process is assembled).
After a change is committed it says that a decision is now owed in a game (``Owed``);
when it opens, and on each background pass, it says that decisions may be owed that no
change announced (``resumed``: a previous run stopped, a move failed and waits to be
tried again); when it closes, it says so.

A listener's error is logged and goes no further: it never undoes a commit or fails the
player whose click made the change (the change was committed before anyone heard of it).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Protocol, TypeVar

from bot.delivery.port import GameInfo
from bot.storage.errors import StoreError

log = logging.getLogger("dispatch.listeners")

_T = TypeVar("_T")


@dataclass(frozen=True)
class Owed:
    """A change to ``game`` was committed (it was created, a seat was taken or changed
    hands, a move was made): these roles now owe a decision."""

    game: GameInfo

    @property
    def roles(self) -> tuple[str, ...]:
        return self.game.active_roles


class TableListener(Protocol):
    """What a listener hears; each hook returns soon (long work goes to a task)."""

    async def decision_owed(self, news: Owed) -> None:
        """A change was committed: ``news.roles`` owe a decision in ``news.game``."""

    async def resumed(self) -> None:
        """The manager opened, or its background pass came round: look again at what is
        owed (games a previous run left, moves that failed and are due again)."""

    async def closing(self) -> None:
        """The manager is closing: stop using it (its store closes next)."""


class SearchRunner(Protocol):
    """Where the manager's own searches run (``manager.hints.ask``), off the event loop;
    the bot seats offer theirs, so a hint searches in their worker processes."""

    #: Iterations of every search instead of each level's budget (tests, benches).
    iterations: int | None

    async def off_loop(self, game_id: int, call: Callable[[], _T]) -> _T:
        """Run ``call`` (picklable) away from the event loop and return what it returns."""
        ...


class InThread:
    """The searches' place when no bot seats offer theirs: a thread each."""

    iterations: int | None = None

    async def off_loop(self, game_id: int, call: Callable[[], _T]) -> _T:
        return await asyncio.to_thread(call)


class Listeners:
    """A manager's listeners, in the order they were added; each announcement reaches
    every one of them, whatever another one raised."""

    def __init__(self) -> None:
        self._all: list[TableListener] = []

    def add(self, listener: TableListener) -> None:
        if listener not in self._all:
            self._all.append(listener)

    def remove(self, listener: TableListener) -> None:
        if listener in self._all:
            self._all.remove(listener)

    def __iter__(self) -> Iterator[TableListener]:
        return iter(tuple(self._all))

    async def owed(self, game: GameInfo) -> None:
        news = Owed(game)
        for listener in self:
            try:
                await listener.decision_owed(news)
            except StoreError:
                pass  # the database out of reach: the store said so once
            except Exception:
                log.exception("game=%d: a listener failed on a decision owed", game.id)

    async def resumed(self) -> None:
        for listener in self:
            try:
                await listener.resumed()
            except StoreError:
                pass  # the database out of reach: the store said so once
            except Exception:
                log.exception("a listener failed to resume")

    async def closing(self) -> None:
        for listener in self:
            try:
                await listener.closing()
            except Exception:
                log.exception("a listener failed to close")
