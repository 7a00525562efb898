"""Lincoln scenario tests: one per rule of the rules text (set-up, turn, deploy, move,
naval movement, reshuffles, the ends of the game) and per ruling of the module docstring.
Combat is in test_lincoln_combat.py."""

from __future__ import annotations

from rules.lincoln import GAME, board
from rules.lincoln.data import BLOCKADE, CARDS, EUROPE, EUROPE_END, EUROPE_START
from tests.lincoln_helpers import (
    act,
    assert_sound,
    card,
    confederate_turn,
    empty_board,
    flag,
    hand,
    put,
    units,
)

# ------------------------------------------------------------------------- set-up


def test_setup_places_the_armies_markers_piles_and_hands_of_the_text() -> None:
    state = GAME.setup(seed=3)
    assert units(state, "washington") == [("union", "army3")]
    for loc in ("harpers_ferry", "kentucky", "cairo"):
        assert units(state, loc) == [("union", "army2")]
    assert units(state, "manassas") == [("confederate", "army3")]
    for loc in ("front_royal", "savannah", "new_orleans"):
        assert units(state, loc) == [("confederate", "army2")]
    for loc in ("nashville", "fort_henry_donelson", "fort_monroe"):
        assert units(state, loc) == [("confederate", "army1")]
    assert state["blockade"] == 0 and BLOCKADE[0]["label"] == "S"
    assert EUROPE[state["europe"]] == "S" and state["europe"] == EUROPE_START
    union, confederate = state["piles"]["union"], state["piles"]["confederate"]
    assert len(union["hand"]) == 6 and len(confederate["hand"]) == 5
    assert all(CARDS[c]["wave"] == "base" for c in union["deck"] + union["hand"])
    assert len(union["waves"]["I"]) == 12 and len(union["waves"]["II"]) == 12
    assert len(confederate["waves"]["I"]) == 6 and len(confederate["waves"]["II"]) == 6
    assert state["turn"] == {"number": 1, "player": "union", "actions_left": 2, "drew": False}
    assert GAME.active_roles(state) == ("union",)
    assert_sound(state)


# --------------------------------------------------------------------------- turns


def test_a_turn_is_two_actions_then_the_active_side_refills() -> None:
    state = GAME.setup(seed=3)
    act(state, "union", "discard")
    act(state, "union", "card", state["piles"]["union"]["hand"][0])
    act(state, "union", "done")
    assert state["turn"]["actions_left"] == 1
    confederate_hand = list(state["piles"]["confederate"]["hand"])
    act(state, "union", "pass")
    assert state["turn"]["player"] == "confederate"
    assert len(state["piles"]["union"]["hand"]) == 6
    assert state["piles"]["confederate"]["hand"] == confederate_hand


def test_the_inactive_side_never_refills() -> None:
    state = empty_board()
    put(state, "washington", "union", 3)
    hand(state, "union", ["Samuel Curtis"])
    hand(state, "confederate", ["Bread Riots"])
    act(state, "union", "pass")
    act(state, "union", "pass")
    assert len(state["piles"]["union"]["hand"]) == 6
    assert len(state["piles"]["confederate"]["hand"]) == 1


def test_confederate_hand_size_follows_the_blockade_track() -> None:
    state = empty_board()
    put(state, "richmond", "confederate", 3)
    put(state, "washington", "union", 3)
    confederate_turn(state)
    state["blockade"] = 2
    hand(state, "confederate", ["Bread Riots"])
    act(state, "confederate", "pass")
    act(state, "confederate", "pass")
    assert len(state["piles"]["confederate"]["hand"]) == BLOCKADE[2]["hand_size"] == 4


def test_free_actions_cost_no_action_and_may_follow_the_two_actions() -> None:
    state = empty_board()
    put(state, "washington", "union", 3)
    pinkerton, haupt = hand(state, "union", ["Allan Pinkerton", "Herman Haupt", "Samuel Curtis"])[
        :2
    ]
    act(state, "union", "free", pinkerton)
    assert state["turn"]["actions_left"] == 2
    assert card("Allan Pinkerton") in state["piles"]["union"]["discard"]
    assert len(state["piles"]["union"]["hand"]) == 3  # played one, drew one
    act(state, "union", "pass")
    act(state, "union", "pass")
    view = GAME.view(state, "union")
    assert set(view["actions"]) >= {"free", "end"} and "pass" not in view["actions"]
    trial = GAME.act(__import__("copy").deepcopy(state), "union", "free", haupt)
    assert trial["turn"]["player"] == "confederate"  # no free action left: the turn ends
    act(state, "union", "end")
    assert state["turn"]["player"] == "confederate"
    assert haupt in state["piles"]["union"]["hand"]


