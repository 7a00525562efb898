"""The ways out of a game that the rules do not decide: a resignation, a game ended by
decree (a loss on time, a claimed win: ``timeouts``, ``claims``), and a game abandoned by
agreement or by a moderator.

Each is written in the caller's transaction, with the outbox rows that tell the players,
told exactly as an end by the rules is (``bot.tables.turn``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import rules
from bot import errors
from bot.delivery import notices
from bot.delivery.notices import public_log, result_line, role_name
from bot.delivery.outbox import message_payload, post_payload
from bot.delivery.port import TablePost, View
from bot.storage.rows import GameRow, SeatRow
from bot.storage.session import Session
from bot.tables.bot_users import is_bot
from bot.tables.clocks import clock_pass
from bot.tables.leagues import play as league_play
from bot.tables.loading import find_row, info_in, rules_or_none, state_of
from bot.tables.records import estimates, ratings
from bot.tables.results import AbandonResult
from rules.core.types import RESIGNED


async def resign(db: Session, game_id: int, user_id: str, role: str | None) -> str:
    """Concede for ``user_id`` (with two sides the other one wins); return the role."""
    row = await find_row(db, game_id, live=False)
    if row.status != "active":
        raise errors.GameNotActive(row.status)
    seats = await db.seats(game_id)
    mine = [s.role for s in seats if s.user_id == user_id]
    if not mine:
        raise errors.NotSeated()
    if role is None:
        if len(mine) > 1:
            raise errors.ChooseRole(mine)
        role = mine[0]
    elif role not in mine:
        raise errors.SeatNotHeld(role)
    rules_game = rules_or_none(row.game_name)
    roles = tuple(rules_game.roles) if rules_game else tuple(s.role for s in seats)
    others = [r for r in roles if r != role]
    winner = others[0] if len(others) == 1 else None
    reason = f"{role_name(rules_game, role)} resigned"
    outcome: dict[str, Any] = {"winner": winner, "code": RESIGNED, "reason": reason}
    await end_by_decree(db, row, seats, rules_game, outcome)
    return role


async def end_by_decree(
    db: Session,
    row: GameRow,
    seats: Sequence[SeatRow],
    rules_game: rules.Game | None,
    outcome: dict[str, Any],
    *,
    loser: str | None = None,
) -> None:
    """End a game the rules did not end (a resignation, a loss on time): record the
    result, stop timers and clocks, and queue the end post (with its rematch offer and
    ratings) and each player's closing DM, exactly as an end by the rules is told."""
    outcome = {"score": {}, **outcome}
    roles = tuple(rules_game.roles) if rules_game else tuple(s.role for s in seats)
    public: View | None = None
    lines: tuple[str, ...] = ()
    if rules_game is not None:
        try:
            # Viewed as the rules would leave a game they ended, so the end post and its
            # board say the result, not whom the game was waiting for.
            public = rules_game.view({**state_of(row), "outcome": dict(outcome)}, None)
            lines = tuple(public_log(public)[row.posted_log :])
        except Exception:  # a damaged record can still be ended: no board then
            public = None
    await db.set_status(row.id, "finished")
    await db.records.record_result(
        row.id, outcome["winner"], outcome["reason"], {}, outcome["code"]
    )
    await league_play.game_ended(db, row.id, roles, outcome["winner"], outcome["code"])
    await db.timers.delete_timers(row.id)
    await clock_pass.stop_all(db, row.id, loser=loser)
    post = TablePost(
        kind="end",
        version=row.version,
        headline=result_line(rules_game, outcome),
        view=public,
        log_lines=lines,
        mention_user_ids=tuple(dict.fromkeys(s.user_id for s in seats)),
        outcome=outcome,
    )
    post = await ratings.rated_post(db, row, seats, roles, post)
    post = await estimates.with_turning_point(db, row.id, seats, post)
    await db.outbox.queue(row.id, "table", None, post_payload(post))
    for seat in seats:
        if not seat.dm_failed:
            end = notices.end_message(
                rules_game, seat.role, version=row.version, view={"outcome": outcome}
            )
            await db.outbox.queue(row.id, "private", seat.role, message_payload(end))


