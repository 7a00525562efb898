"""Replays you can watch: size and render time of the longest game of each kind.

    .venv/bin/python bench/bench_replay.py [--seeds 6] [--limit 10485760] [--games ...]

For each game, plays ``--seeds`` games with the game's automated player on both sides,
keeps the one with the most turns (a turn: until who must act changes), and builds its
replay as ``/game replay`` would (``replay_movie.build_movie``: the public board after each
turn, fitted under ``--limit`` bytes). Prints the turns, the frames kept, their width, the
GIF's size and the build time (replaying, drawing, encoding), and the same again under
``--small`` bytes to show the fitting (narrower, then fewer frames), and the event loop's
longest stall while ``ReplayCache.movie`` builds the first one in its worker thread (a
ticker asks to wake every 10 ms).

Not a test: it asserts nothing and prints figures.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import rules  # noqa: E402
from bot.tables.records.replay_movie import DEFAULT_UPLOAD_LIMIT, ReplayCache, build_movie  # noqa: E402

GAMES = ("fort_sumter", "lincoln", "war")
CAP = 20_000


def played(name: str, seed: int) -> tuple[dict[str, Any], int]:
    """A game played to its end by the automated player, as ``export_game`` gives it, and
    its number of turns."""
    game = rules.get_game(name)
    choose = game.automated_player()
    assert choose is not None, f"{name} has no automated player"
    state = game.setup(seed=seed, options={})
    actions: list[dict[str, Any]] = []
    turns, acting = 0, tuple(game.active_roles(state))
    while game.outcome(state) is None and len(actions) < CAP:
        role = game.active_roles(state)[0]
        verb, arg = choose(game, game.view(state, role))
        state = game.act(state, role, verb, arg, record_undo=False)
        actions.append({"role": role, "verb": verb, "arg": arg})
        now = tuple(game.active_roles(state))
        turns += now != acting
        acting = now
    data = {"id": seed, "game": name, "options": {}, "seed": seed, "version": len(actions)}
    data["actions"] = actions
    return data, turns


def line(name: str, data: dict[str, Any], limit: int) -> str:
    movie = build_movie(data, limit, time.perf_counter)
    return (
        f"{name:12} limit {limit / 2**20:5.2f} MiB  actions {len(data['actions']):4}  "
        f"turns {movie.turns - 1:4}  frames {movie.frames:4} at {movie.width} px  "
        f"GIF {len(movie.gif) / 2**20:5.2f} MiB  log {len(movie.log_text) / 1024:5.1f} KiB  "
        f"built in {movie.seconds:5.1f} s"
    )


async def loop_stall(data: dict[str, Any], limit: int) -> float:
    """The longest the event loop waited past a 10 ms tick while the movie was built."""
    worst = 0.0
    done = False

    async def ticker() -> None:
        nonlocal worst
        while not done:
            asked = time.perf_counter()
            await asyncio.sleep(0.01)
            worst = max(worst, time.perf_counter() - asked - 0.01)

    task = asyncio.create_task(ticker())
    await ReplayCache().movie(data, limit)
    done = True
    await task
    return worst


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=6)
    parser.add_argument("--limit", type=int, default=DEFAULT_UPLOAD_LIMIT)
    parser.add_argument("--small", type=int, default=256 * 2**10)
    parser.add_argument("--games", nargs="*", default=list(GAMES))
    args = parser.parse_args()
    for name in args.games:
        longest = max((played(name, seed) for seed in range(1, args.seeds + 1)), key=lambda p: p[1])
        print(line(name, longest[0], args.limit), flush=True)
        print(line(name, longest[0], args.small), flush=True)
        stall = asyncio.run(loop_stall(longest[0], args.limit))
        print(f"{name:12} event loop's longest stall during the build: {stall * 1000:.0f} ms")


if __name__ == "__main__":
    main()
