"""Search speed: iterations per CPU second of a fixed-budget search, four positions a game.

Run: .venv/bin/python bench/bench_search_speed.py [--iterations 300] [--rounds 3]
     [--game lincoln ...] [--compare REF]

Each game gets four fixed positions at different stages of one game (early, two middle,
late): the game is set up from a fixed seed and played by its own automated player (a
scripted, reproducible sequence of actions), and the positions are the decision views at
10%, 35%, 60% and 85% of its decisions that offer a real choice. From each one a fresh
search of ``--iterations`` iterations runs with a fixed seed, timed in CPU seconds of the
process that searched (``time.process_time``); the figure is iterations per CPU second.
Each measure runs in its own child process (``--worker``), so the code measured is
whatever ``rules`` that child imports.

``--compare REF`` measures a git ref's code side by side in the same run: the ref is
checked out into a temporary ``git worktree`` (removed at the end), and every round runs
the ref's engine and this tree's engine one after the other, alternating which goes
first, so both see the same load on a shared machine. The rounds are paired: each
round's ratio (the ref's CPU seconds over this tree's, for the same search) is taken
under that round's load, and the table gives the median ratio and its range over the
rounds, per position and per game (the four searches' CPU seconds summed), beside each
side's median iterations per CPU second. Positions, seeds and budgets are the same on
both sides, so both must grow the same tree: the bench compares the visit counts of
every root action, in every round (not only the move chosen), and says when they
differ. The machine's load average is printed before and after.
Each game's figures also say whether each side's rules ran compiled (``dispatch
compile-rules``) or from their sources: a ref's temporary worktree always runs sources,
this tree runs compiled once it has been built.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

#: The set-up seed of each game's scripted game, and the stages its positions are taken at.
SEEDS: dict[str, int] = {"fort_sumter": 4_101, "lincoln": 4_102, "war": 4_103}
STAGES: tuple[float, ...] = (0.10, 0.35, 0.60, 0.85)
#: The search seed of position ``i`` is ``SEARCH_SEED + i``.
SEARCH_SEED = 7_000


def positions(game: Any) -> list[Any]:
    """Four decision views of one game of the automated player against itself."""
    policy = game.automated_player()
    state = game.setup(seed=SEEDS[game.name])
    views: list[Any] = []
    while game.outcome(state) is None:
        role = game.active_roles(state)[0]
        view = game.view(state, role)
        choices = [a for v, a in view["actions"].items() if v != "undo"]
        if sum(len(a) if isinstance(a, list) else 1 for a in choices) > 1:
            views.append(view)
        verb, arg = policy(game, view)
        game.act(state, role, verb, arg)
    return [views[int(stage * len(views))] for stage in STAGES]


def worker(name: str, iterations: int) -> None:
    """Search each position of ``name`` once; print one JSON line of CPU seconds and moves."""
    from rules import GAMES
    from rules.ai.ismcts import search

    game = GAMES[name]
    rows = []
    for index, view in enumerate(positions(game)):
        started = time.process_time()
        result = search(game, view, seed=SEARCH_SEED + index, iterations=iterations)
        spent = time.process_time() - started
        rows.append({"cpu": spent, "move": list(result.action), "visits": result.visits()})
    import importlib.machinery

    import rules

    # Whether the search ran compiled (``dispatch compile-rules``): asked of the module
    # itself, as a ref from before the compiled build has no ``rules.compiled``.
    spec = sys.modules["rules.ai.ismcts"].__spec__
    origin = (spec.origin if spec is not None else None) or ""
    native = origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
    root = str(Path(rules.__file__).resolve().parents[1])
    print(json.dumps({"rules": root, "compiled": native, "rows": rows}))


#: Whether each side's rules ran compiled (``dispatch compile-rules``), as its worker saw.
COMPILED: dict[Path, bool] = {}


def measure(root: Path, name: str, iterations: int) -> list[dict[str, Any]]:
    """One worker run with ``rules`` imported from ``root``."""
    env = dict(os.environ, PYTHONPATH=str(root), PYTHONHASHSEED="0")
    out = subprocess.run(
        [
            sys.executable,
            str(Path(__file__).resolve()),
            "--worker",
            name,
            "--iterations",
            str(iterations),
        ],
        cwd=root,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    answer = json.loads(out.strip().splitlines()[-1])
    if Path(answer["rules"]) != root.resolve():
        raise SystemExit(f"the worker for {root} imported rules from {answer['rules']}")
    COMPILED[root] = bool(answer.get("compiled"))
    rows: list[dict[str, Any]] = answer["rows"]
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=300, help="iterations per search")
    parser.add_argument("--rounds", type=int, default=3, help="measures per side")
    parser.add_argument("--game", action="append", help="a game (default: all three)")
    parser.add_argument("--compare", help="a git ref to measure side by side")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.worker:
        worker(options.worker, options.iterations)
        return
    names = options.game or list(SEEDS)
    # Only here, in the parent: a worker must import the rules of its own side alone.
    sys.path.insert(0, str(ROOT))
    from bench.sides import compared_sides

    with compared_sides(options.compare, "search-speed-") as sides:
        report(names, sides, options.iterations, options.rounds)


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.1f} (5 min {five:.1f})"


def ratio_text(ratios: list[float]) -> str:
    """The median of paired ratios and their range, e.g. ``1.42 (1.31-1.55)``."""
    return f"{statistics.median(ratios):5.2f} ({min(ratios):.2f}-{max(ratios):.2f})"


def report(names: list[str], sides: dict[str, Path], iterations: int, rounds: int) -> None:
    print(
        f"{iterations} iterations a search, {rounds} paired rounds; iterations per CPU "
        f"second (median of the rounds); sides: " + ", ".join(f"{k}={v}" for k, v in sides.items())
    )
    print(f"before: {load()}")
    header = f"{'game':12} {'pos':>3}" + "".join(f" {side:>8}" for side in sides)
    if len(sides) == 2:
        header += f" {'ratio now/ref (range)':>22} {'same visits':>11}"
    print(header)
    for name in names:
        report_game(name, sides, iterations, rounds)
    print(f"after: {load()}")


def report_game(name: str, sides: dict[str, Path], iterations: int, rounds: int) -> None:
    #: side -> one list of rows (cpu, move, visits) per round
    runs: dict[str, list[list[dict[str, Any]]]] = {side: [] for side in sides}
    for round_ in range(rounds):
        order = list(sides) if round_ % 2 == 0 else list(reversed(sides))
        for side in order:
            runs[side].append(measure(sides[side], name, iterations))
    paired = len(sides) == 2
    for i in range(len(STAGES)):
        cpu = {side: [run[i]["cpu"] for run in runs[side]] for side in sides}
        line = f"{name:12} {i + 1:>3}" + "".join(
            f" {iterations / statistics.median(cpu[side]):8.0f}" for side in sides
        )
        if paired:
            ratios = [ref / now for ref, now in zip(cpu["ref"], cpu["now"], strict=True)]
            visits = [run[i]["visits"] for side in sides for run in runs[side]]
            same = all(v == visits[0] for v in visits)
            line += f" {ratio_text(ratios):>22} {'yes' if same else 'NO':>11}"
        print(line)
    totals = {side: [sum(row["cpu"] for row in run) for run in runs[side]] for side in sides}
    searched = len(STAGES) * iterations
    line = f"{name:12} {'all':>3}" + "".join(
        f" {searched / statistics.median(totals[side]):8.0f}" for side in sides
    )
    if paired:
        ratios = [ref / now for ref, now in zip(totals["ref"], totals["now"], strict=True)]
        line += f" {ratio_text(ratios):>22}"
    print(line)
    print(
        f"{'':12} {'':>3} (rules: "
        + ", ".join(
            f"{side} {'compiled' if COMPILED.get(path) else 'sources'}"
            for side, path in sides.items()
        )
        + ")"
    )


if __name__ == "__main__":
    main()
