"""PNG compression levels on real boards: encoding time and size, level by level.

    .venv/bin/python bench/bench_png_level.py [--positions 6] [--rounds 5]
        [--games fort_sumter lincoln war] [--levels 0 1 2 3 4 6 9]

For each game, the public boards of ``--positions`` positions of one game of its
automated player (fixed seed) are drawn and put on the game's palette once, exactly as
``render.board_png`` does before it saves; only the saving is timed. Each round encodes
every board at every level, the levels in a different order each round (rotated), so
that all levels meet the same load; a level's time in a round is its boards' total.
The table gives, per level, the median over the rounds of that total per board, the
paired ratio to Pillow's default level (6) (each round's ratio, median and range), and
the boards' size (mean and largest). Times are CPU seconds of this process
(``time.process_time``): what the encoding costs a quiet core. The load is printed.

Not a test: it asserts nothing and prints figures.
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import render  # noqa: E402
import rules  # noqa: E402

GAMES = ("fort_sumter", "lincoln", "war")
#: Pillow's default: what ``render`` used before a level was chosen.
DEFAULT_LEVEL = 6
SEED = 11


def boards(name: str, positions: int) -> list[Any]:
    """The public boards, on the game's palette, at ``positions`` points of one game."""
    game = rules.get_game(name)
    choose = game.automated_player()
    assert choose is not None, f"{name} has no automated player"
    state = game.setup(seed=SEED, options={})
    views = []
    while game.outcome(state) is None:
        views.append(game.view(state, None))
        role = game.active_roles(state)[0]
        verb, arg = choose(game, game.view(state, role))
        state = game.act(state, role, verb, arg, record_undo=False)
    views.append(game.view(state, None))
    picked = [views[i * (len(views) - 1) // max(1, positions - 1)] for i in range(positions)]
    return [render.board_image(name, view) for view in picked]


def encode(image: Any, level: int) -> tuple[float, int]:
    buffer = io.BytesIO()
    started = time.process_time()
    image.save(buffer, format="PNG", compress_level=level)
    return time.process_time() - started, buffer.tell()


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.1f} (5 min {five:.1f})"


def report(name: str, images: list[Any], levels: list[int], rounds: int) -> None:
    spent: dict[int, list[float]] = {level: [] for level in levels}
    sizes: dict[int, list[int]] = {level: [] for level in levels}
    for round_ in range(rounds):
        order = levels[round_ % len(levels) :] + levels[: round_ % len(levels)]
        for level in order:
            results = [encode(image, level) for image in images]
            spent[level].append(sum(r[0] for r in results) / len(images))
            sizes[level] = [r[1] for r in results]
    for level in levels:
        ms = statistics.median(spent[level]) * 1000
        line = f"{name:12} {level:>5} {ms:9.1f}"
        if DEFAULT_LEVEL in spent:
            ratios = [a / b for a, b in zip(spent[level], spent[DEFAULT_LEVEL], strict=True)]
            line += f" {statistics.median(ratios):6.2f} ({min(ratios):.2f}-{max(ratios):.2f})"
        mean_kib = statistics.mean(sizes[level]) / 1024
        line += f" {mean_kib:9.1f} {max(sizes[level]) / 1024:8.1f}"
        print(line, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", nargs="*", default=list(GAMES))
    parser.add_argument("--levels", nargs="*", type=int, default=[0, 1, 2, 3, 4, 6, 9])
    args = parser.parse_args()
    print(f"before: {load()}")
    print(
        f"{'game':12} {'level':>5} {'ms/board':>9} {'ratio to 6 (range)':>18}"
        f" {'mean KiB':>9} {'max KiB':>8}"
    )
    for name in args.games:
        report(name, boards(name, args.positions), args.levels, args.rounds)
    print(f"after: {load()}")


if __name__ == "__main__":
    main()
