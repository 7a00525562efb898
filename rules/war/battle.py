"""The battlefield: piles, drawing, the columns, their totals, and resolving a battle.

State layout (all ids; card facts come from ``rules.war.cards``)::

    state["sides"][role] = {
        "deck": [...],        # face down; the top card is the LAST element
        "hand": [...],        # reinforcements drawn this battle, not yet placed (private)
        "placed": [[column, id], ...],   # face-down reinforcements (private until reveal)
        "committed": bool,    # this side has committed its reinforcements
        "beside": [...],      # events beside the battlefield this battle
        "survivors": [...],   # face up; shuffled into a new deck when the deck runs out
        "graveyard": [...],   # face down; the top card is the LAST element
    }
    state["columns"][column][role] = [...]   # bottom card first, top card last
    state["modifiers"] = [{"source", "owner", "side", "columns", "amount", "unit"}, ...]
"""

from __future__ import annotations

from typing import Any

from rules.core import State, deck, log
from rules.core.deck import Piles
from rules.core.undo import seal
from rules.war.cards import SIDES, Boost, card, cards

COLUMNS = ("left", "centre", "right")
COLUMN_LABELS = {"left": "Left", "centre": "Centre", "right": "Right"}
SIDE_NAMES = {"union": "Union", "confederate": "Confederacy"}
ADJECTIVE = {"union": "Union", "confederate": "Confederate"}


# Card facts by id, as plain tables: every flip, draw and total reads them, and a dict or
# set look-up is the cheapest way there is (``rules.war.cards`` stays the source).

#: What each card counts in a column before boosts and modifiers: an Event counts zero
#: (rule 4), a unit or commander its printed value.
WORTH: dict[str, int] = {cid: 0 if c.is_event else c.value for cid, c in cards().items()}
#: Each card's kind, which boosts and per-card modifiers select on.
KIND: dict[str, str] = {cid: c.kind for cid, c in cards().items()}
#: The Event cards.
EVENTS = frozenset(cid for cid, c in cards().items() if c.is_event)
#: The cards marked "play another card immediately".
PLAYS_ANOTHER = frozenset(cid for cid, c in cards().items() if c.another)
#: The commanders that carry a boost, and their boosts.
BOOSTS: dict[str, Boost] = {cid: c.boost for cid, c in cards().items() if c.boost is not None}
BOOSTERS = frozenset(BOOSTS)
#: Each card as the log names it: its name and, for fighting cards, its value.
DESCRIPTIONS: dict[str, str] = {
    cid: f"{c.name} (event)" if c.is_event else f"{c.name} ({c.value})"
    for cid, c in cards().items()
}


#: A card entering after the opening flip, as the log names it: an Event there is ignored
#: and counts zero (rule 4 note), which the line says so nobody looks for its effect.
LATE_DESCRIPTIONS: dict[str, str] = {
    cid: f"{c.name} (event: ignored, counts 0)" if c.is_event else DESCRIPTIONS[cid]
    for cid, c in cards().items()
}


#: Each side's opponent.
OPPONENT = {SIDES[0]: SIDES[1], SIDES[1]: SIDES[0]}


def opponent(role: str) -> str:
    return OPPONENT[role]


def side(state: State, role: str) -> dict[str, Any]:
    result: dict[str, Any] = state["sides"][role]
    return result


def stack(state: State, column: str, role: str) -> list[str]:
    result: list[str] = state["columns"][column][role]
    return result


def new_side(deck: list[str]) -> dict[str, Any]:
    return {
        "deck": deck,
        "hand": [],
        "placed": [],
        "committed": False,
        "beside": [],
        "survivors": [],
        "graveyard": [],
    }


def empty_columns() -> dict[str, dict[str, list[str]]]:
    return {column: {role: [] for role in SIDES} for column in COLUMNS}


# ------------------------------------------------------------------------- piles


#: A side's deck: drawn from "deck"; when it is used up, the Survivors are shuffled into a
#: new one (rule 7).
PILES = Piles(draw="deck", discard="survivors")


def can_draw(state: State, role: str) -> bool:
    """Whether ``role`` can still bring a card out: a deck, or Survivors to make one."""
    return deck.can_draw(side(state, role), PILES)


