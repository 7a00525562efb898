"""Each side's cards: draw pile, hand, discard pile, removed cards and the I and II piles
set aside; refill, reshuffles with their additions, and the Union's VP checks."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.core import State, log, plural, private_log, seal, shuffle, telling
from rules.fate_die import opponent as fate
from rules.lincoln.board import union_vp
from rules.lincoln.common import run_by_die
from rules.lincoln.data import BLOCKADE, CARDS, ROLE_NAMES, ROLES, card_name, cards_of

if TYPE_CHECKING:
    from rules.core import Game

UNION_HAND = 6
#: VP the Union needs at its first and second reshuffle, or the Confederacy wins at once.
RESHUFFLE_CHECKS = {1: 2, 2: 5}
WIN_VP = 12
#: How a game of Lincoln may end (``Game.outcome_codes``).
OUTCOME_CODES = frozenset(
    {"europe", "washington", "vicksburg_richmond", "final_vp"}
    | {f"reshuffle_{number}_check" for number in RESHUFFLE_CHECKS}
)


def initial_piles(state: State) -> dict[str, Any]:
    piles: dict[str, Any] = {}
    for role in ROLES:
        deck = cards_of(role, "base")
        shuffle(state, deck)
        piles[role] = {
            "deck": deck,
            "hand": [],
            "discard": [],
            "removed": [],
            "reshuffles": 0,
            "waves": {"I": cards_of(role, "I"), "II": cards_of(role, "II")},
        }
    return piles


def hand_size(state: State, role: str) -> int:
    if role == "union":
        return UNION_HAND
    return int(BLOCKADE[state["blockade"]]["hand_size"])


def reshuffle(game: Game, state: State, role: str) -> bool:
    """Make a new draw pile of the discards, adding the I cards the first time and the II
    cards the second; the Union checks its VP. False when the game ended instead."""
    piles = state["piles"][role]
    number = int(piles["reshuffles"]) + 1
    if role == "union" and number > 2:
        final_count(game, state)
        return False
    piles["reshuffles"] = number
    fresh = list(piles["discard"])
    piles["discard"] = []
    wave = {1: "I", 2: "II"}.get(number)
    added: list[str] = []
    if wave is not None:
        added = list(piles["waves"][wave])
        piles["waves"][wave] = []
    fresh += added
    shuffle(state, fresh)
    piles["deck"] = fresh + piles["deck"]
    extra = f", adding the {len(added)} {wave} cards" if added else ""
    log(state, f"{ROLE_NAMES[role]} reshuffles (reshuffle {number}){extra}.")
    if role == "union" and number in RESHUFFLE_CHECKS:
        vp, need = union_vp(state), RESHUFFLE_CHECKS[number]
        log(state, f"Union VP check at reshuffle {number}: {vp} VP (needs {need}).")
        if vp < need:
            game.finish(
                state,
                "confederate",
                f"the Union had {vp} VP at its reshuffle {number}, fewer than {need}",
                {"union": vp},
                code=f"reshuffle_{number}_check",
            )
            return False
    return True


def final_count(game: Game, state: State) -> None:
    """The Union's deck is exhausted a third time: 12 VP or more wins."""
    vp = union_vp(state)
    log(state, f"The Union deck is exhausted for the third time: {vp} VP.")
    if vp >= WIN_VP:
        game.finish(
            state,
            "union",
            f"{vp} VP when its deck ran out a third time",
            {"union": vp},
            code="final_vp",
        )
    else:
        game.finish(
            state,
            "confederate",
            f"the Union had only {vp} VP (needs {WIN_VP}) when its deck ran out a third time",
            {"union": vp},
            code="final_vp",
        )


def draw(game: Game, state: State, role: str, count: int) -> list[str]:
    """Draw up to ``count`` cards into the hand, reshuffling when the pile runs out; stops
    early if the game ends or (Confederate) no card is left anywhere."""
    piles = state["piles"][role]
    drawn: list[str] = []
    for _ in range(count):
        if not piles["deck"]:
            if role == "confederate" and not piles["discard"] and not _due(piles):
                break
            if not reshuffle(game, state, role):
                break
        if not piles["deck"]:
            break
        seal(state)
        card = piles["deck"].pop()
        piles["hand"].append(card)
        drawn.append(card)
    if drawn:
        if state["turn"]["player"] == role:
            # Ruling 23's clock runs only on a Union turn in which nothing was drawn.
            state["turn"]["drew"] = True
        if telling(state):
            private_log(state, role, "You draw " + ", ".join(card_name(c) for c in drawn) + ".")
        follow_hand(state, role)
    return drawn


