"""The clocks desk (``manager.clocks``): a game's clocks for players to read, a server's
default clock and clock rules, vacations, the claim of a win on time, and the background
passes that end games lost on time and warn players running short.

What a turn does to the clocks runs inside the turn's own transaction
(``clock_pass``, called by the turn's commit), not here."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import rules
from bot import errors
from bot.delivery.port import GameInfo
from bot.tables import validate
from bot.tables.clocks import Control, claims, clock_pass, clock_rules, parse, timeouts, vacations
from bot.tables.core import Core
from bot.tables.loading import GameRef, find_row, info_in

log = logging.getLogger("dispatch.manager")


class ClockDesk:
    """Clocks, vacations and claims on time, for every game of the core's store."""

    def __init__(
        self, core: Core, game_ended: Callable[[int], Awaitable[None]] | None = None
    ) -> None:
        self._core = core
        #: Called after a claim ends a game: a league's game may pair its next round,
        #: whose games then open at once rather than at the next background pass.
        self._game_ended = game_ended

    async def lines(self, game: GameRef, *, plain: bool = False) -> list[str]:
        """The game's clocks for players to read (running ones as ``<t:...:R>``, or with
        ``plain`` as time left, for the terminal); none when it has no clock or is not
        being played."""
        game = validate.game_ref(game)
        async with self._core.store.read() as db:
            row = await find_row(db, game, live=False)
            if row.status != "active":
                return []
            rows, seats = await db.clocks.clock_rows(row.id), await db.seats(row.id)
            away = await clock_pass.away(db, row, seats) if rows else {}
        now = self._core.clock()
        return clock_pass.lines_for(rows, seats, now, plain=bool(plain), away_until=away)

    async def for_new_game(self, guild_id: str | None, game_name: str) -> Control | None:
        """The server's default clock for a new game (none for a game played alone)."""
        game = rules.GAMES.get(game_name)
        if guild_id is None or game is None or game.one_seat:
            return None
        async with self._core.store.read() as db:
            stored = await db.settings.default_clock(guild_id)
        return parse(stored) if stored else None

    async def server_default(self, guild_id: str | None, clock: str | None = None) -> str:
        """A server's default clock for new games, as written (``none`` when unset); sets
        it when ``clock`` is given (the caller checked the asker may: a moderator).
        Practice games (a chosen seed) and games played alone never get it."""
        guild_id = validate.guild_id(guild_id)
        if guild_id is None:
            raise errors.ServerOnly("A default clock is a server setting: set it in a server.")
        if clock is None:
            async with self._core.store.read() as db:
                stored = await db.settings.default_clock(guild_id)
            control = parse(stored) if stored else None
        else:
            control = validate.clock(clock)
            async with self._core.store.write() as db:
                await db.settings.set_default_clock(
                    guild_id, control.written() if control else "none"
                )
        return control.written() if control else "none"

    async def rules(
        self, guild_id: str | None, on_time: str | None = None, vacation_days: int | None = None
    ) -> tuple[str, int]:
        """A server's (on_time, vacation_days); sets what is given (the caller checked the
        asker may: a moderator). ``on_time``: ``lose`` (the game ends at zero) or
        ``claim`` (the opponent may claim the win); ``vacation_days``: 0 to 90 a year."""
        guild_id = validate.guild_id(guild_id)
        if on_time is not None and on_time not in clock_rules.ON_TIME:
            raise errors.UnknownWord(
                "At zero a player can lose on time (lose) or be claimed (claim)."
            )
        if vacation_days is not None and (
            isinstance(vacation_days, bool)
            or not isinstance(vacation_days, int)
            or not 0 <= vacation_days <= clock_rules.MAX_VACATION_DAYS
        ):
            raise errors.BadNumber(
                "Vacation days are a whole number from 0 (none) to "
                f"{clock_rules.MAX_VACATION_DAYS}."
            )
        changing = on_time is not None or vacation_days is not None
        if guild_id is None:
            if changing:
                raise errors.ServerOnly("Clock rules are a server setting: set them in a server.")
            return "lose", clock_rules.DEFAULT_VACATION_DAYS
        async with self._core.store.transaction() as db:
            current = await clock_rules.server_rules(db, guild_id)
            if not changing:
                return current
            chosen = (on_time or current[0], current[1] if vacation_days is None else vacation_days)
            await db.clocks.set_clock_rules(guild_id, *chosen)
        return chosen

    # -- vacations and claims on time (``vacations``, ``claims``) ---------------------

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
            raise errors.BadNumber("A vacation is a whole number of days (0 ends yours).")
        async with self._core.store.transaction() as db:
            if days:
                news = await vacations.take(db, user_id, guild_id or "", days)
            else:
                news = await vacations.end(db, user_id, guild_id or "")
        for game_id in news.games:
            await self._core.deliver_due(game_id)
        return news

    async def vacation_left(self, guild_id: str | None, user_id: str) -> tuple[int, int]:
        """(vacation days ``user_id`` has left this rolling year, the server's yearly)."""
        guild_id, user_id = validate.guild_id(guild_id), validate.user_id(user_id)
        async with self._core.store.read() as db:
            return await vacations.allowance(db, user_id, guild_id or "")

    async def claim_win(self, game: GameRef, user_id: str) -> GameInfo:
        """Claim the win on time (``claims.claim``): the game ends, told like any end."""
        game, user_id = validate.game_ref(game), validate.user_id(user_id)
        game_id = await self._core.game_id(game)
        async with self._core.game_locks[game_id], self._core.store.transaction() as db:
            await claims.claim(db, game_id, user_id)
            info = await info_in(db, game_id)
        await self._core.deliver_due(game_id)
        if self._game_ended is not None:
            await self._game_ended(game_id)
        await self._core.listening.owed(info)  # an open page shows the end at once
        return info

    # -- the background passes --------------------------------------------------------

    async def expire(self) -> int:
        """End every game whose player ran out of time (``timeouts``), tell the players,
        and return how many ended."""
        core = self._core
        ended = await timeouts.expire_due(core.store, core.game_locks, core.clock())
        if ended:
            await core.deliver_due()
        for game_id in ended:  # an open page shows the end at once
            await core.listening.owed(await core.get_game_info(game_id))
        return len(ended)

    async def warn(self) -> int:
        """Warn the players with 24 h, then 2 h, left on their clock (``timeouts``)."""
        core = self._core
        warned = await timeouts.warn_due(core.store, core.game_locks, core.clock())
        if warned:
            await core.deliver_due()
        return warned

    async def tell_vacations_over(self) -> int:
        """Tell the tables of each player whose vacation ran to its end that they are
        back (``vacations.tell_ended``, once per vacation); how many tables were told."""
        async with self._core.store.transaction() as db:
            told = await vacations.tell_ended(db)
        for game_id in dict.fromkeys(told):
            await self._core.deliver_due(game_id)
        return len(told)
