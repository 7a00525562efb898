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
first, so both see the same load on a shared machine. The table then gives both figures
and their ratio per position, and per game (total iterations over total CPU seconds).
Positions, seeds and budgets are the same on both sides; both sides must choose the same
move (a faster engine plays the same game, only sooner), and the bench says when not.
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
import tempfile
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
        rows.append({"cpu": spent, "move": list(result.action)})
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
    sides: dict[str, Path] = {"now": ROOT}
    scratch: tempfile.TemporaryDirectory[str] | None = None
    if options.compare:
        scratch = tempfile.TemporaryDirectory(prefix="search-speed-")
        old = Path(scratch.name) / "ref"
        subprocess.run(
            ["git", "worktree", "add", "--detach", "--quiet", str(old), options.compare],
            cwd=ROOT,
            check=True,
        )
        sides = {"ref": old, "now": ROOT}
    try:
        report(names, sides, options.iterations, options.rounds)
    finally:
        if scratch is not None:
            subprocess.run(
                ["git", "worktree", "remove", "--force", str(Path(scratch.name) / "ref")],
                cwd=ROOT,
                check=False,
            )
            scratch.cleanup()


def report(names: list[str], sides: dict[str, Path], iterations: int, rounds: int) -> None:
    print(
        f"{iterations} iterations a search, {rounds} rounds; iterations per CPU second "
        f"(best round); sides: {', '.join(f'{k}={v}' for k, v in sides.items())}"
    )
    header = f"{'game':12} {'pos':>3}" + "".join(f" {side:>8}" for side in sides)
    if len(sides) == 2:
        header += f" {'ratio':>6} {'same move':>9}"
    print(header)
    for name in names:
        cpu: dict[str, list[list[float]]] = {side: [] for side in sides}
        moves: dict[str, list[Any]] = {}
        for round_ in range(rounds):
            order = list(sides) if round_ % 2 == 0 else list(reversed(sides))
            for side in order:
                rows = measure(sides[side], name, iterations)
                cpu[side].append([row["cpu"] for row in rows])
                moves[side] = [row["move"] for row in rows]
        best = {
            side: [min(run[i] for run in runs) for i in range(len(STAGES))]
            for side, runs in cpu.items()
        }
        for i in range(len(STAGES)):
            line = f"{name:12} {i + 1:>3}" + "".join(
                f" {iterations / best[side][i]:8.0f}" for side in sides
            )
            if len(sides) == 2:
                ref, now = best["ref"][i], best["now"][i]
                same = moves["ref"][i] == moves["now"][i]
                line += f" {ref / now:6.2f} {'yes' if same else 'NO':>9}"
            print(line)
        total = {side: len(STAGES) * iterations / sum(best[side]) for side in sides}
        line = f"{name:12} {'all':>3}" + "".join(f" {total[side]:8.0f}" for side in sides)
        if len(sides) == 2:
            line += f" {total['now'] / total['ref']:6.2f}"
        print(line)
        print(
            f"{'':12} {'':>3} (rules: "
            + ", ".join(
                f"{side} {'compiled' if COMPILED.get(path) else 'sources'}"
                for side, path in sides.items()
            )
            + ")"
        )
        spread = {side: statistics.pstdev(sum(run) for run in runs) for side, runs in cpu.items()}
        print(
            f"{'':12} {'':>3} (spread of a round's CPU s: "
            + ", ".join(f"{s} {v:.3f}" for s, v in spread.items())
            + ")"
        )


if __name__ == "__main__":
    main()