def draw(state: State, role: str) -> str | None:
    """The top card of ``role``'s deck, or None when deck and Survivors are both empty.

    When the deck is used up, the Survivors are shuffled into a new deck (rule 7), at any
    moment a card is needed. A card coming off the deck is new information, so drawing
    closes the undo window.
    """

    here = state["sides"][role]
    pile: list[str] = here["deck"]
    if pile:
        # What deck.draw does with cards left, without its reshuffle machinery: battles
        # draw a card at every flip.
        seal(state)
        return pile.pop()

    def used_up(_number: int) -> None:
        log(state, f"The {ADJECTIVE[role]} deck is used up: Survivors shuffled into a new deck.")

    return deck.draw(state, here, PILES, used_up)


def alive(state: State, role: str) -> int:
    """Cards of ``role`` not in the Graveyard: its forces still alive."""
    here = side(state, role)
    count = (
        len(here["deck"])
        + len(here["hand"])
        + len(here["placed"])
        + len(here["beside"])
        + len(here["survivors"])
    )
    for column in COLUMNS:
        count += len(stack(state, column, role))
    return count


def describe(cid: str) -> str:
    """A card as the log names it (see ``DESCRIPTIONS``)."""
    return DESCRIPTIONS[cid]


# ------------------------------------------------------------- cards into columns


def play_late(state: State, role: str, column: str, cid: str, how: str) -> None:
    """Put a card that enters after the opening flip (a reinforcement, a tie-breaker, a
    card an event brings) on ``column``, then play out its "play another" chain.

    Such a card, and every card its chain brings, is played to the column normally; if it
    is an Event, the event is ignored and it counts zero (rule 4 note, rule 6 note).
    """
    pile = stack(state, column, role)
    pile.append(cid)
    log(state, f"{ADJECTIVE[role]} {how} {LATE_DESCRIPTIONS[cid]} on the {column}.")
    while cid in PLAYS_ANOTHER:
        nxt = draw(state, role)
        if nxt is None:
            log(state, f"The {ADJECTIVE[role]} side has no card left to play on it.")
            return
        cid = nxt
        pile.append(cid)
        log(state, f"{ADJECTIVE[role]} plays another: {LATE_DESCRIPTIONS[cid]} on the {column}.")


# ----------------------------------------------------------------------- totals


def _matches(unit: str | None, kind: str) -> bool:
    return unit is None or unit == kind


def card_points(state: State, role: str, column: str, index: int) -> int:
    """What the card at ``index`` of ``role``'s ``column`` adds to the column total.

    An event in a column counts zero. Otherwise: its value, plus the boosts of the
    commanders of its side (other than itself) that reach it, plus the per-card modifiers
    of events that name its kind in this column; never below zero.
    """
    cid = stack(state, column, role)[index]
    this = card(cid)
    if this.is_event:
        return 0
    points = this.value
    for other_column in COLUMNS:
        for other_index, other_id in enumerate(stack(state, other_column, role)):
            if other_column == column and other_index == index:
                continue
            boost = card(other_id).boost
            if boost is None or not _matches(boost.unit, this.kind):
                continue
            if boost.where == "battlefield" or other_column == column:
                points += boost.amount
    for modifier in state["modifiers"]:
        unit = modifier["unit"]
        if (
            modifier["side"] == role
            and column in modifier["columns"]
            and unit is not None
            and unit == this.kind
        ):
            points += modifier["amount"]
    return max(0, points)


def column_total(state: State, role: str, column: str) -> int:
    """The total of ``role``'s cards in ``column``, after every modifier (rule 5).

    The sum of :func:`card_points` over the column, plus the flat column modifiers, never
    below zero. Totals are asked for at every tie and by every view and policy, so this
    gathers the boosts that reach the column and its modifiers once instead of once per
    card, and when there are none it just adds up the printed values
    (``test_column_total_is_the_sum_of_card_points`` holds it to the per-card rules).
    """
    columns = state["columns"]
    cards_here: list[str] = columns[column][role]
    if not cards_here:
        return 0
    boosts = _boosts_reaching(columns, role, column)
    modifiers = state["modifiers"]
    if modifiers:
        modifiers = [m for m in modifiers if m["side"] == role and column in m["columns"]]
    if not boosts and not modifiers:
        # Nothing modifies these cards: each counts its worth, which is never negative.
        return sum(map(WORTH.__getitem__, cards_here))
    total = 0
    for cid in cards_here:
        kind = KIND[cid]
        if kind == "event":
            continue
        points = WORTH[cid]
        for source, boost in boosts:
            # A commander does not boost itself (a card is in one place only).
            if source != cid and (boost.unit is None or boost.unit == kind):
                points += boost.amount
        for modifier in modifiers:
            if modifier["unit"] is not None and modifier["unit"] == kind:
                points += modifier["amount"]
        if points > 0:  # a card never counts below zero
            total += points
    for modifier in modifiers:
        if modifier["unit"] is None:
            total += modifier["amount"]
    return max(0, total)


