"""A turn: a seat's decision applied through the rules and committed, and the two ways out
of a game that the rules do not decide (resign, abandon).

Each change is one transaction holding the new state, the action row and the outbox rows
that tell the players about it (``commit_turn``, at the end of this file; what they are
told is built in ``bot.delivery.notices``). The caller holds the game's lock and delivers
afterwards.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
from collections.abc import Mapping, Sequence
from typing import Any

import rules
from bot import errors
from bot.delivery import notices
from bot.delivery.notices import public_log, result_line, role_name
from bot.delivery.outbox import message_payload, post_payload
from bot.delivery.port import PrivateMessage, TablePost, View
from bot.storage.errors import (
    MOVE_BUSY,
    MOVE_NOT_MADE,
    OUTCOME_UNKNOWN,
    Busy,
    CommitUnknown,
    Damaged,
    Unavailable,
)
from bot.storage.rows import ClockRow, GameRow, SeatRow, dumps
from bot.storage.session import Session
from bot.storage.store import Store
from bot.tables import bot_jobs, clocks, forced, notice_plan
from bot.tables.bot_users import is_bot
from bot.tables.clocks import clock_pass, clock_rules
from bot.tables.loading import (
    describe,
    find_row,
    game_info,
    info_in,
    rules_of,
    rules_or_none,
    safe_view,
    state_of,
)
from bot.tables.prompts import fresh
from bot.tables.records import estimates, ratings
from bot.tables.results import AbandonResult, ActResult
from rules.core.types import RESIGNED, UNRECORDED

log = logging.getLogger("dispatch.manager")

#: The rules engine raised on a legal-looking action: a bug, reported, with nothing saved.
RULES_FAILED = errors.IllegalMove(
    "That action could not be applied because of an error in the game rules; nothing "
    "changed. Please report it."
)


@dataclasses.dataclass(frozen=True)
class CheckedMove:
    """One decision as a player sent it, its values already checked."""

    user_id: str
    verb: str
    arg: Any = None
    #: The game version the button was drawn at (None: a typed command, never stale).
    expected_version: int | None = None
    #: Which of the user's seats acts (hot-seat games); None: the only or active one.
    role: str | None = None
    #: Further args of the same verb chosen in the same interaction (a multi-choice
    #: select): applied after ``arg``, in order, all or nothing.
    more: tuple[Any, ...] = ()


#: The most ``done``s sent for a player after one decision (a bound; one is the rule).
MAX_IMPLIED_DONE = 4


def implied_done(rules_game: rules.Game, state: dict[str, Any], role: str) -> int:
    """Send ``done`` for ``role`` while the rules say it is a formality (nothing left to
    choose: "place up to 0 tokens more"); each is recorded as its own action, so the game
    replays exactly. Returns how many were sent."""
    sent = 0
    while sent < MAX_IMPLIED_DONE and role in rules_game.active_roles(state):
        if not rules_game.done_implied(state, role):
            break
        rules_game.act(state, role, "done")
        sent += 1
    return sent


async def _in_time(db: Session, table: Table, role: str) -> list[ClockRow] | None:
    """After the deadline a decision is refused and nothing is written,
    unless the server lets the opponent claim the win: then the win is offered now.
    Returns the clocks as read, for the turn to move on (None: changed since)."""
    rows = await db.clocks.clock_rows(table.row.id)
    if clock_pass.ran_out_of(rows, db.now, role):
        if not await clock_rules.claimed_here(db, table.row):
            raise errors.TimeRanOut()
        await clock_rules.flag(db, table.row, table.seats, role)
        return None
    return rows


async def act(store: Store, game_id: int, move: CheckedMove, *, reminder_hours: float) -> ActResult:
    """Apply one decision; nothing changes unless it is legal and fresh. The database out
    of reach is said as such: the move was not made (or, when its COMMIT lost the
    connection and no read can tell yet, that nobody knows)."""
    try:
        return await _commit(store, game_id, move, reminder_hours)
    except CommitUnknown:
        raise
    except Busy:
        raise Busy(MOVE_BUSY) from None
    except Unavailable:
        raise Unavailable(MOVE_NOT_MADE) from None


async def _commit(
    store: Store, game_id: int, move: CheckedMove, reminder_hours: float
) -> ActResult:
    """The move's one transaction, from the first read to the commit, under the game's
    lock (every process on a shared PostgreSQL database), so what is read is what the
    decision applies to: a click another process applied first finds the new version and
    is refused as stale. The rules run inside it; they are synchronous, so on SQLite
    nothing else could have used the connection meanwhile either. On PostgreSQL the
    transaction is batched (``bot.storage.batch``): its writes go with the COMMIT.

    When the connection dies during COMMIT the move may be saved or not: its own key
    (the game and the version it made) says which before the player is answered."""
    try:
        async with store.transaction(game=game_id, batched=True) as db:
            table, state, active_before, role = await _checked(db, game_id, move)
            applied, after, told = await _applied(db, table, state, role, move)
            row = table.row
            clock_rows = await _in_time(db, table, role)
            for seq, (each_verb, each_arg) in enumerate(applied, start=row.version + 1):
                await db.append_action(game_id, seq, role, move.user_id, each_verb, each_arg)
            version = row.version + len(applied)
            table = dataclasses.replace(table, row=dataclasses.replace(row, version=version))
            how = Commit(
                role, active_before, reminder_hours, undo=move.verb == "undo", clocks=clock_rows
            )
            progress = await _turn(db, table, after, how, move.verb)
    except CommitUnknown:
        # Raised only by the COMMIT itself: everything above was bound by then.
        if not await was_made(store, game_id, row.version + 1, role, move):
            raise Unavailable(MOVE_NOT_MADE) from None
        log.info("game=%d the connection died during COMMIT; the move was saved", game_id)
    return _result(table, role, progress, told)


async def _applied(
    db: Session, table: Table, state: dict[str, Any], role: str, move: CheckedMove
) -> tuple[list[tuple[str, Any]], dict[str, Any], list[str]]:
    """:func:`_apply`, with the forced choices after the move taken for a person who did
    not turn that off (``bot.tables.forced``); never for Dispatch's own seats, and never
    after an undo (the choice taken back would be taken again at once). The player's
    setting is read only when a forced choice was there to take: most moves leave none,
    and a turn's round trips on PostgreSQL are few."""
    if move.verb == "undo" or is_bot(move.user_id):
        return _apply(table, state, role, move, take_forced=False)
    applied, after, told = _apply(table, state, role, move, take_forced=True)
    if told and await db.settings.forced_setting(move.user_id) != forced.DEFAULT_FORCED:
        # The rules may have changed ``state`` in place: applied again on a fresh parse.
        return _apply(table, state_of(table.row), role, move, take_forced=False)
    return applied, after, told


