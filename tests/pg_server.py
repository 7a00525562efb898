"""A private PostgreSQL server for tests that stop and start it (never the shared one).

``PrivateServer`` makes a cluster in a temporary folder, starts it on a free port of the
loopback, and can restart it (stop, then start again after the test's own step). It needs
PostgreSQL 15's binaries; run as root, it runs them as the ``postgres`` account, since
``initdb`` refuses root. A test that uses it skips when either is missing.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

BIN = Path(os.environ.get("DISPATCH_TEST_PG_BIN", "/usr/lib/postgresql/15/bin"))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PrivateServer:
    def __init__(self, folder: Path, port: int) -> None:
        self.folder = folder
        self.port = port
        self.url = f"postgresql://postgres@127.0.0.1:{port}/postgres"

    def _run(self, *args: str) -> None:
        command = [str(BIN / args[0]), *args[1:]]
        if os.geteuid() == 0:
            command = ["su", "postgres", "-c", " ".join(command)]
        subprocess.run(command, check=True, capture_output=True, timeout=120)

    def init(self) -> None:
        self._run("initdb", "-D", str(self.folder / "data"), "-A", "trust", "-U", "postgres")

    def start(self) -> None:
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        log = self.folder / "log"
        self._run(
            "pg_ctl",
            "-D",
            str(self.folder / "data"),
            "-l",
            str(log),
            "-w",
            "-o",
            f"'{options}'",
            "start",
        )

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", mode, "-w", "stop")


@contextmanager
def private_server() -> Iterator[PrivateServer]:
    """A started private server, stopped and removed afterwards."""
    if not (BIN / "initdb").exists():
        pytest.skip(f"no PostgreSQL binaries in {BIN} (set DISPATCH_TEST_PG_BIN)")
    if os.geteuid() == 0:
        try:
            account = pwd.getpwnam("postgres")
        except KeyError:
            pytest.skip("running as root with no postgres account to run PostgreSQL as")
    folder = Path(tempfile.mkdtemp(prefix="dispatch-pg-"))
    if os.geteuid() == 0:
        os.chown(folder, account.pw_uid, account.pw_gid)
    server = PrivateServer(folder, _free_port())
    try:
        server.init()
        server.start()
        yield server
    finally:
        with contextlib.suppress(subprocess.CalledProcessError):  # already stopped
            server.stop("immediate")
        shutil.rmtree(folder, ignore_errors=True)
