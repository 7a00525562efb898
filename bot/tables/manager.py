"""GameManager: the one door to every game. Async, and no discord import.

Every change to a game is one transaction holding the new state, the action row and the
outbox rows that tell the players about it. Delivery happens after the commit, through
the front-end port, so a crash at any point loses nothing: whatever was committed but not
delivered is delivered by ``deliver_pending`` on the next start.

The manager is a core (``core``: the store, the per-game locks, delivery, listeners, a
game's info and a player's view) with the lobby and the turn, and a desk for each other
feature, mounted as an attribute and handed the core alone:
- ``clocks``: a game's clocks, a server's clock rules and default, vacations, claims on
  time, and the passes that end games lost on time (``bot.tables.clocks``);
- ``records``: public logs, a player's games and record, the leaderboard, exports and
  replays (``bot.tables.records``);
- ``seat_changes``: seats of a running game offered, reseated, handed to Dispatch;
- ``hints``: ``/game hint`` in practice games;
- ``settings``, ``threads``, ``prompts``: a channel's and a player's settings, where a
  game lives, where its live prompts are;
- ``leagues``: leagues and tournaments, their rounds, results and moderators' acts;
- ``background``: the loop of retries, clocks, reminders, heartbeat and pruning.
The work is done by ``lobby``, ``turn`` (a decision applied and committed) and ``endings``
(resign, abandon); every value handed in is checked first by ``validate``.
"""

from __future__ import annotations

import json
import logging
import secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import Unpack

from bot import errors
from bot.delivery.courier import mark_damaged
from bot.delivery.port import FrontEnd, GameInfo
from bot.storage.store import Store
from bot.tables import endings, lobby, reach, turn, turn_types, validate
from bot.tables.background.desk import BackgroundDesk
from bot.tables.bot_users import bot_user
from bot.tables.clocks import clock_pass
from bot.tables.clocks.desk import ClockDesk
from bot.tables.core import Core, Tuning, TuningArgs
from bot.tables.hints.desk import HintsDesk
from bot.tables.leagues.desk import LeagueDesk
from bot.tables.loading import GameRef, find_row, game_info, info_in
from bot.tables.prompts.desk import PromptsDesk
from bot.tables.records.desk import RecordsDesk
from bot.tables.requests import Move, NewGame
from bot.tables.results import AbandonResult, ActResult
from bot.tables.seat_changes.desk import SeatChangeDesk
from bot.tables.settings.desk import SettingsDesk
from bot.tables.threads.desk import ThreadsDesk
from rules.ai import LEVELS

log = logging.getLogger("dispatch.manager")


