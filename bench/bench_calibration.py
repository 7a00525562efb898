"""Are Dispatch's estimates calibrated? Predicted chance against result, over self-play.

Run: .venv/bin/python bench/bench_calibration.py [--games fort_sumter,war,lincoln]
     [--count 5] [--first-seed 1] [--iterations 100] [--results calibration.jsonl]

Each game is the search against itself (``SearchPlayer`` on both sides, ``--iterations``
per search), dealt from set-up seed ``--first-seed`` + i. Every decision keeps the
estimate Dispatch keeps in ``bot_estimates`` (``SearchPlayer.estimate``: the chosen
action's mean result in its tree, the deciding side's chance after its move); at the end
each estimate is paired with that side's result (1 a win, 0 a loss, 1/2 a draw).

The report, per game: a reliability table (estimates in tenths: how many, from how many
games, their mean, the share of them whose side went on to win, with its 95% Wilson
interval) and the Brier score (mean squared difference of estimate and result; 0.25 is
what "always 50%" scores). Estimates of one game are not independent (they share its
result), so a bin's interval is too narrow by about the square root of the decisions per
game it holds: read the "games" column before trusting a bin.

``--results PATH`` (JSON lines) makes a run resumable and runs poolable: its first line
holds the settings (the budget), then one line per finished game (game, seed, winner, its
estimates), appended as each game ends. A rerun with the same file plays only the games
not yet in it; a file written at another budget is refused. So a handful of games at a
time, on a busy machine, add up.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_sprt import wilson_interval
from rules import get_game
from rules.ai import SearchPlayer

#: A game's record: its name, seed, winner and each decision's (role, estimate).
Record = dict[str, Any]
#: Where the reliability table cuts the estimates: tenths.
BINS = 10


def play(name: str, seed: int, iterations: int) -> Record:
    """One self-play game of ``name`` at ``iterations`` per search, with its estimates."""
    game = get_game(name)
    players = {
        role: SearchPlayer(game, role, seed=seed * 31 + i, iterations=iterations)
        for i, role in enumerate(game.roles)
    }
    state = game.setup(seed=seed)
    kept: list[tuple[str, float]] = []
    while game.outcome(state) is None:
        role = game.active_roles(state)[0]
        player = players[role]
        verb, arg = player.choose(game.view(state, role))
        if player.estimate is not None:
            kept.append((role, player.estimate))
        game.act(state, role, verb, arg)
    outcome = game.outcome(state)
    assert outcome is not None
    return {"game": name, "seed": seed, "winner": outcome["winner"], "estimates": kept}


def result_of(record: Record, role: str) -> float:
    """``role``'s result in ``record``'s game: 1 a win, 0 a loss, 1/2 a draw."""
    winner = record["winner"]
    return 0.5 if winner is None else float(winner == role)


def pairs(records: Iterable[Record]) -> list[tuple[float, float, int]]:
    """Every (estimate, result, game's seed) of ``records``."""
    return [
        (float(p), result_of(r, role), int(r["seed"]))
        for r in records
        for role, p in r["estimates"]
    ]


def brier(points: list[tuple[float, float, int]]) -> float:
    return sum((p - won) ** 2 for p, won, _ in points) / len(points)


def table(points: list[tuple[float, float, int]]) -> list[str]:
    """The reliability table's lines, one per tenth that holds an estimate."""
    lines = ["estimate   n  games  mean   won   95% interval"]
    for b in range(BINS):
        held = [pt for pt in points if min(int(pt[0] * BINS), BINS - 1) == b]
        if not held:
            continue
        mean = sum(p for p, _, _ in held) / len(held)
        won = sum(w for _, w, _ in held) / len(held)
        low, high = wilson_interval(won * len(held), len(held))
        games = len({seed for _, _, seed in held})
        lines.append(
            f"{b / BINS:.1f}-{(b + 1) / BINS:.1f} {len(held):4} {games:5}  {mean:.2f}  "
            f"{won:.2f}  {low:.2f}-{high:.2f}"
        )
    return lines


def report(records: list[Record], iterations: int) -> str:
    """The reliability table and Brier score of each game in ``records``."""
    out: list[str] = []
    for name in sorted({r["game"] for r in records}):
        mine = [r for r in records if r["game"] == name]
        points = pairs(mine)
        if not points:
            continue  # no searched decision: nothing to calibrate
        out.append(
            f"{name}: {len(mine)} self-play games at {iterations} iterations per search, "
            f"{len(points)} estimates; Brier {brier(points):.3f} (always 50%: 0.250)"
        )
        out += [*table(points), ""]
    return "\n".join(out)


def load(path: Path | None, iterations: int) -> list[Record]:
    """The games already in ``path`` (none without one, or for a new file, which gets its
    settings line); refuses a file written at another budget."""
    if path is None:
        return []
    if not path.exists():
        path.write_text(json.dumps({"iterations": iterations}) + "\n")
        return []
    first, *rest = path.read_text().splitlines()
    if json.loads(first) != {"iterations": iterations}:
        sys.exit(f"{path} holds games at other settings ({first}); use another file")
    return [json.loads(line) for line in rest if line.strip()]


def main(argv: list[str] | None = None) -> str:
    """Play the games not yet in ``--results``, print the report and return it."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", default="fort_sumter,war,lincoln")
    parser.add_argument("--count", type=int, default=5, help="games of each")
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--iterations", type=int, default=100, help="per search")
    parser.add_argument("--results", type=Path, default=None)
    args = parser.parse_args(argv)
    records = load(args.results, args.iterations)
    done = {(r["game"], r["seed"]) for r in records}
    for name in args.games.split(","):
        for seed in range(args.first_seed, args.first_seed + args.count):
            if (name, seed) in done:
                continue
            record = play(name, seed, args.iterations)
            records.append(record)
            if args.results is not None:
                with args.results.open("a") as out:
                    out.write(json.dumps(record) + "\n")
            print(f"{name} seed {seed}: winner {record['winner']}", file=sys.stderr, flush=True)
    text = report(records, args.iterations)
    print(text)
    return text


if __name__ == "__main__":
    main()
