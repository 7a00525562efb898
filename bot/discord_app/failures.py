"""Why the Discord bot could not start: Discord out of reach, its token refused, or the
dev guild refusing the commands; each one line for an administrator, with its own exit
code."""

from __future__ import annotations

import aiohttp
import discord


class DiscordUnreachable(Exception):
    """Discord could not be reached at start-up (no network, DNS, a firewall, an outage);
    ``str()`` is one line for an administrator."""

    #: Exit code of ``python -m bot`` for this failure: unlike a damaged database, it may
    #: well pass, so a supervisor may start the bot again later.
    exit_code = 5

    def __init__(self, reason: str) -> None:
        super().__init__(f"Cannot reach Discord: {reason}. Check the network and try again.")


class DevGuildUnusable(Exception):
    """Discord refused to sync the commands to ``DISPATCH_DEV_GUILD`` (the bot is not in
    that server, or was invited without ``applications.commands``); one line."""

    #: Exit code of ``python -m bot``: a setting to correct, like a usage error.
    exit_code = 2

    def __init__(self, guild_id: str, reason: str) -> None:
        super().__init__(
            f"Cannot sync the commands to DISPATCH_DEV_GUILD {guild_id}: {reason}. Invite "
            "the bot there with the applications.commands scope (docs/discord.md), or "
            "unset DISPATCH_DEV_GUILD."
        )


class TokenRefused(Exception):
    """Discord refused the token in ``DISCORD_TOKEN``; one line."""

    #: Exit code of ``python -m bot``: a setting to correct, like a missing token.
    exit_code = 2

    def __init__(self) -> None:
        super().__init__(
            "Discord refused the token in DISCORD_TOKEN. Copy it again from the Developer "
            "Portal (Bot > Reset Token); see docs/discord.md."
        )


def unreachable_reason(error: BaseException) -> str:
    """Why Discord could not be reached, in a few words (the host and the system's own)."""
    if isinstance(error, aiohttp.ClientConnectorError):
        why = error.os_error.strerror or str(error.os_error) or type(error.os_error).__name__
        return f"cannot connect to {error.host}:{error.port} ({why})"
    if isinstance(error, discord.DiscordServerError):
        return f"Discord answered {error.status} {error.response.reason or ''}".rstrip()
    if isinstance(error, TimeoutError):
        return "the connection timed out"
    return str(error) or type(error).__name__
