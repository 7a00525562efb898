"""The store after years of play: 10,000 finished games, and how a live action feels then.

    .venv/bin/python bench/bench_store_scale.py [--finished 10000] [--played 200]\
        [--actions 400]

1. Plays ``--played`` whole games (each registered game in turn) through ``GameManager``
   with random legal moves (a null front end, so every outbox row is delivered) and
   measures the file per finished game there: what real play leaves, pages freed and
   reused as they are in service. Playing takes about 0.6 s a game on the reference
   machine, so 10,000 played games would take 1.5 hours: the rest up to ``--finished`` are
   SQL copies of the played games' rows (game, seats, actions, outbox, result), which
   are right for the timings below but pack the pages, so their size is printed apart
   and is not what play leaves. ``--played 10000`` plays them all.
   One player sits in 1,000 of the games, and Dispatch (the bot, at normal) in the rest.
2. Measures ``act()`` on a handful of live games in an empty store and in the big one,
   both open side by side, in ``--rounds`` rounds that alternate the two stores (and
   which goes first), so both see the same load: p50 and p99 of each, and each round's
   ratio of p50s, paired (median and range); the machine's load is printed before and
   after. Then the hot queries' plans,
   ``games_for_user`` (``/games``) for the player with 1,000 finished games, and the bot
   part of the background pass (``BotSeats.resume`` and the moves it starts) with
   ``--waiting`` live games against Dispatch, each waiting for its human.

3. ``bot_jobs`` at that scale (docs/storage.md, *Dispatch's jobs stay few*): plays
   ``--against`` whole games of a human (random legal moves) against Dispatch through the
   manager and the bot's own job claims, and prints the rows they left (none once each
   game ended) and what the jobs were (one per move Dispatch owed). Then it puts back what
   the code before migration 0020 kept (a finished row per move, at the measured rate, for
   every finished game with Dispatch in the 10,000) and prints the rows and the store's
   size with them, then runs migration 0020 as an upgrade would and prints its time and
   what is left.

Not a test: it asserts nothing and prints figures.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import rules  # noqa: E402
from bot.delivery.port import NullFrontEnd  # noqa: E402
from bot.dispatch_players.bots import BotSeats  # noqa: E402
from bot.storage.migrate import MIGRATIONS_DIR  # noqa: E402
from bot.tables.bot_users import BOT_USERS, bot_user, is_bot  # noqa: E402
from bot.tables.manager import GameManager  # noqa: E402
from bot.tables.requests import Move, NewGame  # noqa: E402

LIVE_GAMES = 10


async def random_move(manager: GameManager, game_id: int, rng: random.Random) -> float | None:
    """One random legal move; its act() time in ms, or None once the game is over."""
    info = await manager.get_game_info(game_id)
    if info.status != "active":
        return None
    role = rng.choice(info.active_roles)
    seat = info.seat_of(role)
    assert seat is not None
    pv = await manager.view_for(game_id, seat.user_id, role=role)
    choices = [
        (verb, arg)
        for verb, args in pv.view["actions"].items()
        if verb != "undo"
        for arg in (args if isinstance(args, list) else [None])
    ]
    verb, arg = rng.choice(choices)
    t0 = time.perf_counter()
    await manager.act(game_id, seat.user_id, Move(verb, arg, pv.version, role=role))
    return (time.perf_counter() - t0) * 1000


async def new_game(manager: GameManager, name: str, n: int) -> int:
    # A one-seat game (the solitaire assistant) has no opponent to seat.
    opponent = f"u{n}b" if len(rules.GAMES[name].roles) > 1 else None
    info = await manager.create_game(
        "bench", f"chan-{name}-{n}", f"u{n}a", NewGame(name, seed=n, opponent_id=opponent)
    )
    return info.id


async def play_out(manager: GameManager, game_id: int, rng: random.Random) -> None:
    while await random_move(manager, game_id, rng) is not None:
        pass


def file_size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.parent.iterdir() if f.name.startswith(path.name))


async def checkpointed_size(manager: GameManager) -> int:
    db = manager.store.backend.sqlite
    assert db is not None  # SQLite: these figures are the database file's
    async with db.execute("PRAGMA wal_checkpoint(TRUNCATE)"):
        pass  # the cursor closed: no statement left in progress
    return file_size(Path(manager.store.path))


async def play_games(manager: GameManager, played: int, rng: random.Random) -> list[int]:
    """``played`` whole games through the manager, each registered game in turn."""
    names = sorted(rules.GAMES)
    games: list[int] = []
    while len(games) < played:
        gid = await new_game(manager, names[len(games) % len(names)], 100_000 + len(games))
        await play_out(manager, gid, rng)
        games.append(gid)
    return games


async def grow(manager: GameManager, templates: list[int], target: int) -> None:
    """Copies of the played games' rows up to ``target`` finished games."""
    db = manager.store.backend.sqlite  # a benchmark may reach in: plain SQL copies are fastest
    assert db is not None
    tables = {}
    for table in ("games", "seats", "actions", "outbox", "results"):
        async with db.execute(f"PRAGMA table_info({table})") as cur:
            tables[table] = [r[1] for r in await cur.fetchall()]
    made = len(templates)
    await db.execute("BEGIN")
    while made < target:
        source = templates[made % len(templates)]
        cols = [c for c in tables["games"] if c != "id"]
        sel = [c if c != "channel_id" else "channel_id || '-' || ?" for c in cols]
        async with db.execute(
            f"INSERT INTO games ({', '.join(cols)}) SELECT {', '.join(sel)} FROM games"
            " WHERE id = ?",
            (made, source),
        ) as cur:
            new_id = cur.lastrowid
        for table in ("seats", "actions", "outbox", "results"):
            cols = [c for c in tables[table] if c not in ("game_id", "id")]
            extra = ""
            sel = list(cols)
            if table == "seats" and made > 1000:
                # Dispatch sits in the others: years of solo play.
                sel = [
                    "CASE WHEN role = (SELECT MAX(role) FROM seats WHERE game_id = ?)"
                    f" THEN '{BOT_USERS['normal']}' ELSE user_id END"
                    if c == "user_id"
                    else c
                    for c in cols
                ]
                extra = "bot"
            if table == "seats" and made <= 1000:
                # One regular player sits in the first 1,000 games.
                sel = [
                    "CASE WHEN role = (SELECT MIN(role) FROM seats WHERE game_id = ?)"
                    " THEN 'regular' ELSE user_id END"
                    if c == "user_id"
                    else c
                    for c in cols
                ]
                extra = "regular"
            params: tuple[object, ...] = (source,) if not extra else (source, source)
            await db.execute(
                f"INSERT INTO {table} (game_id, {', '.join(cols)})"
                f" SELECT {new_id}, {', '.join(sel)} FROM {table} WHERE game_id = ?",
                params,
            )
        made += 1
        if made % 1000 == 0:
            await db.commit()
            await db.execute("BEGIN")
    await db.commit()


