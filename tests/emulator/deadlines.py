"""Discord's interaction deadlines, and the clock they are measured on.

Discord gives an interaction 3 seconds for its first response (the callback): after that
the callback answers 404, code 10062 "Unknown interaction", and the user sees "This
interaction failed". The interaction's token then serves followups and edits of the
response for 15 minutes; after that every webhook request with it answers 401, code 50027
"Invalid Webhook Token". The emulator refuses both as Discord does.

Which clock. The bot runs in the test's process (or in a child process of it), on a
machine that other work may keep busy. On Discord's side the deadline counts the bot's
time, not the neighbours' of a test machine: a bot that answers in 200 ms would miss 3 s
in a test only because other processes held both cores. So the deadline is measured on
the time the test's processes *could have used*: monotonic time minus the time their
threads spent runnable but waiting for a CPU (Linux's ``run_delay``, the second field of
``/proc/<pid>/task/<tid>/schedstat``), over this process and its descendants. Time the
bot spends running its own code, or awaiting a database, a lock or a sleep, counts as it
does on Discord; only time taken from it by other processes does not. When several of
those threads wait for a CPU at once their waits all come off, so under contention the
clock errs lenient, never strict: a suite on a loaded machine cannot fail here, and a
handler that really takes 3 s still does. Where schedstat is missing, plain monotonic
time.

A test of the deadline itself gives the emulator a clock of its own
(``Emulator(clock=...)``) and moves it: no test sleeps to reach a deadline.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path

#: Seconds Discord waits for an interaction's first response.
CALLBACK_DEADLINE_S = 3.0
#: Seconds an interaction's token serves followups and edits of its response.
TOKEN_LIFETIME_S = 15 * 60.0

Clock = Callable[[], float]

PROC = Path("/proc")


class RunnableClock:
    """Monotonic seconds, less the time the threads of this process and of its child
    processes (a bot a test runs as a process of its own) waited for a CPU."""

    def __init__(self, proc: Path = PROC, pid: int | None = None) -> None:
        self._proc = proc
        self._pid = pid if pid is not None else os.getpid()
        #: Each thread's run_delay when last read, to add only what it waited since.
        self._seen: dict[str, int] = {}
        self._waited_ns = 0

    def __call__(self) -> float:
        return time.monotonic() - self._waited() / 1e9

    def _waited(self) -> int:
        for task in self._tasks():
            delay = _run_delay(task / "schedstat")
            if delay is None:
                continue
            # A thread first seen now waited before this clock watched it: not counted.
            key = str(task)
            self._waited_ns += delay - self._seen.get(key, delay)
            self._seen[key] = delay
        return self._waited_ns

    def _tasks(self) -> Iterator[Path]:
        """Every thread of the process and of its descendants, as /proc lists them."""
        pids, done = [str(self._pid)], set()
        while pids:
            pid = pids.pop()
            if pid in done:
                continue
            done.add(pid)
            try:
                tasks = sorted((self._proc / pid / "task").iterdir())
            except OSError:  # the process ended meanwhile
                continue
            for task in tasks:
                yield task
                pids.extend(_children(task))


def _children(task: Path) -> list[str]:
    try:
        return (task / "children").read_text().split()
    except OSError:
        return []


def _run_delay(path: Path) -> int | None:
    try:
        fields = path.read_text().split()
    except OSError:  # the thread ended meanwhile, or no schedstat here
        return None
    return int(fields[1]) if len(fields) > 1 else None


def default_clock() -> Clock:
    """The runnable clock where the kernel keeps schedstat, else monotonic time."""
    own = PROC / str(os.getpid()) / "task" / str(os.getpid())
    if _run_delay(own / "schedstat") is None:
        return time.monotonic
    return RunnableClock()
