"""The threads desk (``manager.threads``): whether a server opens a thread per game, the
lobby post each thread hangs from, the games living in a channel's threads, and moving a
game to another channel."""

from __future__ import annotations

import logging

from bot import errors
from bot.delivery.port import GameInfo
from bot.tables import validate
from bot.tables.core import Core
from bot.tables.loading import GameRef, find_row, game_info, info_in

log = logging.getLogger("dispatch.manager")


class ThreadsDesk:
    """Where the core's games live."""

    def __init__(self, core: Core) -> None:
        self._core = core

    async def enabled(self, guild_id: str | None, on: bool | None = None) -> bool:
        """Whether ``/game new`` opens a thread per game on this server (default on); sets
        it when ``on`` is given (the caller checked the asker may: a moderator)."""
        guild_id = validate.guild_id(guild_id)
        if guild_id is None:
            if on is not None:
                raise errors.ServerOnly("Threads are a server setting: set it in a server.")
            return False
        if on is None:
            async with self._core.store.read() as db:
                stored = await db.settings.threads_setting(guild_id)
            return True if stored is None else stored
        on = validate.flag(on, "threads")
        async with self._core.store.write() as db:
            await db.settings.set_threads_setting(guild_id, on)
        return on

    async def set_lobby_post(self, game_id: int, channel_id: str, message_id: str | None) -> None:
        """The game's lobby post is in ``channel_id`` (the parent of its thread)."""
        game_id = await self._core.game_id(game_id)
        channel_id = validate.channel_id(channel_id)
        if message_id is not None:
            message_id = validate.channel_id(message_id)
        async with self._core.store.write() as db:
            await db.lobby.set_game_lobby(game_id, channel_id, message_id)

    async def lobby_post(self, game_id: int) -> tuple[str, str | None] | None:
        async with self._core.store.read() as db:
            return await db.lobby.game_lobby(game_id)

    async def games_living_in(self, channel_id: str) -> list[GameInfo]:
        """The live games whose lobby is in ``channel_id``: they live in its threads."""
        channel_id = validate.channel_id(channel_id)
        async with self._core.store.read() as db:
            rows = await db.lobby.live_games_from(channel_id)
            return [game_info(row, await db.seats(row.id)) for row in rows]

    async def move(
        self, game: GameRef, channel_id: str, user_id: str, *, is_moderator: bool = False
    ) -> GameInfo:
        """Play a game in ``channel_id`` from now on (a player of it, or a moderator): its
        table posts that waited for a channel that refused them go there, in order."""
        channel_id, user_id = validate.channel_id(channel_id), validate.user_id(user_id)
        is_moderator = validate.flag(is_moderator, "is_moderator")
        core = self._core
        game_id = await core.game_id(game)
        async with core.game_locks[game_id], core.store.transaction() as db:
            row = await find_row(db, game_id, live=False)
            if row.status not in ("lobby", "active"):
                raise errors.GameNotActive(row.status)
            seats = await db.seats(game_id)
            if not is_moderator and all(s.user_id != user_id for s in seats):
                raise errors.ModeratorOnly(
                    f"Only a player of game #{game_id} or a moderator (Manage Channels) can "
                    "move it."
                )
            if row.channel_id == channel_id:
                raise errors.BadInput(f"Game #{game_id} is already played there.")
            busy = await db.lobby.live_game_in_channel(channel_id)
            if busy is not None:
                raise errors.ChannelBusy(busy.id)
            await db.lobby.move_game(game_id, channel_id)
            info = await info_in(db, game_id)
        log.info("game=%d moved to channel %s by %s", game_id, channel_id, user_id)
        await core.deliver_due(game_id, ignore_backoff=True)
        return info
