"""Waking idle workers when a job is queued, and the bot processes when a
worker left posts for them (``POSTS_QUEUED``: ``Bell(..., channel=POSTS_QUEUED)``).

On PostgreSQL the store notifies ``JOBS_QUEUED`` in the transaction that queues a move
Dispatch owes; a worker LISTENs on its own connection (outside the pool: a pooled
connection is shared, a listener must stay) and is woken the moment that transaction
commits, instead of at its next poll. The poll stays as the fallback: for SQLite (one
process, no notifications), while the listening connection is down (it is opened again
at the next idle turn), and for a pooler that cannot carry LISTEN
(``DISPATCH_WORKER_LISTEN=off``, e.g. PgBouncer in transaction mode). The connection
itself is the store's (``bot.storage.notify.Listener``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping

from bot.storage.engines import JOBS_QUEUED, is_postgres_url
from bot.storage.errors import classify, is_transient
from bot.storage.notify import Listener

log = logging.getLogger("dispatch.worker")

_OFF = {"off", "0", "no", "false"}
_ON = {"on", "1", "yes", "true", ""}


def listen_from(env: Mapping[str, str]) -> bool:
    """``DISPATCH_WORKER_LISTEN``: on (the default) or off."""
    raw = (env.get("DISPATCH_WORKER_LISTEN") or "").strip().lower()
    if raw in _ON:
        return True
    if raw in _OFF:
        return False
    raise ValueError(f"DISPATCH_WORKER_LISTEN must be on or off, not {raw[:20]!r}")


#: How long connecting the LISTEN connection may take (a server that does not answer).
CONNECT_TIMEOUT_S = 10.0


class Bell:
    """Sets ``event`` whenever PostgreSQL says a job was queued, while listening."""

    def __init__(
        self,
        target: object,
        event: asyncio.Event,
        *,
        enabled: bool = True,
        channel: str = JOBS_QUEUED,
    ) -> None:
        url = str(target) if enabled and is_postgres_url(target) else None
        self.event = event
        #: What it listens for: a job queued (a worker's bell), or a worker's posts
        #: queued (the bot's, ``POSTS_QUEUED``).
        self.channel = channel
        self._listener = Listener(url, channel, self._ring) if url is not None else None
        self._failed = False
        #: Notifications heard (for tests and logs).
        self.rung = 0
        #: What the notifications heard since the last ``take`` said.
        self._heard: list[str] = []

    @property
    def listening(self) -> bool:
        return self._listener is not None and self._listener.listening

    async def ensure(self) -> None:
        """Listen, if this store can and the connection is not up yet; a failure is
        logged once and leaves the poll to do the work."""
        if self._listener is None or self._listener.listening:
            return
        try:
            await self._listener.open(CONNECT_TIMEOUT_S)
        except Exception as exc:
            if classify(exc, networked=True) is None:
                raise
            # The server out of reach is the store's to tell (once); a server that
            # refuses LISTEN (a pooler) is said here, once.
            if not self._failed and not is_transient(exc):
                log.warning("cannot LISTEN on %s (%s); polling instead", self.channel, exc)
            self._failed = True
            return
        if self._failed:
            log.debug("listening on %s again", self.channel)
        self._failed = False
        # Woken once: a job queued while nobody listened is not missed.
        self.event.set()

    def _ring(self, payload: str) -> None:
        self.rung += 1
        if payload:
            self._heard.append(payload)
        self.event.set()

    def take(self) -> list[str]:
        """What the notifications heard since the last call said, oldest first."""
        heard, self._heard = self._heard, []
        return heard

    async def close(self) -> None:
        if self._listener is not None:
            await self._listener.close()
