"""Reminders: a nudge to whoever has kept a game waiting, spaced out further each time.

The timers live in the store (``commit_turn`` sets and clears them as turns pass), so
they survive a restart. Firing one queues outbox rows; the caller delivers them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict

from bot.delivery.courier import mark_damaged
from bot.delivery.outbox import message_payload, post_payload
from bot.delivery.port import PrivateMessage, TablePost
from bot.delivery.reading import GameReader
from bot.delivery.routes import notify_routes
from bot.storage.rows import TimerRow
from bot.storage.session import Session
from bot.storage.store import LEASE_S, Store

log = logging.getLogger("dispatch.manager")

DEFAULT_REMINDER_HOURS = 24.0
REMINDER_GROWTH = 2.0


async def queue_due_reminders(
    store: Store,
    game_locks: defaultdict[int, asyncio.Lock],
    reader: GameReader,
    *,
    now: float,
    growth: float,
) -> int:
    """Queue a reminder for every timer due at ``now``; return how many fired.

    A reminder reaches the waiting seat where they chose (``/game settings notify``,
    as their turns do: ``bot.delivery.routes.notify_routes``): by DM, with a ping at the
    table, or both; the table post names them either way. The next one comes ``growth``
    times later than this one did.
    Each timer is handled on its own: a game whose record cannot be read is marked
    damaged and loses its timers, and the reminders of every other game still go out.
    """
    async with store.transaction() as db:  # claimed: no other process fires them too
        due = await db.timers.claim_due_timers(now, store.instance, LEASE_S)
    fired = 0
    for timer in due:
        try:
            async with game_locks[timer.game_id], store.transaction(game=timer.game_id) as db:
                fired += await _fire(db, timer, growth, reader)
                await db.timers.release_timer(timer.id, store.instance)
        except Exception as exc:
            await mark_damaged(store, timer.game_id, f"reminder failed: {exc!r}")
            with contextlib.suppress(Exception):
                async with store.write() as db:
                    await db.timers.delete_timers(timer.game_id)
    return fired


async def _fire(db: Session, timer: TimerRow, growth: float, reader: GameReader) -> int:
    row = await db.game(timer.game_id)
    if row is None or row.status != "active" or timer.role not in row.active_roles:
        await db.timers.delete_timer(timer.id)
        return 0
    seats = await db.seats(row.id)
    seat = next((s for s in seats if s.role == timer.role), None)
    if seat is None:
        await db.timers.delete_timer(timer.id)
        return 0
    view = reader.view(row, seat.role)
    prefs = await db.settings.notify_prefs([seat.user_id])
    parked = await db.outbox.table_parked(row.id)
    by_channel, by_dm = notify_routes(seats, (seat.role,), prefs, table_parked=parked)
    if seat.role in by_dm:
        waited = waited_text(timer, db.now, growth)
        message = PrivateMessage(
            kind="reminder",
            role=seat.role,
            version=row.version,
            headline=f"Reminder: your game has been waiting for you for {waited}.",
            view=view,
        )
        await db.outbox.queue(row.id, "private", seat.role, message_payload(message))
    # The table sees whom it waits for; only a player who asked for the channel is pinged.
    post = TablePost(
        kind="reminder",
        version=row.version,
        headline="Reminder: the game is waiting for your move.",
        mention_user_ids=(seat.user_id,) if seat.role in by_channel else (),
        active_roles=(seat.role,),
    )
    await db.outbox.queue(row.id, "table", None, post_payload(post))
    interval = timer.interval_s * growth
    await db.timers.reschedule_timer(timer.id, db.now + interval, interval)
    return 1


def waited_text(timer: TimerRow, now: float, growth: float) -> str:
    """How long the player has kept the game waiting: since their clock was last set (the
    turn began, or they last acted), not the interval since the last reminder. The timer
    fired ``fired`` times before, each interval ``growth`` times the one before, so the
    second reminder of a 24-hour channel, 24 + 48 hours in, says 72 hours."""
    factor = growth if growth > 0 else 1.0
    waited = sum(timer.interval_s / factor**j for j in range(timer.fired + 1))
    waited += max(0.0, now - timer.due_at)  # a reminder fired late (the bot was down)
    hours = waited / 3600
    return f"{hours:.0f} hours" if hours >= 1 else f"{waited / 60:.0f} minutes"