def display_cards(state: State, role: str) -> list[str]:
    """What the Card Display of a side run by the Fate Die holds: its hand and, until it
    is revealed, the card it played face down in a battle. That card keeps its slot (and
    its facing) meanwhile, so the table cannot tell from the display which card it was."""
    held = list(state["piles"][role]["hand"])
    battle = state["battle"]
    if battle is not None and not battle["revealed"] and battle["cards"].get(role):
        held.append(battle["cards"][role])
    return held


def follow_hand(state: State, role: str) -> None:
    """A side run by the Fate Die keeps its Card Display equal to :func:`display_cards`:
    cards that left go, new ones fill empty slots face down
    (``rules.fate_die.opponent.sync``)."""
    if run_by_die(state, role):
        fate.sync(state, display_cards(state, role))


def leads(card: str) -> bool:
    """Whether a defender may play ``card`` face down (ruling 12): a Leadership card, or
    a Benefit that strengthens a defender (its own text is a combat modifier)."""
    data = CARDS[card]
    if int(data["icons"]["leadership"]) > 0:
        return True
    return data["timing"] == "benefit" and any(
        op["op"] == "strength" and op["when"] in ("any", "defend") for op in data["event"]
    )


def battle_cards(state: State, role: str, defending: bool = False) -> list[str]:
    """The cards ``role`` may play face down in a battle: its hand (a defender's only
    the cards that :func:`leads`), except that a side run by the Fate Die plays one of
    its face-down display cards when it has any (the Lincoln playsheet), so that the
    table never knows its battle card in advance."""
    hand: list[str] = state["piles"][role]["hand"]
    if defending:
        hand = [c for c in hand if leads(c)]
    if fate.fate_role(state) == role:
        hidden = fate.secret_cards(state)
        face_down = [c for c in hand if c in hidden]
        if face_down:
            return face_down
    return list(hand)


def _due(piles: dict[str, Any]) -> list[str]:
    wave = {0: "I", 1: "II"}.get(int(piles["reshuffles"]))
    return list(piles["waves"][wave]) if wave else []


def idle_pass(state: State, role: str) -> bool:
    """Whether a pass by ``role`` now changes nothing: its hand is full, so its refill
    draws nothing for it (the automated players never pass so, ruling 23)."""
    return len(state["piles"][role]["hand"]) >= hand_size(state, role)


def refill(game: Game, state: State, role: str) -> None:
    """At the end of its turn the active side draws up to its hand size; a Union with a
    full hand that drew no card all turn discards the top card of its draw pile instead
    (ruling 23)."""
    piles = state["piles"][role]
    short = hand_size(state, role) - len(piles["hand"])
    if short > 0:
        drawn = draw(game, state, role, short)
        if (drawn or state["outcome"] is None) and telling(state):
            log(state, f"{ROLE_NAMES[role]} draws {plural(len(drawn), 'card')}.")
    elif role == "union" and not state["turn"].get("drew", False):
        run_the_clock(game, state)


def run_the_clock(game: Game, state: State) -> None:
    """Designed (ruling 23): a Union turn in which no card was drawn (none by an action,
    none at the refill) still turns the Union's draw pile by one card, so that passing
    with a full hand cannot hold the game for ever. The card goes to the discard pile
    face down, as a drawn card would go to the hand; an empty pile reshuffles first,
    with the VP checks, as for a draw."""
    piles = state["piles"]["union"]
    if not piles["deck"] and not reshuffle(game, state, "union"):
        return
    if not piles["deck"]:
        return
    seal(state)
    card = piles["deck"].pop()
    piles["discard"].append(card)
    private_log(state, "union", f"The top card of your draw pile, {card_name(card)}, is discarded.")
    log(state, "Union draws nothing: the top card of its draw pile is discarded (ruling 23).")


def discard(state: State, role: str, card: str) -> None:
    piles = state["piles"][role]
    piles["hand"].remove(card)
    piles["discard"].append(card)
    follow_hand(state, role)


def remove(state: State, role: str, card: str) -> None:
    piles = state["piles"][role]
    piles["hand"].remove(card)
    piles["removed"].append(card)
    follow_hand(state, role)