def _boosts_reaching(
    columns: dict[str, dict[str, list[str]]], role: str, column: str
) -> list[tuple[str, Boost]]:
    """``(commander, boost)`` for each boost of ``role``'s commanders that reaches
    ``column``: those in it, and those elsewhere that boost the whole battlefield. Most
    columns hold no commander with a boost, which one set test tells."""
    found = []
    for other_column in COLUMNS:
        pile = columns[other_column][role]
        if BOOSTERS.isdisjoint(pile):
            continue
        for cid in pile:
            boost = BOOSTS.get(cid)
            if boost is not None and (other_column == column or boost.where == "battlefield"):
                found.append((cid, boost))
    return found


# ------------------------------------------------------------------- resolution


def resolve_battle(state: State) -> list[dict[str, Any]]:
    """Settle the three columns, left to right (rules 5 and 6); public summaries.

    The winners of a column fall back to their Survivors "to await their next battle":
    they join the Survivors only once every column is settled, so a tie in a later column
    can never reshuffle them into a new deck and draw them twice in one battle (ruling 13).
    """
    returning: dict[str, list[str]] = {role: [] for role in SIDES}
    summaries = [resolve_column(state, column, returning) for column in COLUMNS]
    for role in SIDES:
        side(state, role)["survivors"].extend(returning[role])
    return summaries


def resolve_column(state: State, column: str, returning: dict[str, list[str]]) -> dict[str, Any]:
    """Settle one column and clear it: its winners go to ``returning``, its losers to their
    Graveyard. Returns a public summary."""
    here = state["columns"][column]
    how = "won"
    # The totals last worked out, while no card has joined the column since.
    totals: dict[str, int] | None = None
    while True:
        present = [role for role in SIDES if here[role]]
        if not present:
            return {
                "column": column,
                "winner": None,
                "how": "empty",
                "sides": _snapshot(state, column),
            }
        if len(present) == 1:
            winner: str | None = present[0]
            how = "unopposed"
            totals = None
            break
        now = {role: column_total(state, role, column) for role in SIDES}
        totals = now
        if now["union"] != now["confederate"]:
            winner = max(now, key=now.__getitem__)
            break
        able = [role for role in SIDES if can_draw(state, role)]
        if not able:
            # Neither side can add a card: the tie is a mutual destruction.
            winner, how = None, "both fell"
            log(
                state, f"The {column} is tied at {totals['union']} and neither side can add a card."
            )
            break
        if len(able) == 1:
            # The side that cannot add a card to a tie loses it (our ruling).
            winner, how = able[0], "tie-break"
            log(
                state,
                f"The {column} is tied at {totals['union']}; the {ADJECTIVE[opponent(able[0])]}"
                " side has no card to add and gives way.",
            )
            break
        log(state, f"The {column} is tied at {totals['union']}: each side adds a card.")
        how = "tie-break"
        totals = None
        for role in SIDES:
            cid = draw(state, role)
            if cid is not None:
                play_late(state, role, column, cid, "adds")
    summary = {
        "column": column,
        "winner": winner,
        "how": how,
        "sides": _snapshot(state, column, totals),
    }
    for role in SIDES:
        cards_here = here[role]
        pile = returning[role] if role == winner else state["sides"][role]["graveyard"]
        pile.extend(cards_here)
        cards_here.clear()
    return summary


def _snapshot(state: State, column: str, totals: dict[str, int] | None = None) -> dict[str, Any]:
    """Each side's cards and total in ``column`` (``totals``: already worked out)."""
    here = state["columns"][column]
    return {
        role: {
            "cards": list(here[role]),
            "total": column_total(state, role, column) if totals is None else totals[role],
        }
        for role in SIDES
    }
