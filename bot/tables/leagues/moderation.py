"""A league's acts past its start: a player withdrawn (who left, or was disqualified), a
player replaced, a result decided by a moderator, the league cancelled. Each runs in the
caller's transaction, which took the locks of the games it ends or hands over first, then
the league's (``play``: a game's lock before the league's, never the other way).

- **Withdrawn** (left or disqualified): their games of the round still without a result
  are forfeited (a running game ends as their resignation, recorded in the league as a
  forfeit), and they are never paired again.
- **Replaced**: the new player takes the entrant's place, score, rating at entry and
  remaining games; each running game's seat is handed over (``seat_changes``).
- **Decided**: a game without a result is given one by a moderator (logged with who and
  why); a running game then ends with that result.
- **Cancelled**: the league stops; its running games are left to be played as games.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import rules
from bot import errors
from bot.delivery.notices import role_name
from bot.storage.league_rows import LeagueGameRow, LeagueRow
from bot.storage.rows import GameRow
from bot.storage.session import Session
from bot.tables.bot_users import is_bot
from bot.tables.endings import end_by_decree
from bot.tables.leagues import play, posts
from bot.tables.leagues.entrants import Outcome
from bot.tables.leagues.posts import who
from bot.tables.seat_changes import changes
from rules.core.types import RESIGNED

OVER = ("finished", "cancelled")


async def games_to_lock(db: Session, league_id: int, player: str | None = None) -> list[int]:
    """The running games of the league (of ``player`` only, when named), whose locks a
    moderator's act takes before the league's."""
    return sorted(
        g.game_id
        for g in await db.leagues.games(league_id)
        if g.game_id is not None
        and g.outcome is None
        and (player is None or player in (g.first, g.second))
    )


async def withdraw(
    db: Session, league: LeagueRow, player: str, status: str, by: str, reason: str
) -> None:
    """``player`` leaves (``status`` "withdrawn") or is disqualified ("disqualified")."""
    if league.status in OVER:
        raise errors.LeagueRefused(f"{league.name} is over: nothing changes now.")
    await db.leagues.set_entrant_status(league.id, player, status)
    what = "left" if status == "withdrawn" else "disqualified"
    await db.leagues.audit(league.id, by, what, f"{player}: {reason}" if reason else player)
    word = "withdrew from" if status == "withdrawn" else "was disqualified from"
    await posts.notice(
        db, league.id, f"{who(player)} {word} {league.name}.", (reason,) if reason else ()
    )
    for game in await db.leagues.games_of_round(league.id, league.round_number):
        if game.outcome is None and player in (game.first, game.second):
            await _forfeit(db, league, game, player, word)


async def _forfeit(
    db: Session, league: LeagueRow, game: LeagueGameRow, player: str, word: str
) -> None:
    first = player == game.first
    if game.game_id is None:  # not opened yet: never will be
        outcome = Outcome.FIRST_FORFEITS if first else Outcome.SECOND_FORFEITS
        await play.record(db, league, game, outcome, None)
        return
    row = await _running(db, game.game_id)
    if row is None:
        return
    seats = await db.seats(row.id)
    rules_game = rules.GAMES.get(row.game_name)
    roles = tuple(rules_game.roles) if rules_game else tuple(s.role for s in seats)
    ending: dict[str, Any] = {
        "winner": roles[1] if first else roles[0],
        "code": RESIGNED,
        # The side, not the player's mention: a game's result is kept and exported as
        # text, where a mention is markup, and every other ending names the side.
        "reason": f"{role_name(rules_game, roles[0] if first else roles[1])} {word} the league",
    }
    # Recorded in the league by the game-end hook as a forfeit (the player is not "in").
    await end_by_decree(db, row, seats, rules_game, ending)


async def replace(
    db: Session, league: LeagueRow, players: tuple[str, str], by: str, hours: float
) -> list[int]:
    """``players``: (old, new). Return the running games whose seat changed hands."""
    old, new = players
    if league.status in OVER:
        raise errors.LeagueRefused(f"{league.name} is over: nothing changes now.")
    entrants = {e.player: e.status for e in await db.leagues.entrants(league.id)}
    if entrants.get(old) != "in":
        raise errors.LeagueRefused(f"{who(old)} is not playing in {league.name}.")
    if new in entrants:
        raise errors.LeagueRefused(f"{who(new)} is already entered in {league.name}.")
    if is_bot(new) and not league.dispatch_may_enter:
        raise errors.LeagueRefused(f"Dispatch's levels may not enter {league.name}.")
    running = await games_to_lock(db, league.id, old)
    await db.leagues.rename_player(league.id, old, new)
    for game_id in running:
        await _hand_seat(db, game_id, (old, new, by), hours)
    await db.leagues.audit(league.id, by, "replaced", f"{old} by {new}")
    await posts.notice(
        db, league.id, f"{who(new)} takes the place of {who(old)} in {league.name}.", (), (new,)
    )
    return running


async def _hand_seat(db: Session, game_id: int, users: tuple[str, str, str], hours: float) -> None:
    old, new, _by = users
    await db.lock_game(game_id)
    row, seats, rules_game = await changes.running(db, game_id)
    role = next(s.role for s in seats if s.user_id == old)
    changes.check_newcomer(row, seats, role, new)
    await changes.change_seat(db, row, rules_game, changes.Passing(role, users, "reseat"), hours)


async def decide(
    db: Session, league: LeagueRow, game: LeagueGameRow, outcome: Outcome, by: str, reason: str
) -> None:
    """A moderator's result for a game without one; a running game ends with it."""
    if league.status in OVER:  # e.g. a second click, after the first decided the final
        raise errors.LeagueRefused(f"{league.name} is over: nothing changes now.")
    if league.status != "running":
        raise errors.LeagueRefused(f"{league.name} is not running: there is nothing to decide.")
    if not await play.record(db, league, game, outcome, by):
        raise errors.LeagueRefused(
            f"Board {game.board} of round {game.round} already has a result. Nothing changed."
        )
    if reason:
        await db.leagues.audit(league.id, by, "reason", reason)
    await posts.notice(
        db,
        league.id,
        f"{league.name}: round {game.round}, board {game.board} decided by a moderator",
        (posts.result_words(game.first, game.second, outcome),),
    )
    if game.game_id is not None:
        await _end_decided(db, game.game_id, outcome, reason)


