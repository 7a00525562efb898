"""The Fate Die opponent in Dispatch's own games: a side's hand kept as a Card Display.

The CDG Solo System (``rules.solo``) is applied here as its authors apply it to their own
games: the automated side's hand lies in slots A-E, face up or face down, and before it
chooses a card the Fate Die is rolled; the face flips some slots and allows only some
cards. Everything else (event or value, where the tokens go, where an army moves) is
decided by whoever holds the seat, normally Dispatch's search. The playsheets, designed
by Dispatch and marked so, are data like the seven printed ones: ``data/fort_sumter.json``
and ``data/lincoln.json``; a host game reads the flags it needs from them.

A host game keeps the display in ``state["fate"]`` (plain JSON)::

    {"role": side run by the die, "sheet": playsheet name,
     "slots": {"A": [{"card": id, "up": bool}, ...], ...},
     "face": the last face rolled or None,
     "gave_way": whether that roll was the last of three that allowed no card,
     "allowed": the cards the roll allows, None once its card is played,
     "rolls": how many times the die was rolled}

and calls :func:`deal` when the side gets a new hand, :func:`sync` when cards join or
leave it otherwise, :func:`roll` before the side chooses its card, :func:`restrict` to
filter the card choices of that decision and :func:`played` once the card is played.

Our rulings on the system's text, applied to hands of our own games:

1. Slots fill A to E; a hand larger than five doubles slots in the system's order of the
   variable hand size (A, then D, then B, then E), the first card of a slot shown first.
2. "C or lowest face-up card": the card(s) in C, and the lowest-valued face-up card(s)
   of the other slots. "Face-up event or lowest": while fewer than two cards are face up,
   the leftmost face-down card turns; then any face-up card whose event the side may
   play, and the lowest-valued face-up card(s). Letter faces flip and allow their slots.
3. A face that allows no card (its slots are empty) is rolled again, at most three rolls
   in all; after the third every card of the display is allowed.
4. Face-up cards are public (the table sees the display); face-down ones are the side's
   secret like any card in hand. The die is the game's own keyed generator, so nobody can
   foresee a roll.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from functools import cache
from typing import Any

from rules.core import State, log, randbelow
from rules.core.paths import data_dir
from rules.fate_die.faces import FACES, FLIPS

SLOTS = ("A", "B", "C", "D", "E")
#: Which slots take a second card, in order, once a hand has more than five cards.
DOUBLING = ("A", "D", "B", "E", "C")
#: Rolls of the die before a face that allows nothing gives way (ruling 3).
MAX_ROLLS = 3
DATA = data_dir("fate_die")
#: The playsheets Dispatch designed for its own games.
DESIGNED: tuple[str, ...] = ("fort_sumter", "lincoln")

#: The face titles, in the system's words, for a game that calls its values ``value``.
FACE_TITLES = {
    "c_low": "C or lowest face-up card",
    "event_low": "face-up event or lowest face-up card",
    "abc": "A, B or C",
    "ab": "A or B",
    "cde": "C, D or E",
    "de": "D or E",
}

Entry = dict[str, Any]


@cache
def _text(name: str) -> str:
    return (DATA / f"{name}.json").read_text(encoding="utf-8")


def playsheet(name: str) -> dict[str, Any]:
    """A designed playsheet as a fresh dict."""
    if name not in DESIGNED:
        raise KeyError(name)
    data: dict[str, Any] = json.loads(_text(name))
    return data


@cache
def _sheet(name: str) -> dict[str, Any]:
    return playsheet(name)


def setup(state: State, role: str, sheet: str) -> None:
    """Give ``role`` an empty display run by the designed playsheet ``sheet``."""
    _sheet(sheet)  # an unknown sheet fails here, at set-up
    state["fate"] = {
        "role": role,
        "sheet": sheet,
        "slots": {s: [] for s in SLOTS},
        "face": None,
        "gave_way": False,
        "allowed": None,
        "rolls": 0,
    }


def fate_role(state: State) -> str | None:
    """The side the die runs in this game, if any."""
    fate = state.get("fate")
    return None if fate is None else str(fate["role"])


def cards(fate: dict[str, Any]) -> list[str]:
    """Every card of the display, A to E, first card of a slot first."""
    return [e["card"] for s in SLOTS for e in fate["slots"][s]]


def known_cards(fate: dict[str, Any]) -> list[str | None]:
    """:func:`cards` of a display as a side knows it (:func:`known`): None for each card
    that side has not seen."""
    return [e["card"] for s in SLOTS for e in fate["slots"][s]]


def face_up(fate: dict[str, Any], slots: Iterable[str] = SLOTS) -> list[str]:
    return [e["card"] for s in slots for e in fate["slots"][s] if e["up"]]


def _empty_slot(fate: dict[str, Any]) -> str:
    for slot in SLOTS:
        if not fate["slots"][slot]:
            return slot
    depth = min(len(fate["slots"][s]) for s in SLOTS)
    return next(s for s in DOUBLING if len(fate["slots"][s]) == depth)


def deal(state: State, hand: list[str]) -> None:
    """A new hand: the display is emptied and dealt again, A to E, with the playsheet's
    set-up facing (slots named in ``face_up_at_setup`` face up, the rest face down)."""
    fate = state["fate"]
    up = set(_sheet(fate["sheet"])["face_up_at_setup"])
    fate["slots"] = {s: [] for s in SLOTS}
    for card in hand:
        slot = _empty_slot(fate)
        fate["slots"][slot].append({"card": card, "up": slot in up})
    fate.update(face=None, allowed=None)


def sync(state: State, hand: list[str]) -> None:
    """Cards left the hand or joined it outside a play: the display follows. Cards that
    left go; new ones fill the first empty slots with the playsheet's refill facing."""
    fate = state["fate"]
    held = set(hand)
    for slot in SLOTS:
        fate["slots"][slot] = [e for e in fate["slots"][slot] if e["card"] in held]
    if fate["allowed"] is not None:
        fate["allowed"] = [c for c in fate["allowed"] if c in held]
    shown = set(cards(fate))
    faces = _sheet(fate["sheet"])["faces"]
    up = faces[fate["face"] or "c_low"]["refill"] == "up"
    for card in hand:
        if card not in shown:
            fate["slots"][_empty_slot(fate)].append({"card": card, "up": up})