def test_ruling_23_pass_is_always_an_action_even_for_a_full_union_hand() -> None:
    # Taking Actions lists Pass among the six with no condition.
    state = GAME.setup(seed=3)
    assert len(state["piles"]["union"]["hand"]) == 6
    assert GAME.view(state, "union")["actions"]["pass"] is True
    act(state, "union", "pass")
    assert state["turn"]["actions_left"] == 1
    confederate_turn(state)
    assert "pass" in GAME.view(state, "confederate")["actions"]


def test_ruling_23_a_union_turn_ending_with_nothing_to_draw_turns_its_draw_pile() -> None:
    state = GAME.setup(seed=3)
    piles = state["piles"]["union"]
    hand_before, top = list(piles["hand"]), piles["deck"][-1]
    deck = len(piles["deck"])
    act(state, "union", "pass")
    act(state, "union", "pass")
    if state["turn"]["player"] == "union":
        act(state, "union", "end")  # it holds a free action it does not play
    assert piles["hand"] == hand_before
    assert len(piles["deck"]) == deck - 1 and piles["discard"] == [top]
    assert top not in str(GAME.view(state, "confederate"))
    assert top not in str(GAME.view(state, None))
    assert_sound(state)


def test_ruling_23_a_union_turn_that_drew_cards_does_not_turn_its_draw_pile() -> None:
    # The clock is for a turn that drew nothing: a Draw card's action, then a discard back
    # to a full hand, has turned the pile already.
    state = GAME.setup(seed=3)
    piles = state["piles"]["union"]
    others = [CARDS[c]["name"] for c in piles["hand"][1:]]
    [greenbacks, *_] = hand(state, "union", ["Greenbacks", *others])
    act(state, "union", "action", greenbacks)
    assert len(piles["hand"]) == 8 and state["turn"]["drew"]
    deck = list(piles["deck"])
    act(state, "union", "discard")
    first, second = piles["hand"][:2]
    act(state, "union", "card", first)
    act(state, "union", "card", second)
    act(state, "union", "done")
    if state["turn"]["player"] == "union":
        act(state, "union", "end")  # it holds a free action it does not play
    assert state["turn"] == {"number": 1, "player": "confederate", "actions_left": 2, "drew": False}
    assert len(piles["hand"]) == 6 and piles["deck"] == deck
    assert sorted(piles["discard"]) == sorted([greenbacks, first, second])
    assert not any("draw pile is discarded" in line for line in state["log"])
    assert_sound(state)


def test_ruling_23_the_clock_reshuffles_an_empty_union_pile_with_the_vp_check() -> None:
    state = empty_board()
    put(state, "washington", "union", 3)
    piles = state["piles"]["union"]
    piles["discard"] += piles["deck"]
    piles["deck"] = []
    assert len(piles["hand"]) == 6
    act(state, "union", "pass")
    act(state, "union", "pass")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome["code"] == "reshuffle_1_check"


def test_ruling_23_the_confederacy_draws_as_ever_and_burns_nothing() -> None:
    state = GAME.setup(seed=3)
    confederate_turn(state)
    piles = state["piles"]["confederate"]
    deck = len(piles["deck"])
    act(state, "confederate", "pass")
    act(state, "confederate", "pass")
    assert len(piles["deck"]) == deck and piles["discard"] == []


def test_two_passing_sides_still_reach_the_end_of_the_game() -> None:
    state = GAME.setup(seed=5)
    for _ in range(2000):
        if GAME.outcome(state) is not None:
            break
        role = GAME.active_roles(state)[0]
        act(state, role, "pass")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome["code"] == "reshuffle_1_check"


# -------------------------------------------------------------------------- deploy


def test_deploy_pays_the_cost_and_removes_the_card_built() -> None:
    state = empty_board()
    put(state, "washington", "union", 3)
    potomac, pay1, pay2 = hand(
        state, "union", ["Army of the Potomac", "Samuel Curtis", "Franz Sigel"]
    )
    act(state, "union", "deploy", potomac)
    act(state, "union", "at", "washington")
    act(state, "union", "half", 1)
    act(state, "union", "pay", pay1)
    act(state, "union", "pay", pay2)
    piles = state["piles"]["union"]
    assert potomac in piles["removed"] and {pay1, pay2} <= set(piles["discard"])
    assert units(state, "washington", 1) == [("union", "army3")]
    assert state["stock"]["union"]["armies"]["3"] == 6
    assert state["turn"]["actions_left"] == 1
    assert_sound(state)


