"""Where a bot seat's decisions run: worker processes, off the event loop.

The decision (the game's greedy policy, or the search of ``rules.ai``) runs in a worker
process by default (``workers="process"``) or a thread (tests, the sandbox). There are
several worker processes on a machine with the cores for them (:func:`default_processes`:
one core is left to the bot itself), so bot games decide side by side; each game always
goes to the same worker, which keeps its search tree between the small decisions of a
turn; a worker ends by itself when the bot's process is gone, however it ended
(:func:`watch_parent`).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import concurrent.futures.process
import contextlib
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from typing import TypeVar

log = logging.getLogger("dispatch.bots")

_T = TypeVar("_T")

#: How often a worker looks whether the bot's process still runs.
PARENT_WATCH_S = 0.5


def watch_parent(parent: int, interval: float = PARENT_WATCH_S) -> None:
    """Worker initializer: end this worker as soon as the bot's process is gone.

    A worker waits on a queue whose pipe it holds both ends of, so a bot killed with
    SIGKILL (no shutdown) left it waiting for good, and with it the resource tracker
    that a spawned pool starts (it stays while any worker holds its pipe). A daemon
    thread polls the parent id (reparenting changes it) and ends the process at once:
    portable, and unlike PR_SET_PDEATHSIG not tied to the thread that started it.
    """

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(interval)
        os._exit(0)

    threading.Thread(target=watch, name="dispatch-parent-watch", daemon=True).start()


def new_worker_pool() -> concurrent.futures.ProcessPoolExecutor:
    """One worker process for decisions, which ends when the bot's process does.

    Spawned, not forked: the parent has threads (the store's) that a fork would copy
    mid-flight."""
    return concurrent.futures.ProcessPoolExecutor(
        max_workers=1,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=watch_parent,
        initargs=(os.getpid(),),
    )


def stop_worker_pool(pool: concurrent.futures.ProcessPoolExecutor) -> None:
    """Stop ``pool`` at once, its search abandoned (its move is made again by the next
    process: nothing of it was committed): its worker is ended rather than waited for,
    then the pool is shut down whole (its queues closed and its manager thread joined),
    so that the resource tracker finds no semaphore left behind. Waiting for the search,
    as ``shutdown()`` does by default, held the whole stop for as long as it ran."""
    workers = list((pool._processes or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for worker in workers:
        worker.terminate()
    for worker in workers:
        worker.join()
    pool.shutdown(wait=True)


async def in_daemon_thread(call: Callable[[], _T]) -> _T:
    """Run ``call`` in a thread of its own that never holds up the end of the process
    (a ``dispatch worker`` stopped mid-search leaves at once; the search is abandoned)."""
    loop = asyncio.get_running_loop()
    answer: asyncio.Future[_T] = loop.create_future()

    def settle(result: _T | None, error: BaseException | None) -> None:
        if answer.done():
            return  # abandoned (cancelled) meanwhile
        if error is not None:
            answer.set_exception(error)
        else:
            answer.set_result(result)  # type: ignore[arg-type]

    def work() -> None:
        try:
            result: _T | None = call()
            error: BaseException | None = None
        except BaseException as exc:  # handed to the awaiting task
            result, error = None, exc
        with contextlib.suppress(RuntimeError):  # the loop closed: nobody waits any more
            loop.call_soon_threadsafe(settle, result, error)

    threading.Thread(target=work, name="dispatch-search", daemon=True).start()
    return await answer


#: The most worker processes for decisions, however many cores there are.
MAX_PROCESSES = 4


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system says)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def default_processes() -> int:
    """Worker processes for the bot's decisions: one per core but one (which the event
    loop keeps for clicks and images), at least one, at most :data:`MAX_PROCESSES`."""
    return max(1, min(MAX_PROCESSES, usable_cores() - 1))


class WorkerPools:
    """The worker processes of one set of seats, by worker number (set up by
    ``BotSeats.__init__``)."""

    #: "process", "thread" or "daemon": where a call runs.
    workers: str
    #: How many worker processes the games are spread over.
    processes: int
    #: One single-process pool per worker, started when first needed.
    _pools: dict[int, concurrent.futures.ProcessPoolExecutor]

    async def off_loop(self, game_id: int, call: Callable[[], _T]) -> _T:
        """Run ``call`` (picklable: a module-level function and its arguments) in the
        game's worker, off the event loop: bot decisions, and hints (``hints.py``)."""
        if self.workers == "thread":
            return await asyncio.to_thread(call)
        if self.workers == "daemon":
            return await in_daemon_thread(call)
        loop = asyncio.get_running_loop()
        # A game always decides in the same worker: its search tree lives there.
        worker = game_id % self.processes
        for attempt in (1, 2):
            pool = self._pools.get(worker)
            if pool is None:
                pool = self._pools[worker] = new_worker_pool()
            try:
                return await loop.run_in_executor(pool, call)
            except concurrent.futures.process.BrokenProcessPool:
                # The worker died (killed, out of memory): start a new one, once.
                log.warning("game=%d: the bot's worker process died (attempt %d)", game_id, attempt)
                if self._pools.get(worker) is pool:  # not already replaced by another move
                    del self._pools[worker]
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")
