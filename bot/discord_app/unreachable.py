"""Which of the causes a refused table post has, read from Discord's answer: the players'
notice names that one (``bot.delivery.unreachable``) instead of every possible cause.

Discord's codes: 10003 Unknown Channel (deleted), 50001 Missing Access (no View Channel),
50013 Missing Permissions (which one, Discord does not say: the permissions the bot's
cache shows lacking there are named), 50083 Thread is archived (the thread, fetched,
tells a moderator's lock from an archive that could not be undone).
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot import errors
from bot.delivery.port import GameInfo
from bot.discord_app import threads

log = logging.getLogger("dispatch.discord")

#: Discord's "Unknown Channel" (deleted) and "Thread is archived": no post gets through.
UNKNOWN_CHANNEL = 10003
ARCHIVED_THREAD = 50083
MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013

#: The cause each code names outright.
CAUSE_OF_CODE = {
    UNKNOWN_CHANNEL: errors.CHANNEL_DELETED,
    MISSING_ACCESS: errors.NO_ACCESS,
    MISSING_PERMISSIONS: errors.NO_PERMISSION,
}


def refuses_for_good(exc: discord.HTTPException) -> bool:
    """A refusal that will not pass by itself: no access or permission, the channel
    deleted, an archived thread; anything else is retried."""
    return isinstance(exc, discord.Forbidden) or exc.code in (UNKNOWN_CHANNEL, ARCHIVED_THREAD)


def lacking_here(channel: Any) -> tuple[str, ...]:
    """The permissions a table post needs that the bot's cache shows missing in
    ``channel`` (empty when the cache cannot tell). Without View Channel or the right to
    send, Discord counts Embed Links and Attach Files as lacking too: only the first is
    named then, since granting it is what the table needs."""
    guild = getattr(channel, "guild", None)
    if guild is None or guild.me is None or not hasattr(channel, "permissions_for"):
        return ()
    perms = channel.permissions_for(guild.me)
    needed = threads.needed_for(channel, "here")
    lacking = [attr for attr in needed if not getattr(perms, attr)]
    if lacking and lacking[0] not in ("embed_links", "attach_files"):
        lacking = lacking[:1]
    return tuple(needed[attr] for attr in lacking)


async def thread_locked(client: discord.Client, channel_id: str) -> bool:
    """Whether the thread is locked (a moderator's doing), as Discord says now."""
    try:
        thread = await client.fetch_channel(int(channel_id))
    except discord.HTTPException:
        return False
    return isinstance(thread, discord.Thread) and thread.locked


async def table_failure(
    client: discord.Client, game: GameInfo, exc: discord.HTTPException
) -> Exception:
    """What a refused table post means for delivery: ``TableUnreachable`` with its cause
    until someone fixes the channel, or ``DeliveryRetry`` for a passing failure."""
    if not refuses_for_good(exc):
        return errors.DeliveryRetry(f"table post to {game.channel_id} failed: {exc}")
    cause = CAUSE_OF_CODE.get(exc.code, "")
    missing: tuple[str, ...] = ()
    if exc.code == ARCHIVED_THREAD:
        locked = await thread_locked(client, game.channel_id)
        cause = errors.THREAD_LOCKED if locked else errors.THREAD_ARCHIVED
    elif cause == errors.NO_PERMISSION:
        missing = lacking_here(client.get_channel(int(game.channel_id)))
    return errors.TableUnreachable(f"channel {game.channel_id}: {exc}", cause, missing)
