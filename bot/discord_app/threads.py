"""A thread per game: where ``/game new`` opens a game's table, what
Dispatch needs there, the lobby post left in the parent channel, and ``/game move``.

In a text channel, unless the server turned threads off (``/game settings threads:off``),
each game gets its own public thread, named after the game, its players and its number, so
a channel holds any number of games; the lobby post (the command's answer) stays in the
channel, links the thread, and is edited when the game starts and ends. In a thread the
game uses that thread; in a forum channel it opens a post. With threads off a game lives in
the channel itself, one at a time, as before.

Everything Dispatch needs is checked from the interaction's ``app_permissions`` before a
game is opened (a missing permission is named, with what to grant, and nothing is opened).
A table that stops taking posts later is parked by the courier, which tells both players
by DM; ``/game move`` rebinds the game to another channel or thread, checking Dispatch's
permissions there first, and posts the board again there. A thread Discord archived for
inactivity (after a week with no post: a long game's player may think that long) is not
unreachable: Dispatch reopens it and posts; only a locked one is.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Literal

import discord

from bot import errors
from bot.delivery.port import GameInfo, TablePost
from bot.discord_app import formatting

if TYPE_CHECKING:
    from bot.tables.manager import GameManager

log = logging.getLogger("dispatch.discord.threads")

#: Where a new game's table goes: the channel itself, a new thread of it, a forum post.
Place = Literal["here", "thread", "forum"]

#: What Dispatch needs to post a game's table in a channel or thread, as discord.py and
#: Discord's menus name it.
POST_PERMISSIONS = {
    "view_channel": "View Channel",
    "send_messages": "Send Messages",
    "embed_links": "Embed Links",
    "attach_files": "Attach Files",
}
IN_THREAD_PERMISSIONS = {
    "view_channel": "View Channel",
    "send_messages_in_threads": "Send Messages in Threads",
    "embed_links": "Embed Links",
    "attach_files": "Attach Files",
}
#: ...to open a thread for a game in a text channel and play there.
THREAD_PERMISSIONS = {
    "view_channel": "View Channel",
    "create_public_threads": "Create Public Threads",
    "send_messages_in_threads": "Send Messages in Threads",
    "embed_links": "Embed Links",
    "attach_files": "Attach Files",
}
#: ...to open a post for a game in a forum channel (Send Messages is "Create Posts" there).
FORUM_PERMISSIONS = {
    "view_channel": "View Channel",
    "send_messages": "Send Messages (Create Posts)",
    "send_messages_in_threads": "Send Messages in Threads",
    "embed_links": "Embed Links",
    "attach_files": "Attach Files",
}
#: A week: the longest a public thread waits before Discord archives it for inactivity.
AUTO_ARCHIVE_MIN = 10080
#: Discord's error code for a post or change in an archived (or locked) thread.
ARCHIVED = 50083
#: Discord's longest channel name.
NAME_MAX = 100


def is_forum(channel: Any) -> bool:
    return getattr(channel, "type", None) == discord.ChannelType.forum


def is_thread(channel: Any) -> bool:
    return isinstance(channel, discord.Thread)


def place_for(channel: Any, threads_on: bool) -> Place:
    """Where a game opened from ``channel`` is played."""
    if is_forum(channel):
        return "forum"
    if is_thread(channel) or not threads_on:
        return "here"
    return "thread"


def needed_for(channel: Any, place: Place) -> dict[str, str]:
    if place == "thread":
        return THREAD_PERMISSIONS
    if place == "forum":
        return FORUM_PERMISSIONS
    return IN_THREAD_PERMISSIONS if is_thread(channel) else POST_PERMISSIONS


def cannot_play(channel: Any, perms: discord.Permissions, place: Place, where: str) -> str:
    """Why Dispatch could not play a game in ``channel`` (empty: it can), from its
    permissions there; ``where`` names the place for the answer ("here", "in #x")."""
    if is_thread(channel) and (channel.locked or channel.archived):
        return f"The thread {where} is locked or archived, so I could not post a game there."
    missing = [
        label for attr, label in needed_for(channel, place).items() if not getattr(perms, attr)
    ]
    if not missing:
        return ""
    what = {"thread": "open a thread for the game", "forum": "open a post for the game"}.get(
        place, "post the game"
    )
    grant = "here" if where in ("here", "in this channel") else where
    return (
        f"I could not {what} {where}: please give me "
        + ", ".join(missing)
        + f" {grant} (the channel's or the server's permissions), then try again."
    )


def thread_name(title: str, players: list[str], number: int | None) -> str:
    """A game thread's name: the game, its players and, once known, its number."""
    who = " vs ".join(players) if players else "open seats"
    suffix = f" · #{number}" if number is not None else ""
    name = f"{title} · {who}"
    return name[: NAME_MAX - len(suffix)].rstrip() + suffix


