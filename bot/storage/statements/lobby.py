"""The statements that find games (``db.lobby`` of a session): by channel, by player, by
the lobby post in a thread's parent channel, and a game moved to another channel."""

from __future__ import annotations

from collections.abc import Iterable

from bot.storage.queries import hot_sql
from bot.storage.rows import (
    GameRow,
    read_game,
)
from bot.storage.statements.base import Statements


class LobbyStatements(Statements):
    """Games found by channel or player; lobby posts; a game moved."""

    __slots__ = ()

    async def live_game_in_channel(self, channel_id: str) -> GameRow | None:
        row = await self._one(hot_sql("live_game_in_channel"), (channel_id,))
        return read_game(row) if row else None

    async def latest_game_in_channel(self, channel_id: str) -> GameRow | None:
        row = await self._one(hot_sql("latest_game_in_channel"), (channel_id,))
        return read_game(row) if row else None

    async def games_of_user(self, user_id: str) -> list[GameRow]:
        """The user's games being set up or played, oldest first."""
        rows = await self._all(hot_sql("games_of_user"), (user_id,))
        return [read_game(r) for r in rows]

    async def games_awaiting(self, users: Iterable[str]) -> list[int]:
        """Ids of the healthy live games in which one of ``users`` owes a decision,
        in order. One query per user: an equality is always answered from the index."""
        found: set[int] = set()
        for user in users:
            found.update(int(r[0]) for r in await self._all(hot_sql("games_awaiting"), (user,)))
        return sorted(found)

    async def set_game_lobby(self, game_id: int, channel_id: str, message_id: str | None) -> None:
        """The game's lobby post is ``message_id`` in ``channel_id`` (the thread's parent)."""
        await self._run(
            "INSERT INTO game_lobbies (game_id, channel_id, message_id) VALUES (?, ?, ?)"
            " ON CONFLICT (game_id) DO UPDATE SET channel_id = excluded.channel_id,"
            " message_id = excluded.message_id",
            (game_id, channel_id, message_id),
        )

    async def game_lobby(self, game_id: int) -> tuple[str, str | None] | None:
        """(channel, message) of the game's lobby post in a parent channel, if it has one."""
        r = await self._one(
            "SELECT channel_id, message_id FROM game_lobbies WHERE game_id = ?", (game_id,)
        )
        return (str(r[0]), str(r[1]) if r[1] is not None else None) if r else None

    async def live_games_from(self, channel_id: str) -> list[GameRow]:
        """The games being set up or played whose lobby is in ``channel_id`` (they live
        in threads of it), oldest first."""
        rows = await self._all(
            "SELECT games.* FROM game_lobbies JOIN games ON games.id = game_lobbies.game_id"
            " WHERE game_lobbies.channel_id = ? AND games.status IN ('lobby', 'active')"
            " ORDER BY games.id LIMIT 25",
            (channel_id,),
        )
        return [read_game(r) for r in rows]

    async def move_game(self, game_id: int, channel_id: str) -> None:
        """The game is played in ``channel_id`` from now on; its table posts that waited
        for the old channel (parked) are due again, now."""
        await self._run(
            "UPDATE games SET channel_id = ?, updated_at = ? WHERE id = ?",
            (channel_id, self.now, game_id),
        )
        await self._run(
            "UPDATE outbox SET next_attempt_at = ?, last_error = NULL"
            " WHERE game_id = ? AND kind = 'table' AND delivered_at IS NULL",
            (self.now, game_id),
        )
