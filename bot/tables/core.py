"""The manager's core: what every desk shares.

The store and its clock, the per-game locks, delivery after a commit, who hears of a
change (``listeners``), and the reads every feature starts from (a game's info, a
player's view). ``GameManager`` is this core with the lobby and the turn; each other
feature is a desk mounted on it (``manager.clocks``, ``manager.records``...) that is
handed the core and nothing else, so a desk cannot reach another desk by accident.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from typing import TypedDict, Unpack

from bot import errors
from bot.delivery.courier import RETRY_BASE_S, RETRY_CAP_S, Courier, mark_damaged
from bot.delivery.port import FrontEnd, GameInfo
from bot.delivery.reading import GameReader
from bot.delivery.reminders import DEFAULT_REMINDER_HOURS, REMINDER_GROWTH
from bot.delivery.retention import OUTBOX_KEEP_DAYS
from bot.storage.store import Store
from bot.tables import validate
from bot.tables.bot_users import is_bot
from bot.tables.clocks import clock_pass
from bot.tables.game_locks import LockTable
from bot.tables.listeners import InThread, Listeners, SearchRunner, TableListener
from bot.tables.loading import (
    GameRef,
    find_row,
    game_info,
    safe_view,
    seat_view,
    settled_public_view,
)
from bot.tables.results import PlayerView
from bot.tables.seat_changes.changes import why_not_seated

#: How the courier and the reminders read a stored game (delivery sits below this room).
READER = GameReader(info=game_info, view=safe_view, is_bot=is_bot)


class TuningArgs(TypedDict, total=False):
    """How often players are reminded, how deliveries are retried and how long delivered
    rows are kept; each left out takes the default that suits a server (tests shorten
    them)."""

    default_reminder_hours: float
    reminder_growth: float
    retry_base_s: float
    retry_cap_s: float
    #: How long delivered outbox rows are kept (``bot.delivery.retention``).
    outbox_keep_days: float


class Tuning:
    """The figures of ``TuningArgs``, each given or its default."""

    def __init__(self, **given: Unpack[TuningArgs]) -> None:
        self.default_reminder_hours = given.get("default_reminder_hours", DEFAULT_REMINDER_HOURS)
        self.reminder_growth = given.get("reminder_growth", REMINDER_GROWTH)
        self.retry_base_s = given.get("retry_base_s", RETRY_BASE_S)
        self.retry_cap_s = given.get("retry_cap_s", RETRY_CAP_S)
        self.outbox_keep_days = given.get("outbox_keep_days", OUTBOX_KEEP_DAYS)


class Core:
    """The store, the locks, delivery and listeners every desk of the manager shares."""

    def __init__(self, store: Store, front_end: FrontEnd, tuning: Tuning) -> None:
        self.store = store
        self.front_end = front_end
        self.clock = store.clock
        self.tuning = tuning
        # Pruned of idle locks as they grow (game_locks.py): not one lock per game forever.
        self.game_locks: defaultdict[int, asyncio.Lock] = LockTable()
        self._delivery_locks: defaultdict[int, asyncio.Lock] = LockTable()
        #: Who hears what happened (``listeners``): Dispatch's own seats, for one.
        self.listening = Listeners()
        #: Where hints search, off the event loop (the bot seats offer their workers).
        self.searches: SearchRunner = InThread()

    @property
    def default_reminder_hours(self) -> float:
        return self.tuning.default_reminder_hours

    # -- listeners (``listeners``: who hears what happened) ---------------------------

    def add_listener(self, listener: TableListener) -> None:
        """``listener`` hears from now on of every decision owed after a commit, of each
        resumption (the start, every background pass) and of the close."""
        self.listening.add(listener)

    def remove_listener(self, listener: TableListener) -> None:
        self.listening.remove(listener)

    @property
    def listeners(self) -> tuple[TableListener, ...]:
        return tuple(self.listening)

    # -- reads every feature starts from ---------------------------------------------

    async def game_id(self, ref: GameRef, *, live: bool = True) -> int:
        """The id of the game ``ref`` names (a number, or a channel's game)."""
        ref = validate.game_ref(ref)
        if isinstance(ref, int):
            return ref
        async with self.store.read() as db:
            return (await find_row(db, ref, live=live)).id

    async def get_game_info(self, game: GameRef) -> GameInfo:
        game = validate.game_ref(game)
        async with self.store.read() as db:
            row = await find_row(db, game, live=False)
            return game_info(row, await db.seats(row.id))

    async def view_for(
        self, game: GameRef, user_id: str | None, *, role: str | None = None
    ) -> PlayerView:
        """A player's own view (prompt, actions, hand); observers get the public view."""
        game, role = validate.game_ref(game), validate.role(role)
        user_id = validate.optional_user_id(user_id)
        async with self.store.read() as db:
            row = await find_row(db, game, live=False)
            seats = await db.seats(row.id)
            timed = await db.clocks.clock_rows(row.id) if row.status == "active" else []
            away = await clock_pass.away(db, row, seats) if timed else {}
            passed = (
                await why_not_seated(db, row.id, user_id)
                if user_id is not None and all(s.user_id != user_id for s in seats)
                else None
            )
        if row.status in ("lobby", "cancelled"):
            raise errors.GameNotActive(row.status)
        mine = [s.role for s in seats if s.user_id == user_id]
        if role is not None and role not in mine:
            raise errors.SeatNotHeld(role)
        if isinstance(passed, errors.SeatPassed):
            raise passed
        if role is None and mine:
            active = [r for r in mine if r in row.active_roles]
            role = (active or mine)[0]
        try:
            # Nobody sees a decision another player may still take back: someone not
            # seated, as the spectator page does, nor the waiting opponent.
            view = seat_view(row, role) if role is not None else settled_public_view(row)
        except errors.CorruptGame as exc:
            await mark_damaged(self.store, row.id, exc.detail)
            raise
        if timed and role is not None:  # a player's prompt shows the clocks
            lines = clock_pass.lines_for(timed, seats, self.clock(), away_until=away)
            view = {**view, "clocks": lines}
        return PlayerView(game_info(row, seats), role, row.version, view)

    # -- delivery ----------------------------------------------------------------------

    async def deliver_due(self, game_id: int | None = None, *, ignore_backoff: bool = False) -> int:
        """Deliver undelivered outbox rows in order; return how many were delivered.

        Order is kept per stream (the table, and each seat's DMs): a row waiting for its
        retry holds back the later rows of its stream, not the other streams.
        """
        # Built for each pass from the current settings, so a front end swapped in
        # (a reconnect, a test) is used at once; the locks are the core's own.
        courier = Courier(
            store=self.store,
            front_end=self.front_end,
            clock=self.clock,
            retry_base_s=self.tuning.retry_base_s,
            retry_cap_s=self.tuning.retry_cap_s,
            locks=self._delivery_locks,
            reader=READER,
        )
        return await courier.deliver_due(game_id, ignore_backoff=ignore_backoff)
