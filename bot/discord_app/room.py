"""The client as the Discord room's features see it: typed, so mypy sees every call a
click or a command makes into the manager and the front end.

``DispatchClient`` holds what every feature reaches through ``interaction.client``: the
manager (None until ``setup_hook`` opened it, and again once closed), the front end, and
the interactions in flight (a graceful stop waits for them, then turns new ones away).
``client.DispatchBot`` builds on it; ``client_of`` narrows an interaction's client to it
once, with a clear error if some other client got hold of the interaction.

The front end is named here by what the features ask of it (``Front``), not by its
class: ``frontend.py`` builds prompts whose buttons answer clicks that come back here.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Protocol

import discord
from discord.ext import commands

from bot.config import WebSettings

if TYPE_CHECKING:
    from bot.delivery.port import GameInfo, View
    from bot.tables.manager import GameManager


class Front(Protocol):
    """What clicks and commands ask of the front end (``frontend.DiscordFrontEnd``):
    where a player's live DM prompt is, and which pictures the table and DMs show."""

    async def prompt_now_at(
        self, game_id: int, user_id: str, where: tuple[str, str] | None, note: str
    ) -> None: ...

    async def answered_at(
        self,
        game_id: int,
        user_id: str,
        where: tuple[str, str],
        *,
        live: bool,
        picture: str | None = None,
    ) -> None: ...

    async def refresh_prompt(
        self, game: GameInfo, user_id: str, role: str, version: int, view: View
    ) -> None: ...

    def picture_above(self, game_id: int, user_id: str) -> str | None: ...

    def closeup_above(self, game_id: int, user_id: str) -> str | None: ...

    def closeup_shown(self, game_id: int, user_id: str, name: str) -> None: ...

    def board_shown_at(self, game_id: int, board: bytes | None) -> str | None: ...


class DispatchClient(commands.Bot):
    """The bot as its features know it; ``client.DispatchBot`` opens the manager and
    makes the front end."""

    #: The one door to every game: None until ``setup_hook`` opened it, and once closed.
    manager: GameManager | None
    #: Posts and DMs (``frontend.DiscordFrontEnd``).
    frontend: Front
    #: The spectator page's settings, for ``/game link`` (off unless configured).
    web: WebSettings = WebSettings()

    def __init__(self, *args: Any, **options: Any) -> None:
        super().__init__(*args, **options)
        self._inflight = 0
        #: Set when the bot begins to stop: new interactions are answered, not begun.
        self.stopping = False
        self._idle = asyncio.Event()
        self._idle.set()

    # -- interactions in flight (for a graceful stop, and for tests) -------------------
    @contextlib.contextmanager
    def track(self) -> Iterator[None]:
        self._inflight += 1
        self._idle.clear()
        try:
            yield
        finally:
            self._inflight -= 1
            if self._inflight == 0:
                self._idle.set()

    async def wait_idle(self, timeout: float = 10.0) -> bool:
        """Wait until no component handler is running; False on timeout."""
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
        except TimeoutError:
            return False
        return True


class NotDispatchClient(TypeError):
    """An interaction reached Dispatch's code through a client that is not Dispatch's."""


def client_of(interaction: discord.Interaction[Any]) -> DispatchClient:
    """The interaction's client, as Dispatch's features know it."""
    client = interaction.client
    if not isinstance(client, DispatchClient):
        raise NotDispatchClient(
            f"Dispatch's interactions run on a DispatchClient, not a {type(client).__name__}"
        )
    return client


def stopping(interaction: discord.Interaction[Any]) -> bool:
    """True once the bot has begun to stop: new interactions are turned away politely."""
    return client_of(interaction).stopping