class GameManager(Core):
    """Runs every game of one store. Front ends call it; it calls the front end back."""

    def __init__(self, store: Store, front_end: FrontEnd, **tuning: Unpack[TuningArgs]) -> None:
        super().__init__(store, front_end, Tuning(**tuning))
        self.leagues = LeagueDesk(self)
        self.clocks = ClockDesk(self, self.leagues.after_game)
        self.records = RecordsDesk(self)
        self.seat_changes = SeatChangeDesk(self)
        self.hints = HintsDesk(self)
        self.settings = SettingsDesk(self)
        self.threads = ThreadsDesk(self)
        self.prompts = PromptsDesk(self)
        self.background = BackgroundDesk(self, self.clocks, self.leagues)

    @classmethod
    async def open(
        cls,
        path: str | Path,
        front_end: FrontEnd,
        *,
        clock: Callable[[], float] = time.time,
        deliver: bool = True,
        patient: bool = False,
        **tuning: Unpack[TuningArgs],
    ) -> GameManager:
        """Open the store (running migrations) and deliver what a previous run left;
        ``patient``: wait for a PostgreSQL server out of reach for now (``Store.open``).

        A process that adds listeners (Dispatch's seats: ``BotSeats.attach``) opens with
        ``deliver=False``, adds them, then calls ``deliver_pending``: its announcement
        that the manager resumed then reaches them."""
        store = await Store.open(path, clock=clock, patient=patient)
        manager = cls(store, front_end, **tuning)
        # Before any click or pass: time the bot was down is never charged.
        await clock_pass.forgive_downtime(store)
        if deliver:
            await manager.deliver_pending()
        return manager

    async def close(self) -> None:
        await self.listening.closing()
        await self.store.close()

    async def deliver_pending(self) -> int:
        """Start-up: deliver everything committed but not delivered, ignoring backoff;
        then tell the listeners to look at what was owed when the last run stopped (the
        moves Dispatch's seats owed, for one)."""
        delivered = await self.deliver_due(ignore_backoff=True)
        await self.listening.resumed()
        return delivered

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
            raise errors.Malformed("A new game is asked for with its name and options.")
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
            control = await self.clocks.for_new_game(guild_id, game_name)
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
        await self.listening.owed(info)
        return info

    async def rematch(self, game: GameRef, user_id: str, sides: str = "same") -> GameInfo:
        """A new game of the same kind, options and players in the same channel, after a
        game is over: ``sides`` "same", "swap" or "random". Idempotent: whoever asks
        second (or twice) is given the rematch already made, never a second one."""
        game, user_id = validate.game_ref(game), validate.user_id(user_id)
        if sides not in ("same", "swap", "random"):
            raise errors.UnknownWord("A rematch keeps the sides (same), swaps them, or draws them.")
        async with self.store.read() as db:
            old = await find_row(db, game, live=False)
            seats = await db.seats(old.id)
            live = await db.lobby.live_game_in_channel(old.channel_id)
            control = await clock_pass.control_of(db, old.id)
        if live is not None and live.rematch_of == old.id:
            return await self.get_game_info(live.id)
        if old.status not in ("finished", "abandoned"):
            raise errors.WrongStage("A rematch can be asked for once the game is over.")
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
                live = await db.lobby.live_game_in_channel(old.channel_id)
            if live is not None and live.rematch_of == old.id:  # the other player was quicker
                return await self.get_game_info(live.id)
            raise
        log.info("game=%d is a rematch (%s) of game %d", info.id, sides, old.id)
        await self.deliver_due(info.id)
        await self.listening.owed(info)
        return info

    async def join(self, game: GameRef, user_id: str, role: str | None = None) -> GameInfo:
        """Take a seat (``role`` or the first free one); the game starts when all are taken."""
        user_id, role = validate.user_id(user_id), validate.role(role)
        game_id = await self.game_id(game)
        async with self.game_locks[game_id], self.store.transaction(game=game_id) as db:
            role = await lobby.take_seat(
                db, game_id, user_id, role, reminder_hours=self.default_reminder_hours
            )
            info = await info_in(db, game_id)
        log.info("game=%d %s joined as %s", game_id, user_id, role)
        await self.deliver_due(game_id)
        await self.listening.owed(info)
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
            raise errors.UnknownWord(f"Dispatch plays at levels {', '.join(LEVELS)}.")
        bot = bot_user(level)
        game_id = await self.game_id(game)
        async with self.game_locks[game_id], self.store.transaction(game=game_id) as db:
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
        await self.listening.owed(info)
        return info

    async def leave(self, game: GameRef, user_id: str) -> GameInfo:
        """Give up a seat before the game starts; an empty lobby is cancelled."""
        user_id = validate.user_id(user_id)
        game_id = await self.game_id(game)
        async with self.game_locks[game_id], self.store.transaction(game=game_id) as db:
            await lobby.leave_seats(db, game_id, user_id)
            return await info_in(db, game_id)

    async def cancel(self, game: GameRef, user_id: str, is_moderator: bool = False) -> GameInfo:
        """The creator (or a moderator) calls off a game that has not started."""
        user_id = validate.user_id(user_id)
        is_moderator = validate.flag(is_moderator, "is_moderator")
        game_id = await self.game_id(game)
        async with self.game_locks[game_id], self.store.transaction(game=game_id) as db:
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
            raise errors.Malformed("A decision is sent as a verb and what it acts on.")
        user_id = validate.user_id(user_id)
        verb, arg = validate.verb(move.verb), validate.arg(move.arg)
        expected_version = validate.version(move.expected_version)
        role, extra = validate.role(move.role), validate.more_args(move.more)
        game_id = await self.game_id(game)
        async with self.game_locks[game_id]:
            try:
                checked = turn_types.CheckedMove(user_id, verb, arg, expected_version, role, extra)
                result = await turn.act(
                    self.store, game_id, checked, reminder_hours=self.default_reminder_hours
                )
            except errors.NotSeated:
                raise await self.seat_changes.why_not_seated(game_id, user_id) from None
            except errors.CorruptGame as exc:
                await mark_damaged(self.store, game_id, exc.detail)
                raise
            except errors.TimeRanOut:
                late = True
            else:
                late = False
        if late:  # refused, nothing changed: the loss on time is applied (once) now
            await self.clocks.expire()
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
        if result.game.status != "active":  # a league game's end may pair a round
            await self.leagues.after_game(game_id)
        await self.listening.owed(result.game)
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
        game_id = await self.game_id(game)
        async with self.game_locks[game_id], self.store.transaction(game=game_id) as db:
            role = await endings.resign(db, game_id, user_id, role)
            info = await info_in(db, game_id)
        log.info("game=%d user=%s resigned as %s", game_id, user_id, role)
        await self.deliver_due(game_id)
        await self.leagues.after_game(game_id)
        await self.listening.owed(info)  # an open page shows the result at once
        return info

    async def abandon(
        self, game: GameRef, user_id: str, is_moderator: bool = False
    ) -> AbandonResult:
        """End a game without a result: every seated player must ask (Dispatch's seats
        agree unless the game counts for ratings: ``turn.dispatch_agrees``), or one
        moderator.

        Works on a game whose saved state is damaged, so a channel is never stuck.
        """
        user_id = validate.user_id(user_id)
        is_moderator = validate.flag(is_moderator, "is_moderator")
        game_id = await self.game_id(game)
        async with self.game_locks[game_id], self.store.transaction(game=game_id) as db:
            result = await endings.abandon(db, game_id, user_id, is_moderator)
        await self.deliver_due(game_id)
        if result.abandoned:
            await self.leagues.after_game(game_id)
            await self.listening.owed(result.game)  # an open page shows the end at once
        return result

    # -- queries ------------------------------------------------------------------

    async def game_in_channel(self, channel_id: str) -> GameInfo | None:
        """The channel's game being set up or played, if any."""
        channel_id = validate.channel_id(channel_id)
        async with self.store.read() as db:
            row = await db.lobby.live_game_in_channel(channel_id)
            return game_info(row, await db.seats(row.id)) if row else None

    async def game_in_reach(self, game: int, user_id: str, guild_id: str | None) -> GameInfo:
        """Game number ``game`` as sent by ``user_id`` from server ``guild_id`` (None: a
        DM) reaches it: a game of that server, or in a DM one the asker plays; any other
        number is refused in the words of an unknown one (``bot.tables.reach``)."""
        return await reach.game_in_reach(self.store, game, user_id, guild_id)
