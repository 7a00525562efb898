"""A dead process's claims taken over within seconds (migration 0025_process_beats).

Background work is claimed with a lease (``bot.storage.store.LEASE_S``, two minutes; a bot job's
one minute), so that a process killed mid-work does not hold it for ever. Waiting for
the lease alone left a dead process's games without posts or moves for up to three
minutes. So every process that claims work on a shared database beats every
``BEAT_EVERY_S`` under each name it claims with, and at each of its beats looks for
names that missed two beats: their claims are given back (``take_claims_from``), and
the next pass of any process takes them, as it takes any unclaimed work. The lease
stays as the backstop (a name that never beat, a process of an older version).

The rule for who may judge: only a process that has found the database answering
throughout the last two beats: each of its own beats in that time landed, and none of
its sessions found the database out of reach (``Reach.outages``). A living process
whose beats fell in an outage (a restart, its pooled connections dropped) has been
silent for no fault of its own: it beats again one second after a failed beat, and
whoever judges waits until the database has answered for two whole beats, which the
living use to beat. So after PostgreSQL comes back, the first process back takes no
claim from the others, and a process that only happened to beat just before and just
after the outage takes none either.

A beat is stamped by the beater's own clock, and hosts' clocks differ (a worker on
another machine). So a name is silent only when both its last beat is two beats old by
the judge's clock and the judge itself has watched that same beat stay unchanged for
over a beat (``WATCHED_S``): a living process on a lagging host changes its beat at every
beat, whatever its stamps say.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Sequence

from bot.storage.store import Store

log = logging.getLogger("dispatch.liveness")

#: How often each process beats (one small write per name).
BEAT_EVERY_S = 5.0
#: A name silent this long has missed two beats: its process is taken for dead.
SILENT_AFTER_S = 2 * BEAT_EVERY_S
#: How soon a beat that failed is tried again (the database may be back at once: a
#: dropped connection costs one session, not the outage of a restart).
RETRY_AFTER_S = 1.0
#: How long a judge must have seen a name's last beat unchanged before it may call the
#: name silent: over one beat, so a name that beats on time is never taken.
WATCHED_S = BEAT_EVERY_S + RETRY_AFTER_S


class Liveness:
    """One process's beats under ``owners`` (the names its claims carry), and its watch
    over the other processes' beats."""

    def __init__(self, store: Store, owners: Sequence[str]) -> None:
        self.store = store
        self.owners = tuple(dict.fromkeys(owners))
        #: When this process's last beat reached the database (the store's clock).
        self.last_beat: float | None = None
        #: Since when the database has answered this process throughout (the store's
        #: clock), and the store's count of outages then; None after a failed beat.
        self.steady_since: float | None = None
        self._outages = 0
        #: Each other name's last beat as this process last saw it, and since when (this
        #: process's clock) it has seen it unchanged; forgotten after an outage.
        self._seen: dict[str, tuple[float, float]] = {}

    async def beat(self) -> list[str]:
        """Beat; and when the database has answered this process for two beats, take
        the claims of every name silent for two beats. Returns the names taken over."""
        outages = self.store.reach.outages
        async with self.store.transaction() as db:
            now = db.now
            judge = self._steady(now, outages)
            # A failed beat, an outage or a stall since the last beat: the watch starts
            # again (what was seen before proves nothing of the others).
            anew = not self._on_time(now) or self.steady_since is None or outages != self._outages
            if anew:
                self._seen = {}
            await db.processes.beat_process(self.owners)
            silent = self._silent(await db.processes.beats(), now)
            silent = silent if judge else []
            if silent:
                await db.processes.take_claims_from(silent)
        if anew:
            self.steady_since, self._outages = now, outages
        self.last_beat = now
        if silent:
            log.warning("claims of silent process name(s) %s taken over", ", ".join(silent))
        return silent

    def _silent(self, beats: dict[str, float], now: float) -> list[str]:
        """The names silent for two beats: their beat two beats old by this clock, and
        seen unchanged by this process for over a beat (whatever the other's clock)."""
        seen = {}
        for owner, at in beats.items():
            if owner in self.owners:
                continue
            before = self._seen.get(owner)
            seen[owner] = before if before is not None and before[0] == at else (at, now)
        self._seen = seen
        return sorted(
            owner
            for owner, (at, since) in seen.items()
            if at < now - SILENT_AFTER_S and now - since >= WATCHED_S
        )

    def _steady(self, now: float, outages: int) -> bool:
        """Whether the database answered this process from ``steady_since`` to ``now``
        (its beats on time, no outage seen), for two beats at least."""
        return (
            self.steady_since is not None
            and self._on_time(now)
            and outages == self._outages
            and now - self.steady_since >= SILENT_AFTER_S
        )

    def _on_time(self, now: float) -> bool:
        """Whether this process's previous beat landed within two beats of ``now`` (a
        process whose own loop stalled has not watched the others meanwhile)."""
        return self.last_beat is not None and now - self.last_beat <= SILENT_AFTER_S

    async def run(self, stop: asyncio.Event) -> None:
        """Beat every ``BEAT_EVERY_S`` (one second after a failed beat) until ``stop``."""
        wait = BEAT_EVERY_S
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), wait)
            if not stop.is_set():
                wait = BEAT_EVERY_S if await self.try_beat() else RETRY_AFTER_S

    async def try_beat(self) -> bool:
        """A beat; one that fails (the database away) is logged and tried again soon.
        True when it landed."""
        try:
            await self.beat()
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self.steady_since = None
            log.warning("the beat failed: %r", exc)
            return False
        return True

    @contextlib.asynccontextmanager
    async def running(self, stop: asyncio.Event) -> AsyncIterator[None]:
        """Beat in the background while the block runs (only on PostgreSQL: a SQLite
        file is one process's, and its claims are forgotten when it is opened)."""
        if self.store.dialect != "postgresql":
            yield
            return
        # The first beat before any claim: a process killed after claiming is known.
        await self.try_beat()
        task = asyncio.get_running_loop().create_task(self.run(stop), name="dispatch-beats")
        try:
            yield
        finally:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
