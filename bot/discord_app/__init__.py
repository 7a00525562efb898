"""Dispatch on Discord: the client, the front end, components and cogs.

``run(config)`` is the entry point ``bot.__main__`` calls; ``create_bot(config)`` builds
the client without starting it (tests start it against the emulator).
"""

from __future__ import annotations

import logging
from typing import Any

from bot.config import Config


def create_bot(config: Config, **kwargs: Any) -> Any:
    from bot.discord_app.client import DispatchBot

    return DispatchBot(config, **kwargs)


def run(config: Config) -> None:
    """Start the bot and block until it stops (Ctrl+C)."""
    import discord

    if not config.token:
        raise SystemExit("DISCORD_TOKEN is not set; see docs/discord.md.")
    discord.utils.setup_logging(level=getattr(logging, config.log_level, logging.INFO))
    # Our own loggers ("dispatch.*") share discord.py's handler and format.
    logging.getLogger("dispatch").setLevel(getattr(logging, config.log_level, logging.INFO))
    bot = create_bot(config)
    try:
        bot.run(config.token, log_handler=None)
    except discord.LoginFailure:
        raise SystemExit(
            "Discord refused the token in DISCORD_TOKEN. Copy it again from the Developer "
            "Portal (Bot > Reset Token); see docs/discord.md."
        ) from None


__all__ = ["create_bot", "run"]