def test_deploying_a_one_strength_army_discards_its_card() -> None:
    state = empty_board()
    put(state, "washington", "union", 3)
    curtis = hand(state, "union", ["Samuel Curtis"])[0]
    act(state, "union", "deploy", curtis)
    act(state, "union", "at", "washington")
    act(state, "union", "half", 0)
    assert curtis in state["piles"]["union"]["discard"]
    assert ("union", "army1") in units(state, "washington")


def test_deploy_only_in_controlled_locations_that_trace_supply() -> None:
    state = empty_board()
    put(state, "washington", "union", 3)
    put(state, "nashville", "union", 2)  # Union holds Nashville, cut off by Confederate land
    flag(state, "nashville", "union")
    flag(state, "kentucky", "confederate")
    curtis = hand(state, "union", ["Samuel Curtis"])[0]
    act(state, "union", "deploy", curtis)
    places = GAME.view(state, "union")["actions"]["at"]
    assert "washington" in places and "cincinnati" in places
    assert "nashville" not in places and "kentucky" not in places and "manassas" not in places


def test_supply_passes_a_contested_location_only_through_the_half_one_holds() -> None:
    state = empty_board()
    put(state, "washington", "union", 3)
    # Harrisburg's links to Pittsburgh and Harper's Ferry both leave by its West half.
    put(state, "harrisburg", "union", 1, half=1)
    put(state, "philadelphia", "confederate", 1)
    put(state, "harrisburg", "confederate", 1, half=0)
    flag(state, "harpers_ferry", "confederate")
    flag(state, "pittsburgh", "union")
    state["board"]["pittsburgh"][0].append(board.take_army(state, "union", 1))
    flag(state, "cincinnati", "confederate")
    assert "pittsburgh" not in board.supplied(state, "union")
    state["board"]["harrisburg"][0], state["board"]["harrisburg"][1] = (
        state["board"]["harrisburg"][1],
        state["board"]["harrisburg"][0],
    )
    assert "pittsburgh" in board.supplied(state, "union")


def test_ruling_4_deploy_into_a_controlled_port_by_also_discarding_a_naval_card() -> None:
    state = empty_board()
    put(state, "washington", "union", 3)
    put(state, "new_orleans", "union", 2)
    flag(state, "new_orleans", "union")
    curtis, monitor, sigel = hand(state, "union", ["Samuel Curtis", "USS Monitor", "Franz Sigel"])
    act(state, "union", "deploy", curtis)
    assert "new_orleans" in GAME.view(state, "union")["actions"]["at"]
    act(state, "union", "at", "new_orleans")
    act(state, "union", "half", 1)
    assert GAME.view(state, "union")["actions"]["pay"] == [monitor]
    act(state, "union", "pay", monitor)
    assert ("union", "army1") in units(state, "new_orleans")
    assert (
        monitor in state["piles"]["union"]["discard"] and sigel in state["piles"]["union"]["hand"]
    )


def test_ship_moves_the_blockade_and_politician_moves_europe_never_off_the_end() -> None:
    state = empty_board()
    put(state, "washington", "union", 3)
    monitor, chase, a, b, c = hand(
        state,
        "union",
        ["USS Monitor", "Salmon P. Chase", "Samuel Curtis", "Franz Sigel", "Militia Act"],
    )
    act(state, "union", "deploy", monitor)
    act(state, "union", "pay", a)
    assert state["blockade"] == 1 and monitor in state["piles"]["union"]["removed"]
    act(state, "union", "deploy", chase)
    act(state, "union", "pay", b)
    act(state, "union", "pay", c)
    assert state["europe"] == EUROPE_START - 1
    state["blockade"] = len(BLOCKADE) - 1
    state["turn"]["actions_left"] = 2
    hand(state, "union", ["USS Hartford", "Samuel Curtis"])
    deployable = GAME.view(state, "union")["actions"].get("deploy", [])
    assert card("USS Hartford") not in deployable


def test_ruling_5_a_unit_needs_a_counter_in_stock() -> None:
    state = empty_board()
    put(state, "washington", "union", 3)
    state["stock"]["union"]["armies"]["3"] = 0
    potomac = hand(state, "union", ["Army of the Potomac", "Samuel Curtis", "Franz Sigel"])[0]
    assert potomac not in GAME.view(state, "union")["actions"].get("deploy", [])


# --------------------------------------------------------------------------- moves


