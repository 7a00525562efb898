"""Lincoln's position estimate (``rules/lincoln/estimate.py``), which judges a search's
playouts when they stop at the horizon: chances that are chances, that move the right way
with the board, and that name the winner better than a coin on games it was not fitted to.
"""

from __future__ import annotations

import math
import random
from typing import Any

from rules.core.undo import copy_json
from rules.lincoln import GAME
from rules.lincoln.estimate import WEIGHTS, chances, features, union_chance


def _greedy_game(seed: int) -> tuple[list[dict[str, Any]], str]:
    """The turn-start states of one game of the automated player against itself, and the
    winner."""
    choose = GAME.automated_player()
    assert choose is not None
    state = GAME.setup(seed=seed)
    states = []
    turn = None
    while state["outcome"] is None:
        now = (state["turn"]["number"], state["turn"]["player"])
        if now != turn and state["battle"] is None:
            states.append(copy_json(state))
            turn = now
        role = GAME.active_roles(state)[0]
        GAME.act(state, role, *choose(GAME, GAME.view(state, role)), record_undo=False)
    return states, str(state["outcome"]["winner"])


def test_every_feature_has_a_weight() -> None:
    assert set(WEIGHTS) == {"bias", *features(GAME.setup(seed=0))}


def test_the_chances_are_probabilities_that_sum_to_one() -> None:
    chooser = random.Random(4)
    state = GAME.setup(seed=4)
    while state["outcome"] is None:
        guess = GAME.estimate(state)
        assert guess is not None
        assert set(guess) == set(GAME.roles)
        assert all(0.0 < p < 1.0 for p in guess.values())
        assert math.isclose(sum(guess.values()), 1.0)
        options = GAME.decisions(state)
        role = chooser.choice(list(options))
        moves = [
            (verb, arg)
            for verb, args in options[role].items()
            for arg in (args if isinstance(args, list) else [None])
        ]
        GAME.act(state, role, *chooser.choice(moves), record_undo=False)


def test_the_union_chance_falls_as_europe_and_captures_favour_the_confederacy() -> None:
    state = GAME.setup(seed=2)
    start = union_chance(state)
    europe = copy_json(state)
    europe["europe"] += 2
    assert union_chance(europe) < start
    captured = copy_json(state)
    captured["captures"] = ["pittsburgh"]
    assert union_chance(captured) < start
    assert chances(state)["confederate"] == 1.0 - start


def test_the_estimate_names_the_winner_better_than_a_coin_on_unseen_games() -> None:
    """Seeds 0-29: none of them is among the games the weights were fitted to (set-up
    seeds 100,000 on). Judged on the second half of each game, where the board has told."""
    loss = 0.0
    right = 0
    judged = 0
    for seed in range(30):
        states, winner = _greedy_game(seed)
        for state in states[len(states) // 2 :]:
            p = chances(state)[winner]
            loss -= math.log(p)
            right += p > 0.5
            judged += 1
    assert judged > 300
    assert loss / judged < 0.9 * math.log(2)
    assert right / judged > 0.6