def _flip(fate: dict[str, Any], slots: Iterable[str]) -> None:
    for slot in slots:
        for entry in fate["slots"][slot]:
            entry["up"] = True


def _allowed_by(
    fate: dict[str, Any], face: str, value: Callable[[str], int], is_event: Callable[[str], bool]
) -> list[str]:
    def lowest(candidates: list[str]) -> list[str]:
        if not candidates:
            return []
        low = min(value(c) for c in candidates)
        return [c for c in candidates if value(c) == low]

    if face == "c_low":
        picked = [e["card"] for e in fate["slots"]["C"]]
        picked += lowest(face_up(fate, ("A", "B", "D", "E")))
    elif face == "event_low":
        ups = face_up(fate)
        picked = [c for c in ups if is_event(c)] + lowest(ups)
    else:
        picked = [e["card"] for s in FLIPS[face] for e in fate["slots"][s]]
    chosen = set(picked)
    return [c for c in cards(fate) if c in chosen]


def roll(
    state: State, side_name: str, value: Callable[[str], int], is_event: Callable[[str], bool]
) -> list[str]:
    """Roll the Fate Die for the display's side, turn what the face turns, and return
    (and keep in ``allowed``) the cards it allows; logs the roll for the table."""
    fate = state["fate"]
    allowed: list[str] = []
    face = FACES[0]
    gave_way = False
    for attempt in range(1, MAX_ROLLS + 1):
        face = FACES[randbelow(state, 6)]
        fate["rolls"] += 1
        if face == "event_low":
            while len(face_up(fate)) < 2 and len(face_up(fate)) < len(cards(fate)):
                entry = next(e for s in SLOTS for e in fate["slots"][s] if not e["up"])
                entry["up"] = True
        else:
            _flip(fate, FLIPS[face])
        allowed = _allowed_by(fate, face, value, is_event)
        if allowed:
            break
        log(state, f"Fate Die for {side_name}: {FACE_TITLES[face]}, which allows no card.")
        if attempt == MAX_ROLLS:
            allowed = cards(fate)
            _flip(fate, SLOTS)
            gave_way = True
    fate.update(face=face, allowed=allowed, gave_way=gave_way)
    return allowed


def roll_title(fate: dict[str, Any]) -> str:
    """How the table reads the last roll: its face, or, when three rolls in a row
    allowed no card, that every card of the display was turned up and allowed."""
    if fate.get("gave_way"):
        return f"{MAX_ROLLS} rolls allowed no card, so any card"
    return FACE_TITLES[fate["face"]] if fate.get("face") else ""


def restrict(state: State, role: str, choices: list[str]) -> list[str]:
    """``choices`` (cards of ``role``'s hand) as far as the die allows them now."""
    fate = state.get("fate")
    if fate is None or fate["role"] != role or fate["allowed"] is None:
        return choices
    allowed = set(fate["allowed"])
    return [c for c in choices if c in allowed]


def played(state: State, card: str) -> None:
    """``card`` left the display as the die's card: its slot empties and the roll is
    spent (the face stays on show until the next roll)."""
    fate = state["fate"]
    for slot in SLOTS:
        fate["slots"][slot] = [e for e in fate["slots"][slot] if e["card"] != card]
    fate["allowed"] = None


def secret_cards(state: State) -> set[str]:
    """The display's face-down cards (the rest of the display is public)."""
    fate = state["fate"]
    return {e["card"] for s in SLOTS for e in fate["slots"][s] if not e["up"]}


def public(state: State, facts: Callable[[str], dict[str, Any]]) -> dict[str, Any] | None:
    """The display as the whole table sees it: face-up cards by ``facts``, face-down ones
    as backs, the last face and the cards it allows (face up, so public)."""
    fate = state.get("fate")
    if fate is None:
        return None
    sheet = _sheet(fate["sheet"])
    face = fate["face"]
    return {
        "role": fate["role"],
        "playsheet": sheet["title"],
        "designed_by": sheet["playsheet_by"],
        "slots": [
            {
                "slot": slot,
                "cards": [
                    {"up": True, **facts(e["card"])} if e["up"] else {"up": False}
                    for e in fate["slots"][slot]
                ],
            }
            for slot in SLOTS
        ],
        "face": face,
        "face_title": roll_title(fate) or None,
        "allowed": [facts(c) for c in fate["allowed"] or []],
        "rolls": fate["rolls"],
    }


def known(fate: dict[str, Any] | None, knower: str) -> dict[str, Any] | None:
    """The display as ``knower`` knows it: the other side's face-down cards as None."""
    if fate is None:
        return None
    copy: dict[str, Any] = json.loads(json.dumps(fate))
    if copy["role"] != knower:
        for slot in SLOTS:
            for entry in copy["slots"][slot]:
                if not entry["up"]:
                    entry["card"] = None
    return copy


def fill_unknown(fate: dict[str, Any], dealt: list[str]) -> None:
    """Determinization: the unknown (face-down) entries take ``dealt`` cards in order."""
    queue = list(dealt)
    for slot in SLOTS:
        for entry in fate["slots"][slot]:
            if entry["card"] is None:
                entry["card"] = queue.pop(0)
