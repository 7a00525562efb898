"""The leagues desk (``manager.leagues``): leagues and tournaments of a server, from
creation to the final standings (docs/leagues.md, "The desk and the store").

Every method that names a league takes the server the command was typed in and refuses
another server's league as an unknown one. A moderator's act takes ``may_run``: the
caller decided that the user may run leagues here (Manage Server, or the league role).
A change is one transaction that takes the league's lock first; the games of a round
paired by it are opened after the commit (``open_pending``), then the league's posts
delivered."""

from __future__ import annotations

import logging

from bot import errors
from bot.tables import validate
from bot.tables.bot_users import bot_user
from bot.tables.core import Core
from bot.tables.leagues import entry, reading
from bot.tables.leagues.entrants import Outcome
from bot.tables.leagues.port import LeagueRoom, LocalRoom
from bot.tables.leagues.records import (
    LeagueExport,
    LeagueGameInfo,
    LeagueInfo,
    LeagueSpec,
    RoundInfo,
)
from bot.tables.leagues.spec import checked
from bot.tables.leagues.standings import Standing

log = logging.getLogger("dispatch.leagues")

#: How many leagues a server's list shows (newest first).
LIST_SIZE = 25

NOT_YET = "This league act is not available yet."


class LeagueDesk:
    """A server's leagues in the core's store, their games opened in the attached room."""

    def __init__(self, core: Core) -> None:
        self._core = core
        self._room: LeagueRoom = LocalRoom()

    def attach_room(self, room: LeagueRoom) -> None:
        """Open the league games and say the league posts through ``room`` from now on."""
        self._room = room

    @property
    def room(self) -> LeagueRoom:
        return self._room

    # -- entry -------------------------------------------------------------------------

    async def create(
        self, guild_id: str, channel_id: str, by: str, spec: LeagueSpec, *, may_run: bool
    ) -> LeagueInfo:
        """A new league taking entries in ``channel_id`` until its entry deadline."""
        guild, channel = _guild(guild_id), validate.channel_id(channel_id)
        by, spec = validate.user_id(by), checked(spec)
        entry.require_may_run(validate.flag(may_run, "may_run"), "create a league")
        async with self._core.store.transaction() as db:
            league_id = await entry.create(db, (guild, channel), by, spec)
            info = await reading.info_of(db, await reading.league_here(db, league_id, guild))
        log.info("league=%d created by %s", league_id, by)
        return info

    async def join(self, league_id: int, guild_id: str, user_id: str) -> LeagueInfo:
        """``user_id`` enters the league before its start and its entry deadline."""
        league_id, guild = _league_id(league_id), _guild(guild_id)
        user_id = validate.user_id(user_id)
        return await self._enter(league_id, guild, user_id, user_id)

    async def enter_dispatch(
        self, league_id: int, guild_id: str, level: str, by: str, *, may_run: bool
    ) -> LeagueInfo:
        """A moderator enters Dispatch at ``level``, when the league lets its levels in."""
        league_id, guild = _league_id(league_id), _guild(guild_id)
        by = validate.user_id(by)
        if not isinstance(level, str):
            raise errors.UnknownWord("Name Dispatch's level: easy, normal or hard.")
        player = bot_user(level)
        entry.require_may_run(validate.flag(may_run, "may_run"), "enter Dispatch")
        return await self._enter(league_id, guild, player, by)

    async def _enter(self, league_id: int, guild: str, player: str, by: str) -> LeagueInfo:
        async with self._core.store.transaction() as db:
            await reading.league_here(db, league_id, guild)
            league = await db.leagues.lock_league(league_id)
            assert league is not None
            await entry.join(db, league, player, by)
            info = await reading.info_of(db, league)
        log.info("league=%d %s entered", league_id, player)
        return info

    async def leave(self, league_id: int, guild_id: str, user_id: str) -> LeagueInfo:
        """Before the start: out of the list. After: withdrawn, their running games
        forfeited, never paired again."""
        league_id, guild = _league_id(league_id), _guild(guild_id)
        user_id = validate.user_id(user_id)
        async with self._core.store.transaction() as db:
            await reading.league_here(db, league_id, guild)
            league = await db.leagues.lock_league(league_id)
            assert league is not None
            await entry.entrant_status(db, league, user_id)
            if league.status != "entry":
                raise errors.LeagueRefused(NOT_YET)
            await entry.leave_before_start(db, league, user_id)
            info = await reading.info_of(db, league)
        return info

    async def start(self, league_id: int, guild_id: str, by: str, *, may_run: bool) -> RoundInfo:
        """Close the entries and pair round 1 (two entrants at least)."""
        raise errors.LeagueRefused(NOT_YET)

    # -- reading -----------------------------------------------------------------------

    async def info(self, league_id: int, guild_id: str) -> LeagueInfo:
        league_id, guild = _league_id(league_id), _guild(guild_id)
        async with self._core.store.read() as db:
            return await reading.info_of(db, await reading.league_here(db, league_id, guild))

    async def leagues_here(self, guild_id: str) -> list[LeagueInfo]:
        """The server's leagues, newest first (lists and autocomplete)."""
        guild = _guild(guild_id)
        async with self._core.store.read() as db:
            rows = await db.leagues.leagues_of_guild(guild, LIST_SIZE)
            return [await reading.info_of(db, row) for row in rows]

    async def standings(self, league_id: int, guild_id: str) -> tuple[Standing, ...]:
        raise errors.LeagueRefused(NOT_YET)

    async def round(self, league_id: int, guild_id: str, number: int | None = None) -> RoundInfo:
        raise errors.LeagueRefused(NOT_YET)

    async def games(
        self, league_id: int, guild_id: str, player: str | None = None
    ) -> tuple[LeagueGameInfo, ...]:
        raise errors.LeagueRefused(NOT_YET)

    # -- a moderator's acts ------------------------------------------------------------

    async def replace(
        self,
        league_id: int,
        guild_id: str,
        player: str,
        new_player: str,
        by: str,
        *,
        may_run: bool,
    ) -> LeagueInfo:
        raise errors.LeagueRefused(NOT_YET)

    # The contract's signature: where, which game, what result, who and why.
    async def decide(  # noqa: PLR0913
        self,
        league_id: int,
        guild_id: str,
        round: int,
        board: int,
        outcome: Outcome,
        by: str,
        reason: str,
        *,
        may_run: bool,
    ) -> LeagueGameInfo:
        raise errors.LeagueRefused(NOT_YET)

    async def disqualify(
        self, league_id: int, guild_id: str, player: str, by: str, reason: str, *, may_run: bool
    ) -> LeagueInfo:
        raise errors.LeagueRefused(NOT_YET)

    async def cancel(self, league_id: int, guild_id: str, by: str, *, may_run: bool) -> LeagueInfo:
        raise errors.LeagueRefused(NOT_YET)

    async def export(self, league_id: int, guild_id: str) -> LeagueExport:
        raise errors.LeagueRefused(NOT_YET)

    # -- the front end's bookkeeping ---------------------------------------------------

    async def set_lobby_post(self, league_id: int, message_id: str) -> None:
        """Where the league's lobby post (its Join button) is."""
        league_id, message_id = _league_id(league_id), validate.channel_id(message_id)
        async with self._core.store.write() as db:
            await db.leagues.set_lobby_message(league_id, message_id)

    async def league_role(self, guild_id: str) -> str | None:
        """The role whose members may run leagues on the server, if one is set."""
        guild = _guild(guild_id)
        async with self._core.store.read() as db:
            return await db.leagues.league_role(guild)

    async def set_league_role(self, guild_id: str, role_id: str | None, *, may_run: bool) -> None:
        guild = _guild(guild_id)
        role = None if role_id is None else validate.channel_id(role_id)
        entry.require_may_run(validate.flag(may_run, "may_run"), "set the league role")
        async with self._core.store.transaction() as db:
            await db.leagues.set_league_role(guild, role)

    # -- background --------------------------------------------------------------------

    async def open_pending(self) -> int:
        """Open every paired game not yet opened, then deliver the league posts."""
        raise errors.LeagueRefused(NOT_YET)

    async def pass_deadlines(self) -> int:
        """Entry deadlines (start or cancel) and round deadlines (the clock decides)."""
        raise errors.LeagueRefused(NOT_YET)


def _guild(guild_id: object) -> str:
    guild = validate.guild_id(guild_id)
    if guild is None:
        raise errors.ServerOnly("Leagues belong to a server: use this command in one.")
    return guild


def _league_id(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise errors.BadNumber("A league is named by its number, e.g. 3.")
    return value
