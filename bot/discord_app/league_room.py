"""Where a league plays on Discord (``LeagueRoom``): each game gets a public thread of the
league's channel (a post, in a forum channel), and the league's posts (a round's games,
the final standings, notices) go to that channel.

A round post pings exactly the players its post names to ping, each once, never a
Dispatch level (``league_posts.messages``); the standings go as an embed with the table's
picture. A failure raises: the desk retries the post, and opening a game, later.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Mapping
from typing import Any

import discord

import rules
from bot.discord_app import formatting, threads
from bot.discord_app.league_lobby import channel_of, edit_lobby, game_title, lobby_payload
from bot.discord_app.league_posts import TABLE_FILE, Message, messages, standings_embed
from bot.discord_app.room import DispatchClient
from bot.tables.bot_users import is_bot
from bot.tables.leagues.records import LeagueGameInfo, LeagueInfo, LeaguePost
from bot.tables.leagues.standings import Standing
from render.league_table import MAX_ROWS, table_png

log = logging.getLogger("dispatch.discord.leagues")

#: Messages looked at past a long post's own count for the parts of it already said.
HISTORY_SLACK = 20


def sides_of(game_name: str) -> tuple[str, str]:
    """The two sides' names, as the standings head their records."""
    game = rules.GAMES.get(game_name)
    if game is None or len(game.roles) != 2:
        return ("First", "Second")
    return (game.role_name(game.roles[0]), game.role_name(game.roles[1]))


async def display_names(
    client: discord.Client, guild_id: str, players: Iterable[str]
) -> dict[str, str]:
    """Each player's name on the server (a Dispatch level's own name; a member who left
    is shown by their id), for the table's picture, which cannot show a mention."""
    guild = client.get_guild(int(guild_id))
    names: dict[str, str] = {}
    for player in players:
        if is_bot(player) or not player.isdigit():
            names[player] = player
            continue
        names[player] = _kept_name(guild_id, player) or await _fetched_name(guild, guild_id, player)
    return names


#: Players' server names, kept a while: without the members intent Discord sends no
#: member list, so a table of 40 rows would otherwise cost 40 requests each time it is
#: shown, and a round of 500 games 1,000 as its threads are named.
NAME_TTL_S = 3600.0
NAMES_MAX = 10_000
_names: dict[tuple[str, str], tuple[str, float]] = {}


def _kept_name(guild_id: str, player: str) -> str | None:
    kept = _names.get((guild_id, player))
    if kept is None or time.monotonic() - kept[1] > NAME_TTL_S:
        return None
    return kept[0]


async def _fetched_name(guild: discord.Guild | None, guild_id: str, player: str) -> str:
    member = guild.get_member(int(player)) if guild else None
    if member is None and guild is not None:
        try:
            member = await guild.fetch_member(int(player))
        except discord.HTTPException:
            member = None
    if member is None:
        return f"user {player}"
    if len(_names) >= NAMES_MAX:
        _names.clear()
    _names[(guild_id, player)] = (member.display_name, time.monotonic())
    return member.display_name


async def standings_message(
    client: discord.Client, league: LeagueInfo, standings: tuple[Standing, ...], title: str
) -> dict[str, Any]:
    """The standings as an embed with the table's picture attached: the kwargs of a send."""
    sides = sides_of(league.spec.game_name)
    shown = [s.player for s in standings[:MAX_ROWS]]
    names = await display_names(client, league.guild_id, shown)
    picture = table_png(title, standings, names, sides)
    alt = f"The standings of {league.spec.name}, a row per player"
    return {
        # The picture draws the name as typed; the embed's title would render its markup.
        "embed": standings_embed(formatting.escape(title), standings, sides, picture=True),
        "file": formatting.png_file(picture, TABLE_FILE, alt),
    }


