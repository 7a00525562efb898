"""What translating the store's SQL for PostgreSQL costs, and what a turn costs in CPU.

    .venv/bin/python bench/bench_dialect.py [--repeat 20]
    DISPATCH_TEST_POSTGRES=postgresql://... .venv/bin/python bench/bench_dialect.py \\
        --acts 40 --rounds 3 --compare REF

First, per statement (every statement the store can send, gathered as
``tests/store_statements.py`` does): the CPU of the quote-only rewriter the store had
(kept here, verbatim, as the reference) against the tokenizer (``bot.storage.dialect``),
each uncached and cached, and a batched write's values written in (``batch.inline``); with
SQLAlchemy importable (never a dependency of Dispatch: install it in a scratch venv to
compare), its compile of a representative statement for asyncpg, uncached and the cache
key it computes on every execution even when the compiled form is cached.

Then, with ``--compare REF``: the CPU time of ``GameManager.act`` (``time.process_time``,
the whole process: aiosqlite's thread and asyncpg's parsing included, the database
server's own work not) for ``--acts`` random legal moves of War (seeded), on SQLite and,
with ``DISPATCH_TEST_POSTGRES``, on PostgreSQL, in a child process per side and engine
that imports that side's ``bot`` (``bench/sides.py``: the ref in a throwaway worktree).
The sides alternate which goes first each round; each round's ratio of the medians (the
ref's over this tree's) is paired, and the median and range of the rounds are printed.

Not a test: it asserts nothing and prints figures. The load is printed before and after.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import importlib
import json
import os
import random
import re
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SEATS = ("alice", "bob")

_REWRITES = (("group_concat(", "string_agg("), ("char(10)", "chr(10)"))


def quote_only_rewrite(sql: str) -> str:
    """The rewriter the store had before the tokenizer, verbatim (uncached): it tracks
    only ``'`` quotes."""
    for old, new in _REWRITES:
        sql = sql.replace(old, new)
    out: list[str] = []
    n = 0
    quoted = False
    for ch in sql:
        if ch == "'":
            quoted = not quoted
        if ch == "?" and not quoted:
            n += 1
            out.append(f"${n}")
        else:
            out.append(ch)
    return "".join(out)


def per_call_us(call: Callable[[], object], repeat: int) -> float:
    """The median CPU microseconds of one ``call``, over ``repeat`` batches."""
    loops = 200
    samples = []
    for _ in range(repeat):
        started = time.process_time()
        for _ in range(loops):
            call()
        samples.append((time.process_time() - started) / loops * 1e6)
    return statistics.median(samples)


def statements() -> list[str]:
    sys.path.insert(0, str(ROOT / "tests"))
    gatherer = importlib.import_module("store_statements")
    return sorted({s.sql for s in gatherer.every_statement()})


#: ``$n`` outside quoted literals, as the batch found them before the tokenizer.
_PLACEHOLDER = re.compile(r"'[^']*'|\$\d+")


def quote_only_inline(sql: str, params: tuple[Any, ...]) -> str:
    """A batched write's values written in as the batch did before the tokenizer (its
    rewrite cached, the values put in by a regular expression on each call)."""
    from bot.storage.batch import literal

    values = iter(params)

    def value_of(match: re.Match[str]) -> str:
        return match.group() if match.group().startswith("'") else literal(next(values))

    return _PLACEHOLDER.sub(value_of, _cached_quote_only(sql))


_cached_quote_only = functools.lru_cache(maxsize=2048)(quote_only_rewrite)


def costs(call: Callable[[str], object], texts: list[str], repeat: int) -> list[float]:
    return [per_call_us(functools.partial(call, text), repeat) for text in texts]


def rewrite_costs(repeat: int) -> None:
    from bot.storage import dialect
    from bot.storage.batch import inline

    texts = statements()

    def uncached_new(sql: str) -> str:
        dialect.template.cache_clear()
        dialect.to_postgres.cache_clear()
        return dialect.to_postgres(sql)

    def values(sql: str) -> tuple[Any, ...]:
        return tuple(("text", 7)[n % 2] for n in range(dialect.template(sql).placeholders))

    rows = {
        "quote-only, uncached": costs(quote_only_rewrite, texts, repeat),
        "quote-only, cached": costs(_cached_quote_only, texts, repeat),
        "tokenizer, uncached": costs(uncached_new, texts, repeat),
        "tokenizer, cached": costs(dialect.to_postgres, texts, repeat),
        "batched values, quote-only": costs(
            lambda sql: quote_only_inline(sql, values(sql)), texts, repeat
        ),
        "batched values, tokenizer": costs(lambda sql: inline(sql, values(sql)), texts, repeat),
    }
    print(f"{len(texts)} statements; CPU µs per statement: median (max)")
    for name, found in rows.items():
        print(f"  {name:28} {statistics.median(found):7.2f} ({max(found):.2f})")
    sqlalchemy_costs(repeat)


