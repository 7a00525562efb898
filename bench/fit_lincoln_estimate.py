"""Fit the weights of Lincoln's position estimate (``rules/lincoln/estimate.py``) and print
how well it predicts the winner.

Run: .venv/bin/python bench/fit_lincoln_estimate.py [--games 2000]   (about 5 minutes)

Plays two sets of ``--games`` games of the automated player against itself
(``rules.lincoln.strategy``), one making a uniformly random move at 15% of its decisions
and one at 40% (set-up seeds 100,000 and 200,000 on), and records the estimate's
features at the start of every turn with the game's winner. A logistic model is fitted
by gradient descent on the positions of four games in five; the fifth game of each five
is held out, and the bench prints the model's log loss and accuracy on it next to the
base rate's. The last lines are the weights in the form ``WEIGHTS`` takes. With the
default of 2,000 games a set they are the weights in ``rules/lincoln/estimate.py``.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.lincoln import GAME
from rules.lincoln.estimate import features

#: (first set-up seed, share of random moves) of the two sets of games.
SETS = ((100_000, 0.15), (200_000, 0.40))
#: Gradient descent: steps and their size (on standardised features).
STEPS = 400
RATE = 0.5

Row = tuple[list[float], int, bool]


def positions(games: int, first_seed: int, noise: float) -> list[Row]:
    """(features, 1 if the Union won, held out?) at each turn start of ``games`` games."""
    choose = GAME.automated_player()
    assert choose is not None
    chooser = random.Random(first_seed)
    rows: list[Row] = []
    for number in range(games):
        state = GAME.setup(seed=first_seed + number)
        seen: list[list[float]] = []
        turn = None
        while state["outcome"] is None:
            role = GAME.active_roles(state)[0]
            now = (state["turn"]["number"], state["turn"]["player"])
            if now != turn and state["battle"] is None:
                seen.append(list(features(state).values()))
                turn = now
            if chooser.random() < noise:
                legal = GAME.legal_actions(state, role)
                legal.pop("undo", None)
                moves = [
                    (verb, arg)
                    for verb, args in legal.items()
                    for arg in (args if isinstance(args, list) else [None])
                ]
                verb, arg = chooser.choice(moves)
            else:
                verb, arg = choose(GAME, GAME.view(state, role))
            GAME.act(state, role, verb, arg, record_undo=False)
        union_won = int(state["outcome"]["winner"] == "union")
        rows += [(x, union_won, number % 5 == 0) for x in seen]
    return rows


def chance(weights: list[float], bias: float, x: list[float]) -> float:
    """The logistic model's chance for features ``x``."""
    return 1.0 / (1.0 + math.exp(-(bias + sum(w * v for w, v in zip(weights, x, strict=True)))))


def fit(rows: list[Row]) -> tuple[list[float], float]:
    """Logistic regression on the rows not held out: (weights, bias) per raw unit."""
    train = [(x, y) for x, y, held in rows if not held]
    size = len(train[0][0])
    mean = [sum(x[i] for x, _ in train) / len(train) for i in range(size)]
    spread = [
        math.sqrt(sum((x[i] - mean[i]) ** 2 for x, _ in train) / len(train)) or 1.0
        for i in range(size)
    ]
    scaled = [([(x[i] - mean[i]) / spread[i] for i in range(size)], y) for x, y in train]
    w = [0.0] * size
    b = 0.0
    for _ in range(STEPS):
        grad = [0.0] * size
        grad_b = 0.0
        for z, y in scaled:
            error = chance(w, b, z) - y
            grad_b += error
            for i in range(size):
                grad[i] += error * z[i]
        b -= RATE * grad_b / len(scaled)
        w = [w[i] - RATE * grad[i] / len(scaled) for i in range(size)]
    raw = [w[i] / spread[i] for i in range(size)]
    return raw, b - sum(w[i] * mean[i] / spread[i] for i in range(size))


def scores(rows: list[Row], weights: list[float], bias: float) -> tuple[float, float]:
    """Log loss and accuracy of the model on the held-out rows."""
    held = [(x, y) for x, y, out in rows if out]
    loss = 0.0
    right = 0
    for x, y in held:
        p = min(max(chance(weights, bias, x), 1e-9), 1 - 1e-9)
        loss -= y * math.log(p) + (1 - y) * math.log(1 - p)
        right += (p > 0.5) == (y == 1)
    return loss / len(held), right / len(held)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games in each of the two sets")
    args = parser.parse_args()
    started = time.process_time()
    rows: list[Row] = []
    for first_seed, noise in SETS:
        rows += positions(args.games, first_seed, noise)
    played = time.process_time() - started
    weights, bias = fit(rows)
    names = list(features(GAME.setup(seed=0)))
    train = [y for _, y, held in rows if not held]
    base = sum(train) / len(train)
    held = [y for _, y, out in rows if out]
    base_loss = -sum(y * math.log(base) + (1 - y) * math.log(1 - base) for y in held) / len(held)
    loss, accuracy = scores(rows, weights, bias)
    print(f"{len(rows):,} positions of {2 * args.games:,} games ({played:.0f} s to play them)")
    print(f"Union wins {100 * base:.1f}% of the games the model is fitted on")
    print(f"held out: log loss {loss:.3f} (base rate alone {base_loss:.3f}),")
    print(f"          winner named in {100 * accuracy:.1f}% of positions")
    print(f'    "bias": {bias:.4f},')
    for name, weight in zip(names, weights, strict=True):
        print(f'    "{name}": {weight:.4f},')


if __name__ == "__main__":
    main()