class LivePlay:
    """Random legal moves on a handful of live War games of one store, a new game
    started whenever one ends."""

    def __init__(self, manager: GameManager, seed: int) -> None:
        self.manager = manager
        self.rng = random.Random(seed)
        self.live: list[int] = []
        self.made = 0

    async def acts(self, count: int) -> list[float]:
        """``count`` moves; each one's act() time in ms."""
        while len(self.live) < LIVE_GAMES:
            self.live.append(await new_game(self.manager, "war", 900_000 + self.made))
            self.made += 1
        times: list[float] = []
        while len(times) < count:
            gid = self.rng.choice(self.live)
            t = await random_move(self.manager, gid, self.rng)
            if t is None:
                self.live.remove(gid)
                self.live.append(await new_game(self.manager, "war", 900_000 + self.made))
                self.made += 1
                continue
            times.append(t)
        return times


async def paired_acts(
    empty: GameManager, big: GameManager, actions: int, rounds: int, seed: int
) -> tuple[list[float], list[float], list[float]]:
    """act() on the empty store and on the big one in alternate rounds (which store goes
    first alternates too), so both see the same load on a shared machine: all the times
    of each, and each round's ratio of p50s (big over empty)."""
    sides = {"empty": LivePlay(empty, seed), "big": LivePlay(big, seed)}
    times: dict[str, list[float]] = {"empty": [], "big": []}
    ratios: list[float] = []
    per_round = max(1, actions // rounds)
    for round_ in range(rounds):
        order = ["empty", "big"] if round_ % 2 == 0 else ["big", "empty"]
        this_round = {side: await sides[side].acts(per_round) for side in order}
        for side, measured in this_round.items():
            times[side] += measured
        ratios.append(statistics.median(this_round["big"]) / statistics.median(this_round["empty"]))
    return times["empty"], times["big"], ratios


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.1f} (5 min {five:.1f})"


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))]


