"""How fast the GameManager applies actions on a real SQLite file.

    .venv/bin/python bench/bench_manager.py [--games 1000] [--actions 3000] [--game war]

Creates games on a temporary database and plays seeded random legal moves through
``GameManager.act`` (with a null front end, so the figures are the manager, the rules and
SQLite: load, act, one transaction with state + action row + outbox, delivery bookkeeping).
Prints actions per second and per-action latency. Not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
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
from bot.tables.manager import GameManager  # noqa: E402
from bot.tables.requests import Move, NewGame  # noqa: E402


def pick_game(name: str | None) -> str:
    if name and name != "toy":
        return name
    if name is None and "war" in rules.GAMES:
        return "war"
    # Before any real game exists, measure with the toy game from the tests.
    from tests.toy_game import GAME

    rules.GAMES[GAME.name] = GAME  # type: ignore[assignment]
    return GAME.name


async def play(
    manager: GameManager, game_name: str, games: int, actions: int, seed: int
) -> tuple[list[float], float, int]:
    """Play ``actions`` random moves over ``games`` games kept in play; return latencies."""
    rng = random.Random(seed)
    live: list[int] = []
    created = 0

    async def new_game() -> None:
        nonlocal created
        created += 1
        info = await manager.create_game(
            "bench",
            f"c{created}",
            f"p{created}a",
            NewGame(game_name, seed=created, opponent_id=f"p{created}b"),
        )
        live.append(info.id)

    for _ in range(games):
        await new_game()
    latencies: list[float] = []
    started = time.perf_counter()
    while len(latencies) < actions:
        game_id = rng.choice(live)
        info = await manager.get_game_info(game_id)
        if info.status != "active":
            live.remove(game_id)
            await new_game()  # keep the number of games in play constant
            continue
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
        latencies.append((time.perf_counter() - t0) * 1000)
    return latencies, time.perf_counter() - started, created


async def bench(game_name: str, games: int, actions: int, seed: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.sqlite3"
        manager = await GameManager.open(db, NullFrontEnd())
        try:
            latencies, wall, created = await play(manager, game_name, games, actions, seed)
        finally:
            await manager.close()
        size = sum(f.stat().st_size for f in Path(tmp).iterdir())

    latencies.sort()
    p95 = latencies[int(len(latencies) * 0.95) - 1]
    p99 = latencies[int(len(latencies) * 0.99) - 1]
    print(f"game: {game_name}; {games} games in play, {created} created; {actions} actions")
    print(f"act() only:  {actions / (sum(latencies) / 1000):8.0f} actions/s")
    print(f"with reads:  {actions / wall:8.0f} actions/s (view_for + get_game_info per move)")
    print(
        f"ms/action:   median {statistics.median(latencies):.2f}, p95 {p95:.2f}, "
        f"p99 {p99:.2f}, max {latencies[-1]:.2f}"
    )
    print(f"database:    {size / 1e6:.1f} MB ({size / actions / 1000:.1f} kB per action)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--actions", type=int, default=3000)
    parser.add_argument("--game", default=None, help="registered game (default: war, else toy)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    asyncio.run(bench(pick_game(args.game), args.games, args.actions, args.seed))


if __name__ == "__main__":
    main()
