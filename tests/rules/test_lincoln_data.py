"""Lincoln data files: counts, ids, link symmetry, every named location, markings."""

from __future__ import annotations

from collections import Counter

from rules.lincoln.data import (
    ADJACENT,
    BLOCKADE,
    CARDS,
    COUNTERS,
    EUROPE,
    EUROPE_START,
    LINKS,
    LOCATIONS,
    MAP,
    PORTS,
    SETUP,
    SUPPLY_SOURCES,
    TOP_THREE,
    TRACKS,
)
from rules.lincoln.events import event_problems

VIEW_IDS = {
    "union": [
        "philadelphia", "harrisburg", "pittsburgh", "cincinnati", "washington",
        "harpers_ferry", "kentucky", "cairo", "st_louis",
    ],
    "confederate": [
        "manassas", "front_royal", "fredericksburg", "richmond", "petersburg", "fort_monroe",
        "wilmington", "charleston", "savannah", "atlanta", "chattanooga", "nashville",
        "fort_henry_donelson", "memphis", "corinth", "vicksburg", "mobile", "new_orleans",
    ],
}  # fmt: skip
NAMED_IN_TEXT = {
    "washington": "Washington",
    "harpers_ferry": "Harper's Ferry",
    "kentucky": "Kentucky",
    "cairo": "Cairo",
    "manassas": "Manassas",
    "front_royal": "Front Royal",
    "savannah": "Savannah",
    "new_orleans": "New Orleans",
    "nashville": "Nashville",
    "fort_henry_donelson": "Fort Henry & Donelson",
    "fort_monroe": "Fort Monroe",
    "richmond": "Richmond",
    "atlanta": "Atlanta",
    "vicksburg": "Vicksburg",
    "chattanooga": "Chattanooga",
}


def test_the_27_location_ids_and_colours_of_the_view_contract() -> None:
    assert len(LOCATIONS) == 27
    for colour, ids in VIEW_IDS.items():
        for loc in ids:
            assert LOCATIONS[loc]["colour"] == colour, loc


def test_every_location_the_rules_text_names_exists_with_its_name() -> None:
    for loc, title in NAMED_IN_TEXT.items():
        assert LOCATIONS[loc]["name"] == title
        assert LOCATIONS[loc]["source"] == "known" and LOCATIONS[loc]["fact"]


def test_known_facts_of_the_board() -> None:
    assert LOCATIONS["chattanooga"]["vp"] == 1 and LOCATIONS["atlanta"]["vp"] == 2
    naval = {p: LOCATIONS[p]["naval_defense"] for p in PORTS}
    assert len(PORTS) >= 6
    assert naval["savannah"] == 1 and naval["new_orleans"] == 1 and naval["fort_monroe"] == 2
    assert {"philadelphia", "harrisburg", "pittsburgh"} == TOP_THREE
    assert SUPPLY_SOURCES == {"union": ("washington",), "confederate": ("richmond", "atlanta")}
    manassas = [link for link in LINKS if "manassas" in (link["a"], link["b"]) and link["modifier"]]
    assert [(m["modifier"], m["colour"]) for m in manassas] == [(1, "confederate")]


def test_washington_is_a_designed_port_so_the_union_navy_sails_from_turn_1() -> None:
    washington = LOCATIONS["washington"]
    assert washington["port"] and washington["naval_defense"] == 0
    assert washington["port_source"] == "designed" and "Washington" in washington["port_fact"]
    assert "washington" in PORTS
    # Fort Monroe keeps the colour the text's set-up and naval defense imply, and says why.
    assert LOCATIONS["fort_monroe"]["colour"] == "confederate" and LOCATIONS["fort_monroe"]["note"]
    union_ports = [p for p in PORTS if LOCATIONS[p]["colour"] == "union"]
    assert union_ports == ["washington"]


def test_every_location_has_two_halves_and_ports_a_sea_half() -> None:
    for loc, data in LOCATIONS.items():
        assert len(data["halves"]) == 2 and data["halves"][0] != data["halves"][1]
        assert (data["sea_half"] in (0, 1)) == data["port"], loc