async def _turn(
    db: Session, table: Table, after: dict[str, Any], how: Commit, verb: str
) -> Progress:
    """``commit_turn``, with a failure of the rules' views reported as the rules' bug."""
    try:
        return await commit_turn(db, table, after, how)
    except (errors.DispatchError, OSError):  # the store's own errors among them
        raise
    except Exception as exc:
        log.error(
            "game=%d views failed after %s; rolled back\n%s",
            table.row.id,
            verb,
            errors.withheld(exc),
        )
        raise RULES_FAILED from None


#: How long to wait before each read-back of a move whose COMMIT lost its connection:
#: a server restarting takes a few seconds to answer again.
READ_BACK_DELAYS_S = (0.0, 1.0, 3.0)


async def was_made(store: Store, game_id: int, seq: int, role: str, move: CheckedMove) -> bool:
    """Whether the action row ``seq`` of the game is this move's (saved before the
    connection died), read back by that key; ``CommitUnknown`` when the database stays
    out of reach, so the player is told the truth: nobody knows yet."""
    for delay in READ_BACK_DELAYS_S:
        if delay:
            await asyncio.sleep(delay)
        try:
            async with store.read() as db:
                found = await db.action_at(game_id, seq)
        except Unavailable:
            continue
        return (
            found is not None
            and (found.role, found.user_id, found.verb) == (role, move.user_id, move.verb)
            and found.arg == move.arg
        )
    raise CommitUnknown(OUTCOME_UNKNOWN)


