"""Dispatch's worker processes end with the bot.

Found by careful play: ``kill -9`` of the bot while Dispatch was thinking left its worker
process and multiprocessing's resource tracker alive for good (six orphans after three
kills). Here a real bot-seat worker is started thinking on a War position in a child
process, the child is killed with SIGKILL, and both the worker and the tracker must be
gone soon after.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from bot.dispatch_players import processes

ROOT = Path(__file__).resolve().parents[2]

#: A bot process whose seat is thinking (for a long time) in its worker; it prints the
#: worker's and the resource tracker's process ids, then waits for the decision.
THINKING_BOT = textwrap.dedent(
    """
    import asyncio
    import multiprocessing.resource_tracker as tracker

    import rules
    from bot.dispatch_players.bots import BotSeats
    from bot.dispatch_players.decision import SeatTurn

    async def main():
        game = rules.get_game("war")
        state = game.setup(seed=1)
        role = game.active_roles(state)[0]
        seats = BotSeats(None, iterations=10**9, cap_seconds=120.0)
        thinking = asyncio.ensure_future(
            seats._decide("war", 1, role, "normal", game.view(state, role), SeatTurn(1))
        )
        while not (seats._pools and seats._pools[0]._processes):
            await asyncio.sleep(0.01)
        workers = list(seats._pools[0]._processes)
        print(*workers, tracker._resource_tracker._pid, flush=True)
        await thinking

    asyncio.run(main())
    """
)


def alive(pid: int) -> bool:
    """Running, not merely a zombie nobody has reaped (the container's init may not)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return False
    return fields[0] != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_killing_the_bot_while_it_thinks_leaves_no_worker_or_tracker() -> None:
    bot = subprocess.Popen(
        [sys.executable, "-c", THINKING_BOT],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        text=True,
    )
    orphans: list[int] = []
    try:
        assert bot.stdout is not None
        orphans = [int(pid) for pid in bot.stdout.readline().split()]
        assert len(orphans) == 2 and all(alive(pid) for pid in orphans), orphans
    finally:
        bot.send_signal(signal.SIGKILL)
        bot.wait()
    # Waiting on other processes, not on a clock of ours: a worker checks every
    # PARENT_WATCH_S (0.5 s), and the tracker ends when the last holder of its pipe has.
    deadline = time.monotonic() + 15
    while any(alive(pid) for pid in orphans) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = [pid for pid in orphans if alive(pid)]
    for pid in left:  # never leave them behind for the next test run
        os.kill(pid, signal.SIGKILL)
    assert left == [], "orphaned worker or resource tracker"


def test_a_worker_ends_when_its_parent_id_changes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The watch itself, in this process: it ends the worker once the parent is gone."""
    ended: list[int] = []
    parents = iter([100, 100, 1])
    monkeypatch.setattr(os, "getppid", lambda: next(parents))
    monkeypatch.setattr(os, "_exit", ended.append)
    monkeypatch.setattr(processes.threading, "Thread", InlineThread)
    processes.watch_parent(100, interval=0.0)
    assert ended == [0]


class InlineThread:
    """Runs the target at ``start()`` in this thread (no real time, no real thread)."""

    def __init__(self, target: object, name: str, daemon: bool) -> None:
        self.target = target
        assert daemon  # a daemon: it never holds the worker open

    def start(self) -> None:
        self.target()  # type: ignore[operator]
