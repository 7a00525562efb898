"""What a turn tells the seats, written in its transaction from the plan of
``bot.tables.notice_plan``: how the turn is routed (by the choices of whoever is handed
it), each seat's bookkeeping and closing DM, the reminder timers, and the seats' DMs,
a "your turn" prompt carrying the clocks."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from bot.delivery import notices
from bot.delivery.outbox import message_payload
from bot.delivery.port import PrivateMessage
from bot.storage.rows import GameRow, SeatRow
from bot.storage.session import Session
from bot.tables import notice_plan
from bot.tables.turn_types import Commit, Table


async def routing(
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


async def tell_seats(
    db: Session,
    table: Table,
    state: dict[str, Any],
    change: notice_plan.Change,
    routing: notice_plan.Routing,
) -> notice_plan.SeatNotices:
    """Plan what each seat is told of the change, write each seat's bookkeeping and queue
    the closing DMs of a game that ended; the turn's DMs are left to the caller, which
    adds the clocks to them."""
    row, seats, rules_game = table.row, table.seats, table.rules_game
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
    return planned


async def set_timers(db: Session, table: Table, plan: notice_plan.TimerPlan, how: Commit) -> None:
    """Clear the reminders the plan ends and start those it starts, each after the
    channel's reminder hours (``how.default_reminder_hours`` where it set none)."""
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


async def queue_turn_dms(
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
