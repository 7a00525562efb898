"""A clean stop on SIGTERM and SIGINT, for every long-running Dispatch process.

``docker stop``, systemd and Kubernetes ask a process to stop with SIGTERM, then kill it
after a grace period (10 s for Docker). Python's default for SIGTERM is to die on the
spot, and as PID 1 in a container the signal is ignored altogether, so the bot was
killed mid-click. ``graceful(serve, stop)`` runs ``serve`` until it ends by itself or a
stop signal arrives; then it awaits ``stop()``, which must close the process cleanly
(stop taking work, finish what is in flight, stop loops at a safe point, release leases,
close the store), and lets ``serve`` return. A second signal while stopping ends
``serve`` at once (it is cancelled): an administrator pressing Ctrl+C twice means it.

The bot uses it through ``bot.discord_app.serve``; a worker process can use it the same
way with its own ``stop``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Protocol, TypeVar

log = logging.getLogger("dispatch.lifecycle")

T = TypeVar("T")

#: The signals that ask for a clean stop.
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)
#: How long ``stop()`` and then the end of ``serve`` may take together before ``serve``
#: is cancelled: under Docker's default 10 s (docker-compose.yml allows 30 s anyway).
STOP_TIMEOUT_S = 8.0


def stop_at_once_while_starting() -> None:
    """Until ``graceful`` takes the stop signals over, SIGTERM ends the process at once
    with exit 0: during start-up (the database opening, Discord connecting) there is
    nothing in flight to finish, and a supervisor that stops a process still starting
    must not read a crash (Python's default for SIGTERM is to die by the signal)."""
    signal.signal(signal.SIGTERM, _exit_0)


def _exit_0(signum: int, frame: object) -> None:
    log.info("%s received while starting: stopped", signal.Signals(signum).name)
    raise SystemExit(0)


async def graceful(
    serve: Coroutine[Any, Any, T],
    stop: Callable[[], Awaitable[None]],
    *,
    signals: tuple[signal.Signals, ...] = STOP_SIGNALS,
    timeout_s: float = STOP_TIMEOUT_S,
) -> T | None:
    """Run ``serve``; on the first of ``signals`` await ``stop()`` and let ``serve`` end.

    Returns what ``serve`` returned, or None when a signal stopped it. Exceptions of
    ``serve`` pass through, as they would without this wrapper.
    """
    loop = asyncio.get_running_loop()
    task = asyncio.ensure_future(serve)
    asked: list[signal.Signals] = []
    stopping = asyncio.Event()
    stopper: list[asyncio.Future[None]] = []

    def on_signal(sig: signal.Signals) -> None:
        asked.append(sig)
        if len(asked) == 1:
            log.info("%s received: stopping cleanly", sig.name)
            stopping.set()
        else:
            log.warning("%s received again: stopping now", sig.name)
            task.cancel()
            for running in stopper:
                running.cancel()

    installed = []
    for sig in signals:
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(sig, on_signal, sig)
            installed.append(sig)
    waiter = asyncio.ensure_future(stopping.wait())
    try:
        await asyncio.wait({task, waiter}, return_when=asyncio.FIRST_COMPLETED)
        if task.done():
            return task.result()
        deadline = loop.time() + timeout_s
        stopper.append(asyncio.ensure_future(stop()))
        done, _ = await asyncio.wait(stopper, timeout=timeout_s)
        if not done:
            log.warning("stopping took over %.0f s; ending the rest at once", timeout_s)
            stopper[0].cancel()
            await asyncio.wait(stopper)
        elif not stopper[0].cancelled() and stopper[0].exception() is not None:
            error = stopper[0].exception()
            log.error("stopping cleanly failed; ending the rest at once", exc_info=error)
        ended, _ = await asyncio.wait({task}, timeout=max(0.5, deadline - loop.time()))
        if not ended:
            task.cancel()
            await asyncio.wait({task})
        if not task.cancelled() and task.exception() is not None:
            log.info("after the stop signal the service ended with %r", task.exception())
        log.info("stopped")
        return None
    finally:
        waiter.cancel()
        for sig in installed:
            loop.remove_signal_handler(sig)


class Leases(Protocol):
    """What a process holds with a lease (the store: ``Store.release_claims``, named by
    what it does, since this room imports nothing of the store)."""

    async def release_claims(self) -> None: ...


async def release_claims(store: Leases) -> None:
    """Give back what this process has claimed (outbox rows, timers, clocks), so another
    process takes them over at once instead of when the leases run out. A failure (the
    database out of reach) is logged in one line: the leases then lapse on their own."""
    try:
        await store.release_claims()
    except Exception as exc:
        log.warning("releasing the leases failed (%s); they lapse on their own", type(exc).__name__)