#: How long Dispatch may owe a move before its game counts as stuck on its side: far
#: beyond any search's safety cap, so only a move that keeps failing gets there.
STUCK_S = 600.0


async def abandon(db: Session, game_id: int, user_id: str, is_moderator: bool) -> AbandonResult:
    """Ask to end a game without a result; it ends when every seat asked, or a moderator.
    Dispatch's seats count as asking (the bot never would) whenever the game would not be
    rated if it ended now, or is stuck on Dispatch's side (``dispatch_agrees``), so a
    player alone with the bot ends such a game by asking. A rated game against Dispatch
    is not ended so: abandoning it would be a way out of a game going badly.

    Works on a game whose saved state is damaged, so a channel is never stuck.
    """
    row = await find_row(db, game_id, live=False)
    if row.status not in ("active", "lobby"):
        raise errors.GameNotActive(row.status)
    seats = await db.seats(game_id)
    mine = [s.role for s in seats if s.user_id == user_id]
    if not mine and not is_moderator:
        raise errors.NotSeated()
    playing_dispatch = any(is_bot(s.user_id) for s in seats)
    if playing_dispatch and not is_moderator and not await dispatch_agrees(db, row, seats):
        raise errors.NotAllowed(
            "Dispatch plays on: this game counts for ratings, so it is not ended by "
            "agreement. /game resign ends it as a loss; a moderator can still abandon it."
        )
    for role in mine:
        await db.set_abandon_requested(game_id, role)
    asked = {s.role for s in seats if s.abandon_requested or is_bot(s.user_id)} | set(mine)
    waiting = tuple(dict.fromkeys(s.user_id for s in seats if s.role not in asked))
    done = is_moderator or not waiting
    if done:
        await db.set_status(game_id, "abandoned")
        # A league game abandoned (by agreement or by a moderator) is a draw in its league.
        await league_play.game_ended(db, game_id, (), None, "abandoned")
        await db.timers.delete_timers(game_id)
        await clock_pass.stop_all(db, game_id)
        headline = (
            "A moderator abandoned this game."
            if is_moderator and waiting
            else "The game was abandoned by agreement."
        )
        post = TablePost(kind="notice", version=row.version, headline=headline)
    else:
        post = TablePost(
            kind="notice",
            version=row.version,
            headline="A player asks to abandon this game; use /game abandon to agree.",
            mention_user_ids=waiting,
        )
    await db.outbox.queue(game_id, "table", None, post_payload(post))
    info = await info_in(db, game_id)
    return AbandonResult(info, done, () if done else waiting)


async def dispatch_agrees(db: Session, row: GameRow, seats: Sequence[SeatRow]) -> bool:
    """Whether Dispatch's seats agree to end ``row``'s game without a result: unless it
    would be rated if it ended now (``ratings.unrated_reason``), and always when it is
    stuck on Dispatch's side (flagged damaged, or a move of Dispatch's owed for over
    :data:`STUCK_S`), so that a player alone with the bot never needs a moderator."""
    if row.damaged is not None:
        return True
    if any(
        j.status == "pending" and db.now - j.created_at > STUCK_S
        for j in await db.bot_jobs.of_game(row.id)
    ):
        return True
    game = rules_or_none(row.game_name)
    roles = game.roles if game is not None else tuple(s.role for s in seats)
    decisions, hints = await db.records.decisions_by_role(row.id), await db.hints.hints_used(row.id)
    unrated_league = await db.leagues.in_unrated_league(row.id)
    reason = ratings.unrated_reason(
        row, seats, roles, decisions, hints, unrated_league=unrated_league
    )
    return reason is not None
