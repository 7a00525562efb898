"""What a side knows of the war, and complete states consistent with it (for search).

``known_state`` is the state as one side sees it: the map, flags, stock, both tracks, the
turn and the action under way, every battle as far as it has been revealed, each side's
I and II cards (which cards they are is public), the counts of every pile, and the side's
own hand, discard pile and removed cards (it played or built them). Left out: the random
generator, the logs and undo snapshots, the order of both decks, the other side's hand,
discard and removed cards (counts only), the other side's battle card while it lies face
down, and the other side's cards named by an action under way (shown as their pile).

``determinize`` deals the other side's cards the knower has not located (its cards less
its I and II cards and a revealed battle card) at random into its hand, discard, removed
cards, face-down battle card and deck, to the known sizes, and shuffles the knower's own
unseen cards into its own deck; an action under way names cards of the piles it named.
The result plays on with a fresh generator.

Not used: what the knower could infer from history (the cards the other side built or
fought with went to its removed cards or discard pile in plain sight). The sample is
then a little wider than a perfect memory would allow.
"""

from __future__ import annotations

import marshal
from typing import Any

from rules.core import State, View, randbelow, shuffle
from rules.core.rng import generator
from rules.core.undo import copy_json
from rules.fate_die import opponent as fate
from rules.lincoln.data import CARDS, ROLES, opponent

#: State keys never part of what a side knows, and what stands in their place.
_BLANK: dict[str, Any] = {"rng": None, "seed": None, "log": [], "private_log": {}, "undo": []}
#: Stands for the other side's face-down battle card.
FACE_DOWN = "face down"


def known_state(state: State, role: str) -> State:
    other = opponent(role)
    known: State = {
        k: copy_json(_BLANK[k]) if k in _BLANK else copy_json(v) for k, v in state.items()
    }
    # The other side's cards named by an action under way (the card it is deploying, a
    # card paid to move before the battle that move caused) show only as their pile.
    where = {c: pile for pile in _PILES for c in state["piles"][other][pile]}
    for key in ("doing", "event"):
        known[key] = _mask(known[key], where)
    for side in ROLES:
        known["piles"][side]["deck"] = len(state["piles"][side]["deck"])
    theirs = known["piles"][other]
    for pile in ("hand", "discard", "removed"):
        theirs[pile] = len(state["piles"][other][pile])
    battle = known["battle"]
    if battle is not None and not battle["revealed"] and battle["cards"].get(other):
        battle["cards"][other] = FACE_DOWN
    if "fate" in state:
        known["fate"] = fate.known(state["fate"], role)
    return known


_PILES = ("hand", "deck", "discard", "removed")


def _mask(value: Any, where: dict[str, str]) -> Any:
    """``value`` with every card id in ``where`` replaced by "face down:<its pile>"."""
    if isinstance(value, str):
        return f"{FACE_DOWN}:{where[value]}" if value in where else value
    if isinstance(value, list):
        return [_mask(v, where) for v in value]
    if isinstance(value, dict):
        return {k: _mask(v, where) for k, v in value.items()}
    return value


def _unmask(value: Any, piles: dict[str, Any], taken: set[str], sampler: State) -> Any:
    """``value`` with each "face down:<pile>" replaced by a card of that (dealt) pile."""
    if isinstance(value, str) and value.startswith(f"{FACE_DOWN}:"):
        pile = value.split(":", 1)[1]
        free = [c for c in piles[pile] if c not in taken]
        card = free[randbelow(sampler, len(free))]
        taken.add(card)
        return card
    if isinstance(value, list):
        return [_unmask(v, piles, taken, sampler) for v in value]
    if isinstance(value, dict):
        return {k: _unmask(v, piles, taken, sampler) for k, v in value.items()}
    return value


#: Each side's cards in catalogue order (what :func:`_unlocated` filters).
_SIDE_CARDS: dict[str, tuple[str, ...]] = {
    side: tuple(c for c, data in CARDS.items() if data["side"] == side) for side in ROLES
}


def _unlocated(state: State, side: str, located: list[str]) -> list[str]:
    waves = state["piles"][side]["waves"]
    placed = set(located) | set(waves["I"]) | set(waves["II"])
    return [c for c in _SIDE_CARDS[side] if c not in placed]