def test_ruling_4_a_fort_is_never_deployed_by_sea_it_follows_the_supply_rule() -> None:
    # Deploy Unit: a naval card deploys "an army counter" into a port you control.
    state = empty_board()
    put(state, "washington", "union", 3)
    put(state, "new_orleans", "union", 2)
    flag(state, "new_orleans", "union")
    fort, _monitor, _sigel = hand(
        state, "union", ["Fort Pickens Garrison", "USS Monitor", "Franz Sigel"]
    )
    act(state, "union", "deploy", fort)
    places = GAME.view(state, "union")["actions"]["at"]
    assert "washington" in places and "new_orleans" not in places
    # Cut off from supply with no land place left, the fort is not deployable at all.
    alone = empty_board()
    put(alone, "new_orleans", "union", 2)
    flag(alone, "new_orleans", "union")
    flag(alone, "washington", "confederate")
    fort = hand(alone, "union", ["Fort Pickens Garrison", "USS Monitor", "Franz Sigel"])[0]
    assert fort not in GAME.view(alone, "union")["actions"].get("deploy", [])


def test_move_some_or_all_armies_along_one_link_with_a_train_card() -> None:
    state = empty_board()
    put(state, "washington", "union", 3)
    put(state, "washington", "union", 2)
    put(state, "washington", "union", 1)
    train = hand(state, "union", ["Irish Brigade"])[0]
    act(state, "union", "move", train)
    assert train in state["piles"]["union"]["discard"]
    act(state, "union", "from", "washington")
    act(state, "union", "to", "harpers_ferry")
    act(state, "union", "army", "army3")
    act(state, "union", "army", "army2")
    act(state, "union", "go")
    assert units(state, "harpers_ferry") == [("union", "army2"), ("union", "army3")]
    assert units(state, "washington") == [("union", "army1")]


def test_move_one_army_far_along_friendly_links() -> None:
    state = empty_board()
    put(state, "washington", "union", 3)
    put(state, "washington", "union", 2)
    train = hand(state, "union", ["Irish Brigade"])[0]
    act(state, "union", "move", train)
    act(state, "union", "from", "washington")
    assert "cairo" in GAME.view(state, "union")["actions"]["to"]
    act(state, "union", "to", "cairo")
    act(state, "union", "army", "army2")
    assert units(state, "cairo") == [("union", "army2")]
    assert units(state, "washington") == [("union", "army3")]


def test_movement_stops_on_entering_an_enemy_location_and_takes_it_when_empty() -> None:
    state = empty_board()
    put(state, "washington", "union", 3)
    train = hand(state, "union", ["Irish Brigade"])[0]
    act(state, "union", "move", train)
    act(state, "union", "from", "washington")
    destinations = GAME.view(state, "union")["actions"]["to"]
    assert "fredericksburg" in destinations and "richmond" not in destinations
    act(state, "union", "to", "fredericksburg")
    assert board.control(state, "fredericksburg") == "union"
    assert state["flags"]["fredericksburg"] == "union" and state["stock"]["flags"] == 17
    assert_sound(state)


def test_confederates_never_move_into_the_top_three() -> None:
    state = empty_board()
    put(state, "washington", "union", 3)
    put(state, "harpers_ferry", "confederate", 2)
    flag(state, "harpers_ferry", "confederate")
    confederate_turn(state)
    train = hand(state, "confederate", ["Richard Ewell"])[0]
    act(state, "confederate", "move", train)
    act(state, "confederate", "from", "harpers_ferry")
    destinations = GAME.view(state, "confederate")["actions"]["to"]
    assert "washington" in destinations
    assert not {"pittsburgh", "harrisburg", "philadelphia"} & set(destinations)


def test_forts_never_move() -> None:
    state = empty_board()
    put(state, "washington", "union", 0)
    put(state, "kentucky", "union", 2)
    train = hand(state, "union", ["Irish Brigade"])[0]
    act(state, "union", "move", train)
    assert GAME.view(state, "union")["actions"]["from"] == ["kentucky"]


def test_ruling_8_entering_ones_own_half_of_a_contested_location_joins_without_battle() -> None:
    state = empty_board()
    put(state, "washington", "union", 3)
    put(state, "manassas", "union", 2, half=0)  # Manassas North faces Washington
    put(state, "manassas", "confederate", 2, half=1)
    train = hand(state, "union", ["Irish Brigade"])[0]
    act(state, "union", "move", train)
    act(state, "union", "from", "washington")
    act(state, "union", "to", "manassas")
    assert state["battle"] is None
    assert units(state, "manassas", 0) == [("union", "army2"), ("union", "army3")]


def test_ruling_9_entering_beside_lone_enemy_forts_makes_the_location_contested() -> None:
    state = empty_board()
    put(state, "washington", "union", 3)
    put(state, "manassas", "confederate", 0, half=1)
    train = hand(state, "union", ["Irish Brigade"])[0]
    act(state, "union", "move", train)
    act(state, "union", "from", "washington")
    act(state, "union", "to", "manassas")
    assert state["battle"] is None
    assert board.contested(state, "manassas")
    assert units(state, "manassas", 0) == [("union", "army3")]


