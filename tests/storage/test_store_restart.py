"""A real ``dispatch worker`` rides out a restart of its PostgreSQL server (a private one:
the shared server is never stopped): one WARNING when the database goes out of reach,
one INFO when it is back, no traceback, no broken connection lent again; its heartbeats
go on afterwards, and SIGTERM still stops it cleanly (exit 0, its row removed)."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO

import asyncpg
import pytest
from conftest import FakeClock, RecordingFrontEnd
from pg_server import private_server

from bot.storage.store import Store
from bot.tables.manager import GameManager
from bot.tables.requests import Move, NewGame

ROOT = Path(__file__).resolve().parents[2]


def start_worker(url: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DISPATCH_DATABASE_URL": url}
    env.pop("DISPATCH_DB", None)
    env["DISPATCH_LOG_LEVEL"] = "INFO"
    return subprocess.Popen(
        [sys.executable, "-m", "bot", "worker"],
        cwd=ROOT,
        env=env,
        stderr=subprocess.PIPE,
        text=True,
    )


async def _heartbeats(url: str) -> list[float]:
    conn = await asyncpg.connect(url, timeout=30)
    try:
        return [float(r[0]) for r in await conn.fetch("SELECT heartbeat_at FROM bot_workers")]
    finally:
        await conn.close()


def heartbeats(url: str) -> list[float] | None:
    """The workers' last beats, or None while the server does not answer."""
    try:
        return asyncio.run(_heartbeats(url))
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, TimeoutError):
        return None


def wait_for(
    what: Callable[[], bool], worker: subprocess.Popen[str], seconds: float, log: Lines
) -> None:
    """Wait on the other process (not on a clock of ours) until ``what`` holds."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert worker.poll() is None, f"the worker ended ({worker.returncode}):\n{log.text()}"
        if what():
            return
        time.sleep(0.1)
    raise AssertionError("the worker never got there")


async def _migrate(url: str) -> None:
    store = await Store.open(url)
    await store.close()


class Lines:
    """The worker's log lines as they come (read on a thread, so a test can wait on one)."""

    def __init__(self, worker: subprocess.Popen[str]) -> None:
        assert worker.stderr is not None
        self.lines: list[str] = []
        self._thread = threading.Thread(target=self._read, args=(worker.stderr,), daemon=True)
        self._thread.start()

    def _read(self, stream: IO[str]) -> None:
        for line in stream:
            self.lines.append(line)

    def saying(self, words: str) -> bool:
        return any(words in line for line in self.lines)

    def text(self) -> str:
        self._thread.join(timeout=10)
        return "".join(self.lines)


def test_a_worker_rides_out_a_database_restart_and_still_stops_cleanly() -> None:
    with private_server() as server:
        asyncio.run(_migrate(server.url))
        worker = start_worker(server.url)
        log = Lines(worker)
        try:
            wait_for(lambda: bool(heartbeats(server.url)), worker, 60, log)
            server.stop("fast")  # its connections cut, as at a restart
            # Down until the worker has met the outage (and said so), then back.
            wait_for(lambda: log.saying("out of reach"), worker, 60, log)
            server.start()
            back_at = time.time()
            # It beats again: it did not die, and it reconnected.
            wait_for(
                lambda: any(b >= back_at for b in heartbeats(server.url) or []), worker, 60, log
            )
            worker.send_signal(signal.SIGTERM)
            assert worker.wait(timeout=60) == 0
        finally:
            if worker.poll() is None:
                worker.kill()
                worker.wait()
        assert heartbeats(server.url) == []  # its row went with the clean stop
    text = log.text()
    assert text.count("out of reach") == 1, text
    assert text.count("the database is back") == 1, text
    assert "Traceback" not in text, text
    assert "another operation is in progress" not in text, text


def test_a_worker_started_while_the_database_is_down_waits_for_it() -> None:
    """A worker (re)started while PostgreSQL restarts waits for it, saying so once each
    way, instead of giving up with exit 3 (a supervisor would count that as a failure)."""
    with private_server() as server:
        asyncio.run(_migrate(server.url))
        server.stop("fast")
        worker = start_worker(server.url)
        log = Lines(worker)
        try:
            wait_for(lambda: log.saying("waiting for it to answer"), worker, 60, log)
            server.start()
            wait_for(lambda: bool(heartbeats(server.url)), worker, 60, log)
            worker.send_signal(signal.SIGTERM)
            assert worker.wait(timeout=60) == 0
        finally:
            if worker.poll() is None:
                worker.kill()
                worker.wait()
    text = log.text()
    assert text.count("waiting for it to answer") == 1, text
    assert text.count("answers again") == 1, text
    assert "Traceback" not in text, text


@pytest.mark.usefixtures("toy_game")
async def test_the_bots_background_pass_rides_out_a_restart_quietly(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO)
    with private_server() as server:
        manager = await GameManager.open(server.url, RecordingFrontEnd(), clock=FakeClock())
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        background = loop.create_task(manager.background.run(interval_s=0.05, stop=stop))
        try:
            await manager.create_game("g1", "c1", "alice", NewGame("toy", seed=5))
            game = await manager.join("c1", "bob")
            await asyncio.to_thread(server.stop, "fast")
            await until(lambda: not manager.store.reach.reachable, background)
            await asyncio.to_thread(server.start)
            await until(lambda: manager.store.reach.reachable, background)
            # Back: a move made now is delivered by the background pass, game healthy.
            await manager.act(game.id, "alice", Move("add", 1), deliver=False)
            await until_delivered(manager, game.id, background)
            async with manager.store.read() as db:
                row = await db.game(game.id)
            assert row is not None and row.damaged is None
        finally:
            stop.set()
            await background
            await manager.close()
    noisy = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert noisy == [], [r.getMessage() for r in noisy]
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert sum("out of reach" in w for w in warnings) == 1, warnings


async def until(what: Callable[[], bool], background: asyncio.Task[None]) -> None:
    """Wait on the background loop (it runs every 50 ms) until ``what`` holds."""
    for _ in range(1200):
        assert not background.done(), "the background loop ended"
        if what():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the background loop never got there")


async def until_delivered(
    manager: GameManager, game_id: int, background: asyncio.Task[None]
) -> None:
    for _ in range(1200):
        assert not background.done(), "the background loop ended"
        async with manager.store.read() as db:
            if not await db.outbox.undelivered(game_id):
                return
        await asyncio.sleep(0.05)
    raise AssertionError("never delivered")
