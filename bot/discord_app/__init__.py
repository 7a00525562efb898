"""Dispatch on Discord: the client, the front end, components and cogs.

``run(config)`` is the entry point ``bot.__main__`` calls; ``create_bot(config)`` builds
the client without starting it (tests start it against the emulator). Its modules are
layered so that none imports back up:

- ``client``, ``shards``, ``failures``: the bot, its shards, and why it could not start;
- ``room``: the client as the features see it (``DispatchClient``, ``client_of``);
- ``cogs/``: the slash commands, each cog registering its feature's ``DynamicItem``s;
- ``custom_ids`` and ``components``: every custom id's kind, and what every button is;
- each feature's messages and clicks: ``prompts``, ``lobby``, ``rematch``, ``looks``,
  ``claim_components``, ``seat_components``, ``solo_message`` and ``solo_modals``,
  ``history_ui``, ``replays``, ``settings_reply``, ``threads`` and ``new_tables``;
- ``interactions``, ``checks``, ``autocomplete``: what every handler shares;
- ``frontend``, ``formatting``, ``unreachable``: posts and DMs, their text, and why a
  table refused a post.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import aiohttp
import discord

from bot.config import Config, setup_logging
from bot.discord_app.client import DispatchBot
from bot.discord_app.failures import (
    DevGuildUnusable,
    DiscordUnreachable,
    TokenRefused,
    unreachable_reason,
)
from bot.discord_app.shards import ShardedDispatchBot
from bot.process import health
from bot.process.lifecycle import graceful


def create_bot(config: Config, **kwargs: Any) -> Any:
    """The client: one plain connection, or the shards of ``config`` when it names some."""
    if config.sharded:
        return ShardedDispatchBot(config, **kwargs)
    return DispatchBot(config, **kwargs)


async def serve(bot: Any, token: str, health_file: Path | None = None) -> None:
    """Run ``bot`` until it stops, or until SIGTERM or SIGINT asks it to: then it lets
    the clicks in flight finish (their transactions commit), stops its background loop
    between passes, releases its leases, closes the gateway and the store, and returns
    (``python -m bot`` then exits 0). With ``health_file`` (``DISPATCH_HEALTH_FILE``) it
    keeps that file fresh while connected, for ``dispatch health``."""

    def connected() -> bool:
        return bool(bot.is_ready() and not bot.is_closed())

    alive = None
    if health_file is not None:
        alive = asyncio.create_task(health.keep_alive(health_file, connected), name="health")
    try:
        async with bot:
            await graceful(bot.start(token), bot.close)
    finally:
        if alive is not None and health_file is not None:
            alive.cancel()
            health.forget(health_file)


def run(config: Config) -> None:
    """Start the bot and block until it stops (SIGTERM or Ctrl+C: a clean stop).

    Raises ``DiscordUnreachable`` when Discord cannot be reached at start-up,
    ``DevGuildUnusable`` when the dev guild refuses the commands, and ``TokenRefused``
    when it refuses the token.
    """
    if not config.token:
        raise SystemExit("DISCORD_TOKEN is not set; see docs/discord.md.")
    # One handler on the root logger, ours, for discord.py's loggers and ours alike:
    # discord.py's own (discord.utils.setup_logging) next to it printed every line twice.
    setup_logging(config.log_level)
    logging.getLogger("dispatch").setLevel(getattr(logging, config.log_level, logging.INFO))
    bot = create_bot(config)
    try:
        asyncio.run(serve(bot, config.token, config.health_file))
    except discord.LoginFailure:
        raise TokenRefused() from None
    except (aiohttp.ClientConnectionError, discord.DiscordServerError, TimeoutError) as error:
        # Logging in is the first thing that needs the network; once connected,
        # discord.py reconnects by itself.
        raise DiscordUnreachable(unreachable_reason(error)) from None


__all__ = [
    "DevGuildUnusable",
    "DiscordUnreachable",
    "TokenRefused",
    "create_bot",
    "run",
    "serve",
    "unreachable_reason",
]
