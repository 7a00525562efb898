"""What a side knows of the crisis, and complete states consistent with it (for search).

``known_state`` is the state as one side sees it: the map, tracks, boxes, VP, the flow
of play (step and call stack), every card played, claimed, discarded or revealed (the
table saw them all face up), the counts of everything face down, and the side's own
hand, objective offer, kept objective, set-aside cards and Final Crisis order. Left out:
the random generator, the logs, the order and contents of both decks, and the other
side's hand, objective offer, kept objective, set-aside cards and Final Crisis order.

``determinize`` deals the strategy cards the knower has not seen at random into the
other side's hand, set-aside cards and Final Crisis order and the strategy deck (sizes
as known), and the unseen objective cards into the other side's offer and the objective
deck; a kept objective the knower knows exists is one of that offer while it is still
on the table, else one more unseen card. The result plays on with a fresh generator.

Not used: what the knower could infer from history, e.g. that the objective it gave
back this round cannot be the one the other side kept (both offers were dealt before
it went back). The sample is then a little wider than a perfect memory would allow.
"""

from __future__ import annotations

import marshal
from dataclasses import dataclass
from typing import Any

from rules.core import State, View, choice, shuffle
from rules.core.rng import generator
from rules.core.undo import copy_json
from rules.fate_die import opponent as fate
from rules.fort_sumter.board import opponent
from rules.fort_sumter.cards import OBJECTIVES, ROLES, STRATEGY

#: State keys never part of what a side knows, and what stands in their place.
_BLANK: dict[str, Any] = {"rng": None, "seed": None, "log": [], "private_log": {}, "undo": []}


def known_state(state: State, role: str) -> State:
    other = opponent(role)
    known: State = {
        k: copy_json(_BLANK[k]) if k in _BLANK else copy_json(v) for k, v in state.items()
    }
    known["strategy_deck"] = len(state["strategy_deck"])
    known["objective_deck"] = len(state["objective_deck"])
    known["hands"][other] = len(state["hands"][other])
    known["objective_offer"][other] = len(state["objective_offer"][other])
    known["objective"][other] = state["objective"][other] is not None or None
    known["set_aside"][other] = len(state["set_aside"][other])
    fc = known["final_crisis"]
    if fc is not None and fc["order"][other] is not None:
        fc["order"][other] = len(fc["order"][other])
    if "fate" in state:
        known["fate"] = fate.known(state["fate"], role)
    return known


def determinize(view: View, role: str, key: int | str) -> State:
    other = opponent(role)
    sampler: State = {"rng": generator(key), "undo": [], "seal": 0}
    known = view["known_state"]
    pools = _unseen_pools(known, role)
    state: State = marshal.loads(pools.blob) if pools.blob else copy_json(known)
    fc = state["final_crisis"]

    shown = list(pools.shown)  # the other side's face-up display cards: in its hand, known
    display = state.get("fate")
    unseen = list(pools.strategy)
    shuffle(sampler, unseen)
    dealt = [unseen.pop() for _ in range(state["hands"][other] - len(shown))]
    state["hands"][other] = shown + dealt
    if display is not None and display["role"] == other:
        fate.fill_unknown(display, dealt)
    state["set_aside"][other] = [unseen.pop() for _ in range(state["set_aside"][other])]
    if fc is not None and fc["order"][other] is not None:
        fc["order"][other] = [unseen.pop() for _ in range(fc["order"][other])]
    if len(unseen) != state["strategy_deck"]:
        raise ValueError(
            f"{len(unseen)} unseen strategy cards for a deck of {state['strategy_deck']}"
        )
    state["strategy_deck"] = unseen

    unseen = list(pools.objectives)
    shuffle(sampler, unseen)
    offer = [unseen.pop() for _ in range(state["objective_offer"][other])]
    state["objective_offer"][other] = offer
    if state["objective"][other]:
        state["objective"][other] = choice(sampler, offer) if offer else unseen.pop()
    if len(unseen) != state["objective_deck"]:
        raise ValueError(f"{len(unseen)} unseen objectives for a deck of {state['objective_deck']}")
    state["objective_deck"] = unseen

    state["rng"] = sampler["rng"]
    state["private_log"] = {r: [] for r in ROLES}
    return state


@dataclass(frozen=True)
class _Pools:
    """What ``determinize`` deals from, worked out from one known state: the strategy
    cards the knower has not seen and the objectives it has not seen, in card order
    (before the shuffle), the other side's face-up display cards, and the known state as
    ``marshal`` bytes (empty when it does not go through ``marshal``)."""

    blob: bytes
    strategy: tuple[str, ...]
    shown: tuple[str, ...]
    objectives: tuple[str, ...]


#: The pools of the known state determinized last (a search determinizes the same view
#: at every iteration), with the knower and that state's bytes; read and replaced as one
#: entry, so searches in several threads never mix two entries.
_LAST: list[tuple[str, bytes, _Pools] | None] = [None]


def _unseen_pools(known: State, role: str) -> _Pools:
    """``_pools(known, role)``, kept for the next call with an equal known state."""
    try:
        blob = marshal.dumps(known)
    except ValueError:  # not plain JSON data: worked out afresh, as ``copy_json`` copies it
        return _pools(known, role, b"")
    last = _LAST[0]
    if last is not None and last[0] == role and last[1] == blob:
        return last[2]
    pools = _pools(known, role, blob)
    _LAST[0] = (role, blob, pools)
    return pools


def _pools(known: State, role: str, blob: bytes) -> _Pools:
    other = opponent(role)
    fc = known["final_crisis"]
    seen = set(known["out_of_play"]["strategy"])
    seen.update(known["hands"][role], known["set_aside"][role])
    if fc is not None:
        seen.update(fc["order"][role] or [])
        for r in ROLES:
            seen.update(fc["revealed"][r])
    shown: list[str] = []
    display = known.get("fate")
    if display is not None and display["role"] == other:
        shown = [c for c in fate.known_cards(display) if c is not None]
        seen.update(shown)
    strategy = tuple(c for c in STRATEGY if c not in seen)

    seen = set(known["out_of_play"]["objective"]) | set(known["objective_offer"][role])
    if known["objective"][role]:
        seen.add(known["objective"][role])
    objectives = tuple(c for c in OBJECTIVES if c not in seen)
    return _Pools(blob=blob, strategy=strategy, shown=tuple(shown), objectives=objectives)
