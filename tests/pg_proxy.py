"""A TCP relay between a store and PostgreSQL that cuts connections on cue.

Tests of the store's faults need a connection to die at an exact point: at COMMIT, either
before the server has it (the transaction is rolled back) or after the server committed
but before its answer arrives (the transaction is saved, and the client cannot know).
Killing the backend from another session cannot aim at the second point; a relay can.
It also refuses every connection while ``down``, as a server that is restarting does.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Literal
from urllib.parse import urlsplit, urlunsplit

CutAt = Literal["before", "after"]


class PgProxy:
    """Relays ``127.0.0.1:<port>`` to the server of ``upstream`` (a ``postgresql://`` URL)."""

    def __init__(self, upstream: str) -> None:
        parts = urlsplit(upstream)
        self._upstream = upstream
        self._host = parts.hostname or "127.0.0.1"
        self._port = parts.port or 5432
        self._server: asyncio.Server | None = None
        self._links: set[asyncio.StreamWriter] = set()
        #: Cut the next connection that sends COMMIT: "before" the server has it, or
        #: "after" it answered (the answer is dropped); then back to None.
        self.cut_at_commit: CutAt | None = None
        #: Set when a cut at COMMIT happened.
        self.cut = asyncio.Event()
        #: While set, every connection is refused at once.
        self.down = False
        #: Go down (every connection cut, new ones refused) when the cut at COMMIT fires.
        self.down_at_cut = False

    async def start(self) -> str:
        """Listen; return ``upstream`` with its host and port replaced by the relay's."""
        self._server = await asyncio.start_server(self._link, "127.0.0.1", 0)
        port = self._server.sockets[0].getsockname()[1]
        parts = urlsplit(self._upstream)
        auth = parts.netloc.rpartition("@")[0]
        netloc = f"{auth}@127.0.0.1:{port}" if auth else f"127.0.0.1:{port}"
        return urlunsplit(parts._replace(netloc=netloc))

    def drop_all(self) -> None:
        """Cut every open connection, as a server restart does."""
        for writer in list(self._links):
            writer.close()

    async def close(self) -> None:
        self.drop_all()
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()

    async def _link(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.down:
            writer.close()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(self._host, self._port)
        except OSError:
            writer.close()
            return
        self._links.update((writer, up_writer))
        answer_lost = asyncio.Event()
        try:
            await asyncio.gather(
                self._to_server(reader, up_writer, writer, answer_lost),
                self._to_client(up_reader, writer, up_writer, answer_lost),
            )
        finally:
            for each in (writer, up_writer):
                self._links.discard(each)
                each.close()

    async def _to_server(
        self,
        reader: asyncio.StreamReader,
        up: asyncio.StreamWriter,
        client: asyncio.StreamWriter,
        answer_lost: asyncio.Event,
    ) -> None:
        with contextlib.suppress(OSError, ConnectionError):
            while chunk := await reader.read(65536):
                cut = self.cut_at_commit if chunk[:1] == b"Q" and b"COMMIT" in chunk else None
                if cut == "before":
                    self._fired()
                    break
                if cut == "after":
                    answer_lost.set()  # before the server can answer
                    self._fired()
                up.write(chunk)
                await up.drain()
        up.close()
        client.close()

    async def _to_client(
        self,
        up_reader: asyncio.StreamReader,
        client: asyncio.StreamWriter,
        up: asyncio.StreamWriter,
        answer_lost: asyncio.Event,
    ) -> None:
        with contextlib.suppress(OSError, ConnectionError):
            while chunk := await up_reader.read(65536):
                if answer_lost.is_set():
                    break  # the server committed and answered; the answer never arrives
                client.write(chunk)
                await client.drain()
        client.close()
        up.close()

    def _fired(self) -> None:
        self.cut_at_commit = None
        self.cut.set()
        if self.down_at_cut:
            self.down = True
            self.drop_all()
