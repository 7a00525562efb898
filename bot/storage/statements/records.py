"""The statements of what a game leaves behind: its result, the ratings it moved
(migration 0012) and the decisions each seat took (``db.records`` of a session). The
pages of finished games and a player's record are in ``bot.storage.finished_pages``."""

from __future__ import annotations

import json
from typing import Any

from bot.storage.queries import hot_sql
from bot.storage.rows import (
    RatingChangeRow,
    RatingRow,
    ResultRow,
    dumps,
    read_rating,
)
from bot.storage.statements.base import Statements


class RecordStatements(Statements):
    """Results, ratings and rating changes, decisions counted."""

    __slots__ = ()

    async def record_result(
        self,
        game_id: int,
        winner: str | None,
        reason: str,
        score: dict[str, Any],
        code: str = "unrecorded",
    ) -> None:
        await self._run(
            "INSERT INTO results (game_id, winner, reason, score, finished_at, code)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET"
            " winner = excluded.winner, reason = excluded.reason, score = excluded.score,"
            " finished_at = excluded.finished_at, code = excluded.code",
            (game_id, winner, reason, dumps(score), self.now, code),
        )

    async def result(self, game_id: int) -> ResultRow | None:
        r = await self._one(hot_sql("result"), (game_id,))
        if r is None:
            return None
        try:
            score = json.loads(r["score"])
        except ValueError:
            score = {}
        return ResultRow(r["game_id"], r["winner"], r["reason"], score, r["finished_at"], r["code"])

    async def rating(self, scope: str, game_name: str, player_id: str) -> RatingRow | None:
        r = await self._one(hot_sql("ratings_of"), (scope, game_name, player_id))
        return read_rating(r) if r is not None else None

    async def save_rating(self, rating: RatingRow) -> None:
        await self._run(
            "INSERT INTO ratings (scope, game_name, player_id, mu, sigma, points,"
            " games, wins, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (scope, game_name, player_id) DO UPDATE SET mu = excluded.mu,"
            " sigma = excluded.sigma, points = excluded.points, games = excluded.games,"
            " wins = excluded.wins, updated_at = excluded.updated_at",
            (
                rating.scope,
                rating.game_name,
                rating.player_id,
                rating.mu,
                rating.sigma,
                rating.points,
                rating.games,
                rating.wins,
                self.now,
            ),
        )

    async def leaderboard(self, scope: str, game_name: str, limit: int) -> list[RatingRow]:
        rows = await self._all(hot_sql("leaderboard"), (scope, game_name, limit))
        return [read_rating(r) for r in rows]

    async def add_rating_change(self, change: RatingChangeRow) -> None:
        """Raises ``sqlite3.IntegrityError`` for a player of a seat of a game already rated."""
        await self._run(
            "INSERT INTO rating_changes (game_id, role, player_id, points_was, points_now)"
            " VALUES (?, ?, ?, ?, ?)",
            (change.game_id, change.role, change.player_id, change.points_was, change.points_now),
        )

    async def rating_changes(self, game_id: int) -> list[RatingChangeRow]:
        rows = await self._all(hot_sql("rating_changes"), (game_id,))
        return [
            RatingChangeRow(
                r["game_id"], r["role"], r["player_id"], r["points_was"], r["points_now"]
            )
            for r in rows
        ]

    async def decisions_by_role(self, game_id: int) -> dict[str, int]:
        """How many actions each role took (undos not counted)."""
        rows = await self._all(hot_sql("decisions_by_role"), (game_id,))
        return {str(r["role"]): int(r["n"]) for r in rows}

    async def decisions_by_holder(self, game_id: int) -> dict[tuple[str, str], int]:
        """How many actions each (role, user) took (undos not counted): a seat that changed
        hands has a count for each of its players."""
        rows = await self._all(hot_sql("decisions_by_holder"), (game_id,))
        return {(str(r["role"]), str(r["user_id"])): int(r["n"]) for r in rows}
