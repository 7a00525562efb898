"""The card-event vocabulary of Lincoln, and its interpreter.

A card's bottom text is a list of instructions in ``data/cards.json``:

- ``{"op": "draw", "count": n}``: draw n cards (a Union reshuffle may follow, with its check);
- ``{"op": "europe", "steps": n}``: move the Europe marker n spaces toward the player;
- ``{"op": "blockade", "steps": n}``: move the Blockade marker n spaces the player's way;
- ``{"op": "raise", "strength": s}``: place an army of strength s from stock in a location
  the player controls and supplies (a choice: the interpreter pauses at ``place``);
- ``{"op": "raid", "count": n}``: the opponent discards n cards from hand, at random;
- ``{"op": "strength", "amount": n, "when": "attack"|"defend"|"any", "by": ...}``: a
  Benefit; counts only when the card is a battle card revealed in a battle where its
  owner is attacking/defending (and, with ``by``, only for that kind of attack).

The interpreter's position (``state["event"]``: role, card, index) lives in the state, so
an event can wait for a choice and resume after a restart.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.core import State, goto, log, plural, randbelow, seal, telling
from rules.lincoln import board, piles
from rules.lincoln.common import check_europe, finish_action
from rules.lincoln.data import (
    BLOCKADE,
    CARDS,
    EUROPE_END,
    ROLE_NAMES,
    SUPPLY_SOURCES,
    card_name,
    opponent,
)

if TYPE_CHECKING:
    from rules.core import Game

VOCABULARY: dict[str, tuple[str, ...]] = {
    "draw": ("count",),
    "europe": ("steps",),
    "blockade": ("steps",),
    "raise": ("strength",),
    "raid": ("count",),
    "strength": ("amount", "when"),
}
WHEN = ("attack", "defend", "any")


def event_problems(event: list[dict[str, Any]]) -> list[str]:
    """What is wrong with an event's instructions (empty when it is well formed)."""
    problems = []
    for op in event:
        params = VOCABULARY.get(op.get("op", ""))
        if params is None:
            problems.append(f"unknown op {op.get('op')!r}")
            continue
        for param in params:
            if param not in op:
                problems.append(f"{op['op']} lacks {param}")
        if op["op"] == "strength" and op.get("when") not in WHEN:
            problems.append("strength needs when in attack/defend/any")
        if op["op"] == "strength" and op.get("by") not in (None, "rail", "naval"):
            problems.append("strength 'by' must be rail or naval")
    return problems


def blockade_room(state: State, role: str) -> bool:
    """Whether the Blockade marker can move in ``role``'s favour (Union: forward)."""
    if role == "union":
        return int(state["blockade"]) < len(BLOCKADE) - 1
    return int(state["blockade"]) > 0


def europe_room(state: State, role: str) -> bool:
    if role == "union":
        return int(state["europe"]) > 0
    return int(state["europe"]) < EUROPE_END


def move_blockade(state: State, role: str, steps: int) -> int:
    before = int(state["blockade"])
    delta = steps if role == "union" else -steps
    state["blockade"] = max(0, min(len(BLOCKADE) - 1, before + delta))
    return abs(int(state["blockade"]) - before)


def raise_places(state: State, role: str, strength: int) -> list[str]:
    if state["stock"][role]["armies"][str(strength)] <= 0:
        return []
    return board.supplied_in_order(state, role)


def can_raise(state: State, role: str, strength: int) -> bool:
    """Whether ``raise_places`` offers anything, without tracing supply: a side's supply
    sources it controls are among its supplied locations, and with none it supplies
    nothing (the turn asks this of every Action and Free action card it lists)."""
    return state["stock"][role]["armies"][str(strength)] > 0 and any(
        board.control(state, source) == role for source in SUPPLY_SOURCES[role]
    )


def playable(state: State, role: str, card: str) -> bool:
    """An Action or Free action card may be played when it would do something."""
    for op in CARDS[card]["event"]:
        kind = op["op"]
        if kind == "raise" and can_raise(state, role, int(op["strength"])):
            return True
        if kind == "europe" and europe_room(state, role):
            return True
        if kind == "blockade" and blockade_room(state, role):
            return True
        if kind in ("draw", "raid"):
            return True
    return False


def begin(game: Game, state: State, role: str, card: str) -> None:
    """Play a card for its Action or Free action: discard it, then run its instructions."""
    piles.discard(state, role, card)
    timing = "free action" if CARDS[card]["timing"] == "free" else "action"
    if telling(state):
        log(state, f"{ROLE_NAMES[role]} plays {card_name(card)} for its {timing}.")
    state["event"] = {"role": role, "card": card, "index": 0}
    resume(game, state)


def resume(game: Game, state: State) -> None:
    """Run instructions from the saved position until one waits for a choice or all ran."""
    event = state["event"]
    role = event["role"]
    ops = CARDS[event["card"]]["event"]
    while event["index"] < len(ops):
        op = ops[event["index"]]
        event["index"] += 1
        kind = op["op"]
        if kind == "draw":
            drawn = piles.draw(game, state, role, int(op["count"]))
            log(state, f"{ROLE_NAMES[role]} draws {plural(len(drawn), 'card')}.")
            if state["outcome"] is not None:
                return
        elif kind == "europe":
            moved = board.move_europe(state, role, int(op["steps"]))
            log(state, f"Europe marker moves {moved} toward the {ROLE_NAMES[role]} side.")
            if check_europe(game, state):
                return
        elif kind == "blockade":
            moved = move_blockade(state, role, int(op["steps"]))
            log(state, f"Blockade marker moves {moved} in the {ROLE_NAMES[role]} favour.")
        elif kind == "raid":
            hand = state["piles"][opponent(role)]["hand"]
            for _ in range(int(op["count"])):
                if not hand:
                    break
                lost = hand[randbelow(state, len(hand))]
                piles.discard(state, opponent(role), lost)
                log(state, f"{ROLE_NAMES[opponent(role)]} discards {card_name(lost)} (raid).")
            seal(state)
        elif kind == "raise":
            strength = int(op["strength"])
            if can_raise(state, role, strength):
                state["doing"] = {"kind": "raise", "strength": strength, "at": None}
                goto(game, state, "place")
                return
            log(state, "No army can be raised: nothing happens.")
    state["event"] = None
    finish_action(game, state)


def battle_bonus(card: str | None, role_is: str, by: str) -> int:
    """The Benefit of a revealed battle card for its owner, who is ``"attack"``-ing or
    ``"defend"``-ing in a battle fought ``by`` rail, naval or inside."""
    if card is None:
        return 0
    bonus = 0
    for op in CARDS[card]["event"]:
        if op["op"] != "strength":
            continue
        if op["when"] not in ("any", role_is):
            continue
        if op.get("by") is not None and op["by"] != by:
            continue
        bonus += int(op["amount"])
    return bonus
