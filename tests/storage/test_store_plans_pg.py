"""PostgreSQL answers every hot query from its index with 10,000 finished games stored
(the "fast and small at 10,000 games" rule): the twins of SQLite's plan tests
(tests/storage/test_store_scale.py, test_history.py, test_ratings.py, test_clocks.py,
test_vacation.py), on a database filled once for the module (tests/scale_fill.py) and
ANALYZEd, each query asked for its plan with ``EXPLAIN (FORMAT JSON)`` and real values.

Every plan must use the index the query was written for and read no table that grows
with the games (games, seats, actions, outbox, results and the rest the fill makes big)
by a sequential scan. Besides the store's named queries (``HOT_QUERIES``,
``HISTORY_QUERIES``), the claims of background work (the outbox, timers, clocks and
``bot_jobs`` with their leases) are checked as the store sends them: each ``Session``
method runs on a recorder that keeps its SQL, and that SQL is explained.

Needs the PostgreSQL server of ``DISPATCH_TEST_POSTGRES``; skipped without one.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import asyncpg
import pytest
from conftest import PostgresDatabases

from bot.storage.dialect import to_postgres
from bot.storage.finished_pages import HISTORY_QUERIES
from bot.storage.queries import HOT_QUERIES
from bot.storage.session import Session
from bot.storage.store import Store
from tests.scale_fill import PLAYER, SERVER, Shape, fill

SHAPE = Shape()
#: A live game with an undelivered outbox row, Dispatch's pending job and running clocks.
LIVE_GAME = SHAPE.finished + 50
#: A player of a handful of games (the regular player sits in 1,000).
LIGHT = "p42"
OWNER = "host:1:abc"

#: The tables the fill makes big: none may be read by a sequential scan.
BIG = frozenset(
    {
        "games",
        "seats",
        "actions",
        "outbox",
        "results",
        "clocks",
        "game_clocks",
        "bot_jobs",
        "bot_estimates",
        "ratings",
        "rating_changes",
        "vacations",
        "seat_changes",
        "seat_offers",
        "live_prompts",
        "game_lobbies",
        "channel_settings",
        "clock_rules",
    }
)

#: The tables of live games alone (timers, live prompts, the undelivered payloads) may be
#: read whole: their size follows the games being played, not the years of finished ones,
#: and at hundreds of live games a hash join over them is the planner's cheaper choice.

#: Query -> the indexes its plan must use (every one of them).
INTENDED: dict[str, tuple[str, ...]] = {
    "game": ("games_pkey",),
    "live_game_in_channel": ("games_one_live_per_channel",),
    "latest_game_in_channel": ("games_by_channel",),
    "games_of_user": ("seats_by_user",),
    "games_awaiting": ("seats_by_user",),
    "seats": ("seats_pkey",),
    "actions": ("actions_pkey",),
    "undelivered_of_game": ("outbox_undelivered",),
    "undelivered": ("outbox_undelivered_in_order",),
    "table_parked": ("outbox_undelivered",),
    "games_with_undelivered": ("outbox_undelivered_in_order",),
    "delivered_before": ("outbox_delivered",),
    "due_timers": ("timers_due",),
    "timers": ("timers_one_per_role",),
    "reminder_hours": ("channel_settings_pkey",),
    "result": ("results_pkey",),
    "live_prompts": ("live_prompts_pkey",),
    "leaderboard": ("ratings_leaderboard",),
    "ratings_of": ("ratings_pkey",),
    "rating_changes": ("rating_changes_pkey",),
    "decisions_by_role": ("actions_pkey",),
    "decisions_by_holder": ("actions_pkey",),
    "hints_used": ("hints_pkey",),
    "bot_estimates": ("bot_estimates_pkey",),
    "expired_clocks": ("clocks_deadline",),
    "clock_rows": ("clocks_pkey",),
    "game_clock": ("game_clocks_pkey",),
    "due_clock_warnings": ("clocks_warn_at",),
    "shift_running_clocks": ("clocks_deadline",),
    "shift_clocks_started_while_down": ("clocks_deadline",),
    "clock_rules": ("clock_rules_pkey",),
    "vacation_days_used": ("vacations_pkey",),
    "current_vacation": ("vacations_pkey",),
    "vacations_back_due": ("vacations_back_due",),
    "clocked_seats_of": ("seats_by_user",),
    "seat_changes": ("seat_changes_by_game",),
    "seat_passed": ("seat_changes_by_passer",),
    "seat_offer": ("seat_offers_pkey",),
    "open_seat_offers": ("seat_offers_by_game",),
    "finished_of_user_older": ("seats_by_user", "seat_changes_by_passer"),
    "finished_of_user_newer": ("seats_by_user", "seat_changes_by_passer"),
    "finished_of_guild_older": ("games_finished_by_guild",),
    "finished_of_guild_newer": ("games_finished_by_guild",),
    "live_of_user_older": ("seats_by_user",),
    "live_of_user_newer": ("seats_by_user",),
    "records_of_user": ("seats_by_user", "seat_changes_by_passer"),
    "turn_times_of_user": ("seats_by_user", "actions_pkey"),
    # The claims, as the store sends them.
    "claim_bot_jobs": ("bot_jobs_pending",),
    "claim_bot_jobs_of_game": ("bot_jobs_pkey",),
    "claim_lapsed_bot_jobs": ("bot_jobs_pending",),
    "extend_bot_jobs": ("bot_jobs_pending",),
    "release_bot_jobs": ("bot_jobs_pending",),
    "fail_exhausted_bot_jobs": ("bot_jobs_pending",),
    "settle_bot_jobs": ("bot_jobs_pkey",),
    "claim_due_timers": ("timers_due",),
    "release_timer": ("timers_pkey",),
    "claim_expired_clocks": ("clocks_deadline", "clocks_pkey"),
    "claim_clock_warnings": ("clocks_warn_at", "clocks_pkey"),
    "release_clock": ("clocks_pkey",),
    "claim_outbox": ("outbox_undelivered",),
    "release_outbox": ("outbox_undelivered",),
}

#: On the one server that holds every game, the newest finished ones are the newest
#: games: PostgreSQL walks the primary key from the key and stops at the page's end
#: (no scan, no sort). A server's own index is for a server among many.
ALSO_FINE: dict[tuple[str, str], tuple[str, ...]] = {
    ("finished_of_guild_older", SERVER): ("games_pkey",),
    ("finished_of_guild_newer", SERVER): ("games_pkey",),
    # (game, from_user) is served as well by either index of seat_changes.
    ("seat_passed", PLAYER): ("seat_changes_by_game",),
    ("seat_passed", LIGHT): ("seat_changes_by_game",),
    # Their 1,000 seats, mostly of finished games, or the few hundred live games first.
    ("clocked_seats_of", PLAYER): ("games_one_live_per_channel",),
    # Both partial indexes hold the undelivered rows alone, so either reads nothing that
    # grows with the finished games; with so few rows in them their costs nearly tie, and
    # which one the planner takes follows ANALYZE's random sample, not the query.
    ("games_with_undelivered", ""): ("outbox_undelivered",),
    ("undelivered", ""): ("outbox_undelivered",),
    ("undelivered_of_game", ""): ("outbox_undelivered_in_order",),
    ("table_parked", ""): ("outbox_undelivered_in_order",),
    ("claim_outbox", ""): ("outbox_undelivered_in_order",),
    ("release_outbox", ""): ("outbox_undelivered_in_order",),
}

#: The regular player sits in a tenth of the server's games: their 1,000 results are read
#: by a hash join over ``results`` (cheaper than 1,000 lookups); a player of a few games
#: has theirs looked up by key (the ``p42`` case holds it to that).
WHOLE_READS_ALLOWED = {("records_of_user", PLAYER): {"results"}}

#: The queries whose plans depend on who asks: the regular player (1,000 of the games),
#: a player of a few, and for the server's pages this server and one with no games yet.
USERS = (PLAYER, LIGHT)
SERVERS = (SERVER, "elsewhere")


class Recorder:
    """A connection that runs nothing and keeps every statement it is given."""

    dialect = "postgresql"

    def __init__(self) -> None:
        self.statements: list[tuple[str, tuple[Any, ...]]] = []

    async def execute_fetchall(self, sql: str, params: Any = ()) -> list[Any]:
        self.statements.append((sql, tuple(params)))
        return []

    async def execute_insert(self, sql: str, params: Any = ()) -> tuple[int]:
        self.statements.append((sql, tuple(params)))
        return (1,)

    async def execute(self, sql: str, params: Any = ()) -> None:
        self.statements.append((sql, tuple(params)))


Call = Callable[[Session], Awaitable[Any]]

CLAIMS: dict[str, Call] = {
    "claim_bot_jobs": lambda s: s.bot_jobs.claim_bot_jobs(OWNER, 60.0, max_attempts=3),
    "claim_bot_jobs_of_game": lambda s: s.bot_jobs.claim_bot_jobs(
        OWNER, 60.0, max_attempts=3, game_id=LIVE_GAME + 1
    ),
    "claim_lapsed_bot_jobs": lambda s: s.bot_jobs.claim_bot_jobs(
        OWNER, 60.0, max_attempts=3, limit=5, lapsed_only=True
    ),
    "extend_bot_jobs": lambda s: s.bot_jobs.extend_bot_jobs(OWNER, 60.0),
    "release_bot_jobs": lambda s: s.bot_jobs.release_bot_jobs(OWNER),
    "fail_exhausted_bot_jobs": lambda s: s.bot_jobs.fail_exhausted_bot_jobs(3),
    "settle_bot_jobs": lambda s: s.bot_jobs.settle_bot_jobs(LIVE_GAME + 1, 14, "south"),
    "claim_due_timers": lambda s: s.timers.claim_due_timers(SHAPE.now, OWNER, 60.0),
    "release_timer": lambda s: s.timers.release_timer(5, OWNER),
    "claim_expired_clocks": lambda s: s.clocks.claim_expired_clocks(SHAPE.now, OWNER, 60.0),
    "claim_clock_warnings": lambda s: s.clocks.claim_clock_warnings(SHAPE.now, OWNER, 60.0),
    "release_clock": lambda s: s.clocks.release_clock(LIVE_GAME, "north", OWNER),
    "claim_outbox": lambda s: s.outbox.claim_outbox(LIVE_GAME, OWNER, 60.0),
    "release_outbox": lambda s: s.outbox.release_outbox(LIVE_GAME, OWNER),
}


def recorded(call: Call) -> list[tuple[str, tuple[Any, ...]]]:
    recorder = Recorder()
    asyncio.run(call(Session(recorder, SHAPE.now)))  # type: ignore[arg-type]
    assert recorder.statements
    return recorder.statements


def real(params: tuple[Any, ...], who: str) -> tuple[Any, ...]:
    """The example parameters with values the filled database holds."""
    names = {"u": who, "g": who if who in SERVERS else SERVER, "c": "c42", "toy": "war"}

    def one(p: Any) -> Any:
        if isinstance(p, str):
            return names.get(p, p)
        if isinstance(p, float):
            return SHAPE.now
        if p == 1 and not isinstance(p, bool):
            return LIVE_GAME
        return p

    return tuple(one(p) for p in params)


def cases() -> Iterator[Any]:
    named = {**HOT_QUERIES, **HISTORY_QUERIES}
    for name, (sql, params) in sorted(named.items()):
        if "u" in params:
            whos: tuple[str, ...] = USERS
        elif name.startswith("finished_of_guild"):
            whos = SERVERS
        else:
            whos = ("",)
        for who in whos:
            yield pytest.param(name, who, [(sql, real(params, who))], id=f"{name}-{who}".strip("-"))
    for name, call in sorted(CLAIMS.items()):
        yield pytest.param(name, "", recorded(call), id=name)


@pytest.fixture(scope="module")
def big(postgres_databases: PostgresDatabases | None) -> str:
    """A PostgreSQL database with ``SHAPE``'s games, filled and analyzed once."""
    if postgres_databases is None:
        pytest.skip("PostgreSQL run: no server (set DISPATCH_TEST_POSTGRES=postgresql://...)")
    url = postgres_databases.fresh()

    async def grow() -> None:
        store = await Store.open(url)
        try:
            await fill(store, SHAPE)
        finally:
            await store.close()

    asyncio.run(grow())
    return url


