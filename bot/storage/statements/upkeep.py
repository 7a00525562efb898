"""The statements of the store's upkeep (``db.upkeep`` of a session): the games flagged
damaged, looked at again by ``dispatch store check``, and every game's status for
``dispatch store copy``'s replay check."""

from __future__ import annotations

from bot.storage.statements.base import Statements


class UpkeepStatements(Statements):
    """Damaged games looked at again; every game's status."""

    __slots__ = ()

    async def damaged_games(self) -> list[int]:
        """The games flagged damaged, for ``dispatch store check`` to look at again."""
        rows = await self._all("SELECT id FROM games WHERE damaged IS NOT NULL ORDER BY id")
        return [int(r[0]) for r in rows]

    async def clear_damaged(self, game_id: int) -> None:
        """The game loads and replays after all: background work takes it up again."""
        await self._run("UPDATE games SET damaged = NULL WHERE id = ?", (game_id,))

    async def game_statuses(self) -> list[tuple[int, str]]:
        rows = await self._all("SELECT id, status FROM games ORDER BY id")
        return [(int(r["id"]), str(r["status"])) for r in rows]