def post_opening(title: str, players: list[str], number: int | None) -> str:
    """A forum post's first message, whose first line is what the forum's list shows:
    the game, who plays it, and that the post is its table."""
    if len(players) > 1:
        who = " vs ".join(players)
    elif players:
        who = f"{players[0]}, waiting for an opponent"
    else:
        who = "seats open"
    table = f"game #{number}'s table" if number is not None else "the game's table"
    return f"{title}: {who}. This post is {table}."


async def open_table_from(channel: Any, lobby: discord.abc.Snowflake, name: str) -> discord.Thread:
    """A public thread of a text channel, started from the game's lobby post there (the
    thread has the post's id, and the channel shows the post with the thread under it)."""
    opened: discord.Thread = await channel.create_thread(
        name=name, message=lobby, auto_archive_duration=AUTO_ARCHIVE_MIN
    )
    return opened


async def open_post(forum: Any, name: str, starter: str) -> discord.Thread:
    """A new post of a forum channel for one game, whose first message is ``starter``."""
    made = await forum.create_thread(
        name=name,
        content=starter,
        auto_archive_duration=AUTO_ARCHIVE_MIN,
        allowed_mentions=discord.AllowedMentions.none(),
    )
    thread: discord.Thread = made.thread
    return thread


async def reopen(client: discord.Client, channel_id: str) -> bool:
    """Unarchive the thread ``channel_id`` when Discord archived it for inactivity; False
    when it is no archived thread or cannot be reopened (locked by a moderator, or
    Dispatch may no longer post there)."""
    try:
        thread = await client.fetch_channel(int(channel_id))
    except discord.HTTPException:
        return False
    if not isinstance(thread, discord.Thread) or not thread.archived or thread.locked:
        return False
    try:
        await thread.edit(archived=False)
    except discord.HTTPException as exc:
        log.info("could not reopen the archived thread %s: %s", channel_id, exc)
        return False
    log.info("reopened the archived thread %s", channel_id)
    return True


async def seat_players(
    client: discord.Client, game: GameInfo, seated: set[tuple[str, str]]
) -> None:
    """Make each player seated in ``game`` a member of its thread, so the thread is in
    their sidebar (a mention alone does not put it there, and a player who never opened
    the thread could not find it). ``seated`` holds the (thread, player) pairs done in
    this run: each is asked once (after a restart once more, which Discord takes as a
    no-op). A thread that refuses (archived) is asked again with the next post."""
    thread = client.get_channel(int(game.channel_id))
    if isinstance(thread, discord.Thread):
        await add_players(thread, game, seated)


async def add_players(thread: discord.Thread, game: GameInfo, seated: set[tuple[str, str]]) -> None:
    """Make each player seated in ``game`` a member of ``thread`` (see ``seat_players``)."""
    for seat in game.seats:
        key = (str(thread.id), seat.user_id)
        if key in seated or not (seat.user_id.isascii() and seat.user_id.isdigit()):
            continue
        try:
            await thread.add_user(discord.Object(int(seat.user_id)))
        except discord.HTTPException as exc:
            log.info("game=%d could not add a player to its thread: %s", game.id, exc)
            if exc.code == ARCHIVED:
                continue
        seated.add(key)