# ------------------------------------------------------------------ naval movement


def test_naval_movement_one_army_per_naval_card_from_port_to_port() -> None:
    state = empty_board()
    put(state, "washington", "union", 3)
    put(state, "fort_monroe", "union", 2)
    put(state, "fort_monroe", "union", 1)
    flag(state, "fort_monroe", "union")
    monitor, porter = hand(state, "union", ["USS Monitor", "David Dixon Porter"])
    act(state, "union", "naval", monitor)
    act(state, "union", "army", "fort_monroe:army2")
    assert "fort_monroe" not in GAME.view(state, "union")["actions"]["to"]
    act(state, "union", "to", "wilmington")
    assert "army" not in GAME.view(state, "union")["actions"]  # one army per card
    act(state, "union", "naval", porter)
    act(state, "union", "army", "fort_monroe:army1")
    act(state, "union", "to", "wilmington")
    act(state, "union", "go")
    sea = int(GAME.view(state, None)["locations"]["wilmington"]["sea_half"])
    assert units(state, "wilmington", sea) == [("union", "army1"), ("union", "army2")]
    assert board.control(state, "wilmington") == "union"
    assert state["turn"]["actions_left"] == 1


def test_ruling_10_each_army_of_one_naval_action_may_sail_to_a_port_of_its_own() -> None:
    # Naval Movement: one army per card, each "from a port location to any other".
    state = empty_board()
    put(state, "washington", "union", 3)
    put(state, "fort_monroe", "union", 2)
    put(state, "fort_monroe", "union", 1)
    flag(state, "fort_monroe", "union")
    put(state, "savannah", "confederate", 1)
    put(state, "richmond", "confederate", 2)
    monitor, porter, sigel = hand(
        state, "union", ["USS Monitor", "David Dixon Porter", "Iron Brigade"]
    )
    act(state, "union", "naval", monitor)
    act(state, "union", "army", "fort_monroe:army2")
    act(state, "union", "to", "savannah")
    act(state, "union", "naval", porter)
    act(state, "union", "army", "fort_monroe:army1")
    act(state, "union", "to", "mobile")
    act(state, "union", "go")
    # Savannah (a battle) and Mobile (no enemy) land in port order: the battle comes
    # first, and the army bound for Mobile waits at sea meanwhile.
    assert state["battle"]["location"] == "savannah"
    assert units(state, "mobile") == []
    assert_sound(state)
    act(state, "union", "card", sigel)
    act(state, "confederate", "fight")
    assert state["battle"] is None and state["doing"] is None
    mobile = int(GAME.view(state, None)["locations"]["mobile"]["sea_half"])
    assert units(state, "mobile", mobile) == [("union", "army1")]
    assert board.control(state, "mobile") == "union"
    assert state["turn"]["actions_left"] == 1
    assert_sound(state)


def test_ruling_10_two_landings_against_the_enemy_are_two_battles_one_after_the_other() -> None:
    state = empty_board()
    put(state, "washington", "union", 3)
    put(state, "fort_monroe", "union", 3)
    put(state, "fort_monroe", "union", 3)
    flag(state, "fort_monroe", "union")
    put(state, "savannah", "confederate", 1)
    put(state, "mobile", "confederate", 1)
    put(state, "richmond", "confederate", 2)
    monitor, porter = hand(state, "union", ["USS Monitor", "David Dixon Porter"])
    act(state, "union", "naval", monitor)
    act(state, "union", "army", "fort_monroe:army3")
    act(state, "union", "to", "mobile")
    act(state, "union", "naval", porter)
    act(state, "union", "army", "fort_monroe:army3")
    act(state, "union", "to", "savannah")
    act(state, "union", "go")
    fought = []
    while state["battle"] is not None:
        fought.append(state["battle"]["location"])
        assert_sound(state)
        role = GAME.active_roles(state)[0]
        actions = GAME.view(state, role)["actions"]
        verb = "fight" if "fight" in actions else next(v for v in actions if v != "undo")
        arg = actions[verb] if actions[verb] is True else actions[verb][0]
        act(state, role, verb, None if arg is True else arg)
    assert list(dict.fromkeys(fought)) == ["savannah", "mobile"]
    assert board.control(state, "savannah") == "union" and board.control(state, "mobile") == "union"
    assert state["turn"]["actions_left"] == 1
    assert_sound(state)


