"""The loss on time (issue 26, section 1): the background pass that ends each game whose
player's clock ran out, exactly once.

Only the expired clocks are read, from the deadline index (``clock_pass.expired``). Each
is handled under its game's lock in one transaction that reads the clock again: a
decision committed before the deadline moved or stopped it, so nothing happens; else
the game ends with outcome code ``timeout``, told like any end (``turn.end_by_decree``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict
from typing import Any

from bot.delivery.courier import mark_damaged
from bot.delivery.notices import role_name
from bot.storage.store import Session, Store
from bot.tables import clock_pass
from bot.tables.loading import rules_or_none
from bot.tables.turn import end_by_decree

log = logging.getLogger("dispatch.clocks")


async def expire_due(store: Store, game_locks: defaultdict[int, asyncio.Lock], now: float) -> int:
    """End every game whose player's clock has run out by ``now``; return how many."""
    ended = 0
    for game_id, role in await clock_pass.expired(store, now):
        try:
            async with game_locks[game_id], store.transaction() as db:
                ended += await _lose_on_time(db, game_id, role)
        except Exception as exc:
            log.exception("game=%d the loss on time of %s failed", game_id, role)
            await mark_damaged(store, game_id, f"loss on time failed: {exc!r}")
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
    clock = next((c for c in await db.clock_rows(game_id) if c.role == role), None)
    if clock is None or not clock.expired(db.now):
        return 0  # a decision came in time and moved the clock on
    seats = await db.seats(game_id)
    rules_game = rules_or_none(row.game_name)
    roles = tuple(rules_game.roles) if rules_game else tuple(s.role for s in seats)
    others = [r for r in roles if r != role]
    outcome: dict[str, Any] = {
        "winner": others[0] if len(others) == 1 else None,
        "code": "timeout",
        "reason": f"{role_name(rules_game, role)} ran out of time",
    }
    await end_by_decree(db, row, seats, rules_game, outcome, loser=role)
    log.info("game=%d %s lost on time", game_id, role)
    return 1
