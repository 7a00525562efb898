"""Lincoln rendering benchmark. A plain script:

    .venv/bin/python bench/bench_lincoln_render.py [--renders 50]

Draws the board of each hand-built fixture view (tests/fixtures/lincoln_*.json: start,
mid-game, battle, game over) and the hands of the mid-game, PNG encoding included (the
same steps as ``render.board_png`` / ``render.hand_png`` once the game names its
renderer), and prints the median wall-clock time (and CPU time: on a shared machine the wall clock
includes waiting for a core) and the PNG size of each.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from render import _png  # noqa: E402
from render.lincoln import draw_board, draw_hand  # noqa: E402

FIXTURES = ROOT / "tests" / "fixtures"


def load(stage: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / f"lincoln_{stage}.json").read_text())
    return data


def measure(label: str, render: Callable[[], bytes | None], renders: int) -> float:
    times = []
    cpu = []
    data = b""
    for _ in range(renders):
        start, start_cpu = time.perf_counter(), time.process_time()
        data = render() or b""
        times.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    median = statistics.median(times)
    print(
        f"{label:<30} median {median:6.1f} ms (min {min(times):5.1f}, max {max(times):5.1f};"
        f" CPU median {statistics.median(cpu):5.1f})  {len(data) / 1024:6.1f} KB"
    )
    return median


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--renders", type=int, default=50)
    args = parser.parse_args()
    for stage in ("start", "midgame", "battle", "over"):
        public = load(stage)["public"]
        measure(f"board, {stage}", lambda v=public: _png(draw_board(v)), args.renders)
    mid = load("midgame")
    for role in ("union", "confederate"):
        view = {**mid["public"], **mid["private"][role]}
        measure(f"hand, midgame ({role})", lambda v=view: _png(draw_hand(v)), args.renders)


if __name__ == "__main__":
    main()
