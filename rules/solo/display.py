"""The Card Display: five slots A-E, the markers, and the deck each display draws from.

State shapes (plain JSON):

- ``state["decks"][deck]``: ``draw`` (top first), ``top_up`` (is the top card face up:
  only on sheets where the deck sits in slot C), ``discard``, ``removed``, and for Paths
  of Glory ``out``: the Limited and Total War cards not yet added. ``deck`` is
  ``"shared"`` for one deck, else the side's name.
- ``state["displays"][side]``: ``slots`` ``{"A": [entry, ...], ...}`` where an entry is
  ``{"card": id, "up": bool}``; ``double``: slots meant to hold two cards (variable hand
  size); ``no_refill_second``: slots whose second card is not replaced once played (C&C
  scenarios); ``remaining`` (Cards Remaining, None where the sheet has no
  such marker); ``aside``: cards set beside the display (face up); ``deck``.

Max Hand Size lives in ``state["hands"][side]`` for both sides, displayed or not, since
the variable hand size compares the two.

Where a playsheet puts the draw deck in slot C (Paths and Illusions of Glory), slot C is
the top card of the deck: it is flipped in place, played from there, and a refill of
another slot takes that top card with its facing.
"""

from __future__ import annotations

from typing import Any

from rules.core import State, log, roll, shuffle
from rules.solo.sheets import of

SLOTS = ("A", "B", "C", "D", "E")
#: Variable hand size: which slots hold a second card for a hand-size difference.
DOUBLED = ((), ("A",), ("A", "D"), ("A", "B", "D"), ("A", "B", "D", "E"))

Entry = dict[str, Any]


def deck_in_c(state: State) -> bool:
    return bool(of(state)["deck_in_slot_c"])


def deck_of(state: State, side: str) -> dict[str, Any]:
    deck: dict[str, Any] = state["decks"][state["displays"][side]["deck"]]
    return deck


def entries(state: State, side: str, slot: str) -> list[Entry]:
    """The cards in ``slot`` (for slot C on deck-in-C sheets: the deck's top card)."""
    if slot == "C" and deck_in_c(state):
        deck = deck_of(state, side)
        return [{"card": deck["draw"][0], "up": deck["top_up"]}] if deck["draw"] else []
    found: list[Entry] = state["displays"][side]["slots"][slot]
    return found


def all_entries(state: State, side: str) -> list[tuple[str, Entry]]:
    """Every (slot, entry) of the display, A to E, first card of a slot first."""
    return [(slot, e) for slot in SLOTS for e in entries(state, side, slot)]


def face_up(state: State, side: str, slots: tuple[str, ...] = SLOTS) -> list[str]:
    return [e["card"] for s, e in all_entries(state, side) if e["up"] and s in slots]


def face_down_slots(state: State, side: str) -> list[str]:
    return [s for s in SLOTS if any(not e["up"] for e in entries(state, side, s))]


def slot_of(state: State, side: str, card: str) -> str | None:
    for slot, entry in all_entries(state, side):
        if entry["card"] == card:
            return slot
    return None


def owner(state: State, card: str) -> str | None:
    """The side whose display (or aside) holds ``card``."""
    for side in state["displays"]:
        if slot_of(state, side, card) is not None:
            return str(side)
        if any(e["card"] == card for e in state["displays"][side]["aside"]):
            return str(side)
    return None


def card_count(state: State, side: str) -> int:
    return len(all_entries(state, side))


def flip_slot(state: State, side: str, slot: str) -> list[str]:
    """Turn every face-down card of ``slot`` face up; returns the cards turned."""
    if slot == "C" and deck_in_c(state):
        deck = deck_of(state, side)
        if deck["draw"] and not deck["top_up"]:
            deck["top_up"] = True
            return [deck["draw"][0]]
        return []
    turned = []
    for entry in state["displays"][side]["slots"][slot]:
        if not entry["up"]:
            entry["up"] = True
            turned.append(entry["card"])
    return turned


def flip_one(state: State, side: str, slot: str) -> str | None:
    """Turn the first face-down card of ``slot`` face up."""
    if slot == "C" and deck_in_c(state):
        turned = flip_slot(state, side, slot)
        return turned[0] if turned else None
    for entry in state["displays"][side]["slots"][slot]:
        if not entry["up"]:
            entry["up"] = True
            return str(entry["card"])
    return None


def take(state: State, side: str, card: str) -> str:
    """Lift ``card`` out of the display; returns the slot it left."""
    slot = slot_of(state, side, card)
    if slot is None:
        raise ValueError(f"{card} is not on the {side} display")
    if slot == "C" and deck_in_c(state):
        deck = deck_of(state, side)
        deck["draw"].pop(0)
        deck["top_up"] = False
        return slot
    cards = state["displays"][side]["slots"][slot]
    cards[:] = [e for e in cards if e["card"] != card]
    return slot


def draw(state: State, side: str) -> Entry | None:
    """The top card of the side's deck, keeping its facing; None when the deck is empty."""
    deck = deck_of(state, side)
    if not deck["draw"]:
        exhausted(state, side)
        return None
    card = deck["draw"].pop(0)
    up = bool(deck["top_up"])
    deck["top_up"] = False
    return {"card": card, "up": up}


def exhausted(state: State, side: str) -> None:
    """The playsheet's draw-deck exhaustion rule, said once per empty draw."""
    rule = of(state)["exhaustion"]
    display = state["displays"][side]
    if rule == "pog":
        if display["remaining"] is not None and display["remaining"] > 4:
            display["remaining"] = 4
            log(
                state,
                f"The {side_name(state, side)} deck is exhausted: Cards Remaining drops to 4.",
            )
    elif not state.get("exhaust_said"):
        log(state, "The draw deck is empty: the slot stays empty until a reshuffle.")
        state["exhaust_said"] = True


