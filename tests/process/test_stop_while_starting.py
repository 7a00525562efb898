"""SIGTERM while a process is still starting (its database not yet answering) ends it
with exit 0: a supervisor stopping it must not read a crash."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


class SilentServer:
    """Accepts connections on the loopback and never answers, as a database that is
    still starting may keep a client waiting."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen()
        self.port = int(self.sock.getsockname()[1])
        self.accepted = threading.Event()
        self._held: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        try:
            while True:
                conn, _ = self.sock.accept()
                self._held.append(conn)
                self.accepted.set()
        except OSError:
            return

    def close(self) -> None:
        self.sock.close()
        for conn in self._held:
            conn.close()


@contextmanager
def silent_server() -> Iterator[SilentServer]:
    server = SilentServer()
    try:
        yield server
    finally:
        server.close()


@pytest.mark.parametrize("command", [["worker"], []], ids=["dispatch worker", "dispatch"])
def test_sigterm_while_the_database_opens_exits_0(command: list[str]) -> None:
    with silent_server() as server:
        env = {
            **os.environ,
            "PYTHONPATH": str(ROOT),
            "DISPATCH_DATABASE_URL": f"postgresql://dispatch@127.0.0.1:{server.port}/dispatch",
            "DISCORD_TOKEN": "not-a-real-token",
        }
        process = subprocess.Popen(
            [sys.executable, "-m", "bot", *command],
            cwd=ROOT,
            env=env,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            # Waiting on the other process: it is opening its database, still starting.
            assert server.accepted.wait(60), "the process never reached its database"
            process.send_signal(signal.SIGTERM)
            assert process.wait(timeout=30) == 0
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
        assert process.stderr is not None
        assert "Traceback" not in process.stderr.read()
