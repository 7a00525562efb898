"""History and records: finished games a page at a time, a player's record,
and which finished game's export a user may have. No discord import: both front ends
(the Discord cogs and the sandbox) use it through the ``GameManager``.

A player's games include the seats they passed on (``seat_changes_by_passer``), and their
record counts a seat's result for its holder at the end and for each former holder, a
moderator's reseat as the former holder's loss on time (docs/ratings.md)."""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

import rules
from bot import errors
from bot.storage import finished_pages as sql
from bot.storage.rows import GameRow, SeatRow
from bot.storage.session import Session
from bot.storage.store import Store
from bot.tables import validate
from bot.tables.bot_users import is_bot, level_of
from bot.tables.loading import game_info
from bot.tables.records import ratings
from bot.tables.records.replay import played_or_here
from bot.tables.results import UserGame
from rules.ai import LEVELS
from rules.core.types import TIMEOUT

#: Games per page: ten rows of up to about 300 characters fit an embed's 4,096.
PAGE_SIZE = 10
#: The key of a first page: above every game number.
FIRST = 1 << 62
NOT_YOURS = (
    "Game #{n} was neither played by you nor on this server, so its record is not yours to export."
)


@dataclass(frozen=True)
class Page:
    #: "live" (games being played: ``UserGame``s), "mine" or "server" (finished games:
    #: ``FinishedGame``s).
    scope: str
    owner: str
    games: tuple[sql.FinishedGame | UserGame, ...]
    #: Keys for the buttons: show games newer than ``newer`` / older than ``older``
    #: (None: there are none that way).
    newer: int | None
    older: int | None

    def finished(self) -> list[sql.FinishedGame]:
        return [g for g in self.games if isinstance(g, sql.FinishedGame)]

    def live(self) -> list[UserGame]:
        return [g for g in self.games if isinstance(g, UserGame)]


def _number(item: sql.FinishedGame | UserGame) -> int:
    return item.game.id if isinstance(item, UserGame) else item.id


async def page(
    store: Store, scope: str, owner: str, *, older: bool = True, key: int = FIRST
) -> Page:
    """One page of a user's live or finished games, or a server's finished games (newest
    first), from the keyset ``key``: the games below it (``older``) or above it."""
    if scope not in sql.SCOPES:
        raise errors.UnknownWord(
            "Choose your games being played, your finished games or this server's."
        )
    owner = validate.user_id(owner, "player or server")
    if not 0 <= key <= FIRST:
        raise errors.Malformed("That page is not one Dispatch made; run /games again.")
    async with store.read() as db:
        games = await _load(db, scope, owner, older=older, key=key, limit=PAGE_SIZE + 1)
        more = len(games) > PAGE_SIZE
        games = games[:PAGE_SIZE] if older else games[-PAGE_SIZE:]
        if not games:
            return Page(scope, owner, (), None, None)
        newest, oldest = _number(games[0]), _number(games[-1])
        if older:
            beyond_older = more
            beyond_newer = key != FIRST and await _any(db, scope, owner, newest)
        else:
            beyond_newer = more
            beyond_older = await _any(db, scope, owner, oldest, older=True)
    return Page(
        scope,
        owner,
        tuple(games),
        newest if beyond_newer else None,
        oldest if beyond_older else None,
    )


async def _load(
    db: Session, scope: str, owner: str, *, older: bool, key: int, limit: int
) -> list[sql.FinishedGame | UserGame]:
    if scope != "live":
        return list(await sql.finished_games(db, scope, owner, older=older, key=key, limit=limit))
    found: list[sql.FinishedGame | UserGame] = []
    for game_id in await sql.live_game_ids(db, owner, older=older, key=key, limit=limit):
        row = await db.game(game_id)
        if row is not None:
            found.append(user_game(row, await db.seats(game_id), owner))
    found.sort(key=_number, reverse=True)
    return found


def user_game(row: GameRow, seats: list[SeatRow], user_id: str) -> UserGame:
    """One line of a player's list of games being played: whose turn, since when."""
    info = game_info(row, seats)
    roles = info.roles_of(user_id)
    return UserGame(
        game=info,
        roles=roles,
        my_turn=any(r in info.active_roles for r in roles),
        waiting_on=info.waiting_on,
        since=row.turn_started_at,
    )


async def _any(db: Session, scope: str, owner: str, key: int, *, older: bool = False) -> bool:
    return bool(await _load(db, scope, owner, older=older, key=key, limit=1))


#: Which count of a ``Tally`` a finished seat adds to.
Outcome = Literal["wins", "losses", "draws"]


@dataclass
class Tally:
    wins: int = 0
    losses: int = 0
    draws: int = 0

    def add(self, outcome: Outcome) -> None:
        if outcome == "wins":
            self.wins += 1
        elif outcome == "losses":
            self.losses += 1
        else:
            self.draws += 1

    def text(self) -> str:
        draws = f", {self.draws} drawn" if self.draws else ""
        return f"{self.wins} won, {self.losses} lost{draws}"


@dataclass
class Stats:
    user_id: str
    game_name: str | None
    games: int = 0
    by_side: dict[tuple[str, str], Tally] = field(default_factory=dict)
    on_time: Tally = field(default_factory=Tally)
    against_levels: dict[str, Tally] = field(default_factory=dict)
    #: Median seconds the player took over a turn (None: no turns recorded).
    median_turn_s: float | None = None
    turns: int = 0


