"""Hand-built Lincoln positions for the scenario tests."""

from __future__ import annotations

from typing import Any

from rules.lincoln import GAME, board
from rules.lincoln.data import CARDS, LOCATIONS

State = dict[str, Any]


def card(name: str) -> str:
    """The id of the card called ``name``."""
    return next(c for c, data in CARDS.items() if data["name"] == name)


def empty_board(seed: int = 1) -> State:
    """A new game (Union to act, action 1 of 2) with every unit back in stock."""
    state = GAME.setup(seed=seed)
    for loc in LOCATIONS:
        for half in state["board"][loc]:
            for unit in half:
                board.return_unit(state, unit)
            half.clear()
    return state


def put(state: State, loc: str, side: str, strength: int = 2, half: int = 0) -> None:
    unit = board.take_fort(state, side) if strength == 0 else board.take_army(state, side, strength)
    assert unit is not None
    state["board"][loc][half].append(unit)


def flag(state: State, loc: str, side: str) -> None:
    state["flags"][loc] = side
    state["stock"]["flags"] -= 1


def hand(state: State, role: str, names: list[str]) -> list[str]:
    """Make ``role``'s hand exactly these cards (the old hand goes under the draw pile)."""
    piles = state["piles"][role]
    wanted = [card(n) for n in names]
    for c in list(piles["hand"]):
        piles["hand"].remove(c)
        piles["deck"].insert(0, c)
    for c in wanted:
        for pile in ("deck", "discard", "removed"):
            if c in piles[pile]:
                piles[pile].remove(c)
        for wave in piles["waves"].values():
            if c in wave:
                wave.remove(c)
        piles["hand"].append(c)
    return wanted


def act(state: State, role: str, verb: str, arg: Any = None) -> State:
    return GAME.act(state, role, verb, arg)


def units(state: State, loc: str, half: int | None = None) -> list[tuple[str, str]]:
    halves = state["board"][loc] if half is None else [state["board"][loc][half]]
    return sorted((u["side"], board.unit_key(u)) for h in halves for u in h)


def confederate_turn(state: State) -> None:
    state["turn"].update(player="confederate", actions_left=2)


def assert_sound(state: State) -> None:
    assert GAME.invariants(state) == []
