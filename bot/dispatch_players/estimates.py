"""The estimates a bot seat keeps of its moves (``bot_estimates``).

A search level's decision carries its estimate of the bot's chance after the move; it is
kept, with the move's public words, and shown only once the game is over
(``bot.tables.records.estimates``): before that it would hint at the bot's cards.
"""

from __future__ import annotations

from bot.delivery.notices import public_log
from bot.dispatch_players.manager_protocol import GameManager
from bot.storage.rows import BotEstimateRow
from bot.tables.results import ActResult
from rules.core import View

#: The most characters of a move's public text kept beside its estimate.
MOVE_TEXT_MAX = 300


class EstimateKeeping:
    """Keeps a bot move's estimate, and drops it when the move is refused."""

    manager: GameManager

    async def _keep_estimate(
        self, game_id: int, role: str, version: int, estimate: float | None
    ) -> BotEstimateRow | None:
        """Store the bot's estimate for its move at ``version`` (a search level's only);
        secret until the game is over (``bot.tables.records.estimates``)."""
        if estimate is None:
            return None
        row = BotEstimateRow(game_id, version, role, estimate, "")
        async with self.manager.store.write() as db:
            await db.hints.add_bot_estimate(row)
        return row

    async def _drop_estimate(self, row: BotEstimateRow | None) -> None:
        if row is not None:
            async with self.manager.store.write() as db:
                await db.hints.drop_bot_estimate(row.game_id, row.version)

    async def _name_move(self, row: BotEstimateRow, before: View, done: ActResult) -> None:
        """Keep the public words of the move beside its estimate: the log lines it added,
        which everyone has seen."""
        move = " ".join(public_log(done.view)[len(public_log(before)) :])[:MOVE_TEXT_MAX]
        if move:
            async with self.manager.store.write() as db:
                await db.hints.name_bot_move(row.game_id, row.version, move)
