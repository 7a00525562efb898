"""Hand-built Card Displays for the CDG Solo System scenario tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from rules.solo import GAME
from rules.solo.display import SLOTS

ROLE = "solo"


def session(playsheet: str, seed: int = 1, **options: Any) -> dict[str, Any]:
    """A new session; every face-up token gets plain facts so play can start."""
    state = GAME.setup(seed=seed, options={"playsheet": playsheet, **options})
    while state["step"] == "identify":
        card = state["asking"]["card"]
        known(state, card, value=3)
        from rules.solo.session import settle

        settle(GAME, state, state["asking"]["resume"])
    return state


def known(
    state: dict[str, Any],
    card: str,
    value: int | None = 2,
    event: bool = False,
    kind: str = "plain",
    number: int | None = None,
) -> str:
    state["identity"][card] = {
        "number": number,
        "name": "",
        "value": value,
        "event": event,
        "kind": kind,
    }
    return card


def _lift(state: dict[str, Any], card: str) -> None:
    for deck in state["decks"].values():
        for pile in ("draw", "discard", "removed"):
            if card in deck[pile]:
                if pile == "draw" and deck["draw"][0] == card:
                    deck["top_up"] = False
                deck[pile].remove(card)
                return
        for level in deck.get("out", {}).values():
            if card in level:
                level.remove(card)
                return
    for display in state["displays"].values():
        for slot in SLOTS:
            entries = display["slots"][slot]
            if any(e["card"] == card for e in entries):
                entries[:] = [e for e in entries if e["card"] != card]
                return
    raise AssertionError(f"{card} is nowhere")


def arrange(state: dict[str, Any], side: str, layout: dict[str, list[tuple[str, bool]]]) -> None:
    """Put exactly these cards in these slots (others go back under the deck). On
    deck-in-C sheets, slot C means the top of the deck."""
    display = state["displays"][side]
    deck = state["decks"][display["deck"]]
    for slot, wanted in layout.items():
        if (
            slot == "C"
            and "C" in layout
            and state["playsheet"]
            in (
                "paths_of_glory",
                "illusions_of_glory",
            )
        ):
            (card, up) = wanted[0]
            _lift(state, card)
            deck["draw"].insert(0, card)
            deck["top_up"] = up
            continue
        for entry in display["slots"][slot]:
            deck["draw"].append(entry["card"])
        display["slots"][slot] = []
        for card, up in wanted:
            _lift(state, card)
            display["slots"][slot].append({"card": card, "up": up})


def tokens(state: dict[str, Any], deck: str = "shared", start: int = 1) -> Iterator[str]:
    prefix = state["decks"][deck]["prefix"]
    n = start
    while True:
        yield f"{prefix}{n}"
        n += 1


def act(state: dict[str, Any], verb: str, arg: Any = None) -> dict[str, Any]:
    return GAME.act(state, ROLE, verb, arg)


def actions(state: dict[str, Any]) -> dict[str, Any]:
    result: dict[str, Any] = GAME.view(state, ROLE)["actions"]
    return result


def force_faces(monkeypatch: pytest.MonkeyPatch, *faces: str) -> None:
    """The Fate Die shows these faces, in order."""
    queue = list(faces)
    monkeypatch.setattr("rules.solo.turn.roll_face", lambda state: queue.pop(0))


def force_rolls(monkeypatch: pytest.MonkeyPatch, target: str, *rolls: int) -> None:
    queue = list(rolls)
    monkeypatch.setattr(target, lambda state, sides: queue.pop(0))


def slot(state: dict[str, Any], side: str, name: str) -> list[tuple[str, bool]]:
    from rules.solo.display import entries

    return [(e["card"], e["up"]) for e in entries(state, side, name)]


def clean(state: dict[str, Any]) -> None:
    broken = GAME.invariants(state)
    assert broken == [], broken


def to_top(state: dict[str, Any], card: str, deck: str = "shared") -> None:
    """Move ``card`` to the top of a draw deck, face down."""
    _lift(state, card)
    state["decks"][deck]["draw"].insert(0, card)
