"""A PostgreSQL server of the chaos run's own, which the run restarts mid-play.

The shared test server (``DISPATCH_TEST_POSTGRES``) serves every test at once and is
never restarted; a run that restarts PostgreSQL starts this one instead: ``initdb`` in a
fresh folder of ``/tmp`` (readable by the ``postgres`` account, which the server runs as
when the tests run as root), on a free loopback port, fsync off. Needs the server's
programs (``/usr/lib/postgresql/*/bin``); :func:`binaries` is None without them.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path


def binaries() -> Path | None:
    """The folder of ``initdb`` and ``pg_ctl``, newest version first; None without."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"), reverse=True)
    if found:
        return found[0].parent
    on_path = shutil.which("pg_ctl")
    return Path(on_path).parent if on_path else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PrivateServer:
    """``start`` it, ``restart`` it (its clients see their connections dropped), and
    ``stop`` it; ``url`` is its ``postgres`` database's."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin = bin_dir
        self.folder = Path(tempfile.mkdtemp(prefix="dispatch-chaos-pg-", dir="/tmp"))
        self.data = self.folder / "data"
        self.port = _free_port()
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _as_server(self, args: Sequence[str]) -> list[str]:
        """``args`` run as the ``postgres`` account when this is root (initdb and the
        server refuse root)."""
        if os.geteuid() != 0:
            return list(args)
        return ["su", "postgres", "-c", subprocess.list2cmdline(list(args))]

    def _ctl(self, *args: str) -> list[str]:
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        where = ["-D", str(self.data), "-l", str(self.folder / "log")]
        return self._as_server([str(self.bin / "pg_ctl"), *where, "-w", "-o", options, *args])

    def start(self) -> None:
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres")
        init = [str(self.bin / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres"]
        subprocess.run(self._as_server(init), check=True, capture_output=True)
        subprocess.run(self._ctl("start"), check=True, capture_output=True)

    async def restart(self, down_s: float = 1.0) -> None:
        """Stop the server at once (every connection dropped, as a crash or a failover
        does), stay down ``down_s``, start it again; without blocking the event loop."""
        await _run(self._ctl("stop", "-m", "immediate"))
        await asyncio.sleep(down_s)
        await _run(self._ctl("start"))

    def stop(self) -> None:
        subprocess.run(self._ctl("stop", "-m", "immediate"), capture_output=True)
        shutil.rmtree(self.folder, ignore_errors=True)


async def _run(args: Sequence[str]) -> None:
    process = await asyncio.create_subprocess_exec(
        *args, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL
    )
    if await process.wait() != 0:
        raise RuntimeError(f"{args[0]} failed ({process.returncode})")


@contextlib.contextmanager
def private_server() -> Iterator[PrivateServer | None]:
    """A started server for the block, stopped and removed after; None without the
    server's programs."""
    bin_dir = binaries()
    if bin_dir is None:
        yield None
        return
    server = PrivateServer(bin_dir)
    try:
        server.start()
        yield server
    finally:
        server.stop()