def walk(node: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield node
    for child in node.get("Plans", ()):
        yield from walk(child)


async def plan_nodes(url: str, sql: str, params: tuple[Any, ...]) -> list[dict[str, Any]]:
    """The plan PostgreSQL makes for ``sql`` with these values (a custom plan)."""
    conn = await asyncpg.connect(url)
    try:
        [(text,)] = await conn.fetch("EXPLAIN (FORMAT JSON) " + to_postgres(sql), *params)
    finally:
        await conn.close()
    return list(walk(json.loads(text)[0]["Plan"]))


async def generic_plan_nodes(url: str, sql: str, count: int) -> list[dict[str, Any]]:
    """The plan for any values (a generic plan): what a prepared statement that asyncpg
    keeps may be run with from its sixth execution on."""
    conn = await asyncpg.connect(url)
    try:
        await conn.execute("SET plan_cache_mode = force_generic_plan")
        await conn.execute("PREPARE q AS " + to_postgres(sql))
        values = f"({', '.join(['NULL'] * count)})" if count else ""
        [(text,)] = await conn.fetch(f"EXPLAIN (FORMAT JSON) EXECUTE q{values}")
    finally:
        await conn.close()
    return list(walk(json.loads(text)[0]["Plan"]))


def test_every_query_of_the_store_has_its_intended_index() -> None:
    named = set(HOT_QUERIES) | set(HISTORY_QUERIES) | set(CLAIMS)
    assert named == set(INTENDED), named ^ set(INTENDED)


@pytest.mark.parametrize(("name", "who", "statements"), list(cases()))
async def test_postgresql_answers_from_the_index_at_10000_games(
    big: str, name: str, who: str, statements: list[tuple[str, tuple[Any, ...]]]
) -> None:
    used: set[str] = set()
    for sql, params in statements:
        nodes = await plan_nodes(big, sql, params)
        scans = {n["Relation Name"] for n in nodes if n["Node Type"] == "Seq Scan"}
        scans -= WHOLE_READS_ALLOWED.get((name, who), set())
        assert not scans & BIG, f"{name} reads a whole table: {scans}\n{sql}"
        used |= {n["Index Name"] for n in nodes if "Index Name" in n}
    intended = INTENDED[name]
    alternatives = ALSO_FINE.get((name, who), ())
    assert set(intended) <= used or (alternatives and set(alternatives) <= used), (
        f"{name} ({who or 'example'}) uses {sorted(used)}, not {intended}"
    )


#: The tables that grow with every finished game: not even a plan made for any values may
#: read one whole (the live games' tables and small settings may be, in a generic plan).
GROWING = frozenset(
    {"games", "seats", "actions", "outbox", "results", "rating_changes", "clocks"}
    | {"game_clocks", "bot_jobs", "bot_estimates", "game_lobbies"}
)


def generic_cases() -> Iterator[Any]:
    """One case a query (a generic plan is the same whoever asks)."""
    seen: set[str] = set()
    for case in cases():
        name = case.values[0]
        if name not in seen:
            seen.add(name)
            yield pytest.param(name, case.values[2], id=name)


@pytest.mark.parametrize(("name", "statements"), list(generic_cases()))
async def test_the_generic_plans_read_no_growing_table_whole(
    big: str, name: str, statements: list[tuple[str, tuple[Any, ...]]]
) -> None:
    for sql, params in statements:
        nodes = await generic_plan_nodes(big, sql, len(params))
        scans = {n["Relation Name"] for n in nodes if n["Node Type"] == "Seq Scan"}
        assert not scans & GROWING, f"{name}: a generic plan reads {scans} whole\n{sql}"
