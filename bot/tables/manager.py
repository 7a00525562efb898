"""GameManager: the one door to every game. Async, and no discord import.

Every change to a game is one SQLite transaction holding the new state, the action row and
the outbox rows that tell the players about it. Delivery happens after the commit, through
the front-end port, so a crash at any point loses nothing: whatever was committed but not
delivered is delivered by ``deliver_pending`` on the next start.

The manager owns the per-game locks and the order of things (check, change, commit,
deliver); the work is done by its neighbours in ``bot.tables``:
- ``validate``: every value handed in is checked first, so a bad one is refused politely
  before anything is read or written;
- ``lobby``: creating a game, taking and leaving seats, the start;
- ``turn``: applying a decision and committing it (``commit_turn``); ``endings``:
  resigning, abandoning;
- ``loading``: reading a game back from the store; ``replay``: export and replay;
- ``seats``: seats that change hands in a running game (offer, reseat, hand-over);
- ``game_locks``: the per-game locks, pruned of idle ones as they grow;
and in ``bot.delivery``: ``notices`` (what players are told), ``outbox`` (how it is kept),
``courier`` (handing it to the front end, with retries), ``reminders``.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import secrets
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import rules
from bot import errors
from bot.delivery.courier import RETRY_BASE_S, RETRY_CAP_S, Courier, mark_damaged
from bot.delivery.notices import public_log
from bot.delivery.port import FrontEnd, GameInfo
from bot.delivery.reading import GameReader
from bot.delivery.reminders import DEFAULT_REMINDER_HOURS, REMINDER_GROWTH, queue_due_reminders
from bot.delivery.retention import OUTBOX_KEEP_DAYS, PRUNE_EVERY_S, prune_delivered
from bot.delivery.routes import DEFAULT_NOTIFY
from bot.storage.errors import StoreError
from bot.storage.rows import dumps
from bot.storage.session import Session
from bot.storage.store import Store
from bot.tables import (
    claims,
    clock_pass,
    clock_rules,
    clocks,
    endings,
    estimates,
    forced,
    hints,
    history,
    lobby,
    ratings,
    reach,
    timeouts,
    turn,
    turn_types,
    vacations,
    validate,
)
from bot.tables import seats as seating
from bot.tables.bot_users import bot_user, is_bot
from bot.tables.clocks import Control
from bot.tables.game_locks import LockTable
from bot.tables.hint_desk import HintDesk
from bot.tables.listeners import InThread, Listeners, SearchRunner, TableListener
from bot.tables.loading import GameRef, find_row, game_info, info_in, safe_view
from bot.tables.replay import (
    export_game,
    not_yours,
    replayed_state,
    stored_state,
    watchable_export,
)
from bot.tables.replay_movie import Movie, ReplayCache, drawable, upload_limit
from bot.tables.requests import Move, NewGame
from bot.tables.results import (
    AbandonResult,
    ActResult,
    ChannelSettings,
    PlayerView,
    Standing,
    UserGame,
)
from rules.ai import LEVELS

log = logging.getLogger("dispatch.manager")

#: How the courier and the reminders read a stored game (delivery sits below this room).
READER = GameReader(info=game_info, view=safe_view, is_bot=is_bot)


class GameManager:
    """Runs every game of one store. Front ends call it; it calls the front end back."""

    def __init__(
        self,
        store: Store,
        front_end: FrontEnd,
        *,
        default_reminder_hours: float = DEFAULT_REMINDER_HOURS,
        reminder_growth: float = REMINDER_GROWTH,
        retry_base_s: float = RETRY_BASE_S,
        retry_cap_s: float = RETRY_CAP_S,
        outbox_keep_days: float = OUTBOX_KEEP_DAYS,
    ) -> None:
        self.store = store
        self.front_end = front_end
        self.clock = store.clock
        self.default_reminder_hours = default_reminder_hours
        self.reminder_growth = reminder_growth
        self.retry_base_s = retry_base_s
        self.retry_cap_s = retry_cap_s
        #: How long delivered outbox rows are kept (``bot.delivery.retention``).
        self.outbox_keep_days = outbox_keep_days
        self._last_prune = float("-inf")
        # Pruned of idle locks as they grow (game_locks.py): not one lock per game forever.
        self._game_locks: defaultdict[int, asyncio.Lock] = LockTable()
        self._delivery_locks: defaultdict[int, asyncio.Lock] = LockTable()
        #: Who hears what happened (``listeners``): Dispatch's own seats, for one.
        self._listeners = Listeners()
        #: Where hints search, off the event loop (the bot seats offer their workers).
        self.searches: SearchRunner = InThread()
        #: Hints searched once per position, one per player at a time (``hint_desk``).
        self.hint_desk = HintDesk()
        #: Replays of finished games, drawn off the event loop (``replay_movie``).
        self.replays = ReplayCache()
        #: When this process last wrote the heartbeat (``clock_pass.forgive_downtime``).
        self._last_beat = float("-inf")

    @classmethod
    async def open(
        cls,
        path: str | Path,
        front_end: FrontEnd,
        *,
        clock: Callable[[], float] = time.time,
        deliver: bool = True,
        patient: bool = False,
        **kwargs: Any,
    ) -> GameManager:
        """Open the store (running migrations) and deliver what a previous run left;
        ``patient``: wait for a PostgreSQL server out of reach for now (``Store.open``).

        A process that adds listeners (Dispatch's seats: ``BotSeats.attach``) opens with
        ``deliver=False``, adds them, then calls ``deliver_pending``: its announcement
        that the manager resumed then reaches them."""
        store = await Store.open(path, clock=clock, patient=patient)
        manager = cls(store, front_end, **kwargs)
        # Before any click or pass: time the bot was down is never charged.
        await clock_pass.forgive_downtime(store)
        if deliver:
            await manager.deliver_pending()
        return manager

    async def close(self) -> None:
        await self._listeners.closing()
        await self.store.close()

    # -- listeners (``listeners``: who hears what happened) ---------------------------

    def add_listener(self, listener: TableListener) -> None:
        """``listener`` hears from now on of every decision owed after a commit, of each
        resumption (the start, every background pass) and of the close."""
        self._listeners.add(listener)

    def remove_listener(self, listener: TableListener) -> None:
        self._listeners.remove(listener)

    @property
    def listeners(self) -> tuple[TableListener, ...]:
        return tuple(self._listeners)

    async def _owed(self, info: GameInfo) -> None:
        """Tell the listeners that a change to the game was committed: its active roles
        owe a decision now (a listener's error is logged, never the caller's)."""
        await self._listeners.owed(info)

    async def _game_id(self, ref: GameRef, *, live: bool = True) -> int:
        ref = validate.game_ref(ref)
        if isinstance(ref, int):
            return ref
        async with self.store.read() as db:
            return (await find_row(db, ref, live=live)).id

    # -- lobby --------------------------------------------------------------------

    async def create_game(
        self, guild_id: str | None, channel_id: str, creator_id: str, game: NewGame
    ) -> GameInfo:
        """Open ``game`` in a channel and seat its creator (``NewGame`` says what each of
        its values asks for).

        ``game.opponent_id`` takes the next free role: the game then starts at once if
        every role is seated.
        """
        if not isinstance(game, NewGame):
            raise errors.BadInput("A new game is asked for with its name and options.")
        guild_id = validate.guild_id(guild_id)
        channel_id = validate.channel_id(channel_id)
        creator_id = validate.user_id(creator_id)
        game_name = validate.game_name(game.game_name)
        options = validate.options(game.options)
        seed = validate.seed(game.seed)
        seat = validate.role(game.seat)
        opponent_id = validate.optional_user_id(game.opponent_id, "opponent")
        hotseat = validate.flag(game.hotseat, "hotseat")
        fate = validate.flag(game.fate, "fate")
        control = validate.clock(game.clock)
        if game.clock is None and seed is None and not hotseat:
            control = await self._server_clock(guild_id, game_name)
        request = lobby.CheckedGame(
            guild_id,
            channel_id,
            game_name,
            creator_id,
            options,
            seed,
            seat,
            opponent_id,
            hotseat,
            fate_opponent=fate,
            clock=control,
        )
        info = await lobby.create_game(
            self.store, request, reminder_hours=self.default_reminder_hours
        )
        log.info(
            "game=%d created %s in channel %s by %s", info.id, game_name, channel_id, creator_id
        )
        await self.deliver_due(info.id)
        await self._owed(info)
        return info

    async def rematch(self, game: GameRef, user_id: str, sides: str = "same") -> GameInfo:
        """A new game of the same kind, options and players in the same channel, after a
        game is over: ``sides`` "same", "swap" or "random". Idempotent: whoever asks
        second (or twice) is given the rematch already made, never a second one."""
        game, user_id = validate.game_ref(game), validate.user_id(user_id)
        if sides not in ("same", "swap", "random"):
            raise errors.BadInput("A rematch keeps the sides (same), swaps them, or draws them.")
        async with self.store.read() as db:
            old = await find_row(db, game, live=False)
            seats = await db.seats(old.id)
            live = await db.live_game_in_channel(old.channel_id)
            control = await clock_pass.control_of(db, old.id)
        if live is not None and live.rematch_of == old.id:
            return await self.get_game_info(live.id)
        if old.status not in ("finished", "abandoned"):
            raise errors.NotAllowed("A rematch can be asked for once the game is over.")
        if user_id not in {s.user_id for s in seats}:
            raise errors.NotSeated()
        players = [s.user_id for s in sorted(seats, key=lambda s: s.joined_at)]
        roles = [s.role for s in sorted(seats, key=lambda s: s.joined_at)]
        if len(set(players)) != 2 or len(roles) != 2:
            raise errors.NotAllowed("Rematches are for two players in two seats.")
        first, second = players
        if sides == "swap" or (sides == "random" and secrets.randbelow(2)):
            first, second = second, first
        options = json.loads(old.options_json or "{}")
        if options.get("fate"):
            # The Fate Die keeps running the same player's side, whichever side it is now.
            fated = next(s.user_id for s in seats if s.role == options["fate"])
            options["fate"] = roles[0] if fated == first else roles[1]
        # Whoever asked opens the new game (never Dispatch, which asks for nothing),
        # whichever side the draw gave them.
        mine, other = (roles[0], second) if user_id == first else (roles[1], first)
        request = lobby.CheckedGame(
            old.guild_id,
            old.channel_id,
            old.game_name,
            user_id,
            options,
            seat=mine,
            opponent_id=other,
            rematch_of=old.id,
            fate_agreed=True,  # the die stays with the player who had it (lobby ruling)
            clock=control,  # the same time control as the game it follows
        )
        try:
            info = await lobby.create_game(
                self.store, request, reminder_hours=self.default_reminder_hours
            )
        except errors.ChannelBusy:
            async with self.store.read() as db:
                live = await db.live_game_in_channel(old.channel_id)
            if live is not None and live.rematch_of == old.id:  # the other player was quicker
                return await self.get_game_info(live.id)
            raise
        log.info("game=%d is a rematch (%s) of game %d", info.id, sides, old.id)
        await self.deliver_due(info.id)
        await self._owed(info)
        return info

    async def join(self, game: GameRef, user_id: str, role: str | None = None) -> GameInfo:
        """Take a seat (``role`` or the first free one); the game starts when all are taken."""
        user_id, role = validate.user_id(user_id), validate.role(role)
        game_id = await self._game_id(game)
        async with self._game_locks[game_id], self.store.transaction(game=game_id) as db:
            role = await lobby.take_seat(
                db, game_id, user_id, role, reminder_hours=self.default_reminder_hours
            )
            info = await info_in(db, game_id)
        log.info("game=%d %s joined as %s", game_id, user_id, role)
        await self.deliver_due(game_id)
        await self._owed(info)
        return info

    async def seat_dispatch(
        self,
        game: GameRef,
        user_id: str,
        level: str | None = None,
        role: str | None = None,
        *,
        is_moderator: bool = False,
    ) -> GameInfo:
        """``user_id``, seated in a lobby (or a moderator), gives an open seat (``role``
        or the first free one) to Dispatch at ``level`` (easy, normal or hard; None for
        the default). The game starts when every seat is taken, as with ``join``."""
        user_id, role = validate.user_id(user_id), validate.role(role)
        is_moderator = validate.flag(is_moderator, "is_moderator")
        if level is not None and not isinstance(level, str):
            raise errors.BadInput(f"Dispatch plays at levels {', '.join(LEVELS)}.")
        bot = bot_user(level)
        game_id = await self._game_id(game)
        async with self._game_locks[game_id], self.store.transaction(game=game_id) as db:
            role = await lobby.seat_dispatch(
                db,
                game_id,
                user_id,
                bot,
                role,
                is_moderator=is_moderator,
                reminder_hours=self.default_reminder_hours,
            )
            info = await info_in(db, game_id)
        log.info("game=%d %s seated %s as %s", game_id, user_id, bot, role)
        await self.deliver_due(game_id)
        await self._owed(info)
        return info

    async def leave(self, game: GameRef, user_id: str) -> GameInfo:
        """Give up a seat before the game starts; an empty lobby is cancelled."""
        user_id = validate.user_id(user_id)
        game_id = await self._game_id(game)
        async with self._game_locks[game_id], self.store.transaction(game=game_id) as db:
            await lobby.leave_seats(db, game_id, user_id)
            return await info_in(db, game_id)

    async def cancel(self, game: GameRef, user_id: str, is_moderator: bool = False) -> GameInfo:
        """The creator (or a moderator) calls off a game that has not started."""
        user_id = validate.user_id(user_id)
        is_moderator = validate.flag(is_moderator, "is_moderator")
        game_id = await self._game_id(game)
        async with self._game_locks[game_id], self.store.transaction(game=game_id) as db:
            await lobby.call_off(db, game_id, user_id, is_moderator)
            return await info_in(db, game_id)

    # -- playing ------------------------------------------------------------------

    async def act(
        self, game: GameRef, user_id: str, move: Move, *, deliver: bool = True
    ) -> ActResult:
        """Apply one decision of ``user_id``; nothing changes unless it is legal and fresh.

        ``move.more``: further args of the same verb picked in the same interaction (see
        the view's ``batch``), applied in order as separate small actions, all or nothing.
        ``deliver=False``: the caller delivers (``deliver_due``) itself, e.g. while it
        answers the player, so the reply does not wait for the table post and DMs.
        """
        started = time.perf_counter()
        if not isinstance(move, Move):
            raise errors.BadInput("A decision is sent as a verb and what it acts on.")
        user_id = validate.user_id(user_id)
        verb, arg = validate.verb(move.verb), validate.arg(move.arg)
        expected_version = validate.version(move.expected_version)
        role, extra = validate.role(move.role), validate.more_args(move.more)
        game_id = await self._game_id(game)
        async with self._game_locks[game_id]:
            try:
                checked = turn_types.CheckedMove(user_id, verb, arg, expected_version, role, extra)
                result = await turn.act(
                    self.store, game_id, checked, reminder_hours=self.default_reminder_hours
                )
            except errors.NotSeated:
                raise await self.not_seated(game_id, user_id) from None
            except errors.CorruptGame as exc:
                await mark_damaged(self.store, game_id, exc.detail)
                raise
            except errors.TimeRanOut:
                late = True
            else:
                late = False
        if late:  # refused, nothing changed: the loss on time is applied (once) now
            await self.expire_clocks()
            raise errors.TimeRanOut()
        elapsed = (time.perf_counter() - started) * 1000
        log.info(
            "game=%d user=%s role=%s verb=%s version=%d %.1fms",
            game_id,
            user_id,
            result.role,
            verb,
            result.version,
            elapsed,
        )
        # Outside the game lock: a slow delivery must not hold up the next player.
        if deliver:
            await self.deliver_due(game_id)
        await self._owed(result.game)
        return result

    async def undo(
        self,
        game: GameRef,
        user_id: str,
        expected_version: int | None = None,
        *,
        role: str | None = None,
    ) -> ActResult:
        """Take back your own last small decision, when the rules list ``undo``."""
        expected_version = validate.version(expected_version)
        pv = await self.view_for(game, user_id, role=role)
        if pv.role is None:
            raise errors.NotSeated()
        if pv.game.status != "active":
            raise errors.GameNotActive(pv.game.status)  # "This game is over.", say
        listed = pv.view.get("actions", {}).get("undo")
        if not listed:
            raise errors.NothingToUndo()
        arg = listed[0] if isinstance(listed, list) and listed else None
        return await self.act(
            pv.game.id, user_id, Move("undo", arg, expected_version, role=pv.role)
        )

    async def resign(self, game: GameRef, user_id: str, *, role: str | None = None) -> GameInfo:
        """Concede: with two sides the other one wins; the result is recorded."""
        user_id, role = validate.user_id(user_id), validate.role(role)
        game_id = await self._game_id(game)
        async with self._game_locks[game_id], self.store.transaction(game=game_id) as db:
            role = await endings.resign(db, game_id, user_id, role)
            info = await info_in(db, game_id)
        log.info("game=%d user=%s resigned as %s", game_id, user_id, role)
        await self.deliver_due(game_id)
        return info

    async def abandon(
        self, game: GameRef, user_id: str, is_moderator: bool = False
    ) -> AbandonResult:
        """End a game without a result: every seated player must ask (Dispatch's seats
        agree unless the game counts for ratings: ``endings.dispatch_agrees``), or one
        moderator.

        Works on a game whose saved state is damaged, so a channel is never stuck.
        """
        user_id = validate.user_id(user_id)
        is_moderator = validate.flag(is_moderator, "is_moderator")
        game_id = await self._game_id(game)
        async with self._game_locks[game_id], self.store.transaction(game=game_id) as db:
            result = await endings.abandon(db, game_id, user_id, is_moderator)
        await self.deliver_due(game_id)
        return result

    # -- seats that change hands (bot.tables.seats) -------------------------------

    async def offer_seat(
        self, game: GameRef, user_id: str, to_user: str, role: str | None = None
    ) -> seating.Offer:
        """``user_id`` offers their seat of a running game to ``to_user``, who answers with
        ``answer_offer``; the offer lapses when the game moves on or after a day."""
        user_id, role = validate.user_id(user_id), validate.role(role)
        to_user = validate.user_id(to_user)
        game_id = await self._game_id(game, live=False)
        async with self._game_locks[game_id], self.store.transaction(game=game_id) as db:
            made = await seating.offer(db, game_id, user_id, to_user, role)
        log.info("game=%d %s offered %s to %s", game_id, user_id, made.role, to_user)
        return made

    async def answer_offer(
        self, game: GameRef, offer_id: int, user_id: str, *, accept: bool
    ) -> seating.SeatChange | None:
        """The user an offer names accepts it (the seat is theirs: the change) or declines
        it (None). Anyone else, a stale or a forged offer is refused; nothing changes."""
        user_id, accept = validate.user_id(user_id), validate.flag(accept, "accept")
        offer_id = seating.offer_number(offer_id)
        game_id = await self._game_id(game, live=False)
        async with self._game_locks[game_id], self.store.transaction(game=game_id) as db:
            change = await seating.answer_offer(
                db, game_id, offer_id, user_id, accept=accept, hours=self.default_reminder_hours
            )
        if change is not None:
            await self._seat_changed(change)
        return change

    async def reseat(
        self, game: GameRef, role: str, to_user: str, by: str, *, is_moderator: bool = False
    ) -> seating.SeatChange:
        """A moderator gives the ``role`` seat of a running game to ``to_user``."""
        by, to_user = validate.user_id(by), validate.user_id(to_user)
        seat = validate.role(role)
        if not validate.flag(is_moderator, "is_moderator"):
            raise errors.NotAllowed("Only a moderator (Manage Channels) can reseat a game.")
        if seat is None:
            raise errors.BadInput("Name the seat to give: its side.")
        game_id = await self._game_id(game, live=False)
        async with self._game_locks[game_id], self.store.transaction(game=game_id) as db:
            change = await seating.reseat(
                db, game_id, seat, (to_user, by), self.default_reminder_hours
            )
        await self._seat_changed(change)
        return change

    async def hand_over(
        self, game: GameRef, user_id: str, level: str | None = None, role: str | None = None
    ) -> seating.SeatChange:
        """``user_id`` gives their own seat of a running game to Dispatch at ``level``
        (easy, normal or hard; None for the default), which then takes its moves."""
        user_id, role = validate.user_id(user_id), validate.role(role)
        if level is not None and not isinstance(level, str):
            raise errors.BadInput(f"Dispatch plays at levels {', '.join(LEVELS)}.")
        bot = bot_user(level)
        game_id = await self._game_id(game, live=False)
        async with self._game_locks[game_id], self.store.transaction(game=game_id) as db:
            change = await seating.hand_over(
                db, game_id, (user_id, bot), role, self.default_reminder_hours
            )
        await self._seat_changed(change)
        return change

    async def open_offer_for(self, game: GameRef, user_id: str) -> seating.Offer | None:
        """The latest open offer of a seat of the game to ``user_id`` (None: none)."""
        user_id = validate.user_id(user_id)
        game_id = await self._game_id(game, live=False)
        async with self.store.read() as db:
            return await seating.open_offer_for(db, game_id, user_id)

    async def not_seated(self, game_id: int, user_id: str) -> errors.NotSeated:
        """Why ``user_id`` may not act in the game: their seat passed (``SeatPassed``, with
        who holds it now), or they never sat there."""
        async with self.store.read() as db:
            return await seating.why_not_seated(db, game_id, user_id)

    async def _seat_changed(self, change: seating.SeatChange) -> None:
        log.info(
            "game=%d seat %s passed from %s to %s",
            change.game_id,
            change.role,
            change.from_user,
            change.to_user,
        )
        await self.deliver_due(change.game_id)
        await self._owed(await self.get_game_info(change.game_id))

    # -- queries ------------------------------------------------------------------

    async def game_in_channel(self, channel_id: str) -> GameInfo | None:
        """The channel's game being set up or played, if any."""
        channel_id = validate.channel_id(channel_id)
        async with self.store.read() as db:
            row = await db.live_game_in_channel(channel_id)
            return game_info(row, await db.seats(row.id)) if row else None

    async def get_game_info(self, game: GameRef) -> GameInfo:
        game = validate.game_ref(game)
        async with self.store.read() as db:
            row = await find_row(db, game, live=False)
            return game_info(row, await db.seats(row.id))

    async def game_in_reach(self, game: int, user_id: str, guild_id: str | None) -> GameInfo:
        """Game number ``game`` as sent by ``user_id`` from server ``guild_id`` (None: a
        DM) reaches it: a game of that server, or in a DM one the asker plays; any other
        number is refused in the words of an unknown one (``bot.tables.reach``)."""
        return await reach.game_in_reach(self.store, game, user_id, guild_id)

    async def view_for(
        self, game: GameRef, user_id: str | None, *, role: str | None = None
    ) -> PlayerView:
        """A player's own view (prompt, actions, hand); observers get the public view."""
        game, role = validate.game_ref(game), validate.role(role)
        user_id = validate.optional_user_id(user_id)
        async with self.store.read() as db:
            row = await find_row(db, game, live=False)
            seats = await db.seats(row.id)
            timed = await db.clock_rows(row.id) if row.status == "active" else []
            away = await clock_pass.away(db, row, seats) if timed else {}
        if row.status in ("lobby", "cancelled"):
            raise errors.GameNotActive(row.status)
        mine = [s.role for s in seats if s.user_id == user_id]
        if role is not None and role not in mine:
            raise errors.NotAllowed(f"You do not hold the {role} seat in this game.")
        if user_id is not None and not mine:
            passed = await self.not_seated(row.id, user_id)
            if isinstance(passed, errors.SeatPassed):
                raise passed
        if role is None and mine:
            active = [r for r in mine if r in row.active_roles]
            role = (active or mine)[0]
        try:
            view = safe_view(row, role)
        except errors.CorruptGame as exc:
            await mark_damaged(self.store, row.id, exc.detail)
            raise
        if timed and role is not None:  # a player's prompt shows the clocks
            lines = clock_pass.lines_for(timed, seats, self.clock(), away_until=away)
            view = {**view, "clocks": lines}
        return PlayerView(game_info(row, seats), role, row.version, view)

    async def hint(self, game: GameRef, user_id: str) -> hints.Hint:
        """The search's top choices for ``user_id``'s current decision, from their own view
        (a practice game only; see ``hints``). Counts the hint: the game is then assisted
        and never rated. The search runs in the bot seats' worker, off the event loop."""
        user_id = validate.user_id(user_id)
        pv = await self.view_for(game, user_id)
        if pv.role is None:
            raise errors.NotSeated()
        if pv.game.status != "active":
            raise errors.GameNotActive(pv.game.status)
        if not pv.view.get("actions"):
            raise errors.BadInput("You have nothing to decide right now, so there is no hint.")
        # First whether the search plays the game at all: a game played alone is no game
        # between players, whatever its seed.
        hints.searchable(pv.game.game_name)
        async with self.store.read() as db:
            row = await find_row(db, pv.game.id, live=False)
            refusal = hints.practice_refusal(
                row,
                await db.seats(row.id),
                decided=(await db.decisions_by_role(row.id)).get(str(pv.role), 0),
                assisted=await db.hints_used(row.id) > 0,
            )
        if refusal:
            raise errors.BadInput(refusal)
        call = functools.partial(
            hints.compute_hint,
            row.game_name,
            row.id,
            pv.version,
            pv.view,
            iterations=self.searches.iterations,
        )
        key = (row.id, pv.role, pv.version, self.searches.iterations)
        found = await self.hint_desk.ask(
            key, user_id, functools.partial(self.searches.off_loop, row.id, call)
        )
        # Counted with the decision checked, under the game's lock: a hint is shown only
        # for the decision still owed, and counted before any later end rates the game.
        async with self._game_locks[row.id], self.store.transaction(game=row.id) as db:
            if not await self._still_owed(db, row.id, pv, user_id):
                raise errors.BadInput(
                    "The game changed while your hint was worked out: ask again for your "
                    "decision now."
                )
            await db.add_hint(row.id, pv.role)
        log.info("game=%d user=%s role=%s asked for a hint", row.id, user_id, pv.role)
        return found

    @staticmethod
    async def _still_owed(db: Session, game_id: int, pv: PlayerView, user_id: str) -> bool:
        """Whether the decision ``pv`` showed ``user_id`` is still theirs to make: the game
        is on, the seat is still theirs, its role has not acted since and is offered the
        same actions. (Another side's move meanwhile, in a phase where both decide at
        once, leaves a hint good: it was worked out from what the asker knew then, which
        is never more than now.)"""
        now = await db.game(game_id)
        if now is None or now.status != "active" or pv.role is None:
            return False
        if not any(s.role == pv.role and s.user_id == user_id for s in await db.seats(game_id)):
            return False
        if now.version != pv.version and await db.acted_since(game_id, pv.role, pv.version):
            return False
        return bool(safe_view(now, pv.role).get("actions") == pv.view.get("actions"))

    async def log(self, game: GameRef, count: int = 20) -> list[str]:
        """The last ``count`` public log lines; for a finished game against Dispatch, then
        where the game turned by Dispatch's own estimates (``estimates``: never before the
        end)."""
        count = validate.count(count)
        pv = await self.view_for(game, None)
        lines = public_log(pv.view)
        shown = lines[-count:] if count > 0 else []
        if pv.game.status not in estimates.OVER:
            return shown
        async with self.store.read() as db:
            rows = await db.bot_estimates(pv.game.id)
        names = {s.role: s.user_id for s in pv.game.seats}
        return shown + estimates.turning_lines(rows, names)

    async def games_for_user(self, user_id: str) -> list[UserGame]:
        """The user's games being set up or played, with whose turn it is and since when."""
        user_id = validate.user_id(user_id)
        async with self.store.read() as db:
            rows = await db.games_of_user(user_id)
            listed = [(row, await db.seats(row.id)) for row in rows]
        return [history.user_game(row, seats, user_id) for row, seats in listed]

    async def leaderboard(
        self, guild_id: str | None, game_name: str, limit: int = ratings.LEADERBOARD_SIZE
    ) -> list[Standing]:
        """The best ``limit`` rated players of a game on a server (None: outside one),
        Dispatch's levels among them; read in order from the ratings index."""
        guild_id = validate.guild_id(guild_id)
        game_name = ratings.rated_game(validate.game_name(game_name))
        limit = ratings.leaderboard_size(limit)
        async with self.store.read() as db:
            rows = await db.leaderboard(ratings.scope_of(guild_id), game_name, limit)
        return [
            Standing(rank, r.player_id, round(r.points), r.games, r.wins)
            for rank, r in enumerate(rows, start=1)
        ]

    async def export(self, game: GameRef) -> dict[str, Any]:
        """Everything needed to replay the game elsewhere: name, options, seed, actions."""
        return await export_game(self.store, validate.game_ref(game))

    async def export_for_player(
        self, game: GameRef, *, is_moderator: bool = False, user_id: str | None = None
    ) -> dict[str, Any]:
        """The export as players may have it: only once the game is over.

        During play it would give the key to every shuffle and the face-down choices in
        the action log. A moderator may rescue a game whose record is damaged, unless they
        sit at it (``user_id``): the rescue would show them their opponent's cards and every
        draw to come, should the game be taken up again.
        """
        game = validate.game_ref(game)
        info = await self.get_game_info(game)
        live = info.status in ("lobby", "active")
        if live and is_moderator and await self.damage(info.id):
            if user_id is not None and info.roles_of(str(user_id)):
                raise errors.NotAllowed(
                    "You play in this game, so its rescue export (which holds the key to "
                    "every shuffle) is for a moderator who does not; nothing was exported."
                )
            live = False
        if live:
            raise errors.NotAllowed(
                "The export holds the key to every shuffle and every action, which would "
                "reveal hidden cards, so it is available once the game is over."
            )
        return await self.export(info.id)

    # -- history and records (the logic lives in bot.tables.history) ----
    async def finished_page(
        self, scope: str, owner: str, *, older: bool = True, key: int = history.FIRST
    ) -> history.Page:
        """A page of finished games of a user ("mine") or a server ("server")."""
        return await history.page(self.store, scope, owner, older=older, key=key)

    async def stats(self, user_id: str, game_name: str | None = None) -> history.Stats:
        """A player's record in finished games."""
        return await history.stats(self.store, user_id, game_name)

    async def export_finished(
        self, game_id: int, user_id: str, guild_id: str | None
    ) -> dict[str, Any]:
        """The export of a finished game by number: one the user played or of this server."""
        return await self.export(await history.exportable(self.store, game_id, user_id, guild_id))

    async def damage(self, game: GameRef) -> str | None:
        """Why the game's record cannot be used (None: healthy); marks it when newly found."""
        game = validate.game_ref(game)
        async with self.store.read() as db:
            row = await find_row(db, game, live=False)
        if row.damaged:
            return row.damaged
        if row.status != "active":
            return None
        try:
            safe_view(row, None)
        except errors.CorruptGame as exc:
            await mark_damaged(self.store, row.id, exc.detail)
            return exc.detail
        return None

    async def replay(self, game: GameRef) -> dict[str, Any]:
        """setup(seed) + every stored action, in order: the state the game must have."""
        return replayed_state(await self.export(game))

    async def check_replay(self, game: GameRef, user_id: str, guild_id: str | None) -> int:
        """The id of the game ``user_id`` (asking on ``guild_id``) may watch again, or a
        polite refusal (``replay.may_see_finished``); quick, for answering before a build."""
        game, user_id = _replay_ref(game), validate.user_id(user_id)
        data = await watchable_export(self.store, game, user_id, validate.guild_id(guild_id))
        return int(drawable(data)["id"])

    async def watch_replay(
        self, game: GameRef, user_id: str, guild_id: str | None, limit: int | None = None
    ) -> Movie:
        """The replay of a game that is over: an animated GIF of the public board after
        each turn and the public log, together within ``limit`` bytes (None: Discord's
        default), drawn in a worker thread and cached (``replay_movie.ReplayCache``)."""
        game, user_id = _replay_ref(game), validate.user_id(user_id)
        limit = upload_limit(limit)
        data = await watchable_export(self.store, game, user_id, validate.guild_id(guild_id))
        return await self.replays.movie(drawable(data), limit)

    async def verify_replay(self, game: GameRef) -> bool:
        """True when replaying the action log gives exactly the stored state."""
        game = validate.game_ref(game)
        replayed = await self.replay(game)
        return await stored_state(self.store, game) == dumps(replayed)

    async def settings(
        self, channel_id: str, reminder_hours: float | None = None, guild_id: str | None = None
    ) -> ChannelSettings:
        """Read, or set when ``reminder_hours`` is given, a channel's reminder interval."""
        channel_id, guild_id = validate.channel_id(channel_id), validate.guild_id(guild_id)
        hours = validate.reminder_hours(reminder_hours)
        if hours is None:
            async with self.store.read() as db:
                current = await db.reminder_hours(channel_id, self.default_reminder_hours)
            return ChannelSettings(channel_id, current)
        async with self.store.transaction() as db:
            await db.set_reminder_hours(channel_id, guild_id, hours)
        return ChannelSettings(channel_id, hours)

    async def notify_setting(self, user_id: str, notify: str | None = None) -> str:
        """Where ``user_id``'s turns are announced ("dm", "channel" or "both"); sets it
        when ``notify`` is given. While their DMs are closed, the channel is used."""
        user_id = validate.user_id(user_id)
        if notify is None:
            async with self.store.read() as db:
                prefs = await db.notify_prefs([user_id])
            return prefs.get(user_id, DEFAULT_NOTIFY)
        if notify not in ("dm", "channel", "both"):
            raise errors.BadInput("Turns can be announced by dm, in the channel, or both.")
        async with self.store.write() as db:
            await db.set_notify(user_id, notify)
        return notify

    async def forced_setting(self, user_id: str, forced_choices: str | None = None) -> str:
        """Whether ``user_id``'s forced choices are taken for them ("auto", the default)
        or they are asked ("ask"), ``bot.tables.forced``; sets it when given."""
        user_id = validate.user_id(user_id)
        if forced_choices is None:
            async with self.store.read() as db:
                return await db.forced_setting(user_id)
        if forced_choices not in forced.FORCED_SETTINGS:
            raise errors.BadInput(
                "Forced choices are taken for you (auto) or you are asked each time (ask)."
            )
        async with self.store.write() as db:
            await db.set_forced(user_id, forced_choices)
        return forced_choices

    async def live_prompts(self, game_id: int) -> dict[str, tuple[str, str]]:
        """Where each player's live prompt message of a game is (front ends close it when
        it is superseded): ``{user_id: (channel_id, message_id)}``."""
        game_id = validate.game_id(game_id)
        async with self.store.read() as db:
            return await db.live_prompts(game_id)  # none for a game there is not

    async def set_live_prompt(
        self, game_id: int, user_id: str, where: tuple[str, str] | None
    ) -> None:
        """Remember the message now holding ``user_id``'s live prompt (None: none is live)."""
        game_id, user_id = validate.game_id(game_id), validate.user_id(user_id)
        where = validate.message_place(where)
        async with self.store.write() as db:
            if await db.version_of(game_id) is None:
                raise errors.GameNotFound(f"Game #{game_id}")
            await db.set_live_prompt(game_id, user_id, where)

    async def clear_dm_failed(self, user_id: str) -> int:
        """The user opened their DMs again: send them private messages from now on."""
        user_id = validate.user_id(user_id)
        async with self.store.transaction() as db:
            return await db.clear_dm_failed_for_user(user_id)

    # -- delivery and reminders ---------------------------------------------------

    async def deliver_pending(self) -> int:
        """Start-up: deliver everything committed but not delivered, ignoring backoff;
        then tell the listeners to look at what was owed when the last run stopped (the
        moves Dispatch's seats owed, for one)."""
        delivered = await self.deliver_due(ignore_backoff=True)
        await self._listeners.resumed()
        return delivered

    async def deliver_due(self, game_id: int | None = None, *, ignore_backoff: bool = False) -> int:
        """Deliver undelivered outbox rows in order; return how many were delivered.

        Order is kept per stream (the table, and each seat's DMs): a row waiting for its
        retry holds back the later rows of its stream, not the other streams.
        """
        # Built for each pass from the current settings, so a front end swapped in
        # (a reconnect, a test) is used at once; the locks are the manager's own.
        courier = Courier(
            store=self.store,
            front_end=self.front_end,
            clock=self.clock,
            retry_base_s=self.retry_base_s,
            retry_cap_s=self.retry_cap_s,
            locks=self._delivery_locks,
            reader=READER,
        )
        return await courier.deliver_due(game_id, ignore_backoff=ignore_backoff)

    async def fire_due_timers(self) -> int:
        """Nudge every player whose reminder is due, then space the next one out further."""
        fired = await queue_due_reminders(
            self.store, self._game_locks, READER, now=self.clock(), growth=self.reminder_growth
        )
        if fired:
            await self.deliver_due()
        return fired

    async def expire_clocks(self) -> int:
        """End every game whose player ran out of time (``timeouts``), tell
        the players, and return how many ended."""
        ended = await timeouts.expire_due(self.store, self._game_locks, self.clock())
        if ended:
            await self.deliver_due()
        return ended

    async def _server_clock(self, guild_id: str | None, game_name: str) -> Control | None:
        """The server's default clock for a new game (none for a game played alone)."""
        game = rules.GAMES.get(game_name)
        if guild_id is None or game is None or game.one_seat:
            return None
        async with self.store.read() as db:
            stored = await db.default_clock(guild_id)
        return clocks.parse(stored) if stored else None

    async def default_clock(self, guild_id: str | None, clock: str | None = None) -> str:
        """A server's default clock for new games, as written (``none`` when unset); sets
        it when ``clock`` is given (the caller checked the asker may: a moderator).
        Practice games (a chosen seed) and games played alone never get it."""
        guild_id = validate.guild_id(guild_id)
        if guild_id is None:
            raise errors.NotAllowed("A default clock is a server setting: set it in a server.")
        if clock is None:
            async with self.store.read() as db:
                stored = await db.default_clock(guild_id)
            control = clocks.parse(stored) if stored else None
        else:
            control = validate.clock(clock)
            async with self.store.write() as db:
                await db.set_default_clock(guild_id, control.written() if control else "none")
        return control.written() if control else "none"

    # -- a thread per game ------------------------------------
    async def threads_on(self, guild_id: str | None, on: bool | None = None) -> bool:
        """Whether ``/game new`` opens a thread per game on this server (default on); sets
        it when ``on`` is given (the caller checked the asker may: a moderator)."""
        guild_id = validate.guild_id(guild_id)
        if guild_id is None:
            if on is not None:
                raise errors.NotAllowed("Threads are a server setting: set it in a server.")
            return False
        if on is None:
            async with self.store.read() as db:
                stored = await db.threads_setting(guild_id)
            return True if stored is None else stored
        on = validate.flag(on, "threads")
        async with self.store.write() as db:
            await db.set_threads_setting(guild_id, on)
        return on

    async def set_lobby_post(self, game_id: int, channel_id: str, message_id: str | None) -> None:
        """The game's lobby post is in ``channel_id`` (the parent of its thread)."""
        game_id, channel_id = await self._game_id(game_id), validate.channel_id(channel_id)
        if message_id is not None:
            message_id = validate.channel_id(message_id)
        async with self.store.write() as db:
            await db.set_game_lobby(game_id, channel_id, message_id)

    async def lobby_post(self, game_id: int) -> tuple[str, str | None] | None:
        async with self.store.read() as db:
            return await db.game_lobby(game_id)

    async def games_living_in(self, channel_id: str) -> list[GameInfo]:
        """The live games whose lobby is in ``channel_id``: they live in its threads."""
        channel_id = validate.channel_id(channel_id)
        async with self.store.read() as db:
            rows = await db.live_games_from(channel_id)
            return [game_info(row, await db.seats(row.id)) for row in rows]

    async def move(
        self, game: GameRef, channel_id: str, user_id: str, *, is_moderator: bool = False
    ) -> GameInfo:
        """Play a game in ``channel_id`` from now on (a player of it, or a moderator): its
        table posts that waited for a channel that refused them go there, in order."""
        channel_id, user_id = validate.channel_id(channel_id), validate.user_id(user_id)
        is_moderator = validate.flag(is_moderator, "is_moderator")
        game_id = await self._game_id(game)
        async with self._game_locks[game_id], self.store.transaction() as db:
            row = await find_row(db, game_id, live=False)
            if row.status not in ("lobby", "active"):
                raise errors.GameNotActive(row.status)
            seats = await db.seats(game_id)
            if not is_moderator and all(s.user_id != user_id for s in seats):
                raise errors.NotAllowed(
                    f"Only a player of game #{game_id} or a moderator (Manage Channels) can "
                    "move it."
                )
            if row.channel_id == channel_id:
                raise errors.BadInput(f"Game #{game_id} is already played there.")
            busy = await db.live_game_in_channel(channel_id)
            if busy is not None:
                raise errors.ChannelBusy(busy.id)
            await db.move_game(game_id, channel_id)
            info = await info_in(db, game_id)
        log.info("game=%d moved to channel %s by %s", game_id, channel_id, user_id)
        await self.deliver_due(game_id, ignore_backoff=True)
        return info

    async def _beat(self) -> None:
        """The heartbeat, written every ``clock_pass.BEAT_EVERY_S`` (not every pass)."""
        now = self.clock()
        if now - self._last_beat >= clock_pass.BEAT_EVERY_S:
            await clock_pass.beat(self.store)
            self._last_beat = now

    async def prune_outbox(self) -> int:
        """Delete the outbox rows delivered longer ago than the retention; how many."""
        self._last_prune = self.clock()
        return await prune_delivered(self.store, self._last_prune, self.outbox_keep_days)

    async def _prune_hourly(self) -> None:
        if self.clock() - self._last_prune >= PRUNE_EVERY_S:
            await self.prune_outbox()

    async def warn_clocks(self) -> int:
        """Warn the players with 24 h, then 2 h, left on their clock (``timeouts``)."""
        warned = await timeouts.warn_due(self.store, self._game_locks, self.clock())
        if warned:
            await self.deliver_due()
        return warned

    async def clock_lines(self, game: GameRef, *, plain: bool = False) -> list[str]:
        """The game's clocks for players to read (running ones as ``<t:...:R>``, or with
        ``plain`` as time left, for the terminal); none when it has no clock or is not
        being played."""
        game = validate.game_ref(game)
        async with self.store.read() as db:
            row = await find_row(db, game, live=False)
            if row.status != "active":
                return []
            rows, seats = await db.clock_rows(row.id), await db.seats(row.id)
            away = await clock_pass.away(db, row, seats) if rows else {}
        return clock_pass.lines_for(rows, seats, self.clock(), plain=bool(plain), away_until=away)

    # -- vacations and claims on time (``vacations``, ``claims``) ---------
    async def vacation(
        self, guild_id: str | None, user_id: str, days: int | None = None
    ) -> vacations.Vacation:
        """Pause every clock of ``user_id``'s in the server's running games for ``days``
        (``vacations.take``); without days (or 0), end their vacation now, giving back
        the whole days not begun (``vacations.end``)."""
        guild_id, user_id = validate.guild_id(guild_id), validate.user_id(user_id)
        if days is not None and (
            isinstance(days, bool) or not isinstance(days, int) or not 0 <= days <= 366
        ):
            raise errors.BadInput("A vacation is a whole number of days (0 ends yours).")
        async with self.store.transaction() as db:
            if days:
                news = await vacations.take(db, user_id, guild_id or "", days)
            else:
                news = await vacations.end(db, user_id, guild_id or "")
        for game_id in news.games:
            await self.deliver_due(game_id)
        return news

    async def tell_vacations_over(self) -> int:
        """Tell the tables of each player whose vacation ran to its end that they are
        back (``vacations.tell_ended``, once per vacation); how many tables were told."""
        async with self.store.transaction() as db:
            told = await vacations.tell_ended(db)
        for game_id in dict.fromkeys(told):
            await self.deliver_due(game_id)
        return len(told)

    async def vacation_left(self, guild_id: str | None, user_id: str) -> tuple[int, int]:
        """(vacation days ``user_id`` has left this rolling year, the server's yearly)."""
        guild_id, user_id = validate.guild_id(guild_id), validate.user_id(user_id)
        async with self.store.read() as db:
            return await vacations.allowance(db, user_id, guild_id or "")

    async def clock_rules(
        self, guild_id: str | None, on_time: str | None = None, vacation_days: int | None = None
    ) -> tuple[str, int]:
        """A server's (on_time, vacation_days); sets what is given (the caller checked the
        asker may: a moderator). ``on_time``: ``lose`` (the game ends at zero) or
        ``claim`` (the opponent may claim the win); ``vacation_days``: 0 to 90 a year."""
        guild_id = validate.guild_id(guild_id)
        if on_time is not None and on_time not in clock_rules.ON_TIME:
            raise errors.BadInput("At zero a player can lose on time (lose) or be claimed (claim).")
        if vacation_days is not None and (
            isinstance(vacation_days, bool)
            or not isinstance(vacation_days, int)
            or not 0 <= vacation_days <= clock_rules.MAX_VACATION_DAYS
        ):
            raise errors.BadInput(
                "Vacation days are a whole number from 0 (none) to "
                f"{clock_rules.MAX_VACATION_DAYS}."
            )
        changing = on_time is not None or vacation_days is not None
        if guild_id is None:
            if changing:
                raise errors.NotAllowed("Clock rules are a server setting: set them in a server.")
            return "lose", clock_rules.DEFAULT_VACATION_DAYS
        async with self.store.transaction() as db:
            current = await clock_rules.server_rules(db, guild_id)
            if not changing:
                return current
            chosen = (on_time or current[0], current[1] if vacation_days is None else vacation_days)
            await db.set_clock_rules(guild_id, *chosen)
        return chosen

    async def claim_win(self, game: GameRef, user_id: str) -> GameInfo:
        """Claim the win on time (``claims.claim``): the game ends, told like any end."""
        game, user_id = validate.game_ref(game), validate.user_id(user_id)
        game_id = await self._game_id(game)
        async with self._game_locks[game_id], self.store.transaction() as db:
            await claims.claim(db, game_id, user_id)
            info = await info_in(db, game_id)
        await self.deliver_due(game_id)
        return info

    # -- end of vacations and claims on time ------------------------------------------

    async def run_background(
        self, interval_s: float = 5.0, stop: asyncio.Event | None = None
    ) -> None:
        """Retry deliveries, end games lost on time and fire reminders until ``stop`` is
        set (checked between passes, a safe point) or the task is cancelled."""
        stop = stop or asyncio.Event()
        while not stop.is_set():
            try:
                await self.deliver_due()
                await self._beat()
                await self.expire_clocks()
                await self.warn_clocks()
                await self.tell_vacations_over()
                await self.fire_due_timers()
                await self._prune_hourly()
                await self._listeners.resumed()  # a bot move that failed is tried again
            except asyncio.CancelledError:
                raise
            except StoreError:
                pass  # the store logged it (once while out of reach); the next pass retries
            except Exception:
                log.exception("background delivery pass failed")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), interval_s)


def _replay_ref(game: Any) -> GameRef:
    """A game to replay, checked: a number out of range is refused as any number one may
    not see (``replay.not_yours``), so the answer tells nothing about which exist."""
    try:
        return validate.game_ref(game)
    except errors.GameNotFound:
        raise not_yours(game) from None
