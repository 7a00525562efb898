"""The loss on time: the background pass that ends each game whose
player's clock ran out, exactly once.

Only the expired clocks are read, from the deadline index (``clock_pass.expired``). Each
is handled under its game's lock in one transaction that reads the clock again: a
decision committed before the deadline moved or stopped it, so nothing happens; else
the game ends with outcome code ``timeout``, told like any end (``endings.end_by_decree``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict
from typing import Any

from bot.delivery.courier import mark_damaged
from bot.delivery.notices import role_name
from bot.delivery.outbox import message_payload, post_payload
from bot.delivery.port import PrivateMessage, TablePost
from bot.delivery.routes import notify_routes
from bot.errors import withheld
from bot.storage.errors import Damaged, StoreError
from bot.storage.session import Session
from bot.storage.store import LEASE_S, Store
from bot.tables.clocks import clock_pass, clock_rules, left_text, next_warning
from bot.tables.endings import end_by_decree
from bot.tables.loading import rules_or_none, safe_view
from rules.core.types import TIMEOUT

log = logging.getLogger("dispatch.clocks")


async def expire_due(
    store: Store, game_locks: defaultdict[int, asyncio.Lock], now: float
) -> list[int]:
    """End every game whose player's clock has run out by ``now`` (or, on a server where
    the win is claimed, offer it: ``clock_rules.flag``); return the games ended or offered
    (their listeners are told: an open spectator page shows the change at once)."""
    ended: list[int] = []
    for game_id, role in await clock_pass.expired(store, now):
        try:
            async with game_locks[game_id], store.transaction(game=game_id) as db:
                if await _lose_on_time(db, game_id, role):
                    ended.append(game_id)
                await db.clocks.release_clock(game_id, role, store.instance)
        except StoreError:
            raise  # the database, not the game: the next pass tries again
        except Exception as exc:
            log.error("game=%d the loss on time of %s failed\n%s", game_id, role, withheld(exc))
            detail = exc.detail if isinstance(exc, Damaged) else "loss on time failed"
            await mark_damaged(store, game_id, detail)
            with contextlib.suppress(Exception):
                async with store.write() as db:
                    await clock_pass.stop_all(db, game_id)
    return ended


async def _lose_on_time(db: Session, game_id: int, role: str) -> int:
    """End the game for ``role`` out of time, if it still is (checked again here)."""
    row = await db.game(game_id)
    if row is None or row.status != "active":
        await clock_pass.stop_all(db, game_id)  # ended another way: nothing to run
        return 0
    clock = next((c for c in await db.clocks.clock_rows(game_id) if c.role == role), None)
    if clock is None or not clock.expired(db.now):
        return 0  # a decision came in time and moved the clock on
    seats = await db.seats(game_id)
    if await clock_rules.claimed_here(db, row):  # the opponent is offered the win instead
        await clock_rules.flag(db, row, seats, role)
        log.info("game=%d %s ran out of time; the win may be claimed", game_id, role)
        return 1
    rules_game = rules_or_none(row.game_name)
    roles = tuple(rules_game.roles) if rules_game else tuple(s.role for s in seats)
    others = [r for r in roles if r != role]
    outcome: dict[str, Any] = {
        "winner": others[0] if len(others) == 1 else None,
        "code": TIMEOUT,
        "reason": f"{role_name(rules_game, role)} ran out of time",
    }
    await end_by_decree(db, row, seats, rules_game, outcome, loser=role)
    log.info("game=%d %s lost on time", game_id, role)
    return 1


async def warn_due(store: Store, game_locks: defaultdict[int, asyncio.Lock], now: float) -> int:
    """Warn each player whose clock has 24 h (then 2 h) left, once each, where they chose
    to be told (``/game settings notify``, as their turns are:
    ``bot.delivery.routes.notify_routes``).
    Found through the ``clocks_warn_at`` index; returns how many were warned."""
    async with store.transaction() as db:  # claimed: no other process warns them too
        due = await db.clocks.claim_clock_warnings(now, store.instance, LEASE_S)
    warned = 0
    for game_id, role in due:
        try:
            async with game_locks[game_id], store.transaction(game=game_id) as db:
                warned += await _warn(db, game_id, role)
                await db.clocks.release_clock(game_id, role, store.instance)
        except Exception:
            log.exception("game=%d the clock warning of %s failed", game_id, role)
            with contextlib.suppress(Exception):
                async with store.write() as db:
                    await db.clocks.set_clock_warning(game_id, role, None)
    return warned


async def _warn(db: Session, game_id: int, role: str) -> int:
    clock = next((c for c in await db.clocks.clock_rows(game_id) if c.role == role), None)
    if clock is None or clock.warn_at is None or clock.warn_at > db.now:
        return 0  # moved on by a decision since it was read
    row = await db.game(game_id)
    if row is None or row.status != "active" or clock.deadline is None:
        await db.clocks.set_clock_warning(game_id, role, None)
        return 0
    await db.clocks.set_clock_warning(game_id, role, next_warning(clock.deadline, db.now))
    seats = await db.seats(game_id)
    seat = next((s for s in seats if s.role == role), None)
    if seat is None:
        return 0
    prefs = await db.settings.notify_prefs([seat.user_id])
    parked = await db.outbox.table_parked(game_id)
    by_channel, by_dm = notify_routes(seats, (role,), prefs, table_parked=parked)
    when = f"<t:{int(clock.deadline)}:R>"
    left = left_text(clock.left(db.now))
    if role in by_dm:
        message = PrivateMessage(
            kind="reminder",
            role=role,
            version=row.version,
            headline=f"Your clock runs out {when} ({left} left): decide by then or lose on time.",
            view=safe_view(row, role),
        )
        await db.outbox.queue(game_id, "private", role, message_payload(message))
    name = role_name(rules_or_none(row.game_name), role)
    post = TablePost(
        kind="reminder",
        version=row.version,
        headline=f"Clock: {name} has {left} left (runs out {when}).",
        mention_user_ids=(seat.user_id,) if role in by_channel else (),
        active_roles=(role,),
    )
    await db.outbox.queue(game_id, "table", None, post_payload(post))
    return 1