def determinize(view: View, role: str, key: int | str) -> State:
    return Dealer(view, role)(key)


class Dealer:
    """:func:`determinize` for one view and many keys (a search deals one state per
    iteration from the same view): what the view alone decides is read once here (the
    known state, ready to be copied; the cards each side has not located), and each call
    deals from it with its key. ``determinize`` is one dealer used once, so a dealer used
    many times gives what each key would give alone (``tests/rules/test_lincoln_fast_paths.py``
    holds it to that)."""

    def __init__(self, view: View, role: str) -> None:
        self.role = role
        self.other = other = opponent(role)
        known: State = view["known_state"]
        # A copy of the known state is a ``marshal`` round trip (``copy_json``): the first
        # half is done once.
        self.known = marshal.dumps(known)
        battle = known["battle"]
        mine = known["piles"][role]
        located = mine["hand"] + mine["discard"] + mine["removed"]
        if battle is not None and battle["cards"].get(role):
            located.append(battle["cards"][role])
        self.deck = _unlocated(known, role, located)
        if len(self.deck) != mine["deck"]:
            raise ValueError(
                f"{len(self.deck)} unseen cards of {role} for a deck of {mine['deck']}"
            )
        self.face_down = battle is not None and battle["cards"].get(other) == FACE_DOWN
        seen = (
            []
            if self.face_down or battle is None or not battle["cards"].get(other)
            else [battle["cards"][other]]
        )
        # The other side's face-up display cards (Fate Die) are in its hand, known.
        display = known.get("fate")
        self.shown: list[str] = []
        if display is not None and display["role"] == other:
            self.shown = [c for c in fate.known_cards(display) if c is not None]
        self.unseen = _unlocated(known, other, seen + self.shown)
        self.masked = any(_has_mask(known[key]) for key in ("doing", "event"))

    def __call__(self, key: int | str) -> State:
        role, other, shown = self.role, self.other, self.shown
        sampler: State = {"rng": generator(key), "undo": [], "seal": 0}
        state: State = marshal.loads(self.known)
        battle = state["battle"]

        mine = state["piles"][role]
        deck = list(self.deck)
        shuffle(sampler, deck)
        mine["deck"] = deck

        theirs = state["piles"][other]
        face_down = self.face_down
        display = state.get("fate")
        unseen = list(self.unseen)
        shuffle(sampler, unseen)
        # A Fate Die display still holds the other side's unrevealed battle card.
        in_display = face_down and display is not None and display["role"] == other
        if in_display and battle is not None and display is not None:
            # The display still holds the unrevealed battle card: one of its face-down
            # cards (the playsheet has it played from them), or of its face-up ones if it
            # had none.
            down = [unseen.pop() for _ in range(len(fate.known_cards(display)) - len(shown))]
            fate.fill_unknown(display, down)
            pool = down or shown
            played = pool[randbelow(sampler, len(pool))]
            battle["cards"][other] = played
            theirs["hand"] = [c for c in shown + down if c != played]
        else:
            dealt = [unseen.pop() for _ in range(theirs["hand"] - len(shown))]
            theirs["hand"] = shown + dealt
            if display is not None and display["role"] == other:
                fate.fill_unknown(display, dealt)
        for pile in ("discard", "removed"):
            theirs[pile] = [unseen.pop() for _ in range(theirs[pile])]
        if face_down and not in_display and battle is not None:
            battle["cards"][other] = unseen.pop()
        if len(unseen) != theirs["deck"]:
            raise ValueError(
                f"{len(unseen)} unseen cards of {other} for a deck of {theirs['deck']}"
            )
        theirs["deck"] = unseen
        if self.masked:
            taken: set[str] = set()
            for part in ("doing", "event"):
                state[part] = _unmask(state[part], theirs, taken, sampler)

        state["rng"] = sampler["rng"]
        state["seed"] = None
        state["private_log"] = {r: [] for r in ROLES}
        return state


def _has_mask(value: Any) -> bool:
    """Whether ``value`` holds a "face down:<pile>" card for :func:`_unmask` to deal."""
    if isinstance(value, str):
        return value.startswith(f"{FACE_DOWN}:")
    if isinstance(value, list):
        return any(_has_mask(v) for v in value)
    if isinstance(value, dict):
        return any(_has_mask(v) for v in value.values())
    return False
