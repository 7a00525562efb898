"""bot/process/lifecycle.py: ``graceful`` turns a stop signal into a clean stop, once.

SIGUSR1 stands in for SIGTERM here, so a test can never end the test process itself.
The whole path, with SIGTERM and a real bot process, is tests/process/test_graceful_stop.py.
"""

from __future__ import annotations

import asyncio
import os
import signal
from typing import Any

import pytest

from bot.process.lifecycle import graceful, release_claims
from tests.emulator.state import PATIENCE_S

SIG = (signal.SIGUSR1,)


def raise_signal_soon() -> None:
    asyncio.get_running_loop().call_soon(os.kill, os.getpid(), signal.SIGUSR1)


async def test_a_service_that_ends_by_itself_returns_its_result() -> None:
    calls: list[str] = []

    async def serve() -> int:
        return 7

    async def stop() -> None:
        calls.append("stop")

    assert await graceful(serve(), stop, signals=SIG) == 7
    assert calls == []


async def test_a_signal_calls_stop_and_lets_the_service_finish() -> None:
    done = asyncio.Event()
    order: list[str] = []

    async def serve() -> int:
        raise_signal_soon()
        await done.wait()
        order.append("serve ended")
        return 1

    async def stop() -> None:
        order.append("stop")
        done.set()

    assert await graceful(serve(), stop, signals=SIG) is None
    assert order == ["stop", "serve ended"]


async def test_a_stop_that_hangs_is_cut_short_and_the_service_cancelled() -> None:
    cancelled: list[bool] = []

    async def serve() -> None:
        raise_signal_soon()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            cancelled.append(True)
            raise

    async def stop() -> None:
        await asyncio.Event().wait()

    loop = asyncio.get_running_loop()
    began = loop.time()
    assert await graceful(serve(), stop, signals=SIG, timeout_s=0.05) is None
    assert cancelled == [True] and loop.time() - began < 2.0


async def test_a_second_signal_while_stopping_ends_the_service_at_once() -> None:
    stopping = asyncio.Event()
    cancelled: list[bool] = []

    async def serve() -> None:
        raise_signal_soon()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            cancelled.append(True)
            raise

    async def stop() -> None:
        stopping.set()
        raise_signal_soon()  # the administrator presses Ctrl+C again
        await asyncio.Event().wait()

    assert await graceful(serve(), stop, signals=SIG, timeout_s=30.0) is None
    assert stopping.is_set() and cancelled == [True]


async def test_errors_of_the_service_pass_through() -> None:
    async def serve() -> None:
        raise RuntimeError("login refused")

    async def stop() -> None:
        raise AssertionError("not called")

    with pytest.raises(RuntimeError, match="login refused"):
        await graceful(serve(), stop, signals=SIG)


async def test_the_handler_is_removed_afterwards() -> None:
    async def serve() -> None:
        return None

    async def stop() -> None:
        return None

    before = signal.getsignal(signal.SIGUSR1)
    await graceful(serve(), stop, signals=SIG)
    assert signal.getsignal(signal.SIGUSR1) == before


class LeasingStore:
    def __init__(self, fails: bool = False) -> None:
        self.released = 0
        self.fails = fails

    async def release_claims(self) -> None:
        self.released += 1
        if self.fails:
            raise ConnectionError("database gone")


async def test_release_claims_uses_the_stores_hook_when_it_has_one(
    caplog: pytest.LogCaptureFixture,
) -> None:
    store = LeasingStore()
    await release_claims(store)
    assert store.released == 1
    await release_claims(object())  # SQLite: nothing to release, nothing raised
    failing = LeasingStore(fails=True)
    await release_claims(failing)  # a failure is logged; the leases lapse on their own
    assert failing.released == 1 and "lapse on their own" in caplog.text


async def test_the_background_loop_stops_between_passes_when_asked(manager: Any) -> None:
    """A stop request lets the pass under way finish (its transactions commit) and ends
    the loop before the next one: it returns rather than being cancelled mid-pass."""
    passes: list[str] = []
    release = asyncio.Event()
    real = manager.deliver_due

    async def deliver_due(*args: Any, **kwargs: Any) -> int:
        passes.append("started")
        await release.wait()
        count = await real(*args, **kwargs)
        passes.append("finished")
        return count

    manager.deliver_due = deliver_due
    stop = asyncio.Event()
    loop = asyncio.create_task(manager.background.run(interval_s=3600.0, stop=stop))
    while not passes:
        await asyncio.sleep(0)
    stop.set()  # asked to stop in the middle of a pass
    release.set()
    await asyncio.wait_for(loop, PATIENCE_S)  # returns by itself, long before the hour is up
    assert passes == ["started", "finished"] and not loop.cancelled()
