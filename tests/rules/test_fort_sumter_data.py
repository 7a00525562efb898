"""Fort Sumter data files: deck make-up, the map, and every event against the vocabulary."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from rules.fort_sumter.board import resolve_where
from rules.fort_sumter.cards import (
    DATA,
    DIMENSIONS,
    OBJECTIVES,
    SPACES,
    STRATEGY,
    validate,
)
from rules.fort_sumter.events import EVENT_VOCABULARY, event_problems

KNOWN_TITLES = {
    "Seizing Federal Armories",
    "Major Anderson",
    "Fugitive Slave Law",
    "Peace Commissioner",
    "Peace Conference",
    "Temporary Truce",
    "Florida Secedes",
    "Louisiana Secedes",
}
KNOWN_SUBJECTS = (
    "Lincoln",
    "Jefferson Davis",
    "William Lloyd Garrison",
    "Sam Houston",
    "Harriet Beecher Stowe",
    "John Brown",
)


def test_data_files_are_valid() -> None:
    assert validate() == []


def test_map_has_twelve_spaces_in_four_dimensions_with_their_pivotal_spaces() -> None:
    assert len(SPACES) == 12 and len(DIMENSIONS) == 4
    pivotal = {d.id: d.pivotal for d in DIMENSIONS.values()}
    assert pivotal == {
        "secession": "border_states",
        "political": "washington",
        "armaments": "federal_arsenal",
        "public_opinion": "newspapers",
    }
    for dimension in DIMENSIONS.values():
        assert len(dimension.spaces) == 3
    assert {s for s in SPACES if SPACES[s].dimension == "armaments"} == {
        "federal_arsenal",
        "fort_pickens",
        "fort_sumter",
    }


def test_the_two_reconstructed_spaces_are_marked() -> None:
    reconstructed = sorted(s.id for s in SPACES.values() if s.source == "reconstructed")
    assert reconstructed == ["fire_eaters", "springfield"]
    raw = json.loads((DATA / "map.json").read_text())
    for space in raw["spaces"]:
        if space["source"] == "reconstructed":
            assert space["note"]


def test_forty_strategy_cards_values_one_to_three() -> None:
    assert len(STRATEGY) == 40
    values = Counter(c.value for c in STRATEGY.values())
    assert set(values) == {1, 2, 3} and min(values.values()) >= 8


def test_colours_roughly_a_third_each() -> None:
    colours = Counter(c.colour for c in STRATEGY.values())
    assert set(colours) == {"blue", "gray", "both"}
    assert all(11 <= n <= 16 for n in colours.values()), colours


def test_final_crisis_dimensions_spread_over_the_four() -> None:
    spread = Counter(c.fc_dimension for c in STRATEGY.values())
    assert set(spread) == set(DIMENSIONS)
    assert all(8 <= n <= 12 for n in spread.values()), spread


def test_twelve_objectives_exactly_one_per_space() -> None:
    assert len(OBJECTIVES) == 12
    assert sorted(o.space for o in OBJECTIVES.values()) == sorted(SPACES)
    assert all(o.event and o.text for o in OBJECTIVES.values())


def test_every_event_uses_known_ops_with_valid_params_and_existing_spaces() -> None:
    # Each op declares its own parameters, so there is no separate schema to agree with.
    assert set(EVENT_VOCABULARY) == {"place", "remove", "move", "peace_commissioner"}
    assert all(op.parameters for op in EVENT_VOCABULARY.values())
    for card in [*STRATEGY.values(), *OBJECTIVES.values()]:
        assert event_problems(card.event, card.id) == []
        for instruction in card.event:
            assert instruction["op"] in EVENT_VOCABULARY
            for key in ("where", "from", "to"):
                if key in instruction:
                    assert resolve_where(instruction[key])
                    for space in instruction[key].get("spaces", []):
                        assert space in SPACES


def test_the_validator_catches_bad_events() -> None:
    bad = [
        {"op": "teleport"},
        {"op": "place", "count": 2, "up_to": True, "where": {"spaces": ["atlantis"]}},
        {"op": "remove", "count": 0, "up_to": True, "side": "both", "where": {"anywhere": True}},
        {"op": "place", "count": 1, "where": {"dimension": "economy"}, "colour": "red"},
    ]
    problems = event_problems(bad, "X")
    assert len(problems) >= 6


def test_known_and_designed_are_marked_on_every_card() -> None:
    for card in STRATEGY.values():
        assert card.source in ("known", "designed")
        if card.source == "known":
            assert card.known_facts
    for objective in OBJECTIVES.values():
        assert objective.source == "designed"
    titles = {c.title for c in STRATEGY.values()}
    assert titles >= KNOWN_TITLES
    for subject in KNOWN_SUBJECTS:
        assert any(subject in t for t in titles), subject
    for title in KNOWN_TITLES:
        assert next(c for c in STRATEGY.values() if c.title == title).source == "known"


def test_known_facts_of_the_reference() -> None:
    by_title = {c.title: c for c in STRATEGY.values()}
    armories = by_title["Seizing Federal Armories"]
    assert (armories.value, armories.colour) == (3, "both")
    anderson = by_title["Major Anderson"]
    assert anderson.colour == "blue"
    assert anderson.event == (
        {"op": "place", "count": 3, "up_to": False, "where": {"spaces": ["fort_sumter"]}},
    )
    fugitive = by_title["Fugitive Slave Law"]
    assert fugitive.colour == "both"
    assert [(s["op"], s["count"], s["where"]) for s in fugitive.event] == [
        ("remove", 4, {"dimension": "public_opinion"}),
        ("place", 4, {"dimension": "public_opinion"}),
    ]
    for title in ("Peace Commissioner", "Peace Conference", "Temporary Truce"):
        assert by_title[title].event[0]["op"] == "peace_commissioner"
    placing = {
        c.title for c in STRATEGY.values() if any(s["op"] == "peace_commissioner" for s in c.event)
    }
    assert placing == {"Peace Commissioner", "Peace Conference", "Temporary Truce"}
    for title in ("Florida Secedes", "Louisiana Secedes"):
        assert by_title[title].colour == "gray"


def test_ids_never_collide_with_each_other_or_with_spaces() -> None:
    ids = list(STRATEGY) + list(OBJECTIVES) + list(SPACES) + list(DIMENSIONS)
    assert len(ids) == len(set(ids))


@pytest.mark.source_only  # reloads a rules module
def test_a_bad_instruction_in_the_card_data_stops_the_engine_loading(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import dataclasses
    import importlib

    from rules.fort_sumter import cards, events

    card = next(iter(STRATEGY.values()))
    broken = dataclasses.replace(card, event=({"op": "place", "count": 99},))
    monkeypatch.setitem(cards.STRATEGY, card.id, broken)
    with pytest.raises(cards.DataError, match=f"{card.id} instruction 1"):
        importlib.reload(events)
    monkeypatch.undo()
    importlib.reload(events)  # sound again
