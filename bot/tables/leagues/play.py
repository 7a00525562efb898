"""What happens inside a league's transaction: a result recorded, a round closed, the
next round paired and written (or the league finished), exactly once.

Every function here runs in the caller's transaction after it took the league's lock
(``db.leagues.lock_league``: an UPDATE of the league's row, a row lock on PostgreSQL and
the write lock on SQLite). A result is recorded only on a game without one (a conditional
UPDATE), and a round is closed only while it is open (another), so whichever transaction
records a round's last result closes it and pairs the next, and no other can.

Lock order: a transaction that ends a game takes the game's lock, then the league's; no
transaction holding a league's lock then takes a game's it did not take first.

``game_ended`` is the game-end hook: every way a game ends with a result
(``bot.tables.turn_post`` for an end by the rules, ``bot.tables.endings`` for a
resignation, a loss on time, a claim, an abandon) calls it in its own transaction."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from bot.storage.league_rows import LeagueGameRow, LeagueRow
from bot.storage.session import Session
from bot.tables.leagues import pairing, posts
from bot.tables.leagues.entrants import Outcome, Pairing
from bot.tables.leagues.entry import DAY_S
from rules.core.types import TIMEOUT

#: Who the audit list names for what the league did by itself (a result, a round).
DISPATCH = "dispatch"


async def game_ended(
    db: Session, game_id: int, roles: Sequence[str], winner: str | None, code: str
) -> None:
    """Game ``game_id`` ended (``winner``: a role, or None for a draw or an abandon): if
    it is a league's, record its result and advance the round when it was the last."""
    found = await db.leagues.game_of(game_id)
    if found is None:
        return
    league = await db.leagues.lock_league(found.league_id)
    game = await db.leagues.game_of(game_id)  # again, under the lock: the latest
    if league is None or game is None or game.outcome is not None or league.status != "running":
        return
    status = {e.player: e.status for e in await db.leagues.entrants(league.id)}
    outcome = outcome_of(game, roles, winner, code, status)
    await record(db, league, game, outcome, None)


def outcome_of(
    game: LeagueGameRow, roles: Sequence[str], winner: str | None, code: str, status: dict[str, str]
) -> Outcome:
    """A game's end in the league's words: a loss on time, or a loss of a player no
    longer in (withdrawn, disqualified), is a forfeit; no winner is a draw."""
    if winner is None or winner not in roles[:2]:
        return Outcome.DRAW
    first_won = winner == roles[0]
    loser = game.second if first_won else game.first
    if code == TIMEOUT or status.get(loser, "in") != "in":
        return Outcome.SECOND_FORFEITS if first_won else Outcome.FIRST_FORFEITS
    return Outcome.FIRST_WINS if first_won else Outcome.SECOND_WINS


async def record(
    db: Session, league: LeagueRow, game: LeagueGameRow, outcome: Outcome, by: str | None
) -> bool:
    """Record ``game``'s result (``by``: the moderator who decided it) and advance the
    league; False when the game had a result already (nothing changes)."""
    if not await db.leagues.set_outcome(game.id, outcome.value, by):
        return False
    what = "decided" if by is not None else "result recorded"
    detail = f"round {game.round} board {game.board}: {outcome.value}"
    await db.leagues.audit(league.id, by or DISPATCH, what, detail)
    await advance(db, league)
    return True


async def advance(db: Session, league: LeagueRow) -> None:
    """Close the league's round if every game of it has a result and pair the next (or
    finish the league); again while a round paired has nothing left to play."""
    number = league.round_number
    while number:
        games = await db.leagues.games_of_round(league.id, number)
        if any(g.outcome is None for g in games):
            return
        if not await db.leagues.close_round(league.id, number):
            return  # closed already: it advanced once, elsewhere
        await db.leagues.audit(league.id, DISPATCH, "round done", f"round {number}")
        number = await pair(db, league, number + 1)


async def pair(db: Session, league: LeagueRow, number: int) -> int:
    """Pair and write round ``number`` (its games to be opened after the commit, its
    forfeits recorded at once, its post queued); return it, or 0 when the league ended."""
    entrants, games, byes = await db.leagues.standings_rows(league.id)
    paired = pairing.next_round(league, entrants, games, byes, number)
    if paired is None or not (paired.pairings or paired.byes):
        await finish(db, league)
        return 0
    status = {e.player: e.status for e in entrants}
    await db.leagues.add_round(league.id, number, db.now + league.round_days * DAY_S)
    await db.leagues.set_round_number(league.id, number)
    for board, game in enumerate(paired.pairings, 1):
        await db.leagues.add_game(league.id, number, board, game.players())
        await _forfeit_at_once(db, league.id, number, board, game, status)
    for player in paired.byes:
        if status.get(player) == "in":
            await db.leagues.add_bye(league.id, number, player)
    await db.leagues.audit(
        league.id, DISPATCH, "round paired", f"round {number}: {len(paired.pairings)} games"
    )
    await posts.queue(db, league.id, "round", round=number)
    return number


async def _forfeit_at_once(
    db: Session, league_id: int, number: int, board: int, game: Pairing, status: dict[str, str]
) -> None:
    forfeit = pairing.forfeit_of(game, status)
    if forfeit is None:
        return
    row = await db.leagues.board(league_id, number, board)
    assert row is not None
    await db.leagues.set_outcome(row.id, forfeit.value, None)


async def finish(db: Session, league: LeagueRow) -> None:
    await db.leagues.set_status(league.id, "finished")
    await db.leagues.audit(league.id, DISPATCH, "finished")
    await posts.queue(db, league.id, "final")


async def start(db: Session, league: LeagueRow, by: str) -> int:
    """Close the entries and pair round 1 (the caller checked there are two entrants);
    an elimination's places become its seeds. Return the round being played (0: over)."""
    for entrant in await db.leagues.entrants(league.id):
        if entrant.status != "in":  # disqualified before the start: out of the list
            await db.leagues.remove_entrant(league.id, entrant.player)
    if league.format == "elimination":
        seeds = pairing.seed_places(await db.leagues.entrants(league.id))
        for place, player in enumerate(seeds, 1):
            await db.leagues.set_place(league.id, player, place)
    await db.leagues.set_status(league.id, "running")
    await db.leagues.audit(league.id, by, "started")
    number = await pair(db, league, 1)
    if number:
        await advance(db, dataclasses.replace(league, status="running", round_number=number))
    return number
