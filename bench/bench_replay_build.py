"""How long a replay takes to build, in CPU seconds, this tree against a git ref.

    .venv/bin/python bench/bench_replay_build.py [--game lincoln] [--seed 1]
        [--rounds 3] [--limits 10485760 262144] [--compare REF]

One game played to its end by the game's automated player (``--seed``: as
bench/bench_replay.py plays it; Lincoln's seed 1 has 104 turns) is replayed as
``/game replay`` builds it (``build_movie``) under each upload limit in ``--limits``:
the default limit fits at the first attempt, a small one makes the build fit it
narrower, then with fewer frames. Each build runs in a child process (``--worker``)
whose ``bot`` and ``render`` are the side's own; the game's palette is made before the
clock starts (a process makes it once, for its first board), and the figure is the
build's CPU seconds (``time.process_time``: what it costs a quiet core, whatever the
machine's load), with the wall seconds beside.

``--compare REF`` checks the ref out into a temporary ``git worktree`` (removed at the
end) and runs both sides in every round, one after the other, alternating which goes
first; each round's ratio (the ref's CPU seconds over this tree's) is paired, and the
table gives the median and range of the rounds. The load is printed before and after.

Not a test: it asserts nothing and prints figures.
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


def played(name: str, seed: int) -> dict[str, Any]:
    """A game played to its end by the automated player, as ``export_game`` gives it (as
    bench/bench_replay.py plays it, which imports this tree's code, not the side's)."""
    import rules

    game = rules.get_game(name)
    choose = game.automated_player()
    assert choose is not None, f"{name} has no automated player"
    state = game.setup(seed=seed, options={})
    actions: list[dict[str, Any]] = []
    while game.outcome(state) is None and len(actions) < 20_000:
        role = game.active_roles(state)[0]
        verb, arg = choose(game, game.view(state, role))
        state = game.act(state, role, verb, arg, record_undo=False)
        actions.append({"role": role, "verb": verb, "arg": arg})
    data = {"id": seed, "game": name, "options": {}, "seed": seed, "version": len(actions)}
    return {**data, "actions": actions}


def worker(game: str, seed: int, limit: int) -> None:
    """Build the replay once; print one JSON line: CPU and wall seconds, frames, width."""
    import render
    import rules
    from bot.tables.records.replay_movie import build_movie

    data = played(game, seed)
    first = rules.get_game(game).setup(seed=seed, options={})
    render.board_png(game, rules.get_game(game).view(first, None))  # makes the palette
    cpu, wall = time.process_time(), time.perf_counter()
    movie = build_movie(data, limit)
    answer = {
        "cpu": time.process_time() - cpu,
        "wall": time.perf_counter() - wall,
        "frames": movie.frames,
        "turns": movie.turns,
        "width": movie.width,
        "bytes": len(movie.gif),
        "root": str(Path(render.__file__).resolve().parents[1]),
    }
    print(json.dumps(answer))


def measure(root: Path, game: str, seed: int, limit: int) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=str(root), PYTHONHASHSEED="0")
    command = [sys.executable, str(Path(__file__).resolve()), "--worker", game]
    command += ["--seed", str(seed), "--limits", str(limit)]
    out = subprocess.run(
        command, cwd=root, env=env, check=True, capture_output=True, text=True
    ).stdout
    answer: dict[str, float] = json.loads(out.strip().splitlines()[-1])
    if Path(str(answer["root"])) != root.resolve():
        raise SystemExit(f"the worker for {root} imported render from {answer['root']}")
    return answer


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.1f} (5 min {five:.1f})"


def report(sides: dict[str, Path], game: str, seed: int, limits: list[int], rounds: int) -> None:
    print(
        f"{game}, seed {seed}, {rounds} rounds; sides: "
        + ", ".join(f"{k}={v}" for k, v in sides.items())
    )
    print(f"before: {load()}")
    for limit in limits:
        runs: dict[str, list[dict[str, float]]] = {side: [] for side in sides}
        for round_ in range(rounds):
            order = list(sides) if round_ % 2 == 0 else list(reversed(sides))
            for side in order:
                runs[side].append(measure(sides[side], game, seed, limit))
        for side in sides:
            last = runs[side][-1]
            cpu = statistics.median(r["cpu"] for r in runs[side])
            wall = statistics.median(r["wall"] for r in runs[side])
            print(
                f"limit {limit / 2**10:7.0f} KiB  {side:>4}: {last['frames']:.0f} frames of"
                f" {last['turns']:.0f} at {last['width']:.0f} px, {last['bytes'] / 2**10:.0f} KiB;"
                f" CPU {cpu:5.2f} s (median), wall {wall:5.1f} s"
            )
        if len(sides) == 2:
            ratios = [r["cpu"] / n["cpu"] for r, n in zip(runs["ref"], runs["now"], strict=True)]
            median = statistics.median(ratios)
            print(
                f"limit {limit / 2**10:7.0f} KiB  ref/now CPU: median {median:.2f},"
                f" range {min(ratios):.2f}-{max(ratios):.2f}"
            )
    print(f"after: {load()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="lincoln")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--limits", nargs="*", type=int, default=[10 * 2**20, 256 * 2**10])
    parser.add_argument("--compare", help="a git ref to measure side by side")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.worker:
        worker(options.worker, options.seed, options.limits[0])
        return
    # Only here, in the parent: a worker must import the rules of its own side alone.
    sys.path.insert(0, str(ROOT))
    from bench.sides import compared_sides

    with compared_sides(options.compare, "replay-build-") as sides:
        report(sides, options.game, options.seed, options.limits, options.rounds)


if __name__ == "__main__":
    main()