async def _checked(
    db: Session, game_id: int, move: CheckedMove
) -> tuple[Table, dict[str, Any], tuple[str, ...], str]:
    """The game, its state, who was to act and the acting role, once the move is known to
    come from a seat whose turn it is, on a prompt that is still fresh."""
    row = await find_row(db, game_id, live=False)
    seats = await db.seats(game_id)
    if row.status != "active":
        # The loser's click after the game was lost on time: told why.
        await clock_pass.refuse_if_lost_on_time(db, game_id, seats, move.user_id)
        raise errors.GameNotActive(row.status)
    rules_game = rules_of(row)
    state = state_of(row)
    try:
        active_before = tuple(rules_game.active_roles(state))
    except Exception as exc:
        raise Damaged(row.id, describe(exc)) from None
    role = acting_role(active_before, seats, move.user_id, move.role)
    seat = next(s for s in seats if s.role == role)
    if move.expected_version is not None and not fresh(move.expected_version, seat, row.version):
        prompt = str(safe_view(row, role).get("prompt", ""))
        raise errors.StalePrompt(row.version, prompt)
    if role not in active_before:
        waiting = [s.user_id for s in seats if s.role in active_before]
        raise errors.NotYourTurn(waiting)
    return Table(row, seats, rules_game), state, active_before, role


def _apply(
    table: Table, state: dict[str, Any], role: str, move: CheckedMove, *, take_forced: bool
) -> tuple[list[tuple[str, Any]], dict[str, Any], list[str]]:
    """The actions the move makes (the implied ``done``s too, and with ``take_forced``
    the forced choices after it, ``bot.tables.forced``), the state after them and the
    player's lines on what was taken for them; raises ``IllegalMove`` with nothing
    applied when any of them is refused."""
    row, rules_game, verb = table.row, table.rules_game, move.verb
    applied: list[tuple[str, Any]] = []
    try:
        # act may mutate what it is given; `state` is our own parsed copy and is
        # dropped if any action fails, so nothing leaks into the next attempt: a batch
        # is applied whole or not at all.
        after = state
        for part in (move.arg, *move.more):
            if applied and role not in rules_game.active_roles(after):
                raise rules.NotAllowedNow("your part of this decision ended before the last one")
            after = rules_game.act(after, role, verb, part)
            applied.append((verb, part))
        told: list[str] = []
        if verb != "undo":
            applied += [("done", None)] * implied_done(rules_game, after, role)
        if take_forced:
            after, taken, told = forced.take_forced(rules_game, after, role)
            if taken:
                applied += taken
                applied += [("done", None)] * implied_done(rules_game, after, role)
        encoded = dumps(after)
    except rules.IllegalAction as exc:
        # Neither the argument nor the engine's sentence (which lists the player's
        # choices, their hand among them): the server log is no place for hidden cards.
        log.debug("game=%d %s %s refused: %s", row.id, move.user_id, verb, type(exc).__name__)
        if move.more:
            raise errors.IllegalMove(
                f"Those {len(move.more) + 1} choices cannot all be made ({exc}); nothing changed."
            ) from None
        raise errors.IllegalMove(str(exc)) from None
    except Exception as exc:
        # A record the rules cannot read is the game's damage, not this player's move.
        safe_view(row, role)
        log.error(
            "game=%d rules engine failed on %s at v%d\n%s",
            row.id,
            verb,
            row.version,
            errors.withheld(exc),
        )
        raise RULES_FAILED from None
    return applied, json.loads(encoded), told


def _result(table: Table, role: str, progress: Progress, told: Sequence[str] = ()) -> ActResult:
    """The acting player's reply, from what the transaction wrote (not read back)."""
    row = table.row
    saved = dataclasses.replace(
        row,
        status="finished" if progress.outcome is not None else row.status,
        active_roles=progress.active_now,
        turn_started_at=progress.turn_started_at,
    )
    return ActResult(
        game=game_info(saved, table.seats),
        role=role,
        version=row.version,
        view=progress.acting_view or {},
        turn_passed=progress.turn_passed,
        active_roles=progress.active_now,
        outcome=dict(progress.outcome) if progress.outcome is not None else None,
        private_log_lines=(*progress.acting_private_lines, *told),
    )


