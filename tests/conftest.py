"""Shared fixtures: a temp store on each engine, a controllable clock, a recording front
end, and the toy game registered into ``rules.GAMES`` (only for tests that ask for it, so
the generic rules tests never see it).

Every test that asks for ``db_path`` (or ``manager``) runs twice: on a SQLite file and on a
fresh PostgreSQL database (``store_engine``). The PostgreSQL run needs a server named by
``DISPATCH_TEST_POSTGRES`` (a ``postgresql://`` URL whose user may create databases); without
one it is skipped, saying so. Each test's database is copied from a template migrated
once per worker process, and named after that process, so xdist workers never collide.
A test about the SQLite file itself is marked ``sqlite_only``, with a comment saying why:
its pragmas, its file lock, and SQLite's query planner (PostgreSQL's plans are checked at
10,000 games by tests/storage/test_store_plans_pg.py).

The Discord end-to-end tests take the engine the same way: a test that asks for
``db_path`` hands it to ``table(tmp_path, ..., store=db_path)`` (tests/discord_helpers.py)
and the real bot runs on that store. Not every one does: the Discord suite has a time
budget, and most of it exercises the front end over the same store calls. These run on
both, each for a way it uses the store that differs by engine (PostgreSQL's pool of
connections, its game locks, its claims with a lease, its types):

- whole games by clicks, with a restart: skirmish
  (test_discord_e2e.py::test_nothing_hidden_reaches_the_channel_in_a_whole_game), War
  (test_discord_e2e_war.py) and Fort Sumter (test_discord_e2e_fort_sumter.py::
  test_whole_fort_sumter_game...). Lincoln's whole game (test_discord_e2e_every_game.py)
  takes over a minute of play by itself and stays on SQLite; its rows are the same kinds;
- concurrent clicks on one game and a race for the last seat (test_discord_e2e.py::
  test_double_click_changes_state_once, ::test_two_players_race_for_the_last_seat);
- a thread per game, and a game moved into one (test_discord_threads.py::
  test_game_new_opens_a_thread..., ::test_a_moderator_moves_a_game_into_a_thread...);
- clocks, time running out and claiming the win, a claim racing a last move
  (test_discord_clocks.py::test_a_fast_game_times_out..., test_discord_claim.py::
  test_a_claim_ends_the_game_on_time, ::test_a_claim_racing_the_last_second_move...),
  and a vacation pausing a clock (test_discord_vacation.py::test_a_vacation_pauses...);
- history pages by keyset, /stats, games being played past a page
  (test_discord_history.py::test_finished_games_page_by_buttons..., ::test_stats_of...,
  ::test_games_being_played_page_by_buttons_past_ten);
- ratings and the leaderboard across a restart (test_discord_ratings.py::
  test_the_end_post_and_the_leaderboard_show_one_rating_change_across_a_restart);
- seats changing hands, to a player and to Dispatch (test_discord_seats.py::
  test_an_accepted_offer_gives_the_seat..., ::test_a_hand_over_to_dispatch...);
- a process killed between a send and its mark, its claims taken over and the rows
  resent with their nonce (test_discord_crash.py::test_killed_between_send_and_mark...).
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import itertools
import os
import shutil
import sys
import threading
from collections.abc import AsyncIterator, Coroutine, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

# The checkout is not installed into the venv; make `bot`, `rules`, `render` importable.
ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import rules  # noqa: E402
from bot.delivery.port import GameInfo, PrivateMessage, SeatInfo, TablePost  # noqa: E402
from bot.dispatch_players.bots import BotSeats  # noqa: E402
from bot.errors import DeliveryRetry, DirectMessageClosed  # noqa: E402
from bot.tables.manager import GameManager  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
if TYPE_CHECKING:  # the same file, under the name mypy gives it (from the repository root)
    from tests.toy_game import GAME as TOY
else:  # the name the tests import it by, so TOY's class is the ToyGame they check against
    from toy_game import GAME as TOY

from tests.discord_helpers import ErrorCatcher, catch_errors, register_test_game  # noqa: E402
from tests.pg_proxy import PgProxy  # noqa: E402


@pytest.fixture
def toy_game(monkeypatch: pytest.MonkeyPatch) -> object:
    monkeypatch.setitem(rules.GAMES, TOY.name, TOY)
    return TOY


#: Set to any text, unseeded games in this run take their secret keys (and their seats by
#: lot) from a generator seeded by it and the test's id instead of ``secrets``. Two runs
#: with different values deal every unseeded game differently: a test whose result
#: changes between them depends on the deal, which no test may (README, "Tests").
DEAL_ENV = "DISPATCH_TEST_DEALS"


@pytest.fixture(autouse=True)
def chosen_deals(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Unseeded games dealt from ``DISPATCH_TEST_DEALS`` when it is set (else untouched)."""
    chosen = os.environ.get(DEAL_ENV)
    if not chosen:
        return
    import random

    from bot.tables import lobby
    from rules.core import rng

    deal = random.Random(f"{chosen}:{request.node.nodeid}")
    drawn_seat = lobby.draw_seat

    def new_key() -> str:
        return deal.randbytes(rng.KEY_BYTES).hex()

    def draw_seat(seed: int | None, roles: Any) -> str:
        return drawn_seat(deal.getrandbits(32) if seed is None else seed, roles)

    monkeypatch.setattr(lobby, "new_key", new_key)
    monkeypatch.setattr(lobby, "draw_seat", draw_seat)


