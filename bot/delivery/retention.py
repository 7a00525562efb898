"""How long delivered outbox rows are kept, and their pruning.

A delivered row is never read again (its payload went at delivery), but a finished game
left 46 to 65 of them for ever. The background pass deletes those delivered longer ago
than the host's retention (``DISPATCH_OUTBOX_KEEP_DAYS``, default 30 days), oldest
first, a batch per statement, so that a first pass over years of rows holds no long
transaction. Rows not yet delivered are never deleted, however old.
"""

from __future__ import annotations

import logging

from bot.config import DEFAULT_OUTBOX_KEEP_DAYS
from bot.storage.store import Store

log = logging.getLogger("dispatch.outbox")

#: The default retention of delivered rows, in days (``DISPATCH_OUTBOX_KEEP_DAYS``).
OUTBOX_KEEP_DAYS = DEFAULT_OUTBOX_KEEP_DAYS

#: How often the background pass prunes (each pass is every few seconds).
PRUNE_EVERY_S = 3600.0

#: Rows deleted per statement.
PRUNE_BATCH = 500


async def prune_delivered(store: Store, now: float, keep_days: float) -> int:
    """Delete the rows delivered more than ``keep_days`` before ``now``; how many."""
    before = now - keep_days * 86400.0
    pruned = 0
    while True:
        async with store.write() as db:
            deleted = await db.outbox.prune_delivered(before, PRUNE_BATCH)
        pruned += deleted
        if deleted < PRUNE_BATCH:
            break
    if pruned:
        log.info("pruned %d delivered outbox rows older than %g days", pruned, keep_days)
    return pruned