def acting_role(
    active_roles: Sequence[str], seats: Sequence[SeatRow], user_id: str, role: str | None
) -> str:
    """Which of the user's seats acts: the one named, their only one, or their active one."""
    mine = [s.role for s in seats if s.user_id == user_id]
    if not mine:
        raise errors.NotSeated()
    if role is not None:
        if role not in mine:
            raise errors.NotAllowed(f"You do not hold the {role} seat in this game.")
        return role
    if len(mine) == 1:
        return mine[0]
    active = [r for r in mine if r in active_roles]
    if len(active) == 1:
        return active[0]
    raise errors.ChooseRole(active or mine)


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
        raise errors.NotAllowed(f"You do not hold the {role} seat in this game.")
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
    return ratings.unrated_reason(row, seats, roles, decisions, hints) is not None


# -- the commit of a change ----------------------------------------------------------


@dataclasses.dataclass
class Progress:
    """What a change did, for the ``ActResult`` of whoever made it."""

    active_now: tuple[str, ...]
    outcome: Mapping[str, Any] | None
    turn_passed: bool
    acting_view: View | None = None
    acting_private_lines: tuple[str, ...] = ()
    turn_started_at: float | None = None


@dataclasses.dataclass(frozen=True)
class Table:
    """The game a commit changes, as read in its transaction."""

    row: GameRow
    seats: Sequence[SeatRow]
    rules_game: rules.Game


@dataclasses.dataclass(frozen=True)
class Commit:
    """How the state came to change: who acted, who was to act before, and the channel's
    reminder default."""

    acting_role: str | None
    active_before: tuple[str, ...]
    default_reminder_hours: float
    start: bool = False
    undo: bool = False
    #: The game's clocks as the turn read them (None: to be read).
    clocks: Sequence[ClockRow] | None = None


async def commit_turn(db: Session, table: Table, state: dict[str, Any], how: Commit) -> Progress:
    """Save the new state and queue what the players must be told (same transaction).

    What they are told is planned by ``bot.tables.notice_plan`` from before and after;
    this reads what the plan needs and writes what it returns."""
    row, seats, rules_game = table.row, table.seats, table.rules_game
    outcome = rules_game.outcome(state)
    change = notice_plan.Change(
        version=row.version,
        acting_role=how.acting_role,
        active_before=how.active_before,
        active_now=tuple(rules_game.active_roles(state)),
        ended=outcome is not None,
        start=how.start,
        one_seat=rules_game.one_seat,
    )
    public = rules_game.view(state, None)
    step = str(public.get("step", ""))
    passed = notice_plan.turn_passed(change, row.posted_active, step, row.posted_step)
    routing = await _routing(db, row, seats, change)
    # The clocks move in the same transaction as the turn (``clock_pass``).
    moved = clocks.Change(how.active_before, change.active_now, db.now, how.undo, change.ended)
    ticked, away = await clock_pass.tick(db, row, seats, moved, start=how.start, known=how.clocks)
    public_lines = public_log(public)
    posted = min(row.posted_log, len(public_lines))
    if passed:
        await _post_turn(db, table, state, change, _TurnPost(public, ticked, away, routing, step))
        posted = len(public_lines)
    views = {seat.role: rules_game.view(state, seat.role) for seat in seats}
    planned = notice_plan.seat_notices(
        change,
        seats,
        views,
        routing,
        lambda role, view: notices.end_message(rules_game, role, version=row.version, view=view),
    )
    for update in planned.updates:
        await db.update_seat(
            row.id, update.role, private_seen=update.private_seen, prompt=update.prompt
        )
    for ending in planned.endings:
        await db.outbox.queue(row.id, "private", ending.role, message_payload(ending))
    await _set_timers(db, table, notice_plan.timers(change, seats, is_bot), how)
    clock_lines = clock_pass.lines_for(ticked, seats, db.now, away_until=away)
    await _queue_turn_dms(db, row, planned.messages, clock_lines)
    progress = Progress(
        active_now=change.active_now,
        outcome=outcome,
        turn_passed=passed,
        acting_view=planned.acting_view,
        acting_private_lines=planned.acting_lines,
    )
    if clock_lines and progress.acting_view is not None:  # the acting player's new prompt
        progress.acting_view = {**progress.acting_view, "clocks": clock_lines}
    await _save(db, row, state, change, posted, progress)
    # Dispatch's moves owed now, kept as jobs with the turn.
    await bot_jobs.owe_moves(
        db,
        row.id,
        row.version,
        seats,
        change.active_now,
        acting=change.acting_role,
        over=outcome is not None,
    )
    return progress


