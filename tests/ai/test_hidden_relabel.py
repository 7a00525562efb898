"""No view tells which card is which among those its viewer cannot see (what
the search and the hints are given).

The search and ``/game hint`` read one view, never the state, so whatever they know the
view told them. A stronger check than swapping one pair of cards where the views happen
to agree (``tests/ai/test_ai_search.py``): at states all along random games, two cards the
viewer cannot see (the other side's hand, face-down battle card, objectives and every
deck) swap names everywhere in the state, and the viewer's view, prompt, labels, actions
and known state stay the same; so do the table's. Only the history may differ (the log,
War's record of the last battle), which tells what was once seen."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from rules import get_game
from rules.core import Game, State
from rules.fate_die.opponent import face_up

#: View keys that tell what was once seen, not where the cards are now.
_HISTORY = ("log", "private_log", "last_battle")


def _unseen(name: str, state: State, role: str, other: str) -> list[list[str]]:
    """Groups of card ids ``role`` cannot see (each group swaps within itself)."""
    if name == "war":
        theirs, mine = state["sides"][other], state["sides"][role]
        return [
            theirs["hand"] + theirs["deck"] + [c for _, c in theirs["placed"]],
            list(mine["deck"]),
        ]
    if name == "fort_sumter":
        objectives = state["objective_offer"][other] + state["objective_deck"]
        return [state["hands"][other] + state["strategy_deck"], objectives]
    theirs, mine = state["piles"][other], state["piles"][role]
    return [theirs["hand"] + theirs["deck"] + theirs["discard"], list(mine["deck"])]


def _swapped(state: State, a: str, b: str) -> State:
    text = json.dumps(state)
    one, two = json.dumps(a), json.dumps(b)
    return json.loads(text.replace(one, "\0").replace(two, one).replace("\0", two))  # type: ignore[no-any-return]


def _present(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in _HISTORY}


def _checked(game: Game, name: str, state: State, chooser: random.Random) -> int:
    checked = 0
    for role in game.roles:
        other = game.opponent(role)
        shown = set(face_up(state["fate"])) if state.get("fate") else set()
        for group in _unseen(name, state, role, other):
            cards = [c for c in dict.fromkeys(group) if c not in shown]
            if len(cards) < 2:
                continue
            a, b = chooser.sample(cards, 2)
            twin = _swapped(state, a, b)
            assert _present(game.view(twin, role)) == _present(game.view(state, role)), (a, b)
            assert _present(game.view(twin, None)) == _present(game.view(state, None)), (a, b)
            checked += 1
    return checked


@pytest.mark.parametrize(
    ("name", "fate"),
    [("war", None), ("fort_sumter", None), ("lincoln", None), ("lincoln", "confederate")],
)
def test_cards_the_viewer_cannot_see_may_swap_without_changing_its_view(
    name: str, fate: str | None
) -> None:
    game = get_game(name)
    chooser = random.Random(27)
    state = game.setup(seed=27, options={"fate": fate} if fate else None)
    checked = n = 0
    while game.outcome(state) is None and n < 400:
        if n % 7 == 0:
            checked += _checked(game, name, state, chooser)
        n += 1
        role = chooser.choice(game.active_roles(state))
        legal = game.legal_actions(state, role)
        verb = chooser.choice(sorted(v for v in legal if v != "undo"))
        args = legal[verb]
        game.act(state, role, verb, None if args is True else chooser.choice(args))
    assert checked > 20