def test_the_union_may_sail_from_washington_on_its_first_turn() -> None:
    state = GAME.setup(seed=3)
    monitor = hand(state, "union", ["USS Monitor", "Franz Sigel", "Irish Brigade"])[0]
    assert monitor in GAME.view(state, "union")["actions"]["naval"]
    act(state, "union", "naval", monitor)
    assert GAME.view(state, "union")["actions"]["army"] == ["washington:army3"]
    act(state, "union", "army", "washington:army3")
    assert "washington" not in GAME.view(state, "union")["actions"]["to"]
    act(state, "union", "to", "wilmington")
    act(state, "union", "go")
    assert board.control(state, "wilmington") == "union"
    assert_sound(state)


def test_only_the_union_has_naval_movement() -> None:
    state = empty_board()
    put(state, "washington", "union", 3)
    put(state, "savannah", "confederate", 2)
    put(state, "richmond", "confederate", 2)
    confederate_turn(state)
    hand(state, "confederate", ["CSS Virginia", "Blockade Runners"])
    assert "naval" not in GAME.view(state, "confederate")["actions"]


# ------------------------------------------------------------- reshuffles and ends


def _exhaust_union(state: dict, vp_locations: list[str]) -> None:
    for loc in vp_locations:
        put(state, loc, "union", 1)
    piles = state["piles"]["union"]
    piles["discard"] += piles["deck"]
    piles["deck"] = []


def test_first_reshuffle_adds_the_I_cards_and_needs_2_vp() -> None:
    state = empty_board()
    put(state, "washington", "union", 3)
    hand(state, "union", ["Samuel Curtis"])
    _exhaust_union(state, ["chattanooga", "manassas"])
    act(state, "union", "pass")
    act(state, "union", "pass")
    piles = state["piles"]["union"]
    assert piles["reshuffles"] == 1 and piles["waves"]["I"] == []
    assert set(CARDS[c]["wave"] for c in piles["deck"] + piles["hand"]) >= {"I"}
    assert GAME.outcome(state) is None

    state = empty_board()
    put(state, "washington", "union", 3)
    hand(state, "union", ["Samuel Curtis"])
    _exhaust_union(state, ["chattanooga"])
    act(state, "union", "pass")
    act(state, "union", "pass")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome["winner"] == "confederate"
    assert outcome["code"] == "reshuffle_1_check"


def test_second_reshuffle_adds_the_II_cards_and_needs_5_vp() -> None:
    state = empty_board()
    put(state, "washington", "union", 3)
    state["piles"]["union"]["reshuffles"] = 1
    state["piles"]["union"]["deck"] += state["piles"]["union"]["waves"]["I"]
    state["piles"]["union"]["waves"]["I"] = []
    hand(state, "union", ["Samuel Curtis"])
    _exhaust_union(state, ["atlanta", "chattanooga"])
    act(state, "union", "pass")
    act(state, "union", "pass")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome["code"] == "reshuffle_2_check"
    assert state["piles"]["union"]["waves"]["II"] == []


def test_third_exhaustion_of_the_union_deck_ends_the_game_on_12_vp() -> None:
    for vp_places, winner in (
        (
            ["richmond", "atlanta", "new_orleans", "vicksburg", "memphis", "corinth"],
            "union",
        ),
        (["richmond", "atlanta"], "confederate"),
    ):
        state = empty_board()
        put(state, "washington", "union", 3)
        piles = state["piles"]["union"]
        piles["reshuffles"] = 2
        piles["deck"] += piles["waves"]["I"] + piles["waves"]["II"]
        piles["waves"] = {"I": [], "II": []}
        hand(state, "union", ["Samuel Curtis"])
        _exhaust_union(state, vp_places)
        act(state, "union", "pass")
        act(state, "union", "pass")
        outcome = GAME.outcome(state)
        assert outcome is not None and outcome["code"] == "final_vp"
        assert outcome["winner"] == winner, (board.union_vp(state), winner)
        if winner == "union":
            assert board.union_vp(state) == 12  # exactly 12 is enough


def test_confederate_reshuffles_as_often_as_needed_adding_nothing_after_the_second() -> None:
    state = empty_board()
    put(state, "washington", "union", 3)
    put(state, "richmond", "confederate", 3)
    confederate_turn(state)
    hand(state, "confederate", ["Bread Riots"])
    piles = state["piles"]["confederate"]
    piles["reshuffles"] = 2
    piles["removed"] += piles["deck"][:-3] + piles["waves"]["I"] + piles["waves"]["II"]
    piles["waves"] = {"I": [], "II": []}
    piles["discard"] += piles["deck"][-3:]
    piles["deck"] = []
    act(state, "confederate", "pass")
    act(state, "confederate", "pass")
    assert piles["reshuffles"] == 3 and GAME.outcome(state) is None
    assert len(piles["hand"]) == 4  # all that was left
    assert_sound(state)