async def _running(db: Session, game_id: int) -> GameRow | None:
    """The game, if it still runs, under its lock, which the caller took already, before
    the league's (``LeagueDesk._games_then_league``; a game is opened under the league's
    lock, so none appears after the caller's look under it). Taking it again is free."""
    await db.lock_game(game_id)
    row = await db.game(game_id)
    return row if row is not None and row.status == "active" else None


async def _end_decided(db: Session, game_id: int, outcome: Outcome, reason: str) -> None:
    row = await _running(db, game_id)
    if row is None:
        return
    seats = await db.seats(game_id)
    rules_game = rules.GAMES.get(row.game_name)
    roles: Sequence[str] = tuple(rules_game.roles) if rules_game else tuple(s.role for s in seats)
    first_won = outcome in (Outcome.FIRST_WINS, Outcome.SECOND_FORFEITS)
    winner = None if outcome is Outcome.DRAW else roles[0] if first_won else roles[1]
    words = (
        f"A moderator decided this league game: {reason}"
        if reason
        else "A moderator decided this league game"
    )
    ending: dict[str, Any] = {"winner": winner, "code": "decided", "reason": words}
    await end_by_decree(db, row, seats, rules_game, ending)


async def cancel(db: Session, league: LeagueRow, by: str) -> None:
    if league.status in OVER:
        raise errors.LeagueRefused(f"{league.name} is already over.")
    await db.leagues.set_status(league.id, "cancelled")
    await db.leagues.audit(league.id, by, "cancelled")
    await posts.notice(db, league.id, f"{league.name} was cancelled by a moderator.")