ENGINES = ("sqlite", "postgresql")
POSTGRES_ENV = "DISPATCH_TEST_POSTGRES"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "sqlite_only: a test about the SQLite file itself (not run on PostgreSQL)"
    )


#: Whether the rules run compiled here (``dispatch compile-rules``, current).
RULES_COMPILED = rules.compiled.is_compiled(sys.modules["rules.core.game"])


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Against the compiled rules, the tests that need them as source are skipped, saying
    so (a checkout compiled for speed still runs the README's test command green)."""
    if not RULES_COMPILED:
        return
    skip = pytest.mark.skip(
        reason="needs the rules as source (they run compiled here: "
        "`dispatch compile-rules --clean` runs them from source)"
    )
    for item in items:
        if item.get_closest_marker("source_only") is not None:
            item.add_marker(skip)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "store_engine" in metafunc.fixturenames:
        sqlite_only = metafunc.definition.get_closest_marker("sqlite_only") is not None
        metafunc.parametrize("store_engine", ENGINES[:1] if sqlite_only else ENGINES)


class PostgresDatabases:
    """Fresh databases on the test server, copied from a template migrated once.

    A database a test is done with is dropped at once, in the background (a thread with
    its own event loop), while the next tests run: each DROP DATABASE waits for the
    server's checkpoint, and a worker's hundreds of drops left to the end of the session
    made its last test's teardown wait many seconds."""

    #: Databases made ahead, in the background, for the next tests.
    AHEAD = 2

    def __init__(self, url: str) -> None:
        self.url = url
        self.prefix = f"dispatch_test_{os.getpid()}"
        self.template = f"{self.prefix}_template"
        self._names = itertools.count(1)
        self._made: list[str] = []
        self._ready = False
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(
            target=self._loop.run_forever, name="postgres-test-databases", daemon=True
        )
        self._thread.start()
        self._drops: list[concurrent.futures.Future[None]] = []
        self._next: collections.deque[concurrent.futures.Future[str]] = collections.deque()
        self._gate: asyncio.Semaphore | None = None

    def _url(self, name: str) -> str:
        base, _, _ = self.url.rstrip("/").rpartition("/")
        return f"{base}/{name}"

    def _wait(self, work: Coroutine[Any, Any, None]) -> None:
        asyncio.run_coroutine_threadsafe(work, self._loop).result()

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
        """A new database's URL. The next ones are made in the background meanwhile: a
        CREATE DATABASE from the template takes about 0.1 s, which the test that asks
        for one no longer waits for (but the first)."""
        if not self._next:
            self._next.append(asyncio.run_coroutine_threadsafe(self._fresh(), self._loop))
        url = self._next.popleft().result()  # the first also made the template
        while len(self._next) < self.AHEAD:
            self._next.append(asyncio.run_coroutine_threadsafe(self._fresh(), self._loop))
        return url

    async def _drop(self, name: str, at_once: int = 8) -> None:
        if self._gate is None:
            self._gate = asyncio.Semaphore(at_once)
        async with self._gate:
            await self._admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def release(self, url: str) -> None:
        """The test is done with the database ``url``: drop it in the background."""
        name = url.rstrip("/").rpartition("/")[2]
        self._made.remove(name)
        self._drops.append(asyncio.run_coroutine_threadsafe(self._drop(name), self._loop))

    def drop_all(self) -> None:
        """Drop every database not dropped yet, many at a time (drops that wait together
        share one checkpoint), and wait for the drops under way."""

        async def drop_the_rest() -> None:
            await asyncio.gather(*(self._drop(n, at_once=16) for n in self._made))
            if self._ready:
                await self._admin(f"DROP DATABASE IF EXISTS {self.template} WITH (FORCE)")

        try:
            for made in self._next:
                made.result()  # made for tests that never came: dropped below
            for drop in self._drops:
                drop.result()
            self._wait(drop_the_rest())
        finally:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join()
            self._loop.close()


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
def pg_url(postgres_databases: PostgresDatabases | None) -> str:
    """A fresh PostgreSQL database, for a test that runs on PostgreSQL alone (skipped,
    saying so, where no server is set)."""
    if postgres_databases is None:
        pytest.skip(f"PostgreSQL run: no server (set {POSTGRES_ENV}=postgresql://...)")
    return postgres_databases.fresh()


@pytest.fixture
async def proxy(pg_url: str) -> AsyncIterator[PgProxy]:
    """A relay between the store and that database, which a test can cut
    (``tests/pg_proxy.py``)."""
    relay = PgProxy(pg_url)
    yield relay
    await relay.close()


class SqliteTemplate:
    """A SQLite file migrated once per worker process; each test gets a copy of it, as
    each PostgreSQL test gets a database copied from a migrated template (migrating a
    fresh file through every migration costs a test about 60 ms, mostly its syncs)."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / "migrated.sqlite3"
        self._ready = False

    async def _migrate(self) -> None:
        from bot.storage.store import Store

        store = await Store.open(self.path)
        await store.close()

    def copy_to(self, path: Path) -> Path:
        if not self._ready:
            asyncio.run(self._migrate())
            self._ready = True
        shutil.copy(self.path, path)  # its mode too: readable by its owner only
        return path


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> SqliteTemplate:
    return SqliteTemplate(tmp_path_factory.mktemp("sqlite_template"))


@pytest.fixture
def db_path(
    store_engine: str,
    tmp_path: Path,
    postgres_databases: PostgresDatabases | None,
    sqlite_template: SqliteTemplate,
) -> Iterator[Path | str]:
    """Where the test's store lives: a SQLite file, or a fresh PostgreSQL database's URL;
    either already migrated, as a store that has run before."""
    if store_engine == "sqlite":
        yield sqlite_template.copy_to(tmp_path / "dispatch.sqlite3")
        return
    if postgres_databases is None:
        pytest.skip(f"PostgreSQL run: no server (set {POSTGRES_ENV}=postgresql://...)")
    url = postgres_databases.fresh()
    yield url
    postgres_databases.release(url)


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


# -- the Discord tests' guards ----------------------------------------------------------------
@pytest.fixture
def discord_guard() -> Iterator[ErrorCatcher]:
    """No ERROR left in discord.py's loggers: nothing went unhandled (with the test game
    registered). A Discord test module uses it with ``pytest.mark.usefixtures``."""
    register_test_game()
    with catch_errors() as errors:
        yield errors
    assert errors.discord_errors() == []


@pytest.fixture
def strict_guard() -> Iterator[ErrorCatcher]:
    """No ERROR in any logger, discord.py's or Dispatch's own."""
    register_test_game()
    with catch_errors() as errors:
        yield errors
    assert errors.all_errors() == []
