"""A faster search plays the same moves: the levels are budgets of iterations,
so the same view, seed and budget must give the same search, node for node, however fast
the engine runs.

The golden figures were recorded before the simulation path was made faster (the skipped
log lines, labels and flow bookkeeping of playouts): at four fixed positions of each game
(a scripted game of the automated player from a fixed seed, its decisions with a real
choice at 10%, 35%, 60% and 85%, as ``bench/bench_search_speed.py`` takes them), a search
of 120 iterations with seed 500 + i chose the move below, and its root actions had
exactly these visits. Equal visits of every root action mean the same tree was grown: any
playout that went differently would show. Lincoln's were recorded again when its ruling 23
clock was narrowed to turns that drew no card: a change of rules, so of playouts.
"""

from __future__ import annotations

from typing import Any

import pytest

from rules import GAMES, Game
from rules.ai.ismcts import search
from rules.core import View

SEEDS = {"fort_sumter": 4_101, "lincoln": 4_102, "war": 4_103}
STAGES = (0.10, 0.35, 0.60, 0.85)
ITERATIONS = 120

GOLDEN: dict[str, list[tuple[tuple[str, Any], dict[str, int]]]] = {
    "fort_sumter": [
        (
            ("space", "federal_arsenal"),
            {"space federal_arsenal": 77, "space fort_pickens": 24, "space fort_sumter": 19},
        ),
        (("remove", "federal_arsenal"), {"done": 40, "remove federal_arsenal": 80}),
        (
            ("value", "S22"),
            {
                "event S35": 13,
                "event S03": 11,
                "value S03": 13,
                "value S35": 27,
                "value S02": 17,
                "value S22": 34,
                "event S02": 5,
            },
        ),
        (("to", "newspapers"), {"to fire_eaters": 37, "to newspapers": 46, "to abolitionists": 37}),
    ],
    "lincoln": [
        (
            ("half", 1),
            {
                "half 1": 75,
                "half 0": 45,
            },
        ),
        (
            ("to", "cincinnati"),
            {
                "to manassas": 17,
                "to cincinnati": 18,
                "to harrisburg": 2,
                "to fredericksburg": 18,
                "to harpers_ferry": 17,
                "to philadelphia": 14,
                "to front_royal": 17,
                "to pittsburgh": 17,
            },
        ),
        (
            ("to", "petersburg"),
            {
                "to petersburg": 16,
                "to washington": 13,
                "to front_royal": 13,
                "to manassas": 13,
                "to richmond": 14,
                "to fort_monroe": 12,
                "to fredericksburg": 12,
                "to chattanooga": 12,
                "to charleston": 15,
            },
        ),
        (
            ("action", "U68"),
            {
                "action U55": 9,
                "move U55": 9,
                "move U01": 8,
                "move U57": 9,
                "action U68": 10,
                "naval U24": 9,
                "deploy U01": 10,
                "deploy U24": 9,
                "discard": 9,
                "action U08": 10,
                "deploy U68": 9,
                "move U08": 9,
                "deploy U57": 10,
            },
        ),
    ],
    "war": [
        (
            ("place", "centre:C35"),
            {
                "place right:C35": 17,
                "place centre:C35": 51,
                "place right:C24": 33,
                "place centre:C24": 19,
            },
        ),
        (("column", "left"), {"column left": 59, "column centre": 11, "column right": 50}),
        (
            ("place", "left:C02"),
            {
                "place left:C02": 55,
                "place left:C01": 26,
                "place right:C01": 24,
                "place right:C02": 15,
            },
        ),
        (
            ("place", "right:U28"),
            {
                "place right:U28": 60,
                "place centre:U13": 4,
                "place centre:U28": 38,
                "place right:U13": 18,
            },
        ),
    ],
}


def positions(game: Game) -> list[View]:
    """The four positions: decision views with more than one choice (``undo`` aside) of
    one game of the automated player against itself."""
    policy = game.automated_player()
    assert policy is not None
    state = game.setup(seed=SEEDS[game.name])
    views: list[View] = []
    while game.outcome(state) is None:
        role = game.active_roles(state)[0]
        view = game.view(state, role)
        choices = [args for verb, args in view["actions"].items() if verb != "undo"]
        if sum(len(a) if isinstance(a, list) else 1 for a in choices) > 1:
            views.append(view)
        verb, arg = policy(game, view)
        game.act(state, role, verb, arg)
    return [views[int(stage * len(views))] for stage in STAGES]


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_search_chooses_the_recorded_move_with_the_recorded_visits(name: str) -> None:
    game = GAMES[name]
    for index, (view, (move, visits)) in enumerate(zip(positions(game), GOLDEN[name], strict=True)):
        result = search(game, view, seed=500 + index, iterations=ITERATIONS)
        assert result.action == move, f"{name} position {index + 1}"
        assert result.visits() == visits, f"{name} position {index + 1}"