async def query_plans(manager: GameManager) -> list[str]:
    from bot.storage.queries import HOT_QUERIES

    db = manager.store.backend.sqlite
    assert db is not None
    lines = []
    for name, (sql, params) in HOT_QUERIES.items():
        async with db.execute("EXPLAIN QUERY PLAN " + sql, params) as cur:
            plan = " / ".join(r[3] for r in await cur.fetchall())
        lines.append(f"  {name:28} {plan}")
    return lines


async def measure_bot_pass(manager: GameManager, waiting: int) -> tuple[float, int]:
    """(ms per background pass, games it nudged) with ``waiting`` live War games against
    Dispatch, each waiting for the human's move: a pass should find nothing to do."""
    BotSeats.attach(manager, workers="thread", iterations=1)
    for n in range(waiting):
        info = await manager.create_game(
            "bench",
            f"solo-{n}",
            f"solo{n}",
            NewGame("war", seat="confederate", opponent_id=bot_user("easy")),
        )
        await BotSeats.of(manager).idle()  # the bot places its cards; the human owes the move
        assert (await manager.get_game_info(info.id)).active_roles == ("confederate",)
    nudged = 0
    t0 = time.perf_counter()
    for _ in range(20):
        nudged += await BotSeats.of(manager).resume()
        await BotSeats.of(manager).idle()
    return (time.perf_counter() - t0) * 1000 / 20, nudged // 20


async def play_against_dispatch(
    manager: GameManager, count: int, rng: random.Random
) -> tuple[int, int]:
    """``count`` whole games of a human against Dispatch (easy, one search iteration a
    move: the jobs, not the search, are measured); (Dispatch's moves, jobs written)."""
    BotSeats.attach(manager, workers="thread", iterations=1).nudge = lambda game_id: None  # type: ignore[method-assign]
    # A benchmark may reach in; the jobs written counted by a trigger.
    db = manager.store.backend.sqlite
    assert db is not None
    await db.execute("CREATE TABLE bench_jobs_written (n INTEGER)")
    await db.execute(
        "CREATE TRIGGER bench_count_jobs AFTER INSERT ON bot_jobs BEGIN"
        " INSERT INTO bench_jobs_written VALUES (1); END"
    )
    await db.commit()
    names = [n for n in sorted(rules.GAMES) if len(rules.GAMES[n].roles) > 1]
    moves = 0
    for n in range(count):
        info = await manager.create_game(
            "bench",
            f"vs-{n}",
            f"h{n}",
            NewGame(names[n % len(names)], seed=n, opponent_id=bot_user("easy")),
        )
        while (now := await manager.get_game_info(info.id)).status == "active":
            humans = [r for r in now.active_roles if not is_bot(now.seat_of(r).user_id)]  # type: ignore[union-attr]
            if not humans:
                assert await BotSeats.of(manager).play_one(info.id)
                moves += 1
                continue
            pv = await manager.view_for(info.id, f"h{n}", role=humans[0])
            choices = [
                (verb, arg)
                for verb, args in pv.view["actions"].items()
                if verb != "undo"
                for arg in (args if isinstance(args, list) else [None])
            ]
            verb, arg = rng.choice(choices)
            await manager.act(info.id, f"h{n}", Move(verb, arg, pv.version, role=humans[0]))
    written = await scalar(manager, "SELECT COUNT(*) FROM bench_jobs_written")
    await db.execute("DROP TRIGGER bench_count_jobs")
    await db.execute("DROP TABLE bench_jobs_written")
    await db.commit()
    return moves, written


