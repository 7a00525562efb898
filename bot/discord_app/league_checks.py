"""What every ``/league`` command checks before it asks the league desk: the server it was
typed in, whether the user may run leagues there, where a league may be run, who may
take a player's place; and the leagues offered as a command's league option."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot import errors
from bot.discord_app import formatting, threads
from bot.discord_app.interactions import guild_of, manager_of
from bot.tables.leagues.desk import LeagueDesk
from bot.tables.leagues.records import LeagueInfo


def desk_of(interaction: discord.Interaction[Any]) -> LeagueDesk:
    return manager_of(interaction).leagues


def guild(interaction: discord.Interaction[Any]) -> str:
    found = guild_of(interaction)
    if found is None:
        raise errors.ServerOnly("Leagues are run in a server, not in direct messages.")
    return found


async def may_run(interaction: discord.Interaction[Any]) -> bool:
    """Manage Server (or Administrator), or holding the server's league role."""
    perms = interaction.permissions
    if perms and (perms.manage_guild or perms.administrator):
        return True
    role = await desk_of(interaction).league_role(guild(interaction))
    user = interaction.user
    roles = user.roles if isinstance(user, discord.Member) else []
    return role is not None and any(str(r.id) == role for r in roles)


async def league_choices(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[int]]:
    """This server's leagues, newest first, by number and name (never another server's)."""
    try:
        leagues = await desk_of(interaction).leagues_here(guild(interaction))
    except Exception:  # an autocomplete never fails: it offers nothing
        return []
    typed = (current or "").strip().lower()
    found = [
        (f"#{league.id} {league.spec.name} ({league.status})", league.id)
        for league in leagues
        if typed in f"#{league.id} {league.spec.name}".lower()
    ]
    return [app_commands.Choice(name=name[:100], value=value) for name, value in found[:25]]


#: Where a league can be run: its games each need a thread (or a post) of its channel.
NOT_IN_A_THREAD = (
    "A league's games each get a thread of its channel, so run /league create in a text "
    "channel or a forum, not in a thread."
)


def refuse_place(interaction: discord.Interaction[Any]) -> None:
    """A league is refused in a thread (no thread opens in a thread), or in a channel
    where Dispatch could not open its games' threads (the permission is named)."""
    channel = interaction.channel
    if threads.is_thread(channel):
        raise errors.NotAllowed(NOT_IN_A_THREAD)
    place: threads.Place = "forum" if threads.is_forum(channel) else "thread"
    missing = threads.cannot_play(channel, interaction.app_permissions, place, "here")
    if missing:
        raise errors.NotAllowed(missing)


def refuse_bot(member: discord.User | discord.Member) -> None:
    """A bot account never moves (Dispatch itself is one): in a player's place it would
    lose every game on time. Dispatch plays a league as one of its levels."""
    if member.bot:
        raise errors.LeagueRefused(
            "A bot cannot play in a league: Dispatch plays one as a level entered before "
            "the start, with /league enter-dispatch."
        )


def named(league: LeagueInfo) -> str:
    """The league's name as plain text: a moderator may name it anything visible."""
    return formatting.escape(league.spec.name)


def player_of(user: discord.User | discord.Member) -> str:
    return str(user.id)
