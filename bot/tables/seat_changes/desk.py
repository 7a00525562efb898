"""The seat-changes desk (``manager.seat_changes``): a seat of a running game offered to
another player and answered, given by a moderator, or handed to Dispatch; and why a user
may not act in a game (their seat passed, or they never sat there)."""

from __future__ import annotations

import logging

from bot import errors
from bot.tables import validate
from bot.tables.bot_users import bot_user
from bot.tables.core import Core
from bot.tables.loading import GameRef
from bot.tables.seat_changes import changes
from rules.ai import LEVELS

log = logging.getLogger("dispatch.manager")


class SeatChangeDesk:
    """Seats that change hands in the core's running games (``changes``)."""

    def __init__(self, core: Core) -> None:
        self._core = core

    async def offer(
        self, game: GameRef, user_id: str, to_user: str, role: str | None = None
    ) -> changes.Offer:
        """``user_id`` offers their seat of a running game to ``to_user``, who answers with
        ``answer``; the offer lapses when the game moves on or after a day."""
        user_id, role = validate.user_id(user_id), validate.role(role)
        to_user = validate.user_id(to_user)
        core = self._core
        game_id = await core.game_id(game, live=False)
        async with core.game_locks[game_id], core.store.transaction(game=game_id) as db:
            made = await changes.offer(db, game_id, user_id, to_user, role)
        log.info("game=%d %s offered %s to %s", game_id, user_id, made.role, to_user)
        return made

    async def answer(
        self, game: GameRef, offer_id: int, user_id: str, *, accept: bool
    ) -> changes.SeatChange | None:
        """The user an offer names accepts it (the seat is theirs: the change) or declines
        it (None). Anyone else, a stale or a forged offer is refused; nothing changes."""
        user_id, accept = validate.user_id(user_id), validate.flag(accept, "accept")
        offer_id = changes.offer_number(offer_id)
        core = self._core
        game_id = await core.game_id(game, live=False)
        hours = core.default_reminder_hours
        async with core.game_locks[game_id], core.store.transaction(game=game_id) as db:
            change = await changes.answer_offer(
                db, game_id, offer_id, user_id, accept=accept, hours=hours
            )
        if change is not None:
            await self._changed(change)
        return change

    async def reseat(
        self, game: GameRef, role: str, to_user: str, by: str, *, is_moderator: bool = False
    ) -> changes.SeatChange:
        """A moderator gives the ``role`` seat of a running game to ``to_user``."""
        by, to_user = validate.user_id(by), validate.user_id(to_user)
        seat = validate.role(role)
        if not validate.flag(is_moderator, "is_moderator"):
            raise errors.ModeratorOnly("Only a moderator (Manage Channels) can reseat a game.")
        if seat is None:
            raise errors.BadInput("Name the seat to give: its side.")
        core = self._core
        game_id = await core.game_id(game, live=False)
        async with core.game_locks[game_id], core.store.transaction(game=game_id) as db:
            change = await changes.reseat(
                db, game_id, seat, (to_user, by), core.default_reminder_hours
            )
        await self._changed(change)
        return change

    async def hand_over(
        self, game: GameRef, user_id: str, level: str | None = None, role: str | None = None
    ) -> changes.SeatChange:
        """``user_id`` gives their own seat of a running game to Dispatch at ``level``
        (easy, normal or hard; None for the default), which then takes its moves."""
        user_id, role = validate.user_id(user_id), validate.role(role)
        if level is not None and not isinstance(level, str):
            raise errors.UnknownWord(f"Dispatch plays at levels {', '.join(LEVELS)}.")
        bot = bot_user(level)
        core = self._core
        game_id = await core.game_id(game, live=False)
        async with core.game_locks[game_id], core.store.transaction(game=game_id) as db:
            change = await changes.hand_over(
                db, game_id, (user_id, bot), role, core.default_reminder_hours
            )
        await self._changed(change)
        return change

    async def open_offer_for(self, game: GameRef, user_id: str) -> changes.Offer | None:
        """The latest open offer of a seat of the game to ``user_id`` (None: none)."""
        user_id = validate.user_id(user_id)
        game_id = await self._core.game_id(game, live=False)
        async with self._core.store.read() as db:
            return await changes.open_offer_for(db, game_id, user_id)

    async def why_not_seated(self, game_id: int, user_id: str) -> errors.NotSeated:
        """Why ``user_id`` may not act in the game: their seat passed (``SeatPassed``, with
        who holds it now), or they never sat there."""
        async with self._core.store.read() as db:
            return await changes.why_not_seated(db, game_id, user_id)

    async def _changed(self, change: changes.SeatChange) -> None:
        log.info(
            "game=%d seat %s passed from %s to %s",
            change.game_id,
            change.role,
            change.from_user,
            change.to_user,
        )
        core = self._core
        await core.deliver_due(change.game_id)
        await core.listening.owed(await core.get_game_info(change.game_id))
