"""Fort Sumter rendering benchmark. A plain script:

    /work/venv/bin/python bench/bench_fort_sumter_render.py [--renders 50]

Plays a game with the automated player to a busy mid-round position, then prints the
median time (PNG encoding included, through ``render.board_png`` / ``render.hand_png``)
and the PNG size of the public board and of a player's hand, and the same for the board
of a finished game.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from render import board_png, hand_png
from rules import get_game
from rules.fort_sumter.strategy import choose

GAME = get_game("fort_sumter")


def play(seed: int, until: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    state = GAME.setup(seed=seed)
    while not until(state) and GAME.outcome(state) is None:
        role = GAME.active_roles(state)[0]
        GAME.act(state, role, *choose(GAME, GAME.view(state, role)))
    return state


def measure(label: str, render: Callable[[], bytes | None], renders: int) -> None:
    times = []
    data = b""
    for _ in range(renders):
        start = time.perf_counter()
        data = render() or b""
        times.append((time.perf_counter() - start) * 1000)
    print(
        f"{label:<28} median {statistics.median(times):6.1f} ms"
        f"  (min {min(times):5.1f}, max {max(times):5.1f})  {len(data) / 1024:6.1f} KB"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--renders", type=int, default=50)
    args = parser.parse_args()
    mid = play(7, lambda s: s["peace_commissioner"] is not None and s["step"] == "play_cards")
    over = play(7, lambda s: False)
    public, private = GAME.view(mid, None), GAME.view(mid, "unionist")
    measure("board, mid-round", lambda: board_png("fort_sumter", public), args.renders)
    measure("hand, mid-round (Unionist)", lambda: hand_png("fort_sumter", private), args.renders)
    finished = GAME.view(over, None)
    measure("board, game over", lambda: board_png("fort_sumter", finished), args.renders)


if __name__ == "__main__":
    main()
