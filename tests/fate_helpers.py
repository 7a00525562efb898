"""Shared checks for games with a Fate Die opponent (``rules.fate_die.opponent``): random
games with one side run by the die, and the hidden-card checks every such game owes."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from rules.core import Game
from rules.core.undo import copy_json
from rules.fate_die import opponent as fate

State = dict[str, Any]


def random_fate_game(
    game: Game,
    seed: int,
    side: str,
    *,
    limit: int | None = None,
    stop: Callable[[State], bool] | None = None,
) -> list[State]:
    """Every state of a random game with ``side`` run by the die, to its end, to ``limit``
    states or to the first state ``stop`` accepts."""
    rng = random.Random(seed)
    state = game.setup(seed=seed, options={"fate": side})
    states = [copy_json(state)]
    while game.outcome(state) is None and not (stop and stop(state)):
        if limit is not None and len(states) >= limit:
            break
        role = rng.choice(game.active_roles(state))
        actions = {k: a for k, a in game.legal_actions(state, role).items() if k != "undo"}
        verb = rng.choice(sorted(actions))
        arg = None if actions[verb] is True else rng.choice(actions[verb])
        state = game.act(state, role, verb, arg)
        states.append(copy_json(state))  # act may change the state in place
    return states


def assert_face_down_cards_unseen(game: Game, state: State, side: str, other: str) -> bool:
    """Neither the table nor ``other`` sees a face-down card of ``side``'s display, and
    its face-up cards are public, not secrets. True when there was a face-down card."""
    hidden = fate.secret_cards(state)
    for role in (None, other):
        shown = json.dumps(game.view(state, role))
        assert not [c for c in hidden if f'"{c}"' in shown], (role, hidden)
    assert not set(fate.face_up(state["fate"])) & game.secrets(state, side)
    return bool(hidden)


def swap_a_face_down_card(state: State, hand: list[str], deck: list[str]) -> str:
    """Swap the first face-down display card (in ``state``, whose ``hand`` and ``deck``
    are lists inside it) with the deck's top card, everywhere it is named; returns the
    card now in the display. Nobody but the side may be able to tell the difference."""
    swapped = sorted(fate.secret_cards(state))[0]
    stranger = deck[0]
    deck[0] = swapped
    hand[hand.index(swapped)] = stranger
    for slot in state["fate"]["slots"].values():
        for entry in slot:
            if entry["card"] == swapped:
                entry["card"] = stranger
    return stranger


def assert_determinize_keeps_the_face_up_cards(
    game: Game, state: State, side: str, knower: str, key: int
) -> State:
    """The other side's view hides the face-down cards; a sample drawn from it keeps the
    face-up ones and the invariants, and the side itself sees its whole display."""
    view = game.view(state, knower)
    known = view["known_state"]["fate"]
    assert all(e["card"] is None for s in known["slots"].values() for e in s if not e["up"])
    sample = game.determinize(view, knower, key)
    assert game.invariants(sample) == []
    assert fate.face_up(sample["fate"]) == fate.face_up(state["fate"])
    assert game.view(state, side)["known_state"]["fate"] == state["fate"]
    return sample
