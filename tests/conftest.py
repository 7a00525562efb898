"""Shared fixtures: a temp store on each engine, a controllable clock, a recording front
end, and the toy game registered into ``rules.GAMES`` (only for tests that ask for it, so
the generic rules tests never see it).

Every test that asks for ``db_path`` (or ``manager``) runs twice: on a SQLite file and on a
fresh PostgreSQL database (``store_engine``). The PostgreSQL run needs a server named by
``DISPATCH_TEST_POSTGRES`` (a ``postgresql://`` URL whose user may create databases); without
one it is skipped, saying so. Each test's database is copied from a template migrated
once per worker process, and named after that process, so xdist workers never collide.
A test about the SQLite file itself is marked ``sqlite_only``.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import sys
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

# The checkout is not installed into the venv; make `bot`, `rules`, `render` importable.
ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import rules  # noqa: E402
from bot.delivery.port import GameInfo, PrivateMessage, SeatInfo, TablePost  # noqa: E402
from bot.errors import DeliveryRetry, DirectMessageClosed  # noqa: E402
from bot.tables.bots import BotSeats  # noqa: E402
from bot.tables.manager import GameManager  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from toy_game import GAME as TOY  # noqa: E402


@pytest.fixture
def toy_game(monkeypatch: pytest.MonkeyPatch) -> object:
    monkeypatch.setitem(rules.GAMES, TOY.name, TOY)
    return TOY


ENGINES = ("sqlite", "postgresql")
POSTGRES_ENV = "DISPATCH_TEST_POSTGRES"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "sqlite_only: a test about the SQLite file itself (not run on PostgreSQL)"
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "store_engine" in metafunc.fixturenames:
        sqlite_only = metafunc.definition.get_closest_marker("sqlite_only") is not None
        metafunc.parametrize("store_engine", ENGINES[:1] if sqlite_only else ENGINES)


class PostgresDatabases:
    """Fresh databases on the test server, copied from a template migrated once."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.prefix = f"dispatch_test_{os.getpid()}"
        self.template = f"{self.prefix}_template"
        self._names = itertools.count(1)
        self._made: list[str] = []
        self._ready = False

    def _url(self, name: str) -> str:
        base, _, _ = self.url.rstrip("/").rpartition("/")
        return f"{base}/{name}"

    async def _admin(self, *statements: str) -> None:
        import asyncpg

        conn = await asyncpg.connect(self.url)
        try:
            for sql in statements:
                await conn.execute(sql)
        finally:
            await conn.close()

    async def _fresh(self) -> str:
        from bot.storage.store import Store

        if not self._ready:
            await self._admin(
                f"DROP DATABASE IF EXISTS {self.template}", f"CREATE DATABASE {self.template}"
            )
            store = await Store.open(self._url(self.template))
            await store.close()
            self._ready = True
        name = f"{self.prefix}_{next(self._names)}"
        await self._admin(
            f"DROP DATABASE IF EXISTS {name}", f"CREATE DATABASE {name} TEMPLATE {self.template}"
        )
        self._made.append(name)
        return self._url(name)

    def fresh(self) -> str:
        return asyncio.run(self._fresh())

    def drop_all(self) -> None:
        names = [*self._made, self.template] if self._ready else self._made
        drops = [f"DROP DATABASE IF EXISTS {n} WITH (FORCE)" for n in names]
        if drops:
            asyncio.run(self._admin(*drops))


@pytest.fixture(scope="session")
def postgres_databases() -> Iterator[PostgresDatabases | None]:
    url = os.environ.get(POSTGRES_ENV)
    if not url:
        yield None
        return
    databases = PostgresDatabases(url)
    yield databases
    databases.drop_all()


@pytest.fixture
def db_path(
    store_engine: str, tmp_path: Path, postgres_databases: PostgresDatabases | None
) -> Path | str:
    """Where the test's store lives: a SQLite file, or a fresh PostgreSQL database's URL."""
    if store_engine == "sqlite":
        return tmp_path / "dispatch.sqlite3"
    if postgres_databases is None:
        pytest.skip(f"PostgreSQL run: no server (set {POSTGRES_ENV}=postgresql://...)")
    return postgres_databases.fresh()


class FakeClock:
    """Epoch seconds that only move when a test says so."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@dataclass
class Delivery:
    kind: str  # "table" or "private"
    game: GameInfo
    post: TablePost | None = None
    seat: SeatInfo | None = None
    message: PrivateMessage | None = None


@dataclass
class RecordingFrontEnd:
    """Implements the FrontEnd port and remembers every delivery.

    ``closed_dms``: user ids whose DMs are closed (permanent failure).
    ``transient_failures``: how many next deliveries fail with DeliveryRetry.
    ``crash``: every delivery raises RuntimeError (a front end that is down).
    """

    deliveries: list[Delivery] = field(default_factory=list)
    closed_dms: set[str] = field(default_factory=set)
    transient_failures: int = 0
    crash: bool = False
    attempts: int = 0
    refused: list[str] = field(default_factory=list)

    def _fail(self) -> None:
        self.attempts += 1
        if self.crash:
            raise RuntimeError("front end is down")
        if self.transient_failures > 0:
            self.transient_failures -= 1
            raise DeliveryRetry("rate limited")

    async def post_table(self, game: GameInfo, post: TablePost) -> None:
        self._fail()
        self.deliveries.append(Delivery("table", game, post=post))

    async def send_private(self, game: GameInfo, seat: SeatInfo, message: PrivateMessage) -> None:
        if seat.user_id in self.closed_dms:
            self.attempts += 1
            self.refused.append(seat.user_id)
            raise DirectMessageClosed("50007")
        self._fail()
        self.deliveries.append(Delivery("private", game, seat=seat, message=message))

    @property
    def posts(self) -> list[TablePost]:
        return [d.post for d in self.deliveries if d.post is not None]

    def privates(self, user_id: str | None = None) -> list[PrivateMessage]:
        return [
            d.message
            for d in self.deliveries
            if d.message is not None and (user_id is None or (d.seat and d.seat.user_id == user_id))
        ]

    def clear(self) -> None:
        self.deliveries.clear()


@pytest.fixture
def front_end() -> RecordingFrontEnd:
    return RecordingFrontEnd()


@pytest.fixture
async def manager(
    toy_game: object, db_path: Path, front_end: RecordingFrontEnd, clock: FakeClock
) -> AsyncIterator[GameManager]:
    m = await GameManager.open(db_path, front_end, clock=clock)
    BotSeats.attach(m)  # as every process assembles it: Dispatch's seats listen
    yield m
    await m.close()