class DiscordLeagueRoom:
    """The ``LeagueRoom`` of the Discord client (attached to the desk at start-up)."""

    def __init__(self, client: DispatchClient) -> None:
        self.client = client

    async def _channel(self, channel_id: str) -> Any:
        return await channel_of(self.client, channel_id)

    async def _posts_place(self, league: LeagueInfo) -> Any:
        """Where the league's posts go: its channel, or in a forum its lobby's post."""
        channel = await self._channel(league.channel_id)
        if threads.is_forum(channel):
            if league.lobby_message_id is None:  # said first, in order: not yet said
                raise RuntimeError(f"league {league.id}'s forum post is not open yet")
            return await self._channel(league.lobby_message_id)
        return channel

    async def open_table(self, league: LeagueInfo, game: LeagueGameInfo, name: str) -> str:
        """A public thread of the league's channel for one game (a post, in a forum),
        named after the game, its round and board, and its players."""
        channel = await self._channel(league.channel_id)
        title = f"{game_title(league.spec.game_name)} · R{game.round} B{game.board}"
        names = await display_names(self.client, league.guild_id, (game.first, game.second))
        thread_name = threads.thread_name(title, [names[game.first], names[game.second]], None)
        if threads.is_forum(channel):
            starter = threads.post_opening(title, [names[game.first], names[game.second]], None)
            opened = await threads.open_post(channel, thread_name, starter)
        else:
            opened = await channel.create_thread(
                name=thread_name,
                type=discord.ChannelType.public_thread,
                auto_archive_duration=threads.AUTO_ARCHIVE_MIN,
            )
        log.info(
            "league=%d round %d board %d opened in %s", league.id, game.round, game.board, opened.id
        )
        return str(opened.id)

    async def post(self, league: LeagueInfo, post: LeaguePost) -> None:
        """Say ``post`` in the league's channel: its lines cut into messages that ping
        exactly its players, the standings (if any) on the first. The lobby post is the
        one message with the Join button, edited from then on."""
        if post.kind == "lobby":
            await self._lobby(league)
            return
        channel = await self._posts_place(league)
        extra: Mapping[str, Any] = {}
        if any(s.points for s in post.standings):
            extra = await standings_message(
                self.client, league, post.standings, _title(post, league)
            )
        parts = messages(plain_name(post.headline, league), post.lines, post.mention_user_ids)
        said = await self._already_said(channel, parts)
        for index, message in enumerate(parts):
            if message.content in said:
                continue
            await channel.send(
                content=message.content,
                allowed_mentions=message.allowed_mentions(),
                **(extra if index == 0 else {}),
            )
        if league.status != "entry":  # its Join button goes once entries close
            await edit_lobby(self.client, league)

    async def _already_said(self, channel: Any, parts: list[Message]) -> set[str]:
        """The parts of a long post already in the channel: a post that failed part way
        is said again whole, and a part said twice would ping its players twice."""
        if len(parts) < 2 or self.client.user is None:
            return set()
        mine, wanted = self.client.user.id, {part.content for part in parts}
        try:
            recent = [m async for m in channel.history(limit=len(parts) + HISTORY_SLACK)]
        except discord.HTTPException:  # no Read Message History: say it all again
            return set()
        return {m.content for m in recent if m.author.id == mine and m.content in wanted}

    async def _lobby(self, league: LeagueInfo) -> None:
        """The lobby post, sent once and kept: said again (a retry after a crash), it is
        brought up to date rather than sent twice."""
        if league.lobby_message_id is not None:
            await edit_lobby(self.client, league)
            return
        channel = await self._channel(league.channel_id)
        if threads.is_forum(channel):  # a post of its own, where the league's posts go
            title = f"League #{league.id}: {league.spec.name}"
            made = await channel.create_thread(
                name=title[: threads.NAME_MAX],
                auto_archive_duration=threads.AUTO_ARCHIVE_MIN,
                **lobby_payload(league),
            )
            sent = made.thread
        else:
            sent = await channel.send(**lobby_payload(league))
        manager = self.client.manager
        if manager is None:  # closing: the post is said again, and found, next time
            raise RuntimeError("the manager closed while the lobby post was said")
        await manager.leagues.set_lobby_post(league.id, str(sent.id))


def plain_name(headline: str, league: LeagueInfo) -> str:
    """``headline`` with the league's name as plain text: a moderator may name a league
    anything visible, and its public posts must not turn that into a masked link, a
    heading or a mention (the headline's own mentions of players are kept)."""
    name = league.spec.name
    return headline.replace(name, formatting.escape(name))


def _title(post: LeaguePost, league: LeagueInfo) -> str:
    if post.kind == "final":
        return f"{league.spec.name}: final standings"
    if post.round is not None:
        return f"{league.spec.name}: standings before round {post.round}"
    return f"{league.spec.name}: standings"
