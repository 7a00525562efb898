"""``/game link``: the address of a game's spectator page, its link revoked, or a
server's say over the pages of its games (``bot.web.links`` does the work)."""

from __future__ import annotations

from typing import Any, Literal

import discord

from bot import errors
from bot.discord_app.checks import is_moderator
from bot.discord_app.interactions import guild_of, manager_of, reply, user_id
from bot.discord_app.room import client_of
from bot.web import links

OnOff = Literal["on", "off"]


async def answer_link(
    interaction: discord.Interaction[Any],
    *,
    revoke: bool,
    page: OnOff | None,
    indexing: OnOff | None,
) -> None:
    """The game's link (the same one until revoked), its revocation, or the server's
    settings when ``page`` or ``indexing`` is given; every answer is the asker's alone."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    if page is not None or indexing is not None:
        await _server_settings(interaction, page, indexing)
        return
    manager = manager_of(interaction)
    info = await manager.get_game_info(str(interaction.channel_id))
    if revoke:
        by_league = await links.linked_by_a_league(manager.store, info.id)
        count = await links.revoke_links(
            manager.store, info.id, user_id(interaction), is_moderator=is_moderator(interaction)
        )
        await reply(interaction, _revoked_words(info.id, count, by_league), ephemeral=True)
        return
    web = client_of(interaction).web
    url = await links.give_link(manager.store, web, info.id, user_id(interaction))
    await reply(interaction, f"Game #{info.id}'s page, for anyone you give it to: {url}")


async def _server_settings(
    interaction: discord.Interaction[Any], page: OnOff | None, indexing: OnOff | None
) -> None:
    if not is_moderator(interaction):
        raise errors.ModeratorOnly(
            "Only a moderator can turn the spectator page on or off, or let it be indexed."
        )
    setting = await links.server_page(
        manager_of(interaction).store,
        guild_of(interaction),
        page=None if page is None else page == "on",
        indexing=None if indexing is None else indexing == "on",
    )
    await reply(interaction, links.server_words(setting), ephemeral=True)


def _revoked_words(game_id: int, count: int, by_league: bool) -> str:
    """What ``/game link revoke`` answers: ``count`` of the game's own links were live,
    and ``by_league``: its league's page linked to it too (that link is turned away with
    them; the league's page and its other games go on)."""
    league = (
        " The link its league's page made for it no longer opens it either; the league's "
        "page and its other games' links go on."
        if by_league
        else ""
    )
    if not count:
        if by_league:
            return f"Game #{game_id} has no link of its own.{league}"
        return f"Game #{game_id} has no link of its own to revoke."
    return (
        f"Game #{game_id}'s link is revoked: it now answers “not found”. "
        f"/game link gives a new one.{league}"
    )
