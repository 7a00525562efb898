"""``/game move``: a game whose table stopped taking posts (or that is simply better
elsewhere) goes on in another channel or thread, where its board is posted again (the
Discord side is ``bot.discord_app.threads``). Added to the ``/game``
group of ``cogs/game.py``, so this extension loads after it."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import errors
from bot.discord_app import autocomplete, formatting, threads
from bot.discord_app.checks import is_moderator
from bot.discord_app.cogs.game import MAX_GAME_NUMBER
from bot.discord_app.interactions import game_in_reach, manager_of, reply, user_id
from bot.discord_app.lobby import lobby_payload
from bot.discord_app.looks import look_payload
from bot.tables.bot_users import is_bot, level_of


@app_commands.command(name="move")
@app_commands.autocomplete(game=autocomplete.my_live_games)
async def move(
    interaction: discord.Interaction[Any],
    channel: discord.TextChannel | discord.Thread | discord.ForumChannel,
    game: app_commands.Range[int, 1, MAX_GAME_NUMBER] | None = None,
) -> None:
    """Move a game to another channel or thread, where its board is posted again

    Parameters
    ----------
    channel:
        Where the game goes on (a text channel opens a thread for it, unless threads are off)
    game:
        The game's number (default: this channel's game)
    """
    manager = manager_of(interaction)
    guild = interaction.guild
    if guild is None:
        raise errors.ServerOnly("Games are moved within a server.")
    if game is None:
        info = await manager.get_game_info(str(interaction.channel_id))
    else:  # a number reaches this server's games only, whoever moderates here
        info = await game_in_reach(interaction, game)
    if info.status not in ("lobby", "active"):
        raise errors.GameNotActive(info.status)
    moderator = is_moderator(interaction)
    if not moderator and not info.roles_of(user_id(interaction)):
        raise errors.ModeratorOnly(
            f"Only a player of game #{info.id} or a moderator (Manage Channels) can move it."
        )
    target = guild.get_channel_or_thread(channel.id)
    unseen = f"I cannot see {channel.mention}: give me View Channel there, then try again."
    if target is None:
        raise errors.NotAllowed(unseen)
    try:
        perms = target.permissions_for(guild.me)
    except discord.ClientException:  # a thread whose parent Dispatch cannot see
        raise errors.NotAllowed(unseen) from None
    place = threads.place_for(target, await manager.threads.enabled(str(guild.id)))
    refused = threads.cannot_play(target, perms, place, f"in {target.mention}")
    if refused:
        raise errors.NotAllowed(refused)
    await interaction.response.defer(ephemeral=True, thinking=True)
    old, new, opened = info.channel_id, str(target.id), None
    if place != "here":
        opened = await _open_there(target, place, info, await seat_names(guild, info))
        new = str(opened.id)
    try:
        moved = await manager.threads.move(
            info.id, new, user_id(interaction), is_moderator=moderator
        )
    except Exception:
        if opened is not None:
            await threads.discard(opened)
        raise
    # The board again, where the game now lives (what waited was sent first, in order).
    if moved.status == "lobby":
        payload = lobby_payload(moved)
        if payload.get("view") is None:
            payload.pop("view")
    else:
        payload = await look_payload(manager, moved, "status")
    note = (
        f"Game #{moved.id} ({formatting.escape(moved.title)}) moved here from <#{old}> "
        f"by <@{interaction.user.id}>."
    )
    payload["content"] = formatting.clip(
        f"{note}\n{payload['content']}" if payload.get("content") else note,
        formatting.CONTENT_MAX,
    )
    payload["allowed_mentions"] = discord.AllowedMentions.none()
    here = opened if opened is not None else target
    await here.send(**payload)  # type: ignore[union-attr]
    if isinstance(here, discord.Thread):
        await threads.add_players(here, moved, set())
    await reply(interaction, f"Game #{moved.id} now lives in <#{new}>; its board is posted there.")


async def _open_there(
    target: Any, place: threads.Place, info: Any, names: list[str]
) -> discord.Thread:
    """The moved game's new thread (started from a line in the text channel, so the
    channel holds one entry for it) or forum post."""
    name = threads.thread_name(info.title, names, info.id)
    if place == "forum":
        opening = threads.post_opening(info.title, names, info.id)
        return await threads.open_post(target, name, opening)
    who = " vs ".join(names) if names else "open seats"
    note = await target.send(
        f"Game #{info.id}, {formatting.escape(info.title)} ({formatting.escape(who)}), "
        "goes on in the thread below.",
        allowed_mentions=discord.AllowedMentions.none(),
    )
    return await threads.open_table_from(target, note, name)


async def seat_names(guild: discord.Guild, info: Any) -> list[str]:
    """The players' names for a thread's name, from Discord's own record of each member:
    the member cache is empty without the members intent, so a member not in it is
    fetched (one request each); Dispatch's seats by their level. A player Discord no
    longer knows (left the server) is left out."""
    names = []
    for seat in info.seats:
        if is_bot(seat.user_id):
            names.append(f"Dispatch ({level_of(seat.user_id)})")
        elif seat.user_id.isdigit():
            member = await _member(guild, int(seat.user_id))
            if member is not None:
                names.append(member.display_name)
    return names


async def _member(guild: discord.Guild, user_id: int) -> discord.Member | None:
    member = guild.get_member(user_id)
    if member is not None:
        return member
    try:
        return await guild.fetch_member(user_id)
    except discord.HTTPException:
        return None


async def setup(bot: commands.Bot) -> None:
    group = bot.tree.get_command("game")
    if not isinstance(group, app_commands.Group):
        raise RuntimeError("the /game group must be loaded before /game move")
    group.add_command(move)
