"""The Lincoln view keeps the shape the renderer is written against (briefs: the Lincoln
view shape): every key, the 27 location ids, and hidden cards only for their owner."""

from __future__ import annotations

from render.lincoln import at_sea_lines, draw_board
from rules.lincoln import GAME
from rules.lincoln.data import COUNTERS, ROLES
from tests.lincoln_helpers import act, card, empty_board, hand, put

IDS = {
    "philadelphia", "harrisburg", "pittsburgh", "cincinnati", "washington", "harpers_ferry",
    "kentucky", "cairo", "st_louis", "manassas", "front_royal", "fredericksburg", "richmond",
    "petersburg", "fort_monroe", "wilmington", "charleston", "savannah", "atlanta",
    "chattanooga", "nashville", "fort_henry_donelson", "memphis", "corinth", "vicksburg",
    "mobile", "new_orleans",
}  # fmt: skip
LOCATION_KEYS = {
    "name", "colour", "halves", "vp", "port", "naval_defense", "top_three", "supply_source",
    "control", "flag", "contested", "units",
}  # fmt: skip
CARD_KEYS = {"id", "name", "side", "wave", "top", "icons", "timing", "text"}


def test_public_view_has_every_key_of_the_shared_shape() -> None:
    view = GAME.view(GAME.setup(seed=2), None)
    assert set(view["locations"]) == IDS
    for loc in view["locations"].values():
        assert set(loc) >= LOCATION_KEYS
        assert loc["colour"] in ("union", "confederate") and len(loc["halves"]) == 2
        assert len(loc["units"]) == 2
        for half in loc["units"]:
            for unit in half:
                assert set(unit) == {"side", "kind", "strength"}
    assert view["locations"]["washington"]["units"][0] == [
        {"side": "union", "kind": "army", "strength": 3}
    ]
    for link in view["links"]:
        assert set(link) == {"a", "a_half", "b", "b_half", "colour", "modifier"}
    blockade, europe = view["tracks"]["blockade"], view["tracks"]["europe"]
    assert blockade["position"] == 0
    assert all(set(s) == {"label", "hand_size", "union_vp"} for s in blockade["spaces"])
    assert europe["spaces"][europe["start"]] == "S" and europe["position"] == europe["start"]
    for role in ("union", "confederate"):
        assert set(view["piles"][role]) >= {
            "deck", "discard", "removed", "hand", "reshuffles", "waves",
        }  # fmt: skip
        assert set(view["stock"][role]) >= {"armies", "forts"}
    assert isinstance(view["stock"]["flags"], int)
    assert view["vp"] == {"union": 0}
    assert view["turn"] == {"number": 1, "player": "union", "actions_left": 2, "drew": False}
    assert view["battle"] is None and view["last_battle"] is None


def test_private_view_adds_the_hand_and_ones_own_face_down_card() -> None:
    state = empty_board()
    put(state, "washington", "union", 3)
    put(state, "manassas", "confederate", 2)
    hand(state, "union", ["Irish Brigade", "Franz Sigel"])
    view = GAME.view(state, "union")
    assert all(set(c) == CARD_KEYS for c in view["hand"])
    assert set(view["hand"][0]["top"]) == {"kind", "strength", "cost"}
    assert set(view["hand"][0]["icons"]) == {"leadership", "train", "naval"}
    act(state, "union", "move", card("Irish Brigade"))
    act(state, "union", "from", "washington")
    act(state, "union", "to", "manassas")
    act(state, "union", "card", card("Franz Sigel"))
    mine = GAME.view(state, "union")["battle"]
    theirs = GAME.view(state, "confederate")["battle"]
    assert mine["attacker_card"]["id"] == card("Franz Sigel")
    assert theirs["attacker_card"] == "hidden" and theirs["defender_card"] is None
    assert set(theirs) >= {"location", "half", "attacker", "by", "stage"}
    act(state, "confederate", "fight")
    last = GAME.view(state, None)["last_battle"]
    assert set(last) >= {"location", "attacker", "winner", "totals", "losses", "europe", "text"}


def _tiles_shown(view: dict) -> int:
    """Unit and fort tiles a view accounts for: on the map, in the battle, in stock and
    at sea."""
    on_map = sum(len(half) for loc in view["locations"].values() for half in loc["units"])
    battle = view["battle"] or {}
    fighting = len(battle.get("attackers", [])) + len(battle.get("retreating", []))
    stock = sum(view["stock"][r]["armies"] + view["stock"][r]["forts"] for r in ROLES)
    at_sea = sum(len(group["units"]) for group in view["at_sea"])
    return on_map + fighting + stock + at_sea


def test_armies_waiting_to_land_are_shown_at_sea_bound_for_their_port() -> None:
    # One naval movement to two ports: Savannah's landing is a battle, fought first, and
    # the army bound for Mobile waits at sea meanwhile, in every view and on the board.
    state = empty_board()
    put(state, "washington", "union", 3)
    put(state, "fort_monroe", "union", 2)
    put(state, "fort_monroe", "union", 1)
    put(state, "savannah", "confederate", 1)
    put(state, "richmond", "confederate", 2)
    monitor, porter = hand(state, "union", ["USS Monitor", "David Dixon Porter", "Iron Brigade"])[
        :2
    ]
    total = _tiles_shown(GAME.view(state, None))
    assert total == sum(sum(COUNTERS["armies"][r].values()) + COUNTERS["forts"][r] for r in ROLES)
    assert GAME.view(state, None)["at_sea"] == []
    act(state, "union", "naval", monitor)
    act(state, "union", "army", "fort_monroe:army2")
    act(state, "union", "to", "savannah")
    act(state, "union", "naval", porter)
    act(state, "union", "army", "fort_monroe:army1")
    act(state, "union", "to", "mobile")
    act(state, "union", "go")
    assert state["battle"]["location"] == "savannah"
    bound = [{"port": "mobile", "units": [{"side": "union", "kind": "army", "strength": 1}]}]
    for role in (None, "union", "confederate"):
        view = GAME.view(state, role)
        assert view["at_sea"] == bound, role
        assert _tiles_shown(view) == total, role
    view = GAME.view(state, None)
    assert at_sea_lines(view) == ["Union 1-strength army, at sea, bound for Mobile"]
    without = dict(view, at_sea=[])
    assert draw_board(view).tobytes() != draw_board(without).tobytes()
