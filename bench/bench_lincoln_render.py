"""Lincoln rendering benchmark. A plain script:

    .venv/bin/python bench/bench_lincoln_render.py [--renders 50]

Draws the board of each hand-built fixture view (tests/fixtures/lincoln_*.json: start,
mid-game, battle, game over) and the hands of the mid-game, PNG encoding included, and
prints the median wall-clock time (and CPU time: on a shared machine the wall clock
includes waiting for a core) and the PNG size of each.

Encoding is what ``render.board_png`` does: the image is mapped to the game's one
palette and saved. Once the Lincoln engine names this renderer, that palette is the one
``render`` computes from a sample game and ``render.board_png`` itself is timed; until
then the palette is computed the same way from the fixture views' images.
"""

from __future__ import annotations

import argparse
import functools
import io
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import render  # noqa: E402
from render.lincoln import draw_board, draw_hand  # noqa: E402

FIXTURES = ROOT / "tests" / "fixtures"
STAGES = ("start", "midgame", "battle", "over")


def load(stage: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / f"lincoln_{stage}.json").read_text())
    return data


def views(stage: str) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    data = load(stage)
    public = data["public"]
    return public, {role: {**public, **extra} for role, extra in data["private"].items()}


def engine_registered() -> bool:
    try:
        import rules

        return getattr(rules.get_game("lincoln"), "renderer", None) == "render.lincoln"
    except LookupError:
        return False


def fixture_palette() -> Image.Image:
    """A palette made as ``render`` makes a game's, from the fixtures' images."""
    shown = []
    for stage in STAGES:
        public, private = views(stage)
        shown.append(draw_board(public))
        shown += [image for image in map(draw_hand, private.values()) if image is not None]
    sheet = Image.new("RGB", (max(i.width for i in shown), sum(i.height for i in shown)))
    y = 0
    for image in shown:
        sheet.paste(image, (0, y))
        y += image.height
    return sheet.quantize(
        colors=render.PALETTE_COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )


def measure(label: str, make: Callable[[], bytes | None], renders: int) -> None:
    times, cpu = [], []
    data = b""
    for _ in range(renders):
        start, start_cpu = time.perf_counter(), time.process_time()
        data = make() or b""
        times.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    print(
        f"{label:<30} median {statistics.median(times):6.1f} ms"
        f" (min {min(times):5.1f}, max {max(times):5.1f}; CPU median"
        f" {statistics.median(cpu):5.1f})  {len(data) / 1024:6.1f} KB"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--renders", type=int, default=50)
    args = parser.parse_args()
    if engine_registered():
        print("through render.board_png / hand_png (the engine names this renderer)")
        board: Callable[[dict[str, Any]], bytes | None] = lambda v: render.board_png("lincoln", v)  # noqa: E731
        hand: Callable[[dict[str, Any]], bytes | None] = lambda v: render.hand_png("lincoln", v)  # noqa: E731
        board(views("start")[0])  # the game's palette is computed once, here
    else:
        print("palette from the fixtures (the engine does not name this renderer yet)")
        palette = fixture_palette()

        def encode(image: Image.Image | None) -> bytes | None:
            if image is None:
                return None
            buffer = io.BytesIO()
            image.quantize(palette=palette, dither=Image.Dither.NONE).save(buffer, format="PNG")
            return buffer.getvalue()

        board = lambda v: encode(draw_board(v))  # noqa: E731
        hand = lambda v: encode(draw_hand(v))  # noqa: E731
    for stage in STAGES:
        public, _ = views(stage)
        measure(f"board, {stage}", functools.partial(board, public), args.renders)
    _, private = views("midgame")
    for role, view in private.items():
        measure(f"hand, midgame ({role})", functools.partial(hand, view), args.renders)


if __name__ == "__main__":
    main()
