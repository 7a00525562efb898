"""The statements of help at the table: the hints asked (migration 0015) and Dispatch's
estimates of its own moves (``db.hints`` of a session)."""

from __future__ import annotations

from bot.storage.queries import hot_sql
from bot.storage.rows import (
    BotEstimateRow,
)
from bot.storage.statements.base import Statements


class HintStatements(Statements):
    """Hints used and Dispatch's estimates."""

    __slots__ = ()

    async def add_hint(self, game_id: int, role: str) -> None:
        """Count one ``/game hint`` by ``role``: the game is assisted from now on."""
        await self._run(
            "INSERT INTO hints (game_id, role, count) VALUES (?, ?, 1)"
            " ON CONFLICT (game_id, role) DO UPDATE SET count = hints.count + 1",
            (game_id, role),
        )

    async def hints_used(self, game_id: int) -> int:
        """How many hints were asked in the game, by every seat together."""
        r = await self._one(hot_sql("hints_used"), (game_id,))
        return int(r["n"]) if r is not None else 0

    async def acted_since(self, game_id: int, role: str, version: int) -> bool:
        """Whether ``role`` took an action after ``version`` (the actions' primary key:
        the game's actions from that version on)."""
        row = await self._one(
            "SELECT 1 FROM actions WHERE game_id = ? AND seq > ? AND role = ? LIMIT 1",
            (game_id, version, role),
        )
        return row is not None

    async def add_bot_estimate(self, row: BotEstimateRow) -> None:
        await self._run(
            "INSERT INTO bot_estimates (game_id, version, role, estimate, move)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, version) DO UPDATE SET"
            " role = excluded.role, estimate = excluded.estimate, move = excluded.move",
            (row.game_id, row.version, row.role, row.estimate, row.move),
        )

    async def drop_bot_estimate(self, game_id: int, version: int) -> None:
        await self._run(
            "DELETE FROM bot_estimates WHERE game_id = ? AND version = ?", (game_id, version)
        )

    async def name_bot_move(self, game_id: int, version: int, move: str) -> None:
        await self._run(
            "UPDATE bot_estimates SET move = ? WHERE game_id = ? AND version = ?",
            (move, game_id, version),
        )

    async def bot_estimates(self, game_id: int) -> list[BotEstimateRow]:
        """Dispatch's estimates in a game, in the order of its moves."""
        rows = await self._all(hot_sql("bot_estimates"), (game_id,))
        return [
            BotEstimateRow(r["game_id"], r["version"], r["role"], r["estimate"], r["move"])
            for r in rows
        ]
