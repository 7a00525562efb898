"""Per-game asyncio locks that do not pile up: one entry per game ever touched, forever,
was a slow leak on a server with years of games.

``LockTable`` is a ``defaultdict`` of locks. When a new game's lock is made and the
table has grown past its bound, the idle locks (not held, nobody waiting) are dropped: a
game that needs one again gets a fresh lock, which is the same as the dropped one since
nobody held or awaited it. Dropping happens only there, inside a plain method call, so no
other coroutine can run between looking a lock up and acquiring it.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict

#: Locks kept before idle ones are dropped; the bound doubles while most are in use.
MIN_BOUND = 256


def idle(lock: asyncio.Lock) -> bool:
    """Neither held nor awaited (a waiter woken by a release has not taken it yet)."""
    return not lock.locked() and not getattr(lock, "_waiters", None)


class LockTable(defaultdict[int, asyncio.Lock]):
    """A lock per game id, pruned of idle locks as it grows."""

    def __init__(self, bound: int = MIN_BOUND) -> None:
        super().__init__(asyncio.Lock)
        self.min_bound = bound
        self.bound = bound

    def __missing__(self, key: int) -> asyncio.Lock:
        if len(self) >= self.bound:
            for game_id in [k for k, lock in self.items() if idle(lock)]:
                del self[game_id]
            self.bound = max(self.min_bound, 2 * len(self))
        lock = self[key] = asyncio.Lock()
        return lock