async def scalar(manager: GameManager, sql: str) -> int:
    assert manager.store.backend.sqlite is not None
    async with manager.store.backend.sqlite.execute(sql) as cur:
        row = await cur.fetchone()
    return int(row[0]) if row else 0


async def put_back_old_jobs(manager: GameManager, per_game: int) -> None:
    """What the code before migration 0020 kept: ``per_game`` finished rows for each
    finished game with Dispatch in a seat."""
    db = manager.store.backend.sqlite
    assert db is not None
    await db.execute("BEGIN")
    await db.execute(
        "INSERT INTO bot_jobs (game_id, role, version, level, status, attempts, created_at,"
        " finished_at) WITH RECURSIVE v(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM v"
        " WHERE n < ?) SELECT s.game_id, s.role, v.n * 2, 'normal', 'done', 1,"
        " 1700000000.5, 1700000001.5 FROM seats s JOIN games g ON g.id = s.game_id, v"
        " WHERE g.status = 'finished' AND s.user_id LIKE 'Dispatch (%'",
        (per_game - 1,),
    )
    await db.commit()


async def upgrade(manager: GameManager) -> float:
    """Migration 0020 as an upgrade runs it; its seconds."""
    db = manager.store.backend.sqlite
    assert db is not None
    sql = next(MIGRATIONS_DIR.glob("0020_*.sql")).read_text()
    t0 = time.perf_counter()
    await db.executescript(f"BEGIN;\n{sql}\nCOMMIT;")
    return time.perf_counter() - t0


async def measure_jobs(manager: GameManager, against: int, rng: random.Random) -> list[str]:
    """Section 3 of the docstring: the figures' lines."""
    before = await checkpointed_size(manager)
    t0 = time.perf_counter()
    moves, written = await play_against_dispatch(manager, against, rng)
    play_s = time.perf_counter() - t0
    left = await scalar(manager, "SELECT COUNT(*) FROM bot_jobs")
    ended = await scalar(
        manager,
        "SELECT COUNT(*) FROM bot_jobs j JOIN games g ON g.id = j.game_id"
        " WHERE g.status <> 'active'",
    )
    live = await scalar(manager, "SELECT COUNT(*) FROM games WHERE status = 'active'")
    with_dispatch = await scalar(
        manager,
        "SELECT COUNT(DISTINCT s.game_id) FROM seats s JOIN games g ON g.id = s.game_id"
        " WHERE g.status = 'finished' AND s.user_id LIKE 'Dispatch (%'",
    )
    finished = await scalar(manager, "SELECT COUNT(*) FROM games WHERE status = 'finished'")
    now_size = await checkpointed_size(manager)
    per_game = round(written / max(1, against))
    await put_back_old_jobs(manager, per_game)
    old_rows = await scalar(manager, "SELECT COUNT(*) FROM bot_jobs")
    old_size = await checkpointed_size(manager)
    upgrade_s = await upgrade(manager)
    after = await scalar(manager, "SELECT COUNT(*) FROM bot_jobs")
    freed = await scalar(manager, "PRAGMA freelist_count") * await scalar(
        manager, "PRAGMA page_size"
    )
    return [
        f"{against} games against Dispatch played in {play_s:.0f} s: {moves} moves of"
        f" Dispatch's, {written} jobs written; rows left once they ended: {ended}",
        f"store of {finished:,} finished games ({with_dispatch:,} with Dispatch) and {live}"
        f" live ones: bot_jobs {left} rows (all of live games), file {now_size / 1e6:.1f} MB"
        f" (was {before / 1e6:.1f} MB before these games)",
        f"as the code before 0020 kept them ({per_game} rows a game): bot_jobs {old_rows:,}"
        f" rows, file {old_size / 1e6:.1f} MB (+{(old_size - now_size) / 1e6:.1f} MB)",
        f"migration 0020 on it: {upgrade_s:.2f} s, bot_jobs {after} rows left,"
        f" {freed / 1e6:.1f} MB of pages freed for reuse",
    ]


