"""The statements of seats that change hands (migration 0013): the changes made and the
offers open (``db.seat_changes`` of a session)."""

from __future__ import annotations

from bot.storage.queries import hot_sql
from bot.storage.rows import (
    SeatChangeRow,
    SeatOfferRow,
    read_seat_change,
    read_seat_offer,
)
from bot.storage.statements.base import Statements


class SeatChangeStatements(Statements):
    """Seat changes and seat offers."""

    __slots__ = ()

    async def set_seat_user(self, game_id: int, role: str, user_id: str, version: int) -> None:
        """The seat has a new holder: their DMs are presumed open, they asked nothing yet,
        and their prompt is fresh from ``version`` (the old holder's buttons are theirs)."""
        await self._run(
            "UPDATE seats SET user_id = ?, dm_failed = 0, abandon_requested = 0,"
            " prompt_version = ? WHERE game_id = ? AND role = ?",
            (user_id, version, game_id, role),
        )

    async def add_seat_change(
        self, game_id: int, role: str, users: tuple[str, str, str], how: str, version: int
    ) -> None:
        """``users``: (from, to, by)."""
        await self._run(
            "INSERT INTO seat_changes (game_id, role, from_user, to_user, by_user, how,"
            " at_version, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (game_id, role, *users, how, version, self.now),
        )

    async def of_game(self, game_id: int) -> list[SeatChangeRow]:
        return [read_seat_change(r) for r in await self._all(hot_sql("seat_changes"), (game_id,))]

    async def seat_passed(self, game_id: int, user_id: str) -> SeatChangeRow | None:
        """The last seat ``user_id`` gave up in the game, if any."""
        r = await self._one(hot_sql("seat_passed"), (game_id, user_id))
        return read_seat_change(r) if r is not None else None

    async def add_seat_offer(
        self, game_id: int, role: str, users: tuple[str, str], version: int, expires_at: float
    ) -> int:
        """``users``: (from, to). An earlier open offer of the same seat is withdrawn."""
        await self._run(
            "UPDATE seat_offers SET status = 'withdrawn'"
            " WHERE game_id = ? AND status = 'open' AND role = ?",
            (game_id, role),
        )
        return await self._insert(
            "INSERT INTO seat_offers (game_id, role, from_user, to_user, at_version,"
            " created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (game_id, role, *users, version, self.now, expires_at),
        )

    async def seat_offer(self, offer_id: int) -> SeatOfferRow | None:
        r = await self._one(hot_sql("seat_offer"), (offer_id,))
        return read_seat_offer(r) if r is not None else None

    async def open_seat_offers(self, game_id: int) -> list[SeatOfferRow]:
        return [
            read_seat_offer(r) for r in await self._all(hot_sql("open_seat_offers"), (game_id,))
        ]

    async def set_offer_status(self, offer_id: int, status: str) -> None:
        await self._run("UPDATE seat_offers SET status = ? WHERE id = ?", (status, offer_id))

    async def withdraw_seat_offers(self, game_id: int) -> None:
        """Every open offer of the game lapses (a seat changed hands)."""
        await self._run(
            "UPDATE seat_offers SET status = 'withdrawn' WHERE game_id = ? AND status = 'open'",
            (game_id,),
        )