async def discard(thread: discord.Thread) -> None:
    """A thread opened for a game that could not be created goes again."""
    try:
        await thread.delete()
    except discord.HTTPException as exc:
        log.info("could not delete the unused thread %s: %s", thread.id, exc)


async def name_with_number(
    thread: discord.Thread, title: str, players: list[str], number: int
) -> None:
    """The thread, opened before its game had a number, now carries it."""
    try:
        await thread.edit(name=thread_name(title, players, number))
    except discord.HTTPException as exc:  # a name is a nicety: the game is there anyway
        log.info("game=%d could not name its thread: %s", number, exc)


async def renumber(channel: Any, old: int, new: int) -> None:
    """A rematch in a game's thread: the thread's name carries the new game's number."""
    suffix = f" · #{old}"
    if not is_thread(channel) or not str(channel.name).endswith(suffix):
        return
    try:
        await channel.edit(name=str(channel.name)[: -len(suffix)] + f" · #{new}")
    except discord.HTTPException as exc:  # a name is a nicety: the game is there anyway
        log.info("game=%d could not rename its thread: %s", new, exc)


# -- the lobby post in the parent channel -------------------------------------------
def lobby_line(game: GameInfo, post: TablePost | None = None) -> str:
    """The lobby post's last line once the game started or ended."""
    where = f"<#{game.channel_id}>"
    if game.status == "active":
        return f"Every seat is taken: the game is on, in {where}."
    if game.status == "cancelled":
        return "This game was cancelled."
    if game.status == "abandoned":
        return f"This game was abandoned (its record is in {where})."
    result = post.headline.strip() if post is not None and post.headline else ""
    over = result if post is not None and post.kind == "end" and result else "The game is over."
    return f"{over} Its table: {where}."


async def lobby_news(
    client: discord.Client, manager: GameManager, game: GameInfo, post: TablePost | None
) -> None:
    """Edit the game's lobby post in its parent channel (the game started or ended); a
    game played in the channel itself has none."""
    where = await manager.threads.lobby_post(game.id)
    if where is None or where[1] is None or where[0] == game.channel_id:
        return
    content = formatting.lobby_text(game) + "\n" + lobby_line(game, post)
    message = client.get_partial_messageable(int(where[0])).get_partial_message(int(where[1]))
    try:
        await message.edit(
            content=formatting.clip(content, 2000),
            view=None,
            allowed_mentions=discord.AllowedMentions.none(),
        )
    except discord.HTTPException as exc:  # deleted, or the channel gone: nothing to edit
        log.info("game=%d could not edit its lobby post: %s", game.id, exc)


# -- a parent channel's games --------------------------------------------------------
class GamesInThreads(errors.NoGameInChannel):
    """No game is played in this channel itself, but some live in threads of it."""

    def __init__(self, games: list[GameInfo]) -> None:
        listed = "; ".join(f"#{g.id} {g.title} in <#{g.channel_id}>" for g in games[:10])
        more = f" and {len(games) - 10} more" if len(games) > 10 else ""
        errors.DispatchError.__init__(
            self,
            "The games of this channel each live in their own thread: "
            f"{listed}{more}. Run the command in the game's thread.",
        )


async def explain_no_game(
    interaction: discord.Interaction[Any], error: BaseException, manager: GameManager | None
) -> BaseException:
    """A command that found no game in this channel: if games live in threads of it, say
    which (the plain "no game" would mislead)."""
    if not isinstance(error, errors.NoGameInChannel) or manager is None:
        return error
    games = await manager.threads.games_living_in(str(interaction.channel_id))
    return GamesInThreads(games) if games else error
