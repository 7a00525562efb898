"""Interaction handling shared by the buttons, selects and slash commands (what each
click does lives with its feature: ``prompts``, ``lobby``, ``rematch``, ``looks``...).

Each handler acknowledges first (Discord's 3-second deadline), then asks the manager, then
answers. Every error a player can cause is a ``DispatchError`` whose text is shown to them
ephemerally; anything else is logged here (never left to discord.py) and answered politely.
"""

from __future__ import annotations

import contextlib
import logging
import re
import time
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

import discord

from bot import errors
from bot.delivery.port import GameInfo
from bot.discord_app import formatting
from bot.discord_app.formatting import ALLOWED_MENTIONS
from bot.discord_app.room import client_of

if TYPE_CHECKING:
    from bot.tables.manager import GameManager

log = logging.getLogger("dispatch.discord")

UNEXPECTED = "Something went wrong on my side; nothing was changed. Please try again."
#: The move was applied, but the clicked message could not become the next prompt.
APPLIED_NOT_SHOWN = (
    "Your move was made, but I could not update this message. "
    "Use /game hand for your current prompt."
)


_ID_HEAD = re.compile(r"dsp:[a-z]:[0-9]{1,18}")


def id_label(custom_id: object) -> str:
    """What a log line may show of a component's custom id: its form and game id only.

    An action id ends in the action's argument (``dsp:a:1:2:place:left:U48`` names the
    card played face down), and whoever reads the server log may sit at the table; a
    forged id may carry anything. So only ``dsp:<form>:<game>`` goes to the log.
    """
    known = _ID_HEAD.match(str(custom_id))
    return known.group(0) if known else "(not a Dispatch id)"


def manager_of(interaction: discord.Interaction[Any]) -> GameManager:
    manager = client_of(interaction).manager
    if manager is None:
        raise errors.NotAllowed("Dispatch is still starting up; try again in a moment.")
    return manager


def user_id(interaction: discord.Interaction[Any]) -> str:
    return str(interaction.user.id)


def guild_of(interaction: discord.Interaction[Any]) -> str | None:
    """The server an interaction came from (None: a DM)."""
    return str(interaction.guild_id) if interaction.guild_id else None


async def game_in_reach(interaction: discord.Interaction[Any], game_id: int) -> GameInfo:
    """The game a number typed or clicked here names, if it is within reach from here: a
    game of this server, or in a DM one the asker plays (``bot.tables.reach``). Any other
    number is refused as an unknown one: a custom id or a ``game:`` option can name any
    game, and a moderator here is no moderator of another server's games."""
    return await manager_of(interaction).game_in_reach(
        game_id, user_id(interaction), guild_of(interaction)
    )


async def reply(
    interaction: discord.Interaction[Any], content: str | None = None, **kwargs: Any
) -> None:
    """Answer ephemerally, as a first response or a followup, whichever is due."""
    kwargs.setdefault("ephemeral", True)
    kwargs.setdefault("allowed_mentions", ALLOWED_MENTIONS)
    if content is not None:
        kwargs["content"] = formatting.clip(content, formatting.CONTENT_MAX)
    if interaction.response.is_done():
        if "view" in kwargs and kwargs["view"] is None:
            kwargs.pop("view")
        await interaction.followup.send(**kwargs)
    else:
        if not kwargs.get("files"):
            kwargs.pop("files", None)
        await interaction.response.send_message(**kwargs)


async def report(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """Tell the player why nothing happened; log anything that is not their doing."""
    if isinstance(error, errors.DispatchError):
        text = formatting.error_text(error)
    else:
        custom_id = dict(interaction.data or {}).get("custom_id")
        log.error(
            "interaction %s by %s failed",
            id_label(custom_id)
            if custom_id
            else getattr(interaction.command, "qualified_name", "?"),
            interaction.user.id,
            exc_info=error,
        )
        text = UNEXPECTED
    try:
        await reply(interaction, text)
    except Exception as exc:
        # The token may have expired or the bot is shutting down: nothing more to do.
        log.warning("could not report an error to %s: %s", interaction.user.id, exc)


# ------------------------------------------------------- around every handler


def in_flight(interaction: discord.Interaction[Any]) -> contextlib.AbstractContextManager[None]:
    """Counts the interaction as in flight until the block ends: a graceful stop waits for
    it, and so do tests (``wait_idle``) for work done after its first answer."""
    return client_of(interaction).track()


@contextlib.asynccontextmanager
async def answering(interaction: discord.Interaction[Any]) -> AsyncIterator[None]:
    """Around the part of a command that goes on after its first answer: in flight until
    it ends, its failure answered within it, so whoever waits for the command (a graceful
    stop, a test) sees it whole, refusal included."""
    with in_flight(interaction):
        try:
            yield
        except Exception as exc:
            await report(interaction, exc)


@contextlib.asynccontextmanager
async def handling(
    interaction: discord.Interaction[Any], game_id: int, kind: str
) -> AsyncIterator[None]:
    """Around every component handler: counted as in flight (a graceful stop waits for
    it), timed in the log, and any error answered politely instead of escaping."""
    started = time.perf_counter()
    with in_flight(interaction):
        try:
            yield
        except Exception as exc:
            await report(interaction, exc)
    log.info(
        "interaction game=%d %s by %s handled in %.1fms",
        game_id,
        kind,
        interaction.user.id,
        (time.perf_counter() - started) * 1000,
    )


async def refuse(interaction: discord.Interaction[Any], game_id: int, text: str) -> None:
    """A click that cannot be what the player meant: say so, change nothing."""
    async with handling(interaction, game_id, "refused"):
        raise errors.NotAllowed(text)


ANOTHER_CHANNEL = "This button belongs to a game in another channel."


async def in_its_channel(interaction: discord.Interaction[Any], game_id: int) -> GameInfo:
    """The game a lobby or table control names, refused unless clicked in that game's own
    channel: its custom id names any game, and a moderator is one in the channel clicked
    in, so a copy forged in another server is refused as an unknown number (it must not
    seat anyone nor start the game), and one in another channel here saying so."""
    info = await game_in_reach(interaction, game_id)
    if str(interaction.channel_id) != info.channel_id:
        # Its lobby post may be in the parent of the game's thread.
        lobby = await manager_of(interaction).threads.lobby_post(game_id)
        if lobby is None or lobby[0] != str(interaction.channel_id):
            raise errors.NotAllowed(ANOTHER_CHANNEL)
    return info