def forfeited(row: sql.RecordRow, user_id: str) -> bool:
    """A seat a moderator reseated away from the player: their loss on time, whatever
    the side's result, as the ratings count it (docs/ratings.md)."""
    return ratings.forfeits(row.how, row.by_user, user_id)


def _outcome(row: sql.RecordRow, user_id: str) -> Outcome:
    if forfeited(row, user_id):
        return "losses"
    if row.winner is None:
        return "draws"
    return "wins" if row.winner == row.role else "losses"


async def stats(store: Store, user_id: str, game_name: str | None = None) -> Stats:
    """A player's record in finished games (hot-seat games left out), the seats they
    passed on among them: a seat given away keeps its side's result, one a moderator
    reseated away from them is their loss on time."""
    user_id = validate.user_id(user_id)
    game_name = None if game_name is None else validate.game_name(game_name)
    async with store.read() as db:
        rows = await sql.records(db, user_id, game_name)
        times = await sql.turn_times(db, user_id, game_name)
    # A solo session has no opponent: closing it is neither a win, a loss nor a draw.
    rows = [r for r in rows if not one_seat(r.game_name)]
    result = Stats(user_id, game_name, games=len(Counter(r.game_id for r in rows)))
    for row in rows:
        outcome = _outcome(row, user_id)
        result.by_side.setdefault((row.game_name, row.role), Tally()).add(outcome)
        if row.code == TIMEOUT or forfeited(row, user_id):
            result.on_time.add(outcome)
        for other in row.others:
            if is_bot(other):
                result.against_levels.setdefault(level_of(other), Tally()).add(outcome)
    result.against_levels = {
        level: result.against_levels[level] for level in LEVELS if level in result.against_levels
    }
    if times:
        result.median_turn_s = statistics.median(times)
        result.turns = len(times)
    return result


async def exportable(store: Store, game_id: int, user_id: str, guild_id: str | None) -> int:
    """The game number, if ``user_id`` may export that finished game: one they played, or
    one played on ``guild_id``. Any other number (unknown, live, a stranger's game of
    another server) is refused with the same words, so nothing is learnt from them."""
    user_id = validate.user_id(user_id)
    refused = errors.NotYours(NOT_YOURS.format(n=game_id))
    if not isinstance(game_id, int) or not 1 <= game_id <= validate.MAX_GAME_ID:
        raise refused
    async with store.read() as db:
        row = await db.game(game_id)
        seats = await db.seats(game_id) if row else []
        passed = bool(row) and await db.seat_changes.seat_passed(game_id, user_id) is not None
    if row is None or not played_or_here(row, seats, user_id, guild_id, passed=passed):
        raise refused
    if row.status in ("lobby", "active"):
        raise errors.WrongStage(
            f"Game #{row.id} is still being played: its export holds the key to every "
            "shuffle, so it is available once the game is over."
        )
    return row.id


def role_name(game_name: str, role: str) -> str:
    """A side's name as its game calls it (the id, titled, for a game no longer known)."""
    try:
        return rules.get_game(game_name).role_name(role)
    except Exception:
        return role.title()


def game_title(game_name: str) -> str:
    try:
        return rules.get_game(game_name).title or game_name
    except Exception:
        return game_name


def one_seat(game_name: str) -> bool:
    """A game played alone (the CDG Solo System): it ends without a winner or a loser."""
    found = rules.GAMES.get(game_name)
    return bool(found is not None and found.one_seat)


def result_for(
    game: sql.FinishedGame, user_id: str | None, name: Callable[[str], str] = str
) -> str:
    """ "won", "lost", "drawn" for a player of the game; for one who passed their seat on,
    their result and how the seat left them (``name`` writes its new holder from a user
    id): the side's result for a seat given away, a loss on time for one a moderator
    reseated (docs/ratings.md); "ended" for a solo session (no opponent: not a draw);
    else who won."""
    if one_seat(game.game_name):
        return "ended"
    if game.passed is not None and user_id is not None:
        role, to_user, at = game.passed
        side = role_name(game.game_name, role)
        how, by = game.passed_how
        if ratings.forfeits(how, by, user_id):
            return f"lost on time: {side} reseated to {name(to_user)} at move {at}"
        return f"{_side_result(game.winner, [role])}, passed {side} to {name(to_user)} at move {at}"
    mine = [role for role, user in game.seats if user == user_id]
    if game.winner is None:
        return "drawn"
    if mine and len(mine) < len(game.seats):
        return _side_result(game.winner, mine)
    return f"{role_name(game.game_name, game.winner)} won"


def _side_result(winner: str | None, roles: list[str]) -> str:
    if winner is None:
        return "drawn"
    return "won" if winner in roles else "lost"


def duration(seconds: float) -> str:
    """A span in its largest sensible unit: "40 s", "12 min", "3.5 h", "2.1 days"."""
    if seconds < 60:
        return f"{seconds:.0f} s"
    if seconds < 3600:
        return f"{seconds / 60:.0f} min"
    if seconds < 86400:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.1f} days"
