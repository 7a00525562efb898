"""A turn: a seat's decision applied through the rules and committed.

Each change is one transaction holding the new state, the action row and the outbox rows
that tell the players about it (``commit_turn``, at the end of this file; what they are
told is built in ``bot.delivery.notices``). The caller holds the game's lock and delivers
afterwards. The parts of a turn live beside it and are called by name: the checks before
anything is written (``turn_checks``), the rules applied with the forced choices
(``applying``), and in the commit the clock tick (``clock_pass``), the table post with
its rating and turning point (``turn_post``), the seats' notices and reminders
(``turn_notices``) and the moves Dispatch owes (``bot_jobs``). The ways out of a game
that the rules do not decide (resign, abandon) are ``endings``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Mapping, Sequence
from typing import Any

from bot import errors
from bot.storage.errors import (
    MOVE_BUSY,
    MOVE_NOT_MADE,
    OUTCOME_UNKNOWN,
    Busy,
    CommitUnknown,
    Unavailable,
)
from bot.storage.rows import ClockRow, GameRow
from bot.storage.session import Session
from bot.storage.store import Store
from bot.tables import applying, bot_jobs, clocks, notice_plan, turn_notices
from bot.tables.bot_users import is_bot
from bot.tables.clocks import clock_pass
from bot.tables.loading import game_info
from bot.tables.results import ActResult
from bot.tables.turn_checks import checked, in_time
from bot.tables.turn_post import TurnPost, post_if_passed
from bot.tables.turn_types import CheckedMove, Commit, Progress, Table
from rules.core.types import UNRECORDED

log = logging.getLogger("dispatch.manager")


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
            table, state, active_before, role = await checked(db, game_id, move)
            applied, after, told = await applying.applied(db, table, state, role, move)
            row = table.row
            clock_rows = await in_time(db, table, role)
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
        raise applying.RULES_FAILED from None


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


# -- the commit of a change ----------------------------------------------------------


async def commit_turn(db: Session, table: Table, state: dict[str, Any], how: Commit) -> Progress:
    """Save the new state and queue what the players must be told (same transaction).

    What they are told is planned by ``bot.tables.notice_plan`` from before and after;
    this reads what the plan needs and writes what it returns, one named step at a time."""
    row, seats, rules_game = table.row, table.seats, table.rules_game
    outcome = rules_game.outcome(state)
    change = _change(table, state, how, ended=outcome is not None)
    public = rules_game.view(state, None)
    step = str(public.get("step", ""))
    passed = notice_plan.turn_passed(change, row.posted_active, step, row.posted_step)
    routing = await turn_notices.routing(db, row, seats, change)
    ticked, away = await _tick_clocks(db, table, how, change)
    what = TurnPost(public, ticked, away, routing, step)
    posted = await post_if_passed(db, table, state, change, passed, what)
    planned = await turn_notices.tell_seats(db, table, state, change, routing)
    await turn_notices.set_timers(db, table, notice_plan.timers(change, seats, is_bot), how)
    clock_lines = clock_pass.lines_for(ticked, seats, db.now, away_until=away)
    await turn_notices.queue_turn_dms(db, row, planned.messages, clock_lines)
    progress = _progress(change, outcome, passed, planned, clock_lines)
    # Before the save: a game that ends deletes its jobs, and the job this turn settles
    # must go as done, the way every other move of Dispatch's leaves its job.
    await _owe_dispatch_moves(db, table, change)
    await _save(db, row, state, change, posted, progress)
    return progress


async def _tick_clocks(
    db: Session, table: Table, how: Commit, change: notice_plan.Change
) -> tuple[Sequence[ClockRow], dict[str, float]]:
    """The clocks move in the same transaction as the turn (``clock_pass``): the clocks
    after the tick, and the roles whose player is on vacation, with its end."""
    moved = clocks.Change(how.active_before, change.active_now, db.now, how.undo, change.ended)
    return await clock_pass.tick(
        db, table.row, table.seats, moved, start=how.start, known=how.clocks
    )


async def _owe_dispatch_moves(db: Session, table: Table, change: notice_plan.Change) -> None:
    """Dispatch's moves owed now, kept as jobs with the turn (``bot_jobs``)."""
    row = table.row
    await bot_jobs.owe_moves(
        db,
        row.id,
        row.version,
        table.seats,
        change.active_now,
        acting=change.acting_role,
        over=change.ended,
    )


def _change(table: Table, state: dict[str, Any], how: Commit, *, ended: bool) -> notice_plan.Change:
    """The change as ``notice_plan`` plans from it: who was to act and who is now."""
    rules_game = table.rules_game
    return notice_plan.Change(
        version=table.row.version,
        acting_role=how.acting_role,
        active_before=how.active_before,
        active_now=tuple(rules_game.active_roles(state)),
        ended=ended,
        start=how.start,
        one_seat=rules_game.one_seat,
    )


def _progress(
    change: notice_plan.Change,
    outcome: Mapping[str, Any] | None,
    passed: bool,
    planned: notice_plan.SeatNotices,
    clock_lines: Sequence[str],
) -> Progress:
    """What the change did for whoever made it: the acting player's new prompt carries
    the clocks, as their DM does."""
    progress = Progress(
        active_now=change.active_now,
        outcome=outcome,
        turn_passed=passed,
        acting_view=planned.acting_view,
        acting_private_lines=planned.acting_lines,
    )
    if clock_lines and progress.acting_view is not None:  # the acting player's new prompt
        progress.acting_view = {**progress.acting_view, "clocks": clock_lines}
    return progress


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