def target(state: State, side: str, slot: str) -> int:
    """How many cards ``slot`` should hold."""
    if slot == "C" and deck_in_c(state):
        return 0
    return 2 if slot in state["displays"][side]["double"] else 1


def refill(state: State, side: str, slot: str, facing: str) -> list[str]:
    """Fill ``slot`` up to its size from the deck: ``facing`` is "down", "up" or
    "maintain" (keep the facing of the deck's top card). Returns cards placed face up."""
    placed_up = []
    cards = state["displays"][side]["slots"].get(slot, [])
    deck = deck_of(state, side)
    short = len(cards) < target(state, side, slot)
    if short and not deck["draw"] and deck["discard"] and of(state)["exhaustion"] == "pog":
        # Paths/Illusions of Glory: an empty draw deck is rebuilt from the discards at
        # once with the playsheet's reshuffle, which itself refills the empty slots face
        # down (ruling 9).
        reshuffle(state, display_deck(state, side))
    while len(cards) < target(state, side, slot):
        entry = draw(state, side)
        if entry is None:
            break
        if facing != "maintain":
            entry["up"] = facing == "up"
        cards.append(entry)
        if entry["up"]:
            placed_up.append(entry["card"])
    return placed_up


def display_deck(state: State, side: str) -> str:
    return str(state["displays"][side]["deck"])


def side_name(state: State, side: str) -> str:
    names: dict[str, str] = state["side_names"]
    return names.get(side, side)


def discard(state: State, side: str, card: str, removed: bool = False) -> None:
    """Put a card that left ``side``'s display on its deck's discard (or removed) pile."""
    pile = "removed" if removed else "discard"
    deck_of(state, side)[pile].append(card)


def standard_fill(state: State, side: str) -> None:
    """Standard set-up of one display: A and B face up, C, D and E face down."""
    for slot in SLOTS:
        for _ in range(target(state, side, slot)):
            entry = draw(state, side)
            if entry is None:
                return
            first = not state["displays"][side]["slots"][slot]
            entry["up"] = slot in ("A", "B") and first
            state["displays"][side]["slots"][slot].append(entry)


def reshuffle(state: State, deck_name: str) -> None:
    """The playsheets' reshuffle: each display drawing from this deck discards its face-down
    cards; the discards and the draw deck are shuffled together; every empty place on
    those displays is filled face down."""
    deck = state["decks"][deck_name]
    sides = [s for s in state["displays"] if state["displays"][s]["deck"] == deck_name]
    for side in sides:
        for slot in SLOTS:
            if slot == "C" and deck_in_c(state):
                continue
            cards = state["displays"][side]["slots"][slot]
            deck["discard"].extend(e["card"] for e in cards if not e["up"])
            cards[:] = [e for e in cards if e["up"]]
    deck["draw"].extend(deck["discard"])
    deck["discard"] = []
    deck["top_up"] = False
    shuffle(state, deck["draw"])
    state["exhaust_said"] = False
    for side in sides:
        for slot in SLOTS:
            refill(state, side, slot, "down")
    log(state, f"Reshuffle of the {deck_label(state, deck_name)}.")


def deck_label(state: State, deck_name: str) -> str:
    if deck_name == "shared":
        return "draw deck"
    return f"{side_name(state, deck_name)} draw deck"


# --------------------------------------------------------- Random Card Selection chart


def chart_pick(state: State, count: int) -> tuple[int, list[int]]:
    """The Random Card Selection chart: which of ``count`` (1-5) face-up cards, counted in
    display order, is picked; returns its index and the rolls made (rerolls included)."""
    if not 1 <= count <= 5:
        raise ValueError("the chart covers one to five face-up cards")
    rolls: list[int] = []
    if count == 1:
        return 0, rolls
    while True:
        die = roll(state, 6)
        rolls.append(die)
        if count == 2:
            return (0 if die <= 3 else 1), rolls
        if count == 3:
            return (die - 1) // 2, rolls
        if die <= count:  # 4 cards: reroll 5 and 6; 5 cards: reroll 6
            return die - 1, rolls


def random_face_up(state: State, side: str, pool: str = "up") -> str | None:
    """Pick one card of ``side``'s display with the chart: face-up cards (``pool="any"``:
    every card, ``pool="down"``: only face-down ones). More than five cards (double
    slots): the chart first picks a slot among those holding such cards, then a card
    within it (ruling 6)."""
    by_slot: list[list[str]] = []
    for slot in SLOTS:
        cards = [
            e["card"]
            for e in entries(state, side, slot)
            if pool == "any" or e["up"] == (pool == "up")
        ]
        if cards:
            by_slot.append(cards)
    flat = [c for cards in by_slot for c in cards]
    if not flat:
        return None
    if len(flat) <= 5:
        index, rolls = chart_pick(state, len(flat))
        _say_rolls(state, rolls)
        return flat[index]
    index, rolls = chart_pick(state, len(by_slot))
    chosen = by_slot[index]
    inner, more = chart_pick(state, len(chosen))
    _say_rolls(state, rolls + more)
    return chosen[inner]


def _say_rolls(state: State, rolls: list[int]) -> None:
    if rolls:
        log(state, "Random Card Selection roll: " + ", ".join(map(str, rolls)) + ".")


# ------------------------------------------------------------------ variable hand size


def doubled_for(difference: int) -> tuple[str, ...]:
    return DOUBLED[max(0, min(difference, 4))]


def hand_difference(state: State) -> dict[str, int]:
    """How many more cards each side's Max Hand Size holds than the other's (0 or more)."""
    a, b = of(state)["sides"]
    ha, hb = state["hands"][a], state["hands"][b]
    return {a: max(0, ha - hb), b: max(0, hb - ha)}
