"""What Dispatch's players use of the manager they listen to, named rather than imported.

The players sit above ``bot/tables`` and call the manager like any front end, but never
import ``bot.tables.manager`` (``tests/project/test_architecture.py``): this protocol says which of
its members they use.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from bot.delivery.port import GameInfo
from bot.storage.store import Store
from bot.tables.listeners import SearchRunner, TableListener
from bot.tables.loading import GameRef
from bot.tables.requests import Move
from bot.tables.results import ActResult, PlayerView


class GameManager(Protocol):
    """What the bot seats use of the manager they listen to (``bot.tables.manager``):
    named here rather than imported, so the seats never import the manager."""

    store: Store
    clock: Callable[[], float]
    #: Where the manager's hints search (the seats offer their workers).
    searches: SearchRunner

    @property
    def listeners(self) -> tuple[TableListener, ...]: ...

    def add_listener(self, listener: TableListener) -> None: ...

    def remove_listener(self, listener: TableListener) -> None: ...

    async def get_game_info(self, game: GameRef) -> GameInfo: ...

    async def view_for(
        self, game: GameRef, user_id: str | None, *, role: str | None = None
    ) -> PlayerView: ...

    async def act(
        self, game: GameRef, user_id: str, move: Move, *, deliver: bool = True
    ) -> ActResult: ...
