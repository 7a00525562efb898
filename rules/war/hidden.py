"""What a side knows of the war, and complete states consistent with it (for search).

``known_state`` is the state as one side sees it: the battlefield, the cards beside it,
the modifiers, the flow of play (step and call stack) and every count, plus that side's
own hand and face-down placements. Left out: the random generator, the order and
contents of both decks, the Survivors and the Graveyard (the view shows only their
sizes), the other side's hand and placements (only how many), the logs, and the last
battle's record (its card ids could say which cards were since drawn).

``determinize`` deals every card of a side that the knower cannot see (all 72 minus the
columns, the cards beside the battlefield and, for its own side, its hand and
placements) at random into the piles whose sizes the knower sees: deck, Survivors,
Graveyard and, for the other side, hand and face-down placements (in columns drawn at
random, one per column). The result plays on with a fresh generator from ``key``.
"""

from __future__ import annotations

from typing import Any

from rules.core import State, View, shuffle
from rules.core.rng import generator
from rules.core.undo import copy_json
from rules.war.battle import COLUMNS
from rules.war.cards import SIDES, deck_ids

#: Keys of the state a side never sees as they are.
_LEFT_OUT = ("rng", "seed", "log", "private_log", "undo", "last_battle", "sides")
#: Piles of a side whose contents the other side sees only as a count.
_COUNTED = ("deck", "survivors", "graveyard")


def known_state(state: State, role: str) -> State:
    known: State = {k: copy_json(v) for k, v in state.items() if k not in _LEFT_OUT}
    sides: dict[str, Any] = {}
    for side_role in SIDES:
        here = state["sides"][side_role]
        entry: dict[str, Any] = {pile: len(here[pile]) for pile in _COUNTED}
        entry["beside"] = list(here["beside"])
        entry["committed"] = bool(here["committed"])
        if side_role == role:
            entry["hand"] = list(here["hand"])
            entry["placed"] = [list(p) for p in here["placed"]]
        else:
            entry["hand"] = len(here["hand"])
            entry["placed"] = len(here["placed"])
        sides[side_role] = entry
    known["sides"] = sides
    return known


def determinize(view: View, role: str, key: int | str) -> State:
    known = view["known_state"]
    sampler: State = {"rng": generator(key), "undo": [], "seal": 0}
    state: State = copy_json(known)
    sides: dict[str, Any] = {}
    for side_role in SIDES:
        seen = known["sides"][side_role]
        visible = {cid for column in COLUMNS for cid in known["columns"][column][side_role]}
        visible.update(seen["beside"])
        own = side_role == role
        if own:
            visible.update(seen["hand"])
            visible.update(cid for _, cid in seen["placed"])
        unseen = [cid for cid in deck_ids(side_role) if cid not in visible]
        shuffle(sampler, unseen)
        wanted = sum(seen[pile] for pile in _COUNTED)
        if not own:
            wanted += seen["hand"] + seen["placed"]
        if wanted != len(unseen):
            raise ValueError(
                f"the view accounts for {wanted} unseen {side_role} cards, not {len(unseen)}"
            )
        piles: dict[str, Any] = {}
        for pile in _COUNTED:
            piles[pile] = [unseen.pop() for _ in range(seen[pile])]
        if own:
            hand = list(seen["hand"])
            placed = [list(p) for p in seen["placed"]]
        else:
            hand = [unseen.pop() for _ in range(seen["hand"])]
            columns = list(COLUMNS)
            shuffle(sampler, columns)
            placed = [[columns[i], unseen.pop()] for i in range(seen["placed"])]
        sides[side_role] = {
            "deck": piles["deck"],
            "hand": hand,
            "placed": placed,
            "committed": seen["committed"],
            "beside": list(seen["beside"]),
            "survivors": piles["survivors"],
            "graveyard": piles["graveyard"],
        }
    # The same key order as a state set up by the engine, so states compare as text.
    ordered: State = {}
    for name in (
        "version",
        "game",
        "seed",
        "rng",
        "options",
        "step",
        "calls",
        "log",
        "private_log",
        "undo",
        "seal",
        "outcome",
        "sides",
        "columns",
        "battle",
        "modifiers",
        "event_queue",
        "last_battle",
    ):
        ordered[name] = state.get(name)
    ordered.update(
        seed=None,
        rng=sampler["rng"],
        log=[],
        private_log={r: [] for r in SIDES},
        undo=[],
        sides=sides,
        last_battle=None,
    )
    for name, value in state.items():
        ordered.setdefault(name, value)
    return ordered
