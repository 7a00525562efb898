"""The leagues desk (``manager.leagues``): leagues and tournaments of a server, from
creation to the final standings (docs/leagues.md, "The desk and the store").

Every method that names a league takes the server the command was typed in and refuses
another server's league as an unknown one. A moderator's act takes ``may_run``: the
caller decided that the user may run leagues here (Manage Server, or the league role).
A change is one transaction that takes the league's lock first; the games of a round
paired by it are opened after the commit (``open_pending``), then the league's posts
delivered."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence

from bot import errors
from bot.storage.league_rows import LeagueRow
from bot.storage.session import Session
from bot.tables import validate
from bot.tables.bot_users import bot_user
from bot.tables.core import Core
from bot.tables.leagues import deadlines, entry, moderation, opening, play, reading, table
from bot.tables.leagues import export as exporting
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

#: The longest reason a moderator gives for a decision or a disqualification.
REASON_MAX = 300


class _OpenedSince(Exception):
    """A game of the league opened between the look and the locks (``_games_then_league``)."""

    def __init__(self, games: list[int]) -> None:
        super().__init__(games)
        self.games = games


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
        await self._after()
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
        by, player = validate.user_id(by), _dispatch_player(level)
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
        await self._withdraw(league_id, guild, user_id, ("withdrawn", user_id, ""))
        return await self.info(league_id, guild)

    async def withdraw_dispatch(
        self, league_id: int, guild_id: str, level: str, by: str, *, may_run: bool
    ) -> LeagueInfo:
        """A moderator takes Dispatch's ``level`` out (entered by mistake, say): before
        the start off the list, after it withdrawn as a player who leaves. A level has no
        account to leave with, nor a member to name in a replacement or disqualification."""
        league_id, guild = _league_id(league_id), _guild(guild_id)
        by, player = validate.user_id(by), _dispatch_player(level)
        entry.require_may_run(validate.flag(may_run, "may_run"), "withdraw Dispatch")
        await self._withdraw(league_id, guild, player, ("withdrawn", by, "by a moderator"))
        return await self.info(league_id, guild)

    async def _withdraw(
        self, league_id: int, guild: str, player: str, how: tuple[str, str, str]
    ) -> None:
        """``how``: (status, by, reason)."""
        status, by, reason = how
        async with self._core.store.read() as db:
            await reading.league_here(db, league_id, guild)

        async def theirs(db: Session) -> list[int]:
            return await moderation.games_to_lock(db, league_id, player)

        async with self._games_then_league(league_id, theirs) as (db, league, running):
            if await entry.entrant_status(db, league, player, by) != "in":
                out = entry.subject(player, by)
                raise errors.LeagueRefused(f"{out} already out of {league.name}.")
            if league.status == "entry" and status == "withdrawn":
                await entry.leave_before_start(db, league, player, by)
            else:
                await moderation.withdraw(db, league, player, status, by, reason)
        log.info("league=%d %s %s", league_id, player, status)
        await self._after(running)

    async def start(self, league_id: int, guild_id: str, by: str, *, may_run: bool) -> RoundInfo:
        """Close the entries and pair round 1 (two entrants at least)."""
        league_id, guild, by = _league_id(league_id), _guild(guild_id), validate.user_id(by)
        entry.require_may_run(validate.flag(may_run, "may_run"), "start a league")
        async with self._core.store.transaction() as db:
            await reading.league_here(db, league_id, guild)
            league = await self._lock(db, league_id)
            if league.status != "entry":
                running = league.status == "running"
                state = "has already started" if running else entry.past_entry(league)
                raise errors.LeagueRefused(f"{league.name} {state}.")
            playing = [e for e in await db.leagues.entrants(league_id) if e.status == "in"]
            if len(playing) < 2:
                raise errors.LeagueRefused(f"{league.name} needs two players to start.")
            await play.start(db, league, by)
        log.info("league=%d started by %s", league_id, by)
        await self._after()
        return await self.round(league_id, guild)

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
        """The table as it stands: points, then the tiebreaks (docs/leagues.md)."""
        league_id, guild = _league_id(league_id), _guild(guild_id)
        async with self._core.store.read() as db:
            return await table.ranked(db, await reading.league_here(db, league_id, guild))

    async def round(self, league_id: int, guild_id: str, number: int | None = None) -> RoundInfo:
        """Round ``number``, or the round being played (the last one, once over)."""
        league_id, guild = _league_id(league_id), _guild(guild_id)
        if number is not None and (isinstance(number, bool) or not isinstance(number, int)):
            raise errors.BadNumber("A round is named by its number, e.g. 2.")
        async with self._core.store.read() as db:
            league = await reading.league_here(db, league_id, guild)
            rounds = {r.number: r for r in await db.leagues.rounds(league_id)}
            wanted = league.round_number if number is None else number
            if not rounds:
                raise errors.LeagueRefused(f"{league.name} has not started: no round yet.")
            if wanted not in rounds:
                raise errors.LeagueRefused(f"{league.name} has no round {wanted}.")
            games = await db.leagues.games_of_round(league_id, wanted)
            byes = await db.leagues.byes(league_id)
        return reading.round_info(rounds[wanted], games, byes)

    async def games(
        self, league_id: int, guild_id: str, player: str | None = None
    ) -> tuple[LeagueGameInfo, ...]:
        """Every game of the league (``player``'s only, when named), round by round."""
        league_id, guild = _league_id(league_id), _guild(guild_id)
        player = validate.optional_user_id(player)
        async with self._core.store.read() as db:
            await reading.league_here(db, league_id, guild)
            rows = await db.leagues.games(league_id)
        return tuple(
            reading.game_info(g) for g in rows if player is None or player in (g.first, g.second)
        )

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
        """``new_player`` takes ``player``'s place, score and remaining games (their
        running games' seats handed over)."""
        league_id, guild = _league_id(league_id), _guild(guild_id)
        old, new = validate.user_id(player), validate.user_id(new_player, "new player")
        by = validate.user_id(by)
        entry.require_may_run(validate.flag(may_run, "may_run"), "replace a player")
        async with self._core.store.read() as db:
            await reading.league_here(db, league_id, guild)
        hours = self._core.default_reminder_hours

        async def theirs(db: Session) -> list[int]:
            return await moderation.games_to_lock(db, league_id, old)

        async with self._games_then_league(league_id, theirs) as (db, league, _running):
            handed = await moderation.replace(db, league, (old, new), by, hours)
        log.info("league=%d %s replaced by %s", league_id, old, new)
        await self._after(handed)
        return await self.info(league_id, guild)

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
        """A moderator sets the result of a game without one (logged, with the reason);
        a running game ends with it."""
        league_id, guild, by = _league_id(league_id), _guild(guild_id), validate.user_id(by)
        if not isinstance(outcome, Outcome):
            raise errors.UnknownWord("A result is first wins, second wins, a draw or a forfeit.")
        reason = _reason(reason)
        entry.require_may_run(validate.flag(may_run, "may_run"), "decide a result")
        async with self._core.store.read() as db:
            await reading.league_here(db, league_id, guild)
            found = await db.leagues.board(league_id, _number(round), _number(board))
        if found is None:
            raise errors.LeagueRefused(
                f"League #{league_id} has no board {board} in round {round}."
            )

        async def its_game(db: Session) -> list[int]:
            now = await db.leagues.board(league_id, found.round, found.board)
            return [now.game_id] if now is not None and now.game_id is not None else []

        async with self._games_then_league(league_id, its_game) as (db, league, running):
            game = await db.leagues.board(league_id, found.round, found.board)
            assert game is not None
            await moderation.decide(db, league, game, outcome, by, reason)
            decided = await db.leagues.board(league_id, found.round, found.board)
        assert decided is not None
        log.info("league=%d round %d board %d decided by %s", league_id, game.round, game.board, by)
        await self._after(running)
        return reading.game_info(decided)

    async def disqualify(
        self, league_id: int, guild_id: str, player: str, by: str, reason: str, *, may_run: bool
    ) -> LeagueInfo:
        """``player`` is out: their running games forfeited, never paired again."""
        league_id, guild = _league_id(league_id), _guild(guild_id)
        player, by, reason = validate.user_id(player), validate.user_id(by), _reason(reason)
        entry.require_may_run(validate.flag(may_run, "may_run"), "disqualify a player")
        await self._withdraw(league_id, guild, player, ("disqualified", by, reason))
        return await self.info(league_id, guild)

    async def cancel(self, league_id: int, guild_id: str, by: str, *, may_run: bool) -> LeagueInfo:
        """The league stops; its running games are left to be played as games."""
        league_id, guild, by = _league_id(league_id), _guild(guild_id), validate.user_id(by)
        entry.require_may_run(validate.flag(may_run, "may_run"), "cancel a league")
        async with self._core.store.transaction() as db:
            await reading.league_here(db, league_id, guild)
            await moderation.cancel(db, await self._lock(db, league_id), by)
        log.info("league=%d cancelled by %s", league_id, by)
        await self._after()
        return await self.info(league_id, guild)

    async def export(self, league_id: int, guild_id: str) -> LeagueExport:
        """The league as JSON and CSV, with its audit list (docs/leagues.md)."""
        league_id, guild = _league_id(league_id), _guild(guild_id)
        async with self._core.store.read() as db:
            return await exporting.export(db, await reading.league_here(db, league_id, guild))

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

    async def set_league_role(
        self, guild_id: str, role_id: str | None, *, by: str, may_run: bool
    ) -> None:
        """The role whose members may run leagues here; each league it now runs has
        who set it in its audit list."""
        guild, by = _guild(guild_id), validate.user_id(by)
        role = None if role_id is None else validate.channel_id(role_id)
        entry.require_may_run(validate.flag(may_run, "may_run"), "set the league role")
        async with self._core.store.transaction() as db:
            await db.leagues.set_league_role(guild, role)
            for row in await db.leagues.leagues_of_guild(guild, LIST_SIZE):
                if row.status in ("entry", "running"):  # each league it now runs
                    await db.leagues.audit(row.id, by, "role set", role or "none")

    # -- background --------------------------------------------------------------------

    async def open_pending(self) -> int:
        """Open every paired game not yet opened, then deliver the league posts; how
        many games were opened. Safe in any process, any number of times."""
        opened = 0
        while True:
            more = await opening.open_games(self._core, self._room)
            opened += more
            if more < opening.BATCH:
                break
        await opening.deliver_posts(self._core, self._room)
        return opened

    async def after_game(self, game_id: int) -> None:
        """Game ``game_id`` ended: if it was a league's, open the games its result paired
        and say the league's posts (the background pass would, a few seconds later)."""
        async with self._core.store.read() as db:
            found = await db.leagues.game_of(game_id)
        if found is not None:
            await self.open_pending()

    async def pass_deadlines(self) -> int:
        """Entry deadlines (start or cancel) and round deadlines (the clock decides);
        how many leagues and games were moved on."""
        store = self._core.store
        moved = await deadlines.pass_entry_deadlines(store)
        ended = await deadlines.pass_round_deadlines(store)
        if moved or ended:
            await self._core.deliver_due()
            await self.open_pending()
        for game_id in ended:  # an open page shows the end at once
            await self._core.listening.owed(await self._core.get_game_info(game_id))
        return moved + len(ended)

    # -- shared ------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def _games_then_league(
        self, league_id: int, to_lock: Callable[[Session], Awaitable[list[int]]]
    ) -> AsyncIterator[tuple[Session, LeagueRow, list[int]]]:
        """A transaction holding the locks of the games ``to_lock`` names, then the
        league's: the order a game's end takes them in (its game's, then its league's),
        so that the two never wait for each other. The games are looked up before the
        locks, and again once the league's is held: a game is linked to its league under
        the league's lock (``opening``), so the second look sees every game opened
        before it and none can be opened until this transaction ends. A game opened
        between the looks would be locked after the league's, so the transaction is then
        rolled back and begun again with it locked first. A league only ever gains
        games, so this ends: once more per game opened meanwhile."""
        async with self._core.store.read() as db:
            games = await to_lock(db)
        while True:
            try:
                async with self._core.store.transaction() as db:
                    for game_id in sorted(games):
                        await db.lock_game(game_id)
                    league = await self._lock(db, league_id)
                    since = [g for g in await to_lock(db) if g not in games]
                    if since:
                        raise _OpenedSince(since)
                    yield db, league, games
                    return
            except _OpenedSince as opened:
                games = sorted({*games, *opened.games})

    @staticmethod
    async def _lock(db: Session, league_id: int) -> LeagueRow:
        league = await db.leagues.lock_league(league_id)
        if league is None:
            raise errors.UnknownLeague(league_id)
        return league

    async def _after(self, games: Sequence[int] = ()) -> None:
        """After a commit: the games it changed told, the new round's games opened and
        the league's posts said."""
        for game_id in games:
            await self._core.deliver_due(game_id)
            await self._core.listening.owed(await self._core.get_game_info(game_id))
        await self.open_pending()


def _dispatch_player(level: object) -> str:
    """The player one of Dispatch's levels is in a league (``bot_user``, which refuses
    a word that is no level)."""
    if not isinstance(level, str):
        raise errors.UnknownWord("Name Dispatch's level: easy, normal or hard.")
    return bot_user(level)


def _reason(value: object) -> str:
    if not isinstance(value, str) or len(value) > REASON_MAX:
        raise errors.BadInput(f"A reason is a line of at most {REASON_MAX} characters.")
    return " ".join(value.split())


def _number(value: object) -> int:
    """A round's or a board's number; one past what the store holds is kept out of it
    (no such round or board: the caller's look-up finds none)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise errors.BadNumber("Rounds and boards are numbered from 1.")
    return min(value, validate.MAX_INT)


def _guild(guild_id: object) -> str:
    guild = validate.guild_id(guild_id)
    if guild is None:
        raise errors.ServerOnly("Leagues belong to a server: use this command in one.")
    return guild


def _league_id(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise errors.BadNumber("A league is named by its number, e.g. 3.")
    if value > validate.MAX_INT:  # past what the store holds (a forged Join button)
        raise errors.UnknownLeague(value)
    return value
