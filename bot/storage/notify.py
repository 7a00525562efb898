"""Listening for PostgreSQL's notifications (LISTEN/NOTIFY) on a connection of its own.

A listener stays on its connection, so it is not one of the pool's (a pooled connection
is lent to one session after another). What a notification means, and what is done while
nobody listens, is the caller's (``bot.workers.wake``): this module is the driver's part.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import asyncpg

from bot.storage.errors import classify

#: How long closing the listening connection may take before it is dropped.
CLOSE_TIMEOUT_S = 5


class Listener:
    """LISTENs on ``channel`` at ``url`` once opened, and hands each notification's
    payload (text, possibly empty) to ``heard``."""

    def __init__(self, url: str, channel: str, heard: Callable[[str], None]) -> None:
        self.url = url
        self.channel = channel
        self._heard = heard
        self._conn: asyncpg.Connection | None = None

    @property
    def listening(self) -> bool:
        return self._conn is not None and not self._conn.is_closed()

    async def open(self, timeout: float) -> None:
        """Connect and LISTEN; the failure is raised as it came (``classify`` tells it)."""
        conn = await asyncpg.connect(self.url, timeout=timeout)
        await conn.add_listener(self.channel, self._notified)
        self._conn = conn

    def _notified(self, *args: object) -> None:
        # asyncpg calls (connection, pid, channel, payload).
        self._heard(str(args[3]) if len(args) > 3 and args[3] else "")

    async def close(self) -> None:
        """Close the connection; one that does not close in time, or fails as a
        connection does, is dropped."""
        conn, self._conn = self._conn, None
        if conn is not None and not conn.is_closed():
            try:
                await asyncio.wait_for(conn.close(), CLOSE_TIMEOUT_S)
            except Exception as exc:
                if classify(exc, networked=True) is None:
                    raise
                conn.terminate()