def sqlalchemy_costs(repeat: int) -> None:
    try:
        sa = importlib.import_module("sqlalchemy")
        asyncpg_dialect = importlib.import_module("sqlalchemy.dialects.postgresql.asyncpg")
    except ImportError:
        print("  SQLAlchemy: not installed here (not measured)")
        return
    games = sa.table("games", sa.column("id"), sa.column("status"), sa.column("version"))
    statement = (
        sa.update(games)
        .where(games.c.id == sa.bindparam("id"), games.c.version == sa.bindparam("version"))
        .values(status=sa.bindparam("status"))
    )
    pg = asyncpg_dialect.dialect()
    compile_us = per_call_us(lambda: statement.compile(dialect=pg), repeat)
    key_us = per_call_us(statement._generate_cache_key, repeat)
    print(
        f"  SQLAlchemy {sa.__version__} Core, an UPDATE of games by id and version for"
        f" asyncpg: compile {compile_us:.1f} µs, its cache key (every execution) {key_us:.1f} µs"
    )


# -- per act, both sides -------------------------------------------------------------


async def play(target: str, acts: int, seed: int) -> dict[str, Any]:
    from bot.delivery.port import NullFrontEnd
    from bot.tables.manager import GameManager
    from bot.tables.requests import Move, NewGame

    cpu: list[float] = []
    rng = random.Random(seed)
    manager = await GameManager.open(target, NullFrontEnd())
    try:
        info = await manager.create_game(
            "g", "c", SEATS[0], NewGame("war", seed=seed, opponent_id=SEATS[1])
        )
        while len(cpu) < acts:
            current = await manager.get_game_info(info.id)
            if current.status != "active":
                info = await manager.create_game(
                    "g", f"c{len(cpu)}", SEATS[0], NewGame("war", opponent_id=SEATS[1])
                )
                continue
            role = rng.choice(current.active_roles)
            seat = current.seat_of(role)
            assert seat is not None
            pv = await manager.view_for(info.id, seat.user_id, role=role)
            choices = [
                (verb, arg)
                for verb, args in pv.view["actions"].items()
                if verb != "undo"
                for arg in (args if isinstance(args, list) else [None])
            ]
            verb, arg = rng.choice(choices)
            started = time.process_time()
            await manager.act(info.id, seat.user_id, Move(verb, arg, pv.version, role=role))
            cpu.append((time.process_time() - started) * 1000)
            await manager.deliver_due(info.id)
    finally:
        await manager.close()
    return {"cpu_ms": cpu, "root": str(Path(sys.modules["bot"].__file__ or "").parents[1])}


async def worker(engine: str, url: str, acts: int, seed: int) -> dict[str, Any]:
    if engine == "sqlite":
        with tempfile.TemporaryDirectory(prefix="bench-dialect-") as scratch:
            return await play(str(Path(scratch) / "bench.sqlite3"), acts, seed)
    import asyncpg

    name = f"bench_dialect_{os.getpid()}_{secrets.token_hex(3)}"
    admin = await asyncpg.connect(url)
    await admin.execute(f"CREATE DATABASE {name}")
    try:
        return await play(f"{url.rstrip('/').rpartition('/')[0]}/{name}", acts, seed)
    finally:
        await admin.execute(f"DROP DATABASE {name} WITH (FORCE)")
        await admin.close()


def measure(root: Path, engine: str, url: str, acts: int, seed: int) -> list[float]:
    env = dict(os.environ, PYTHONPATH=str(root), PYTHONHASHSEED="0")
    command = [sys.executable, str(Path(__file__).resolve()), "--worker", engine, url]
    command += ["--acts", str(acts), "--seed", str(seed)]
    out = subprocess.run(
        command, cwd=root, env=env, check=True, capture_output=True, text=True
    ).stdout
    answer: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    if Path(answer["root"]).resolve() != root.resolve():
        raise SystemExit(f"the worker for {root} imported bot from {answer['root']}")
    cpu: list[float] = answer["cpu_ms"]
    return cpu


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.1f} (5 min {five:.1f})"


def act_costs(sides: dict[str, Path], engines: list[str], acts: int, rounds: int) -> None:
    url = os.environ.get("DISPATCH_TEST_POSTGRES", "")
    for engine in engines:
        medians: dict[str, list[float]] = {side: [] for side in sides}
        for round_ in range(rounds):
            order = list(sides) if round_ % 2 == 0 else list(reversed(sides))
            for side in order:
                cpu = measure(sides[side], engine, url, acts, seed=round_ + 1)
                medians[side].append(statistics.median(cpu))
        line = ", ".join(f"{side} {statistics.median(m):.2f} ms" for side, m in medians.items())
        print(f"  act() CPU on {engine}, median of {rounds} rounds' medians: {line}")
        if "ref" in sides:
            ratios = sorted(r / n for r, n in zip(medians["ref"], medians["now"], strict=True))
            print(
                f"    ref/now: median {statistics.median(ratios):.3f}"
                f" (rounds {ratios[0]:.3f} to {ratios[-1]:.3f})"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--acts", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--compare", help="a git ref to measure act() against")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--worker", nargs=2, metavar=("ENGINE", "URL"), help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.worker:
        engine, url = options.worker
        print(json.dumps(asyncio.run(worker(engine, url, options.acts, options.seed))))
        return
    sys.path.insert(0, str(ROOT))
    print(f"before: {load()}")
    rewrite_costs(options.repeat)
    if options.compare:
        from bench.sides import compared_sides

        engines = ["sqlite"] + (["postgresql"] if os.environ.get("DISPATCH_TEST_POSTGRES") else [])
        with compared_sides(options.compare, "bench-dialect-") as sides:
            print(f"{options.acts} moves of War a round; sides: {sides}")
            act_costs(sides, engines, options.acts, options.rounds)
    print(f"after: {load()}")


if __name__ == "__main__":
    main()
