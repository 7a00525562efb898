"""The page's server: inside the bot's process (``DISPATCH_WEB_PORT``) or alone
(``dispatch web``), on a read-only store of its own (``bot.storage.read_only``).

It holds no Discord token and writes nothing. How it hears of committed turns
(``bot.web.changes``): LISTEN on PostgreSQL wherever it runs; the bot's manager inside
the bot's process on SQLite; nothing when it runs alone on SQLite, where its pages say
to reload.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from aiohttp import web

from bot.config import Config, ConfigError, WebSettings, setup_logging
from bot.process.lifecycle import graceful
from bot.storage.engines import is_postgres_url
from bot.storage.notify import Listener
from bot.storage.read_only import open_read_only
from bot.storage.store import StoreUnavailable
from bot.tables.listeners import TableListener
from bot.web.app import Room, make_app
from bot.web.changes import GAMES_CHANNEL, ManagerHeard, heard_notification
from bot.web.limits import RateLimit
from bot.web.streams import StreamCount

log = logging.getLogger("dispatch.web")

#: The port ``dispatch web`` listens on when DISPATCH_WEB_PORT does not say.
DEFAULT_PORT = 8080
#: Requests an address may make at once, then a second (a page costs about five).
BURST = 40
RATE = 4.0
#: How long connecting to PostgreSQL's LISTEN may take.
LISTEN_TIMEOUT_S = 10.0

USAGE = "usage: dispatch web [--port N]   serve the spectator page alone (docs/web.md)"


class Announcer(Protocol):
    """The bot's manager as the page needs it: something to listen to."""

    def add_listener(self, listener: TableListener) -> None: ...

    def remove_listener(self, listener: TableListener) -> None: ...


class WebServer:
    """The page served on a port: its store, its application, what it hears from."""

    def __init__(self, room: Room, runner: web.AppRunner) -> None:
        self.room = room
        self.runner = runner
        self._listener: Listener | None = None
        self._announcer: tuple[Announcer, ManagerHeard] | None = None

    @classmethod
    async def start(
        cls,
        target: Path | str,
        settings: WebSettings,
        port: int,
        *,
        manager: Announcer | None = None,
        clock: Callable[[], float] = time.monotonic,
        limit: RateLimit | None = None,
        streams: StreamCount | None = None,
    ) -> WebServer:
        """Open the read-only store on ``target``, hear of turns the best way there is,
        and listen on ``settings.host``:``port`` (0: any free port, for tests). ``limit``
        and ``streams``: other limits than each address's default requests and open
        streams (a bench's many pages from one address)."""
        store = await open_read_only(target)
        room = Room(
            store,
            limit or RateLimit(RATE, BURST, clock),
            secret=settings.secret,
            trust_proxy=settings.trust_proxy,
            streams=streams or StreamCount(),
        )
        runner = web.AppRunner(make_app(room), shutdown_timeout=2.0)
        server = cls(room, runner)
        try:
            await server._hear(target, manager)
            await runner.setup()
            await web.TCPSite(runner, settings.host, port).start()
        except BaseException:
            await server.close()
            raise
        log.info(
            "the spectator page is served on %s:%d (live: %s)",
            settings.host,
            server.port,
            room.live,
        )
        return server

    async def _hear(self, target: Path | str, manager: Announcer | None) -> None:
        if is_postgres_url(target):
            listener = Listener(
                str(target), GAMES_CHANNEL, heard_notification(self.room.spectators)
            )
            await listener.open(LISTEN_TIMEOUT_S)
            self._listener = listener
            self.room.live = True
        elif manager is not None:
            heard = ManagerHeard(self.room.spectators)
            manager.add_listener(heard)
            self._announcer = (manager, heard)
            self.room.live = True

    @property
    def port(self) -> int:
        """The port it listens on (the one chosen when it was asked for any free one)."""
        return int(self.runner.addresses[0][1])

    async def close(self) -> None:
        if self._announcer is not None:
            manager, heard = self._announcer
            manager.remove_listener(heard)
        if self._listener is not None:
            await self._listener.close()
        await self.room.spectators.close()
        await self.runner.cleanup()
        await self.room.store.close()


async def serve_alone(config: Config, port: int) -> None:
    server = await WebServer.start(config.store_target, config.web, port)
    stopped = asyncio.Event()

    async def stop() -> None:
        stopped.set()

    try:
        await graceful(stopped.wait(), stop)
    finally:
        await server.close()


def main(args: list[str]) -> int:
    """``dispatch web``: serve the page alone until SIGTERM (exit 0)."""
    try:
        config = Config.from_env()
        port = _port(args, config.web)
    except ConfigError as exc:
        print(f"dispatch web: {exc}\n{USAGE}", file=sys.stderr)
        return 2
    setup_logging(config.log_level)
    try:
        asyncio.run(serve_alone(config, port))
    except StoreUnavailable as exc:
        print(f"dispatch web: {exc}", file=sys.stderr)
        return exc.exit_code
    except OSError as exc:  # the port taken, or PostgreSQL's LISTEN refused
        print(f"dispatch web: cannot serve on port {port}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 0
    return 0


def _port(args: list[str], settings: WebSettings) -> int:
    if not args:
        return settings.port or DEFAULT_PORT
    digits = args[1] if len(args) == 2 and args[0] == "--port" else ""
    # ASCII digits only: str.isdigit() also takes "²", which int() refuses.
    if digits.isascii() and digits.isdigit() and 0 < int(digits) < 65536:
        return int(digits)
    raise ConfigError(f"takes --port N (a port from 1 to 65535), not {' '.join(args)[:60]!r}")
