"""The prompts desk (``manager.prompts``): where each player's live prompt message is, so
a front end can close it when a newer one supersedes it, and a player's DMs reopened."""

from __future__ import annotations

from bot import errors
from bot.tables import validate
from bot.tables.core import Core


class PromptsDesk:
    """Live prompts and DM reachability in the core's store."""

    def __init__(self, core: Core) -> None:
        self._core = core

    async def live(self, game_id: int) -> dict[str, tuple[str, str]]:
        """Where each player's live prompt message of a game is (front ends close it when
        it is superseded): ``{user_id: (channel_id, message_id)}``."""
        game_id = validate.game_id(game_id)
        async with self._core.store.read() as db:
            return await db.prompts.live_prompts(game_id)  # none for a game there is not

    async def set_live(self, game_id: int, user_id: str, where: tuple[str, str] | None) -> None:
        """Remember the message now holding ``user_id``'s live prompt (None: none is live)."""
        game_id, user_id = validate.game_id(game_id), validate.user_id(user_id)
        where = validate.message_place(where)
        async with self._core.store.write() as db:
            if await db.version_of(game_id) is None:
                raise errors.GameNotFound(f"Game #{game_id}")
            await db.prompts.set_live_prompt(game_id, user_id, where)

    async def dms_reopened(self, user_id: str) -> int:
        """The user opened their DMs again: send them private messages from now on."""
        user_id = validate.user_id(user_id)
        async with self._core.store.transaction() as db:
            return await db.clear_dm_failed_for_user(user_id)
