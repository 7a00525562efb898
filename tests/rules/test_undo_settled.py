"""``undo.settled``: the game as it stood before any decision its player may still take
back. Public pages are drawn from it, so a card played and taken back before the turn
passes is never shown: its public view must be exactly the public view of the last
moment nobody could undo anything, through whole random games of every game, undos
included."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

import rules
from bot.tables.loading import seat_view
from rules.core import undo
from tests.row_helpers import game_row

GAMES = ["fort_sumter", "lincoln", "war"]


def public(game: Any, state: dict[str, Any]) -> str:
    return json.dumps(game.view(state, None), sort_keys=True)


def random_play(
    game: Any, state: dict[str, Any], draw: random.Random
) -> Iterator[tuple[str, Any, dict[str, Any]]]:
    """Up to 400 random decisions of whoever acts first, undo three times in ten where it
    is offered: each decision and the state after it."""
    for _ in range(400):
        if game.outcome(state) is not None:
            return
        role = game.active_roles(state)[0]
        legal = game.legal_actions(state, role)
        if "undo" in legal and draw.random() < 0.3:
            verb, arg = "undo", None
        else:
            verb = draw.choice(sorted(v for v in legal if v != "undo"))
            args = legal[verb]
            arg = None if args is True else draw.choice(args)
        state = game.act(state, role, verb, arg)
        yield verb, arg, state


@pytest.mark.parametrize("name", GAMES)
def test_the_settled_state_shows_what_stood_before_any_decision_open_to_undo(
    name: str,
) -> None:
    game = rules.get_game(name)
    start = game.setup(seed=11)
    anchor = public(game, start)
    open_to_undo = 0
    for verb, arg, state in random_play(game, start, random.Random(7)):
        if state.get("undo"):
            open_to_undo += 1
            assert public(game, undo.settled(state)) == anchor, (name, verb, arg)
        else:
            assert undo.settled(state) is state
            anchor = public(game, state)
    assert open_to_undo > 0, "some decisions could be taken back"


def test_settled_leaves_the_state_as_it_was() -> None:
    game = rules.get_game("fort_sumter")
    state = game.setup(seed=3)
    for _ in range(60):
        role = game.active_roles(state)[0]
        if state.get("undo"):
            break
        verb, args = next(iter(game.legal_actions(state, role).items()))
        state = game.act(state, role, verb, None if args is True else args[0])
    assert state.get("undo"), "a decision open to undo was reached"
    kept = json.dumps(state, sort_keys=True)
    undo.settled(state)
    assert json.dumps(state, sort_keys=True) == kept


@pytest.mark.parametrize("name", GAMES)
def test_a_waiting_side_sees_nothing_its_opponent_may_still_take_back(name: str) -> None:
    """Through whole random games, undos included: a side with nothing to decide sees
    (``bot.tables.loading.seat_view``) exactly what it saw at the last moment nobody
    could undo anything; a side that must decide too sees the game as it stands."""
    game = rules.get_game(name)
    start = game.setup(seed=13)
    anchors = {role: game.view(start, role) for role in game.roles}
    waited = open_to_undo = 0
    for verb, arg, state in random_play(game, start, random.Random(5)):
        row = game_row(name, state)
        open_to_undo += bool(state.get("undo"))
        for other in game.roles:
            seen = seat_view(row, other)
            if not state.get("undo"):
                anchors[other] = game.view(state, other)
            elif other in game.active_roles(state):
                assert seen == game.view(state, other)
            elif any(entry["role"] != other for entry in state["undo"]):
                waited += 1
                assert seen == anchors[other], (name, verb, arg, other)
    # War has no undo: nothing is ever open to it there.
    assert waited > 0 or (name == "war" and open_to_undo == 0), "a side never waited"
