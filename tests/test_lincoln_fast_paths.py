"""Lincoln's shortcuts give the same answers as the definitions they stand for (issue 12:
engine speed for search). Checked at every position of random games."""

from __future__ import annotations

import random

import pytest

from rules import get_game
from rules.lincoln import board, steps
from rules.lincoln.data import LOCATIONS, SUPPLY_SOURCES

GAME = get_game("lincoln")


def positions(seed: int, limit: int = 400):
    rng = random.Random(seed)
    state = GAME.setup(seed=seed)
    for _ in range(limit):
        if GAME.outcome(state) is not None:
            return
        yield state
        role = GAME.active_roles(state)[0]
        actions = GAME.legal_actions(state, role)
        actions.pop("undo", None)
        verb = rng.choice(sorted(actions))
        args = actions[verb]
        state = GAME.act(state, role, verb, rng.choice(args) if isinstance(args, list) else None)


def slow_passable(state, side, starts):
    """``board.passable`` as first written: every location's halves asked afresh."""
    reached: dict[str, set[int]] = {}
    queue = []
    for location, halves in starts:
        new = set(halves) - reached.get(location, set())
        if new:
            reached.setdefault(location, set()).update(new)
            queue.append((location, tuple(new)))
    while queue:
        location, halves = queue.pop()
        for here, there, arrive, _ in board.ADJACENT[location]:
            if here not in halves or (side == "confederate" and there in board.TOP_THREE):
                continue
            own = board.own_halves(state, there, side)
            onward = (0, 1) if own == (0, 1) else (arrive,) if arrive in own else None
            if onward is None:
                continue
            new = set(onward) - reached.get(there, set())
            if new:
                reached.setdefault(there, set()).update(new)
                queue.append((there, tuple(new)))
    return reached


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_deployability_without_tracing_supply_agrees_with_the_deploy_places(seed: int) -> None:
    checked = 0
    for state in positions(seed):
        for role in GAME.roles:
            for card in state["piles"][role]["hand"]:
                assert steps._places_exist(state, role, card) == bool(
                    steps.deploy_places(state, role, card)
                )
                checked += 1
    assert checked > 500


@pytest.mark.parametrize("seed", [4, 5])
def test_passable_with_its_halves_worked_out_once_agrees_with_the_definition(seed: int) -> None:
    for state in positions(seed, limit=200):
        for side in GAME.roles:
            sources = [(s, (0, 1)) for s in SUPPLY_SOURCES[side]]
            assert board.passable(state, side, sources) == slow_passable(state, side, sources)
            some = [(loc, (0,)) for loc in list(LOCATIONS)[:5]]
            assert board.passable(state, side, some) == slow_passable(state, side, some)
