"""The Discord room's features reach the manager and the front end through one typed
client (``bot.discord_app.room``): an interaction that came through any other client is
refused with a clear error, never read by a string ``getattr`` that would yield None."""

from __future__ import annotations

from types import SimpleNamespace

import discord
import pytest

from bot.discord_app.client import DispatchBot
from bot.discord_app.room import DispatchClient, NotDispatchClient, client_of


async def test_an_interaction_of_another_client_is_refused_clearly() -> None:
    other = discord.Client(intents=discord.Intents.none())
    try:
        with pytest.raises(NotDispatchClient, match="DispatchClient, not a Client"):
            client_of(SimpleNamespace(client=other))  # type: ignore[arg-type]
    finally:
        await other.close()


def test_the_bot_is_a_dispatch_client() -> None:
    assert issubclass(DispatchBot, DispatchClient)