def test_europe_at_the_confederate_end_wins_at_once() -> None:
    state = empty_board()
    put(state, "washington", "union", 3)
    put(state, "richmond", "confederate", 3)
    confederate_turn(state)
    state["europe"] = EUROPE_END - 1
    davis = hand(state, "confederate", ["Jefferson Davis", "Bread Riots", "Shortages"])[0]
    act(state, "confederate", "deploy", davis)
    act(state, "confederate", "pay", card("Bread Riots"))
    act(state, "confederate", "pay", card("Shortages"))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome["winner"] == "confederate"
    assert outcome["code"] == "europe"


def test_confederacy_holding_washington_at_the_end_of_a_union_turn_wins() -> None:
    state = empty_board()
    put(state, "washington", "confederate", 1)
    flag(state, "washington", "confederate")
    put(state, "kentucky", "union", 2)
    hand(state, "union", ["Samuel Curtis"])
    act(state, "union", "pass")
    assert GAME.outcome(state) is None
    act(state, "union", "pass")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome["code"] == "washington"


def test_union_holding_vicksburg_and_richmond_at_the_end_of_a_confederate_turn_wins() -> None:
    state = empty_board()
    put(state, "washington", "union", 3)
    put(state, "vicksburg", "union", 1)
    put(state, "richmond", "union", 1)
    put(state, "atlanta", "confederate", 3)
    confederate_turn(state)
    hand(state, "confederate", ["Bread Riots"])
    act(state, "confederate", "pass")
    act(state, "confederate", "pass")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome["winner"] == "union"
    assert outcome["code"] == "vicksburg_richmond"


# ---------------------------------------------------------------------------- events


def test_event_raise_places_an_army_where_supplied() -> None:
    state = empty_board()
    put(state, "washington", "union", 3)
    stanton = hand(state, "union", ["Edwin Stanton"])[0]
    act(state, "union", "action", stanton)
    act(state, "union", "at", "kentucky")
    act(state, "union", "half", 0)
    assert units(state, "kentucky") == [("union", "army1")]
    assert stanton in state["piles"]["union"]["discard"]
    assert state["turn"]["actions_left"] == 1


def test_event_raid_makes_the_opponent_discard_at_random() -> None:
    state = empty_board()
    put(state, "washington", "union", 3)
    put(state, "richmond", "confederate", 3)
    confederate_turn(state)
    forrest = hand(state, "confederate", ["Nathan Bedford Forrest"])[0]
    before = list(state["piles"]["union"]["hand"])
    act(state, "confederate", "action", forrest)
    after = state["piles"]["union"]["hand"]
    assert len(after) == len(before) - 1
    lost = (set(before) - set(after)).pop()
    assert lost in state["piles"]["union"]["discard"]


def test_event_europe_and_draw() -> None:
    state = empty_board()
    put(state, "washington", "union", 3)
    put(state, "richmond", "confederate", 3)
    confederate_turn(state)
    mason, tredegar = hand(state, "confederate", ["Mason and Slidell", "Tredegar Iron Works"])
    act(state, "confederate", "action", mason)
    assert state["europe"] == EUROPE_START + 1
    act(state, "confederate", "action", tredegar)
    assert len(state["piles"]["confederate"]["hand"]) >= 2


def test_a_card_serves_exactly_one_purpose() -> None:
    state = empty_board()
    put(state, "washington", "union", 3)
    stanton = hand(state, "union", ["Edwin Stanton"])[0]
    act(state, "union", "move", stanton)
    assert stanton not in state["piles"]["union"]["hand"]
    view = GAME.view(state, "union")
    assert stanton not in str(view["actions"])


# ------------------------------------------------------------------- hidden information


def test_views_hide_hands_decks_and_discards_from_the_opponent() -> None:
    state = GAME.setup(seed=5)
    union_view = GAME.view(state, "union")
    confederate_view = GAME.view(state, "confederate")
    public = GAME.view(state, None)
    assert [c["id"] for c in union_view["hand"]] == state["piles"]["union"]["hand"]
    assert "hand" not in public
    for c in state["piles"]["union"]["hand"] + state["piles"]["union"]["deck"]:
        assert f'"{c}"' not in str(confederate_view).replace("'", '"')
    assert public["piles"]["union"]["deck"] == len(state["piles"]["union"]["deck"])
    assert public["piles"]["union"]["waves"] == {"I": "waiting", "II": "waiting"}


# ------------------------------------------------------------- more rulings