async def bench(
    finished: int, played: int, actions: int, seed: int, waiting: int, against: int, rounds: int
) -> None:
    rng = random.Random(seed)
    print(f"before: {load()}")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.sqlite3"
        manager = await GameManager.open(path, NullFrontEnd())
        try:
            empty_size = await checkpointed_size(manager)
            t0 = time.perf_counter()
            templates = await play_games(manager, min(played, finished), rng)
            play_s = time.perf_counter() - t0
            played_size = await checkpointed_size(manager) - empty_size
            t0 = time.perf_counter()
            await grow(manager, templates, finished)
            grow_s = time.perf_counter() - t0
            size = await checkpointed_size(manager)
            empty = await GameManager.open(Path(tmp) / "empty.sqlite3", NullFrontEnd())
            try:
                base, big, ratios = await paired_acts(empty, manager, actions, rounds, seed)
            finally:
                await empty.close()
            t0 = time.perf_counter()
            for _ in range(20):
                listed = await manager.records.games_for_user("regular")
            games_ms = (time.perf_counter() - t0) * 1000 / 20
            t0 = time.perf_counter()
            for i in range(200):
                await manager.game_in_channel(f"chan-war-{100_000 + i}")
            channel_ms = (time.perf_counter() - t0) * 1000 / 200
            pass_ms, nudged = await measure_bot_pass(manager, waiting)
            try:
                plans = await query_plans(manager)
            except ImportError:
                plans = ["  (this version of bot.store lists no HOT_QUERIES)"]
            jobs = await measure_jobs(manager, against, random.Random(seed))
        finally:
            await manager.close()

    n = len(templates)
    print(f"{n} games played through the manager in {play_s:.0f} s")
    print(f"file size by play: {played_size / n / 1024:.1f} KiB per finished game")
    print(
        f"store grown to {finished} finished games ({finished - n} SQL copies) in {grow_s:.0f} s:"
        f" {size / 1e6:.1f} MB; by play it would be about"
        f" {(empty_size + played_size / n * finished) / 1e6:.0f} MB"
    )
    print(f"act() empty:      p50 {statistics.median(base):.2f} ms, p99 {pct(base, 0.99):.2f} ms")
    print(f"act() 10k store:  p50 {statistics.median(big):.2f} ms, p99 {pct(big, 0.99):.2f} ms")
    print(
        f"ratio of p50s, paired rounds ({rounds}, alternating): median"
        f" {statistics.median(ratios):.2f}x, range {min(ratios):.2f}-{max(ratios):.2f}x"
        f"; all rounds p99 {pct(big, 0.99) / pct(base, 0.99):.2f}x"
    )
    print(f"/games (1,000 finished, {len(listed)} live): {games_ms:.2f} ms")
    print(f"channel's game lookup: {channel_ms:.3f} ms")
    print(
        f"bot background pass ({max(0, finished - 1000):,} finished games with Dispatch,"
        f" {waiting} live ones"
        f" waiting for a human): {pass_ms:.2f} ms, {nudged} games nudged"
    )
    print("query plans:")
    print("\n".join(plans))
    print("bot_jobs (Dispatch's owed moves):")
    print("\n".join(f"  {line}" for line in jobs))
    print(f"after: {load()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--finished", type=int, default=10_000)
    parser.add_argument("--played", type=int, default=200, help="games played through the manager")
    parser.add_argument("--actions", type=int, default=400, help="act() timed on each store")
    parser.add_argument(
        "--rounds", type=int, default=8, help="rounds alternating the empty and the big store"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--waiting", type=int, default=50, help="live games against Dispatch")
    parser.add_argument(
        "--against", type=int, default=30, help="whole games against Dispatch (bot_jobs)"
    )
    args = parser.parse_args()
    asyncio.run(
        bench(
            args.finished,
            args.played,
            args.actions,
            args.seed,
            args.waiting,
            args.against,
            args.rounds,
        )
    )


if __name__ == "__main__":
    main()
