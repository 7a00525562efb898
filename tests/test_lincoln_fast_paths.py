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
            for starts in (sources, [(loc, (0,)) for loc in list(LOCATIONS)[:5]]):
                fast, slow = board.passable(state, side, starts), slow_passable(state, side, starts)
                assert fast == slow
                # The same order too: moves are listed in it, so a seeded game depends on it.
                assert list(fast) == list(slow)


def slow_control(state, location):
    """Control as the rules define it, from every unit in the location."""
    present = board.sides_in(state, location)
    if len(present) == 2:
        return None
    if present:
        return next(iter(present))
    return state["flags"].get(location) or LOCATIONS[location]["colour"]


@pytest.mark.parametrize("seed", [6, 7, 8])
def test_control_from_the_first_unit_of_each_half_agrees_with_the_definition(seed: int) -> None:
    """Control reads one unit per half, except where a battle is being fought; checked at
    every position, battles included, for every location and side."""
    battles = 0
    for state in positions(seed, limit=600):
        battles += state["battle"] is not None
        for location in LOCATIONS:
            assert board.control(state, location) == slow_control(state, location)
            assert board.contested(state, location) == (len(board.sides_in(state, location)) == 2)
            for side in GAME.roles:
                assert board.has_army(state, location, side) == any(
                    u["kind"] == "army" for u in board.units(state, location, side)
                )
        for role in GAME.roles:
            assert steps.can_move(state, role) == bool(steps.movable_from(state, role))
            assert steps.can_sail(state, role) == bool(steps.naval_destinations(state, role))
    assert battles > 0


def test_control_reads_every_unit_where_a_battle_mixes_a_half() -> None:
    """The rules let a half hold both sides only at the battle being fought; there the
    first unit does not tell, and control must still say contested."""
    state = GAME.setup(seed=3)
    location = next(loc for loc in LOCATIONS if not board.units(state, loc))
    state["board"][location][0] = [
        {"side": "union", "kind": "army", "strength": 1},
        {"side": "confederate", "kind": "army", "strength": 2},
    ]
    state["battle"] = {"location": location}
    assert board.control(state, location) is None
    assert board.contested(state, location)
    assert board.control(state, location) == slow_control(state, location)
