"""The background desk (``manager.background``): the loop every bot process runs beside
the clicks, and each of its passes (the clocks' and the leagues' among them)."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from bot.delivery.reminders import queue_due_reminders
from bot.delivery.retention import PRUNE_EVERY_S, prune_delivered
from bot.storage.errors import StoreError
from bot.tables.clocks import clock_pass
from bot.tables.clocks.desk import ClockDesk
from bot.tables.core import READER, Core
from bot.tables.leagues.port import LeaguePasses

log = logging.getLogger("dispatch.manager")


class BackgroundDesk:
    """Retries, clocks, reminders, the heartbeat and pruning for the core's store."""

    def __init__(self, core: Core, clocks: ClockDesk, leagues: LeaguePasses) -> None:
        self._core = core
        self._clocks = clocks
        #: The league desk's passes (named by a protocol: this desk imports no other).
        self._leagues = leagues
        #: When this process last wrote the heartbeat (``clock_pass.forgive_downtime``).
        self._last_beat = float("-inf")
        self._last_prune = float("-inf")

    async def run(self, interval_s: float = 5.0, stop: asyncio.Event | None = None) -> None:
        """Retry deliveries, end games lost on time and fire reminders until ``stop`` is
        set (checked between passes, a safe point) or the task is cancelled."""
        stop = stop or asyncio.Event()
        while not stop.is_set():
            try:
                await self._one_pass()
            except asyncio.CancelledError:
                raise
            except StoreError:
                pass  # the store logged it (once while out of reach); the next pass retries
            except Exception:
                log.exception("background delivery pass failed")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), interval_s)

    async def _one_pass(self) -> None:
        await self._core.deliver_due()
        await self._beat()
        await self._clocks.expire()
        await self._clocks.warn()
        await self._clocks.tell_vacations_over()
        await self.fire_due_timers()
        await self._prune_hourly()
        await self._leagues.pass_deadlines()
        await self._leagues.open_pending()  # a round's games left unopened by a crash
        await self._core.listening.resumed()  # a bot move that failed is tried again

    async def fire_due_timers(self) -> int:
        """Nudge every player whose reminder is due, then space the next one out further."""
        core = self._core
        fired = await queue_due_reminders(
            core.store,
            core.game_locks,
            READER,
            now=core.clock(),
            growth=core.tuning.reminder_growth,
        )
        if fired:
            await core.deliver_due()
        return fired

    async def prune_outbox(self) -> int:
        """Delete the outbox rows delivered longer ago than the retention; how many."""
        self._last_prune = self._core.clock()
        keep_days = self._core.tuning.outbox_keep_days
        return await prune_delivered(self._core.store, self._last_prune, keep_days)

    async def _prune_hourly(self) -> None:
        if self._core.clock() - self._last_prune >= PRUNE_EVERY_S:
            await self.prune_outbox()

    async def _beat(self) -> None:
        """The heartbeat, written every ``clock_pass.BEAT_EVERY_S`` (not every pass)."""
        now = self._core.clock()
        if now - self._last_beat >= clock_pass.BEAT_EVERY_S:
            await clock_pass.beat(self._core.store)
            self._last_beat = now
