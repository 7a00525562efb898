"""Engine speed on the simulation path: uniformly random games per second, per core.

Run: .venv/bin/python bench/bench_engine_speed.py [--games 300] [--game war ...]

Each game is played from set-up to the end with uniformly random legal actions (never
undo), the way a search plays out its simulations: the actions come from
``legal_actions`` (no view, no labels, no prompt) and are applied with
``act(..., record_undo=False, trusted=True)`` (no undo snapshot, no second check of an
action just taken from the list). For comparison the same games are also played on the
checked path (``record_undo=False`` only), which is what engines without ``trusted``
offer. Times are CPU seconds of this process (``time.process_time``), so other work on a
shared machine disturbs them less than wall time would; the figure is per core.

Figures measured with it are in ``docs/ai.md`` (*Engine speed*).
"""

from __future__ import annotations

import argparse
import inspect
import platform
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules import GAMES, Game


def play(game: Game, seed: int, trusted: bool, draw: Callable[[], float]) -> int:
    """One random game; returns the number of actions taken.

    Whoever must act, then a verb, then its argument, each chosen uniformly: with one
    draw of ``random()`` apiece (a list of one needs none), and the verbs in the engine's
    own order, so that the harness costs little next to the engine it measures. The
    trusted path asks ``decisions`` (every active role's actions in one call), as a
    search's playouts do; the checked path asks ``active_roles`` and ``legal_actions``,
    as engines without ``decisions`` allow. Both play the same game. ``draw`` is one
    seeded generator for a whole figure, as a search keeps one for all its playouts
    (seeding a new one costs about as much as a tenth of a Fort Sumter turn)."""
    state = game.setup(seed=seed)
    act = game.act
    actions = 0
    while state["outcome"] is None:
        if trusted:
            options = game.decisions(state)
            if len(options) == 1:
                ((role, legal),) = options.items()
            else:
                role = list(options)[int(draw() * len(options))]
                legal = options[role]
        else:
            active = game.active_roles(state)
            role = active[0] if len(active) == 1 else active[int(draw() * len(active))]
            legal = game.legal_actions(state, role)
            legal.pop("undo", None)  # a fresh dict each call: never part of random play
        n = len(legal)
        verb = next(iter(legal)) if n == 1 else list(legal)[int(draw() * n)]
        args = legal[verb]
        if not isinstance(args, list):  # True: the verb takes no argument
            arg = None
        else:
            n = len(args)
            arg = args[0] if n == 1 else args[int(draw() * n)]
        if trusted:
            state = act(state, role, verb, arg, record_undo=False, trusted=True)
        else:
            state = act(state, role, verb, arg, record_undo=False)
        actions += 1
    return actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games per figure")
    parser.add_argument("--game", action="append", help="a game name (default: every one)")
    options = parser.parse_args()
    names = options.game or sorted(GAMES)
    # The figures depend on how the interpreter was built: an optimised build (PGO and
    # LTO, as Debian's python3 and the official Docker images have it) runs these games
    # about 8% faster than a plain source build (pyenv's default).
    print(f"Python {platform.python_version()} at {sys.executable}")
    for name in names:
        game = GAMES[name]
        has_trusted = "trusted" in inspect.signature(game.act).parameters
        paths = [("checked", False)] + ([("trusted", True)] if has_trusted else [])
        for label, trusted in paths:
            draw = random.Random(0).random
            started = time.process_time()
            total = sum(play(game, seed, trusted, draw) for seed in range(options.games))
            elapsed = time.process_time() - started
            print(
                f"{name:12} {label:8} {options.games / elapsed:8.1f} games/s "
                f"({total / options.games:.0f} actions a game, {options.games} games)"
            )


if __name__ == "__main__":
    main()