def test_ruling_2_a_flag_stays_when_its_side_leaves_and_goes_when_the_owner_returns() -> None:
    state = empty_board()
    put(state, "washington", "union", 3)
    put(state, "washington", "union", 2)
    train = hand(state, "union", ["Irish Brigade", "Iron Brigade"])
    act(state, "union", "move", train[0])
    act(state, "union", "from", "washington")
    act(state, "union", "to", "manassas")
    act(state, "union", "army", "army2")
    act(state, "union", "go")
    assert state["flags"] == {"manassas": "union"}
    act(state, "union", "move", train[1])
    act(state, "union", "from", "manassas")
    act(state, "union", "to", "washington")
    assert units(state, "manassas") == [] and board.control(state, "manassas") == "union"
    confederate_turn(state)
    put(state, "richmond", "confederate", 2)
    train = hand(state, "confederate", ["Richard Ewell"])[0]
    act(state, "confederate", "move", train)
    act(state, "confederate", "from", "richmond")
    act(state, "confederate", "to", "manassas")
    assert "manassas" not in state["flags"] and state["stock"]["flags"] == 18
    assert board.control(state, "manassas") == "confederate"


def test_ruling_3_a_supply_source_held_by_the_enemy_supplies_nothing() -> None:
    state = empty_board()
    put(state, "washington", "union", 3)
    put(state, "atlanta", "confederate", 2)
    assert "richmond" in board.supplied(state, "confederate")
    put(state, "atlanta", "union", 1, half=1)  # Atlanta contested: no longer a source
    flag(state, "richmond", "union")
    assert board.supplied(state, "confederate") == set()


def test_ruling_7_a_far_move_into_battle_chooses_the_link_it_attacks_along() -> None:
    state = empty_board()
    put(state, "washington", "union", 3)
    put(state, "washington", "union", 2)
    for loc in ("manassas", "fredericksburg"):
        flag(state, loc, "union")
    put(state, "richmond", "confederate", 1)
    put(state, "atlanta", "confederate", 1)
    train = hand(state, "union", ["Irish Brigade", "Franz Sigel"])[0]
    act(state, "union", "move", train)
    act(state, "union", "from", "washington")
    act(state, "union", "to", "richmond")
    assert state["step"] == "move_via"
    assert sorted(GAME.view(state, "union")["actions"]["via"]) == ["fredericksburg", "manassas"]
    act(state, "union", "via", "manassas")
    act(state, "union", "army", "army2")
    assert state["battle"]["origin"] == "manassas" and state["battle"]["half"] == 0


def test_ruling_12_an_attacker_with_an_empty_hand_plays_no_card() -> None:
    state = empty_board()
    put(state, "washington", "union", 3)
    put(state, "manassas", "union", 3, half=0)
    put(state, "manassas", "confederate", 1, half=1)
    put(state, "richmond", "confederate", 1)
    hand(state, "union", [])
    act(state, "union", "attack", "manassas")
    assert state["step"] == "battle_defender"
    assert state["battle"]["cards"]["union"] is None


def test_ruling_13_a_benefit_counts_only_for_the_battle_card_in_its_role() -> None:
    state = empty_board()
    put(state, "washington", "union", 3)
    put(state, "manassas", "confederate", 3)
    put(state, "richmond", "confederate", 1)
    confederate_turn(state)
    train = hand(state, "confederate", ["Richard Ewell", "Stonewall Brigade"])[0]
    act(state, "confederate", "move", train)
    act(state, "confederate", "from", "manassas")
    act(state, "confederate", "to", "washington")
    act(state, "confederate", "card", card("Stonewall Brigade"))
    thomas = hand(state, "union", ["George H. Thomas"])[0]  # leadership 2, +2 defending
    act(state, "union", "card", thomas)
    assert state["last_battle"]["totals"] == {"confederate": 4, "union": 3 + 2 + 2}


def test_ruling_17_a_beaten_defenders_forts_are_lost() -> None:
    state = empty_board()
    put(state, "washington", "union", 3)
    put(state, "washington", "union", 3)
    put(state, "washington", "union", 3)
    put(state, "fredericksburg", "confederate", 0)
    put(state, "fredericksburg", "confederate", 1)
    put(state, "richmond", "confederate", 1)
    train = hand(state, "union", ["Irish Brigade", "Franz Sigel"])[0]
    act(state, "union", "move", train)
    act(state, "union", "from", "washington")
    act(state, "union", "to", "fredericksburg")
    for _ in range(3):
        if state["step"] == "move_pick":
            act(state, "union", "army", "army3")
    if state["step"] == "move_pick":
        act(state, "union", "go")
    act(state, "union", "card", card("Franz Sigel"))
    act(state, "confederate", "fight")
    act(state, "confederate", "lose", "army1")  # one casualty of two: the fort survives it
    assert state["stock"]["confederate"]["forts"] == 2  # ...but cannot retreat
    assert state["last_battle"]["losses"]["confederate"] == 2
    assert board.control(state, "fredericksburg") == "union"
    assert_sound(state)
