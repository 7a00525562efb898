"""Where ``/game new`` opens a game's table: the lobby post and the thread started from it
(a text channel), a forum post, or the channel itself; and all of it taken back when the
game could not be created, so nothing is left behind that leads nowhere.

The Discord calls live in ``threads``; this module puts them in order for a new game.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import discord

from bot.discord_app import formatting, threads

log = logging.getLogger("dispatch.discord")

Made = TypeVar("Made")


@dataclass(frozen=True)
class NewTable(Generic[Made]):
    """A game created at its new table: what was made, its lobby post if already sent
    (the thread starts from it), and its thread or forum post (None: the channel)."""

    made: Made
    lobby: discord.WebhookMessage | None
    opened: discord.Thread | None


async def create_at_new_table(
    interaction: discord.Interaction[Any],
    place: threads.Place,
    names: tuple[str, list[str]],
    create: Callable[[str], Awaitable[Made]],
) -> NewTable[Made]:
    """Open the table at ``place`` for the game ``names`` (its title and players), then
    ``create`` the game there (given the table's channel id); if that fails, the thread
    or post and the lobby post go again and the error goes on."""
    title, players = names
    lobby, opened = await _open_table(interaction, place, title, players)
    table_ref = str(opened.id) if opened is not None else str(interaction.channel_id)
    try:
        made = await create(table_ref)
    except Exception:
        await _abandon_table(lobby, opened)
        raise
    return NewTable(made, lobby, opened)


async def _open_table(
    interaction: discord.Interaction[Any], place: threads.Place, title: str, players: list[str]
) -> tuple[discord.WebhookMessage | None, discord.Thread | None]:
    """Where a new game is played: (its lobby post, if already sent; its thread or post).

    In a text channel the lobby post goes first and the thread starts from it, so the
    channel holds one entry per game (a thread started without a message adds Discord's
    "started a thread" line beside the lobby)."""
    name = threads.thread_name(title, players, None)
    if place == "forum":
        opening = threads.post_opening(title, players, None)
        return None, await threads.open_post(interaction.channel, name, opening)
    if place == "here":
        return None, None
    lobby = await interaction.followup.send(
        f"Opening a table for {formatting.escape(title)}...",
        wait=True,
        allowed_mentions=discord.AllowedMentions.none(),
    )
    try:
        return lobby, await threads.open_table_from(interaction.channel, lobby, name)
    except Exception:
        await _withdraw(lobby)
        raise


async def _abandon_table(
    lobby: discord.WebhookMessage | None, opened: discord.Thread | None
) -> None:
    """The thread (or post) and lobby post of a game that could not be created go."""
    if opened is not None:
        await threads.discard(opened)
    if lobby is not None:
        await _withdraw(lobby)


async def _withdraw(lobby: discord.WebhookMessage) -> None:
    """The lobby post of a game that could not be opened goes again."""
    try:
        await lobby.delete()
    except discord.HTTPException as exc:
        log.info("could not delete the unused lobby post %s: %s", lobby.id, exc)
