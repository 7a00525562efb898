"""Calibrate the search levels: CPU seconds of one search at each level's iteration budget.

Run: .venv/bin/python bench/calibrate_levels.py [--positions 12] [--game war ...]
     [--level normal --level hard] [--budget 1000 ...]

A level is a number of iterations per search in each game (``rules.ai.LEVEL_ITERATIONS``),
meant to take about ``rules.ai.LEVEL_SECONDS`` (1 s normal, 5 s hard) of one quiet core.
This bench checks that on the machine at hand. Positions come from real games: set-up
seeds 20,000 on, both sides played by the game's own automated player (the easy level,
which plays like a sensible person), and ``--positions`` decision points spread evenly
over those games (early, middle and late turns alike; both sides). Each position is
searched once, fresh (no tree kept from an earlier decision), by a search player with
the budget, and timed in CPU seconds of this process (``time.process_time``), so other
work on the machine disturbs the figure less than wall time would.

Less, not nothing: on a shared machine whose cores are all busy, a CPU second does less
work (caches and memory bandwidth are shared). So the bench also measures the engine's
speed side by side, before and after each game's searches (random games per CPU second
on the simulation path, as ``bench/bench_engine_speed.py``), and gives each median again
scaled to the speed the engine has on a quiet core of the reference machine
(:data:`QUIET_ENGINE`, from ``docs/ai.md``): "quiet s" = median x (speed now / quiet
speed). A run on a quiet core reads the same in both columns.

Prints, per game and budget: the positions, the median and 90th percentile CPU seconds
of a search, the most, iterations per CPU second (budget over the median) and the
quiet-scaled median; then the budgets that the quiet-scaled rate suggests for each
level's nominal seconds. ``--budget N`` times budgets of your own instead of the levels'
(e.g. to try a new calibration).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_engine_speed import play
from rules import GAMES, Game
from rules.ai import LEVEL_SECONDS, SearchPlayer, level_iterations, supports_search
from rules.core import View

#: Random games per CPU second on the simulation path, on a quiet core of the reference
#: machine (2 cores, pyenv's CPython 3.11.7; ``bench/bench_engine_speed.py``, the
#: "later session" table of ``docs/ai.md``).
QUIET_ENGINE: dict[str, float] = {"fort_sumter": 1_664.0, "war": 598.0, "lincoln": 197.0}


def engine_speed(game: Game, cpu_seconds: float = 1.0) -> float:
    """Random games of ``game`` per CPU second, for about ``cpu_seconds``."""
    draw = random.Random(0).random
    games = 0
    started = time.process_time()
    while (elapsed := time.process_time() - started) < cpu_seconds:
        play(game, games, True, draw)
        games += 1
    return games / elapsed


def real_positions(game: Game, count: int, first_seed: int = 20_000) -> list[View]:
    """``count`` decision views spread evenly over games of the automated player against
    itself (as many games as it takes to have at least four views per position)."""
    policy = game.automated_player()
    assert policy is not None, f"{game.name} has no automated player"
    views: list[View] = []
    seed = first_seed
    while len(views) < 4 * count:
        state = game.setup(seed=seed)
        seed += 1
        while game.outcome(state) is None:
            role = game.active_roles(state)[0]
            view = game.view(state, role)
            views.append(view)
            verb, arg = policy(game, view)
            game.act(state, role, verb, arg)
    step = len(views) / count
    return [views[int(i * step)] for i in range(count)]


def time_searches(game: Game, views: list[View], iterations: int) -> list[float]:
    """CPU seconds of one fresh search of ``iterations`` from each view."""
    spent: list[float] = []
    for index, view in enumerate(views):
        player = SearchPlayer(game, view["role"], seed=1_000 + index, iterations=iterations)
        started = time.process_time()
        player.choose(view)
        spent.append(time.process_time() - started)
        assert player.last is not None and player.last.iterations == iterations
    return spent


def p90(values: list[float]) -> float:
    if len(values) < 2:
        return max(values)
    return statistics.quantiles(values, n=10, method="inclusive")[8]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=12, help="positions per game")
    parser.add_argument("--game", action="append", help="a game (default: every searchable)")
    parser.add_argument("--level", action="append", choices=sorted(LEVEL_SECONDS))
    parser.add_argument("--budget", type=int, action="append", help="iterations to time")
    options = parser.parse_args()
    names = options.game or sorted(n for n, g in GAMES.items() if supports_search(g))
    levels = options.level or sorted(LEVEL_SECONDS, key=LEVEL_SECONDS.__getitem__)
    print(f"{options.positions} positions per game; CPU seconds of one search")
    print(
        f"{'game':12} {'level':7} {'iterations':>10} {'median s':>9} {'p90 s':>7} "
        f"{'max s':>7} {'it/CPU s':>9} {'quiet s':>8}"
    )
    suggestions: list[str] = []
    for name in names:
        game = GAMES[name]
        views = real_positions(game, options.positions)
        rows = (
            [("-", budget) for budget in options.budget]
            if options.budget
            else [(level, level_iterations(game, level)) for level in levels]
        )
        before = engine_speed(game)
        measured = [
            (level, iterations, time_searches(game, views, iterations))
            for level, iterations in rows
        ]
        speed = (before + engine_speed(game)) / 2
        slowdown = speed / QUIET_ENGINE[name] if name in QUIET_ENGINE else 1.0
        rates: list[float] = []
        for level, iterations, spent in measured:
            median = statistics.median(spent)
            rates.append(iterations / (median * slowdown))
            print(
                f"{name:12} {level:7} {iterations:>10,} {median:>9.3f} {p90(spent):>7.3f} "
                f"{max(spent):>7.3f} {iterations / median:>9,.0f} {median * slowdown:>8.3f}",
                flush=True,
            )
        print(
            f"  {name}: the engine ran {speed:,.0f} random games per CPU second meanwhile; "
            + (f"quiet: {QUIET_ENGINE[name]:,.0f}" if name in QUIET_ENGINE else "no quiet figure"),
            flush=True,
        )
        rate = statistics.median(rates)
        suggestions.append(
            f"  {name:12} "
            + ", ".join(f"{level} {LEVEL_SECONDS[level] * rate:,.0f}" for level in levels)
        )
    print("iterations for each level's nominal CPU seconds on a quiet core (quiet-scaled rate):")
    print("\n".join(suggestions))


if __name__ == "__main__":
    main()
