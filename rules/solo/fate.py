"""The Fate Die: six faces, what each flips and which cards it then allows.

The faces (ids used in the state and the log):

- ``c_low``: "C or lowest face-up value card or !!": flip slot C; allowed: the card(s)
  in C, or the lowest-valued face-up card(s) in A, B, D, E. "!!" does nothing in any of
  the seven games.
- ``event_low``: "face-up event or lowest face-up value card": while fewer than two cards
  are face up, the player flips one face-down card; allowed: any face-up event (tactic)
  card, or the lowest-valued face-up card(s).
- ``abc``, ``ab``, ``cde``, ``de``: flip the named slots; allowed: any card in them.

Ties of "lowest" are all listed: the player picks. Where the value depends on the board
(C&C order count), every face-up candidate is listed and the player picks the one that
orders fewest units now.
"""

from __future__ import annotations

from rules.core import State, randbelow
from rules.fate_die.faces import FACES, FLIPS
from rules.solo import cards
from rules.solo.display import SLOTS, entries, face_up
from rules.solo.sheets import of

#: The lettered slots a face names (Caesar's surprise/reaction check; ruling 12).
LETTERS: dict[str, tuple[str, ...]] = {**FLIPS, "c_low": ("C",), "event_low": ()}


def face_title(state: State, face: str) -> str:
    """The face in the playsheet's own words for its game."""
    sheet = of(state)
    value = sheet["value_word"]
    event = sheet["event_word"]
    return {
        "c_low": f"C or lowest face-up {value} card or !!",
        "event_low": f"Face-up {event} card or lowest face-up {value} card",
        "abc": "A, B or C",
        "ab": "A or B",
        "cde": "C, D or E",
        "de": "D or E",
    }[face]


def roll_face(state: State) -> str:
    """Roll the Fate Die: each of the six faces equally likely."""
    return FACES[randbelow(state, 6)]


def _value(state: State, card: str) -> int:
    value = cards.value(state, card)
    if value is None:
        return 0
    if of(state)["zero_counts_as_one"] and value == 0:
        return 1  # Caesar: 0 and 1 AP count as the same low value
    return int(value)


def lowest(state: State, candidates: list[str]) -> list[str]:
    """The lowest-valued of ``candidates`` (every one of them on board-valued sheets)."""
    if of(state)["lowest"] == "board" or not candidates:
        return list(candidates)
    valued = [c for c in candidates if _counts_as_value_card(state, c)]
    if not valued:
        return []
    low = min(_value(state, c) for c in valued)
    return [c for c in valued if _value(state, c) == low]


def _counts_as_value_card(state: State, card: str) -> bool:
    """A card that can be played for its value (Ops/AP). Washington's War event cards
    carry no Ops: we take value 0 with an event as "not an Ops card" (ruling 3)."""
    value = cards.value(state, card)
    return value is not None and not (value == 0 and of(state)["name"] == "washingtons_war")


def allowed(state: State, side: str, face: str) -> list[str]:
    """Every card the face allows ``side`` to play, in display order, without repeats."""
    if face == "c_low":
        picked = [e["card"] for e in entries(state, side, "C")]
        picked += lowest(state, face_up(state, side, ("A", "B", "D", "E")))
    elif face == "event_low":
        ups = face_up(state, side)
        picked = [c for c in ups if cards.is_event(state, c)]
        picked += lowest(state, ups)
    else:
        picked = [e["card"] for s in FLIPS[face] for e in entries(state, side, s)]
    in_order = [e for s in SLOTS for e in entries(state, side, s)]
    chosen = set(picked)
    return [e["card"] for e in in_order if e["card"] in chosen]