def test_total_vp_makes_12_reachable_but_hard() -> None:
    map_vp = sum(data["vp"] for data in LOCATIONS.values())
    assert 16 <= map_vp <= 28
    assert max(space["union_vp"] for space in BLOCKADE) + map_vp >= 12


def test_links_are_symmetric_join_known_locations_and_are_not_repeated() -> None:
    pairs = Counter(frozenset((link["a"], link["b"])) for link in LINKS)
    assert max(pairs.values()) == 1
    for index, link in enumerate(LINKS):
        assert link["a"] in LOCATIONS and link["b"] in LOCATIONS and link["a"] != link["b"]
        assert link["a_half"] in (0, 1) and link["b_half"] in (0, 1)
        assert (link["b_half"], link["a"], link["a_half"], index) in ADJACENT[link["b"]]
        assert (link["a_half"], link["b"], link["b_half"], index) in ADJACENT[link["a"]]
        assert link["colour"] in ("union", "confederate", "neutral")
    assert all(ADJACENT[loc] for loc in LOCATIONS), "every location has a rail link"


def test_kentucky_is_adjacent_to_nashville() -> None:
    assert any(nb == "nashville" for _h, nb, _a, _i in ADJACENT["kentucky"])


def test_tracks_counters_and_setup() -> None:
    assert BLOCKADE[0]["label"] == "S" and BLOCKADE[0]["hand_size"] == 5
    assert sorted({space["hand_size"] for space in BLOCKADE}) == [3, 4, 5]
    assert EUROPE[EUROPE_START] == "S" and 0 < EUROPE_START < len(EUROPE) - 1
    armies = sum(sum(side.values()) for side in COUNTERS["armies"].values())
    assert armies == 45
    assert sum(COUNTERS["forts"].values()) == 4 and COUNTERS["flags"] == 18
    assert SETUP["hand_size"] == {"union": 6, "confederate": 5}
    assert TRACKS["blockade"]["source"] == "designed" and TRACKS["europe"]["source"] == "designed"


def test_card_counts_and_waves() -> None:
    sides = Counter((c["side"], c["wave"]) for c in CARDS.values())
    assert sides["union", "base"] + sides["union", "I"] + sides["union", "II"] == 69
    assert sum(v for (s, _w), v in sides.items() if s == "confederate") == 50
    assert sides["union", "I"] > 0 and sides["union", "II"] > 0
    assert sides["confederate", "I"] > 0 and sides["confederate", "II"] > 0
    assert len({c["id"] for c in CARDS.values()}) == 119


def test_union_waves_strengthen_and_confederate_waves_weaken() -> None:
    def mean_leadership(side: str, wave: str) -> float:
        cards = [c for c in CARDS.values() if c["side"] == side and c["wave"] == wave]
        return sum(c["icons"]["leadership"] for c in cards) / len(cards)

    assert mean_leadership("union", "II") > mean_leadership("union", "I")
    assert mean_leadership("union", "I") > mean_leadership("union", "base")
    assert mean_leadership("confederate", "II") < mean_leadership("confederate", "base")


def test_every_card_is_well_formed_and_marked() -> None:
    for card in CARDS.values():
        assert card["top"]["kind"] in ("army", "ship", "fort", "politician", "none")
        assert (card["top"]["strength"] in (1, 2, 3)) == (card["top"]["kind"] == "army")
        assert card["top"]["cost"] >= 0
        assert card["timing"] in ("action", "free", "benefit", "none")
        assert (card["timing"] == "none") == (not card["event"])
        assert not event_problems(card["event"]), card["id"]
        assert card["source"] in ("known", "designed")
        assert card["name"]
        if card["side"] == "confederate":
            assert not card["icons"]["naval"], "naval movement is on Union cards only"
        if card["timing"] == "benefit":
            assert all(op["op"] == "strength" for op in card["event"])


def test_every_map_entry_is_marked_known_or_designed() -> None:
    for entry in MAP["locations"] + MAP["links"]:
        assert entry["source"] in ("known", "designed")
        if entry["source"] == "known":
            assert entry.get("fact")