async def _routing(
    db: Session, row: GameRow, seats: Sequence[SeatRow], change: notice_plan.Change
) -> notice_plan.Routing:
    """Read the choices of whoever is handed the turn, and route by them."""
    handed_to = change.handed_to()
    user_of = {s.role: s.user_id for s in seats}
    prefs = (
        await db.settings.notify_prefs(user_of[r] for r in handed_to if r in user_of)
        if handed_to
        else {}
    )
    parked = bool(handed_to) and await db.outbox.table_parked(row.id)
    return notice_plan.route(change, seats, prefs, table_parked=parked)


@dataclasses.dataclass(frozen=True)
class _TurnPost:
    public: View
    ticked: Sequence[ClockRow]
    away: dict[str, float]  # the roles whose player is on vacation, with its end
    routing: notice_plan.Routing
    step: str


async def _post_turn(
    db: Session, table: Table, state: dict[str, Any], change: notice_plan.Change, what: _TurnPost
) -> None:
    """Queue the table post of a turn that passed (a solo session's shows its own seat's
    view: its prompt is posted at the table)."""
    row, seats, rules_game = table.row, table.seats, table.rules_game
    band = clock_pass.band(
        what.ticked, rules_game, db.now, what.away
    )  # the board's headline shows it
    public = what.public
    if change.one_seat:
        public = rules_game.view(state, rules_game.roles[0])
    elif band:
        public = {**public, "clock_band": band}
    public_lines = public_log(what.public)
    news = notices.TurnNews(
        row.version,
        public,
        tuple(public_lines[min(row.posted_log, len(public_lines)) :]),
        change.active_now,
        mention=what.routing.mention,
        start=change.start,
        acting=change.acting_role,
    )
    post = notices.turn_post(rules_game, row.game_name, news)
    post = await ratings.rated_post(db, row, seats, rules_game.roles, post)
    post = await estimates.with_turning_point(db, row.id, seats, post)
    await db.outbox.queue(row.id, "table", None, post_payload(post))
    await db.set_posted_turn(row.id, change.active_now, what.step)


async def _set_timers(db: Session, table: Table, plan: notice_plan.TimerPlan, how: Commit) -> None:
    row = table.row
    if plan.clear_all:
        await db.timers.delete_timers(row.id)
        return
    for role in plan.clear:
        await db.timers.delete_timers(row.id, role)
    if not plan.start:
        return
    hours = await db.settings.reminder_hours(row.channel_id, how.default_reminder_hours)
    seconds = hours * 3600
    user_of = {s.role: s.user_id for s in table.seats}
    for role in plan.start:
        await db.timers.set_timer(
            row.id, "reminder", role, user_of.get(role), db.now + seconds, seconds
        )


async def _save(
    db: Session,
    row: GameRow,
    state: dict[str, Any],
    change: notice_plan.Change,
    posted: int,
    progress: Progress,
) -> None:
    """Write the new state, and the result of a game that ended."""
    moved = set(change.active_now) != set(change.active_before)
    turn_started = db.now if moved else row.turn_started_at
    progress.turn_started_at = turn_started
    await db.save_play(
        row.id,
        state=state,
        version=row.version,
        active_roles=change.active_now,
        posted_log=posted,
        turn_started_at=turn_started,
    )
    outcome = progress.outcome
    if outcome is not None:
        await db.set_status(row.id, "finished")
        await db.records.record_result(
            row.id,
            outcome.get("winner"),
            str(outcome.get("reason", "")),
            dict(outcome.get("score") or {}),
            str(outcome.get("code") or UNRECORDED),
        )


async def _queue_turn_dms(
    db: Session, row: GameRow, messages: Sequence[PrivateMessage], clock_lines: Sequence[str]
) -> None:
    """Queue the seats' DMs of a change; a "your turn" prompt carries the clocks (as
    Discord timestamps: ``clock_pass.lines_for``) when the game has them."""
    for message in messages:
        if message.kind == "turn" and clock_lines:
            message = dataclasses.replace(
                message, view={**message.view, "clocks": list(clock_lines)}
            )
        await db.outbox.queue(row.id, "private", message.role, message_payload(message))
