"""War Between the States: both decks in data/decks.json are complete and well formed."""

from __future__ import annotations

from collections import Counter

import pytest

from rules.war.cards import (
    DECK_SIZE,
    KINDS,
    SIDES,
    cards,
    raw_decks,
    validate,
)
from rules.war.events import EVENT_OPS, instruction_problems


def test_the_data_file_is_valid() -> None:
    assert validate(raw_decks()) == []


def test_decks_are_marked_as_designed_by_the_project() -> None:
    assert "Dispatch project" in raw_decks()["designed_by"]


@pytest.mark.parametrize("side", SIDES)
def test_each_deck_has_72_cards_with_unique_ids_and_names(side: str) -> None:
    deck = raw_decks()["decks"][side]["cards"]
    assert len(deck) == DECK_SIZE
    assert len({c["id"] for c in deck}) == DECK_SIZE
    assert len({c["name"] for c in deck}) == DECK_SIZE


def test_ids_are_unique_across_both_decks() -> None:
    assert len(cards()) == 2 * DECK_SIZE


@pytest.mark.parametrize("side", SIDES)
def test_every_card_has_valid_fields(side: str) -> None:
    for card in (c for c in cards().values() if c.side == side):
        assert card.kind in KINDS
        assert card.name and card.text
        if card.is_event:
            assert card.value == 0 and card.instructions and not card.another
        else:
            assert 1 <= card.value <= 10 and not card.instructions
        if card.boost is not None:
            assert card.kind == "commander"


def test_every_event_instruction_uses_a_known_op_with_valid_params() -> None:
    # Each op declares its own parameters, so there is no separate schema to agree with.
    assert set(EVENT_OPS) == {"modify", "strike", "march", "recruit", "blockade"}
    for card in cards().values():
        for instruction in card.instructions:
            assert instruction["op"] in EVENT_OPS, card.name
            assert instruction_problems(instruction) == [], (card.name, instruction)


@pytest.mark.parametrize("side", SIDES)
def test_each_deck_has_a_fair_share_of_every_kind(side: str) -> None:
    deck = [c for c in cards().values() if c.side == side]
    kinds = Counter(c.kind for c in deck)
    assert kinds["event"] >= 8 and kinds["commander"] >= 8
    assert 8 <= sum(c.another for c in deck) <= 20
    assert any(c.beside for c in deck) and any(c.is_event and not c.beside for c in deck)


def test_validation_catches_broken_data() -> None:
    data = raw_decks()
    broken = {**data, "decks": {**data["decks"]}}
    del broken["designed_by"]
    union = dict(data["decks"]["union"])
    union["cards"] = [*union["cards"][:-1], {**union["cards"][0]}]  # a duplicate
    broken["decks"]["union"] = union
    problems = validate(broken)
    assert any("designed_by" in p for p in problems)
    assert any("duplicate" in p for p in problems)
    assert instruction_problems({"op": "teleport"}) == ["unknown op 'teleport'"]
    assert instruction_problems({"op": "recruit", "count": 9})
    assert instruction_problems({"op": "modify", "side": "self", "column": "all", "amount": 0})
