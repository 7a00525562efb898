"""A league's deadlines, passed by the background loop.

- **Entry deadline**: a league still taking entries starts by itself with two entrants
  or more, and is cancelled with fewer.
- **Round deadline**: every game of the round still running ends as a loss on time of
  the side whose clock shows less time left (the side to move when equal or clockless),
  recorded in the league as a forfeit; the round then advances as after any result.
Each league or game is handled in its own transaction, the game's lock before the
league's, and checked again under them, so a pass in two processes ends nothing twice."""

from __future__ import annotations

import logging
from typing import Any

import rules
from bot.delivery.notices import role_name
from bot.storage.errors import StoreError
from bot.storage.rows import GameRow
from bot.storage.session import Session
from bot.storage.store import Store
from bot.tables.endings import end_by_decree
from bot.tables.leagues import play, posts
from rules.core.types import TIMEOUT

log = logging.getLogger("dispatch.leagues")


async def pass_entry_deadlines(store: Store) -> int:
    """Start or cancel each league whose entries closed; how many."""
    async with store.read() as db:
        due = await db.leagues.entry_closed(db.now)
    done = 0
    for league_id in due:
        async with store.transaction() as db:
            league = await db.leagues.lock_league(league_id)
            if league is None or league.status != "entry" or league.entry_deadline > db.now:
                continue
            playing = [e for e in await db.leagues.entrants(league_id) if e.status == "in"]
            if len(playing) >= 2:
                await play.start(db, league, play.DISPATCH)
            else:
                await db.leagues.set_status(league_id, "cancelled")
                await db.leagues.audit(league_id, play.DISPATCH, "cancelled", "too few entrants")
                await posts.notice(
                    db, league_id, f"{league.name} was cancelled: too few players entered."
                )
            done += 1
    return done


async def pass_round_deadlines(store: Store) -> list[int]:
    """End each game still running in a round past its deadline; the games ended."""
    async with store.read() as db:
        due = await db.leagues.rounds_past_deadline(db.now)
        running = [
            g.game_id
            for league_id, number in due
            for g in await db.leagues.games_of_round(league_id, number)
            if g.outcome is None and g.game_id is not None
        ]
    ended: list[int] = []
    for game_id in running:
        try:
            async with store.transaction(game=game_id) as db:
                if await _end_on_time(db, game_id):
                    ended.append(game_id)
        except StoreError:
            raise
        except Exception:
            log.exception("game=%d the league's round deadline could not end it", game_id)
    return ended


async def _end_on_time(db: Session, game_id: int) -> int:
    game = await db.leagues.game_of(game_id)
    row = await db.game(game_id)
    if game is None or game.outcome is not None or row is None or row.status != "active":
        return 0
    rounds = {r.number: r for r in await db.leagues.rounds(game.league_id)}
    if rounds[game.round].deadline_at > db.now:
        return 0
    seats = await db.seats(game_id)
    rules_game = rules.GAMES.get(row.game_name)
    roles = tuple(rules_game.roles) if rules_game else tuple(s.role for s in seats)
    loser = await _behind(db, row, roles)
    winner = next(r for r in roles if r != loser)
    outcome: dict[str, Any] = {
        "winner": winner,
        "code": TIMEOUT,
        "reason": f"{role_name(rules_game, loser)} ran out of time at the round's deadline",
    }
    await end_by_decree(db, row, seats, rules_game, outcome, loser=loser)
    return 1


async def _behind(db: Session, row: GameRow, roles: tuple[str, ...]) -> str:
    """The side whose clock shows less time left; the side to move when equal or
    clockless (the first side when both or neither are to move)."""
    left = {c.role: c.left(db.now) for c in await db.clocks.clock_rows(row.id)}
    if len(left) == len(roles) and len(set(left.values())) > 1:
        return min(roles, key=lambda r: left[r])
    moving = [r for r in roles if r in row.active_roles]
    return moving[0] if len(moving) == 1 else roles[0]
