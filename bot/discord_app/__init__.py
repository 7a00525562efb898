"""Dispatch on Discord: the client, the front end, components and cogs.

``run(config)`` is the entry point ``bot.__main__`` calls; ``create_bot(config)`` builds
the client without starting it (tests start it against the emulator).
"""

from __future__ import annotations

import logging
from typing import Any

import aiohttp
import discord

from bot.config import Config, setup_logging
from bot.discord_app.client import DispatchBot
from bot.discord_app.failures import DevGuildUnusable, DiscordUnreachable, unreachable_reason


def create_bot(config: Config, **kwargs: Any) -> DispatchBot:
    return DispatchBot(config, **kwargs)


def run(config: Config) -> None:
    """Start the bot and block until it stops (Ctrl+C).

    Raises ``DiscordUnreachable`` when Discord cannot be reached at start-up,
    ``DevGuildUnusable`` when the dev guild refuses the commands, and ``SystemExit`` with
    a sentence when it refuses the token.
    """
    if not config.token:
        raise SystemExit("DISCORD_TOKEN is not set; see docs/discord.md.")
    # One handler on the root logger, ours, for discord.py's loggers and ours alike:
    # discord.py's own (discord.utils.setup_logging) next to it printed every line twice.
    setup_logging(config.log_level)
    logging.getLogger("dispatch").setLevel(getattr(logging, config.log_level, logging.INFO))
    bot = create_bot(config)
    try:
        bot.run(config.token, log_handler=None)
    except discord.LoginFailure:
        raise SystemExit(
            "Discord refused the token in DISCORD_TOKEN. Copy it again from the Developer "
            "Portal (Bot > Reset Token); see docs/discord.md."
        ) from None
    except (aiohttp.ClientConnectionError, discord.DiscordServerError, TimeoutError) as error:
        # Logging in is the first thing that needs the network; once connected,
        # discord.py reconnects by itself.
        raise DiscordUnreachable(unreachable_reason(error)) from None


__all__ = ["DevGuildUnusable", "DiscordUnreachable", "create_bot", "run", "unreachable_reason"]
