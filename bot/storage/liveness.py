"""A dead process's claims taken over within seconds (migration 0025_process_beats).

Background work is claimed with a lease (``bot.storage.store.LEASE_S``, two minutes; a bot job's
one minute), so that a process killed mid-work does not hold it for ever. Waiting for
the lease alone left a dead process's games without posts or moves for up to three
minutes. So every process that claims work on a shared database beats every
``BEAT_EVERY_S`` under each name it claims with, and at each of its beats looks for
names that missed two beats: their claims are given back (``take_claims_from``), and
the next pass of any process takes them, as it takes any unclaimed work. The lease
stays as the backstop (a name that never beat, a process of an older version).

The rule for who may judge: only a process that has itself beaten within the last two
beats. After PostgreSQL comes back from a restart, every name's beat is old; the first
process back must not take over the claims of the others, which are alive and about
to beat again. It beats first, and judges at its next beat, when the living have beaten.
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


class Liveness:
    """One process's beats under ``owners`` (the names its claims carry), and its watch
    over the other processes' beats."""

    def __init__(self, store: Store, owners: Sequence[str]) -> None:
        self.store = store
        self.owners = tuple(dict.fromkeys(owners))
        #: When this process's last beat reached the database (the store's clock).
        self.last_beat: float | None = None

    async def beat(self) -> list[str]:
        """Beat; and when this process beat within the last two beats itself, take the
        claims of every name silent for two beats. Returns the names taken over."""
        async with self.store.transaction() as db:
            judge = self.last_beat is not None and db.now - self.last_beat <= SILENT_AFTER_S
            await db.processes.beat_process(self.owners)
            silent = await db.processes.silent_processes(db.now - SILENT_AFTER_S) if judge else []
            if silent:
                await db.processes.take_claims_from(silent)
            now = db.now
        self.last_beat = now
        if silent:
            log.warning("claims of %d silent process name(s) taken over", len(silent))
        return silent

    async def run(self, stop: asyncio.Event) -> None:
        """Beat every ``BEAT_EVERY_S`` until ``stop`` is set."""
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), BEAT_EVERY_S)
            if not stop.is_set():
                await self.try_beat()

    async def try_beat(self) -> None:
        """A beat; one that fails (the database away) is tried again at the next."""
        try:
            await self.beat()
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.warning("the beat failed: %r", exc)

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
