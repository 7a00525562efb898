"""The statements of live prompts (``db.prompts`` of a session): which message holds each
player's live prompt, so that the one it supersedes is closed (one live prompt per
player and game)."""

from __future__ import annotations

from bot.storage.queries import hot_sql
from bot.storage.statements.base import Statements


class PromptStatements(Statements):
    """The messages holding the players' live prompts."""

    __slots__ = ()

    async def live_prompts(self, game_id: int) -> dict[str, tuple[str, str]]:
        """``{user_id: (channel_id, message_id)}`` of the game's live prompt messages."""
        rows = await self._all(hot_sql("live_prompts"), (game_id,))
        return {r["user_id"]: (r["channel_id"], r["message_id"]) for r in rows}

    async def set_live_prompt(
        self, game_id: int, user_id: str, where: tuple[str, str] | None
    ) -> None:
        """Remember (or, with None, forget) the message holding a player's live prompt."""
        if where is None:
            await self._run(
                "DELETE FROM live_prompts WHERE game_id = ? AND user_id = ?", (game_id, user_id)
            )
            return
        await self._run(
            "INSERT INTO live_prompts (game_id, user_id, channel_id, message_id)"
            " VALUES (?, ?, ?, ?) ON CONFLICT (game_id, user_id) DO UPDATE SET"
            " channel_id = excluded.channel_id, message_id = excluded.message_id",
            (game_id, user_id, where[0], where[1]),
        )
