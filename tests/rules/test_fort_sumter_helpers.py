"""Helpers for the Fort Sumter scenario tests: build states by hand without breaking the
conservation of tokens and cards, and act with the invariants checked after each action.

(No tests here; the name only keeps the file with the other Fort Sumter tests.)
"""

from __future__ import annotations

from typing import Any

from rules.core import goto
from rules.fort_sumter import GAME
from rules.fort_sumter.cards import ROLES

U, S = "unionist", "secessionist"
State = dict[str, Any]


def act(state: State, role: str, verb: str, arg: Any = None) -> State:
    state = GAME.act(state, role, verb, arg)
    assert GAME.invariants(state) == []
    return state


def actions(state: State, role: str) -> dict[str, Any]:
    result: dict[str, Any] = GAME.view(state, role)["actions"]
    return result


def new_game(seed: int = 1, **options: Any) -> State:
    """A game in the objective choice of round 1."""
    return GAME.setup(seed=seed, options=options)


def keep_objectives(state: State) -> State:
    """Both sides keep their first offered objective: card play begins."""
    for role in ROLES:
        state = act(state, role, "keep", state["objective_offer"][role][0])
    return state


def at_card_play(seed: int = 1, **options: Any) -> State:
    return keep_objectives(new_game(seed, **options))


def _take_card(state: State, card: str) -> None:
    """Take a strategy card from wherever it is."""
    places: list[list[str]] = [state["strategy_deck"], state["out_of_play"]["strategy"]]
    for role in ROLES:
        places += [state["hands"][role], state["set_aside"][role]]
    for place in places:
        if card in place:
            place.remove(card)
            return
    raise AssertionError(f"{card} not found")


def give(state: State, role: str, cards: list[str]) -> State:
    """Make ``cards`` the hand of ``role``; its old hand goes back to the deck."""
    old = [c for c in state["hands"][role] if c not in cards]
    for card in cards:
        _take_card(state, card)
    state["strategy_deck"].extend(old)
    for card in old:
        if card in state["hands"][role]:
            state["hands"][role].remove(card)
    state["hands"][role] = list(cards)
    assert GAME.invariants(state) == []
    return state


def put(state: State, space: str, role: str, n: int) -> State:
    """Set the tokens of ``role`` in ``space`` to ``n``, taking/returning via the pool
    (or the track when the pool is empty), so every token stays accounted for."""
    while state["spaces"][space][role] < n:
        state["spaces"][space][role] += 1
        if state["pool"][role]:
            state["pool"][role] -= 1
        else:
            state["track"][role] -= 1
    while state["spaces"][space][role] > n:
        state["spaces"][space][role] -= 1
        state["pool"][role] += 1
    return state


def set_pool(state: State, role: str, n: int) -> State:
    """Move tokens between the track and the pool (no breach flags change)."""
    delta = n - state["pool"][role]
    state["pool"][role] += delta
    state["track"][role] -= delta
    assert state["track"][role] >= 0
    return state


def set_track(state: State, role: str, n: int) -> State:
    """Leave ``n`` tokens on the track, the rest going to (or coming from) the pool."""
    return set_pool(state, role, state["pool"][role] + state["track"][role] - n)


def jump(state: State, step: str) -> State:
    """Move play to ``step`` and run its automatic work."""
    goto(GAME, state, step)
    assert GAME.invariants(state) == []
    return state


def the_log(state: State) -> list[str]:
    return list(state["log"])


def cleared_map(state: State) -> State:
    for space in state["spaces"]:
        for role in ROLES:
            put(state, space, role, 0)
    return state
