"""Whether the database can be reached, told once each way in the log.

A database restart makes every session fail for its length: a click, the courier, the
background pass, the heartbeat. Each logging its own failure (or its traceback) would
flood the log; instead the store keeps one ``Reach`` and the first transient fault logs
one WARNING ("out of reach"), the first session to succeed afterwards one INFO ("back"),
and the faults between them are logged at DEBUG only.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from bot.storage.errors import Unavailable

log = logging.getLogger("dispatch.store")


class Reach:
    """The store's one record of whether its database answers."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        #: When the database was first found out of reach (None: it answers).
        self.lost_at: float | None = None
        #: How many times it was lost (each outage counts once, however many sessions
        #: failed in it): whoever must know the database answered throughout a stretch of
        #: time (``bot.storage.liveness``) compares it before and after.
        self.outages = 0

    @property
    def reachable(self) -> bool:
        return self.lost_at is None

    def down(self, exc: BaseException, failure: Unavailable | None = None) -> Unavailable:
        """A transient fault: the error to raise (``failure`` or a new ``Unavailable``).
        Logs a WARNING the first time only; the fault's kind, never its statement."""
        if self.lost_at is None:
            self.lost_at = self._clock()
            self.outages += 1
            log.warning(
                "the database is out of reach (%s); retrying until it is back",
                type(exc.__cause__ or exc).__name__,
            )
        else:
            log.debug("the database is still out of reach: %r", exc)
        return failure if failure is not None else Unavailable()

    def up(self) -> None:
        """A session succeeded: the database is back, said once."""
        if self.lost_at is not None:
            gone = self._clock() - self.lost_at
            self.lost_at = None
            log.info("the database is back after %.0f s", gone)
