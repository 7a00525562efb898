"""War's shortcuts on the simulation path (engine speed for search), each held to the plain
definition it stands for: the card tables to the cards, and the rest at every position of
random games."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from rules.core.undo import copy_json
from rules.war import GAME as WAR
from rules.war.battle import (
    BOOSTS,
    COLUMNS,
    DESCRIPTIONS,
    EVENTS,
    KIND,
    OPPONENT,
    PLAYS_ANOTHER,
    WORTH,
    card_points,
    column_total,
    stack,
)
from rules.war.cards import SIDES, UNIT_KINDS, card, cards, deck_ids
from rules.war.steps import STEPS, placements


def positions(seeds: range) -> Iterator[dict[str, Any]]:
    """Every state of random games (checked path, no undo), one seed each."""
    for seed in seeds:
        chooser = random.Random(seed)
        state = WAR.setup(seed=seed)
        while WAR.outcome(state) is None:
            yield state
            role = chooser.choice(WAR.active_roles(state))
            legal = WAR.legal_actions(state, role)
            verb = chooser.choice(sorted(v for v in legal if v != "undo"))
            args = legal[verb]
            arg = chooser.choice(args) if isinstance(args, list) else None
            state = WAR.act(state, role, verb, arg, record_undo=False)
        yield state


def test_card_tables_say_what_the_cards_say() -> None:
    """Each table read on the hot path agrees with ``card(id)`` for every card."""
    for cid in cards():
        this = card(cid)
        assert WORTH[cid] == (0 if this.is_event else this.value)
        assert KIND[cid] == this.kind
        assert (cid in EVENTS) == this.is_event
        assert (cid in PLAYS_ANOTHER) == this.another
        assert BOOSTS.get(cid) == this.boost
        worth = "event" if this.is_event else this.value
        assert DESCRIPTIONS[cid] == f"{this.name} ({worth})"


def test_placements_are_each_card_on_each_free_column() -> None:
    """The ready-made placement args match the rule: every card in hand, in hand order,
    on every column not yet reinforced, in column order."""
    compared = with_placed = 0
    for state in positions(range(25)):
        for role in SIDES:
            here = state["sides"][role]
            if not here["hand"]:
                continue
            taken = [column for column, _ in here["placed"]]
            plain = [
                f"{column}:{cid}"
                for cid in here["hand"]
                for column in COLUMNS
                if column not in taken
            ]
            assert placements(here["hand"], here["placed"]) == plain
            compared += 1
            with_placed += bool(taken)
    assert compared > 1_000 and with_placed > 500


def test_deck_ids_are_a_fresh_list_of_the_sides_cards_in_data_order() -> None:
    """Worked out once, handed out as a new list each time: set-up shuffles it in place."""
    for role in SIDES:
        plain = [c.id for c in cards().values() if c.side == role]
        first = deck_ids(role)
        assert first == plain
        first.reverse()
        assert deck_ids(role) == plain
    assert OPPONENT == {"union": "confederate", "confederate": "union"}


def test_the_sides_still_to_commit_are_those_not_committed() -> None:
    """Step 3 asks ``active`` (a table by commit flags) where the rule says "until both
    have committed"."""
    position = STEPS["position"]
    compared = 0
    for state in positions(range(10)):
        if state["step"] != "position":
            continue
        plain = tuple(role for role in SIDES if not state["sides"][role]["committed"])
        assert position.active(WAR, state) == plain
        compared += 1
    assert compared > 500


def _plain_total(state: dict[str, Any], role: str, column: str) -> int:
    """Rule 5 card by card: each card's points, the flat modifiers, never below zero."""
    cards_here = state["columns"][column][role]
    if not cards_here:
        return 0
    total = sum(card_points(state, role, column, i) for i in range(len(cards_here)))
    for modifier in state["modifiers"]:
        if modifier["side"] == role and column in modifier["columns"] and modifier["unit"] is None:
            total += modifier["amount"]
    return max(0, total)


def test_column_total_is_the_sum_of_card_points() -> None:
    """Checked in every state of 40 random games, including boosts and modifiers."""
    compared = with_boost = with_modifier = 0
    for seed in range(40):
        chooser = random.Random(seed)
        state = WAR.setup(seed=seed)
        while WAR.outcome(state) is None:
            for role in SIDES:
                on_field = [c for column in COLUMNS for c in stack(state, column, role)]
                for column in COLUMNS:
                    assert column_total(state, role, column) == _plain_total(state, role, column)
                    compared += 1
                with_boost += any(card(c).boost is not None for c in on_field)
                with_modifier += any(m["side"] == role for m in state["modifiers"])
            role = chooser.choice(WAR.active_roles(state))
            legal = WAR.legal_actions(state, role)
            verb = chooser.choice(sorted(v for v in legal if v != "undo"))
            args = legal[verb]
            arg = None if args is True else chooser.choice(args)
            WAR.act(state, role, verb, arg, record_undo=False)
    assert compared > 10_000 and with_boost > 100 and with_modifier > 100


def test_column_totals_clamp_like_the_per_card_rule() -> None:
    """The decks never push a card below zero, so random games alone would not show a
    total that forgot to clamp: here each position also gets harsh modifiers (a unit
    kind at -6, a column at -4) before both ways of adding up are compared."""
    chooser = random.Random(3)
    clamped = 0
    for state in positions(range(12)):
        harsh = copy_json(state)
        for role in SIDES:
            kind = chooser.choice([*UNIT_KINDS, "commander"])
            harsh["modifiers"].append(
                {
                    "source": "",
                    "owner": role,
                    "side": role,
                    "columns": list(COLUMNS),
                    "amount": -6,
                    "unit": kind,
                }
            )
            harsh["modifiers"].append(
                {
                    "source": "",
                    "owner": role,
                    "side": role,
                    "columns": [chooser.choice(COLUMNS)],
                    "amount": -4,
                    "unit": None,
                }
            )
        for role in SIDES:
            for column in COLUMNS:
                plain = _plain_total(harsh, role, column)
                assert column_total(harsh, role, column) == plain
                cards_here = harsh["columns"][column][role]
                clamped += any(
                    card_points(harsh, role, column, i) == 0 and WORTH[cid] > 0
                    for i, cid in enumerate(cards_here)
                )
    assert clamped > 200
