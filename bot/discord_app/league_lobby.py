"""A league's lobby post: what the league is, who has entered, and a Join button while
entries are open; edited as players join and leave, and when the league starts or ends.

Its custom id (in ``custom_ids``)::

    dsp:l:<league>   join that league

The id names any league, so a click is checked by the desk against the server it was
clicked in: a copy forged in another server is refused as an unknown league, and a league
that has started or ended takes no one (the post then loses its button).
"""

from __future__ import annotations

import logging
from typing import Any

import discord

import rules
from bot.discord_app import formatting, threads
from bot.discord_app.components import DispatchComponent
from bot.discord_app.custom_ids import league_join_id
from bot.discord_app.interactions import guild_of, handling, manager_of, reply, user_id
from bot.discord_app.league_posts import who
from bot.discord_app.room import client_of
from bot.tables.leagues.records import LeagueInfo

log = logging.getLogger("dispatch.discord.leagues")

#: How many entrants the lobby post names (the rest are counted).
NAMED_MAX = 60
FORMAT_NAMES = {
    "round_robin": "round robin",
    "double_round_robin": "double round robin",
    "swiss": "Swiss",
    "elimination": "single elimination",
}


def game_title(game_name: str) -> str:
    game = rules.GAMES.get(game_name)
    return (game.title or game.name) if game else game_name


def format_text(league: LeagueInfo) -> str:
    """The league's format in words: "Swiss of 4 rounds", "single elimination"."""
    spec = league.spec
    text = FORMAT_NAMES.get(spec.format, spec.format)
    if spec.format == "swiss" and spec.rounds:
        text += f" of {spec.rounds} round" + ("" if spec.rounds == 1 else "s")
    if spec.format == "elimination" and spec.games_per_tie == 2:
        text += ", two games a tie (one on each side)"
    return text


def entrants_text(league: LeagueInfo) -> str:
    playing = [e for e in league.entrants if e.status == "in"]
    named = ", ".join(who(e.player) for e in playing[:NAMED_MAX])
    more = f" and {len(playing) - NAMED_MAX} more" if len(playing) > NAMED_MAX else ""
    cap = f" (at most {league.spec.cap})" if league.spec.cap else ""
    return f"Entrants: {len(playing)}{cap}" + (f": {named}{more}" if playing else "")


def status_line(league: LeagueInfo) -> str:
    if league.status == "entry":
        return f"Entries close <t:{int(league.entry_deadline)}:R>. Press Join to enter."
    if league.status == "running":
        return f"Entries are closed: round {league.round_number} is being played."
    if league.status == "finished":
        return "This league is over: its final standings are posted below."
    return "This league was cancelled."


def lobby_text(league: LeagueInfo) -> str:
    spec = league.spec
    rated = "rated" if spec.rated else "unrated"
    dispatch = " Dispatch's levels may enter." if spec.dispatch_may_enter else ""
    head = (
        f"**League #{league.id}: {formatting.escape(spec.name)}**\n"
        f"{game_title(spec.game_name)}, {format_text(league)}, {rated}; "
        f"each round lasts {spec.round_days:g} days.{dispatch}"
    )
    return formatting.clip(
        f"{head}\n{entrants_text(league)}\n{status_line(league)}", formatting.CONTENT_MAX
    )


class LeagueJoinButton(DispatchComponent, kind="league_join"):
    """A league lobby's Join button."""

    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        await on_join(interaction, int(self.click.league or 0))


#: This module's kinds, registered by the ``/league`` cog.
ITEMS: tuple[type[DispatchComponent], ...] = (LeagueJoinButton,)


def lobby_payload(league: LeagueInfo) -> dict[str, Any]:
    """The lobby post: the league, its entrants, and a Join button while entries are open."""
    view = None
    if league.status == "entry":
        view = discord.ui.View(timeout=None)
        join = LeagueJoinButton.button(
            league_join_id(league.id), "Join", discord.ButtonStyle.success
        )
        view.add_item(join)
    return {
        "content": lobby_text(league),
        "view": view,
        "allowed_mentions": discord.AllowedMentions.none(),
    }


async def channel_of(client: discord.Client, channel_id: str) -> Any:
    """A channel by id, from the cache or else from Discord."""
    channel = client.get_channel(int(channel_id))
    if channel is None:
        channel = await client.fetch_channel(int(channel_id))
    return channel


async def lobby_message(client: discord.Client, league: LeagueInfo) -> Any:
    """The lobby post as a message to edit. In a forum the lobby is a post of its own (a
    thread, whose id is kept) and its first message is the one with the Join button."""
    assert league.lobby_message_id is not None
    channel = await channel_of(client, league.channel_id)
    if not threads.is_forum(channel):
        messageable = client.get_partial_messageable(int(league.channel_id))
        return messageable.get_partial_message(int(league.lobby_message_id))
    post = await channel_of(client, league.lobby_message_id)
    async for first in post.history(limit=1, oldest_first=True):
        return first
    return None


async def edit_lobby(client: discord.Client, league: LeagueInfo) -> None:
    """Bring the league's lobby post up to date (it may be gone: nothing to edit then)."""
    if league.lobby_message_id is None:
        return
    try:
        message = await lobby_message(client, league)
        if message is not None:
            await message.edit(**lobby_payload(league))
    except discord.HTTPException as exc:
        log.info("league=%d could not edit its lobby post: %s", league.id, exc)


async def on_join(interaction: discord.Interaction[Any], league_id: int) -> None:
    """The lobby's Join: enter the league (the desk refuses another server's league, a
    league that started, a full one), then show the post with the new entrant."""
    async with handling(interaction, league_id, "league join"):
        guild = guild_of(interaction) or ""
        leagues = manager_of(interaction).leagues
        try:
            league = await leagues.join(league_id, guild, user_id(interaction))
        except Exception:
            await _refresh_clicked(interaction, league_id, guild)
            raise
        await interaction.response.edit_message(**lobby_payload(league))
        await reply(interaction, f"You are in **{formatting.escape(league.spec.name)}**.")


async def _refresh_clicked(
    interaction: discord.Interaction[Any], league_id: int, guild: str
) -> None:
    """A refused click on a league's own lobby post that no longer takes entrants: the
    post loses its button, so nobody else presses a dead one."""
    try:
        league = await manager_of(interaction).leagues.info(league_id, guild)
    except Exception:
        return  # another server's league, or none: its post is not ours to change
    if league.status != "entry" and league.lobby_message_id is not None:
        await edit_lobby(client_of(interaction), league)
