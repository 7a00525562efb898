"""Lincoln combat scenario tests, in the order of the rules text: the half entered,
gathering, the face-down cards, withdrawal, the sums and modifiers, casualties, retreats,
control flags and the Europe track; one test per rule and per ruling."""

from __future__ import annotations

import copy

import pytest

from rules.core.errors import IllegalAction
from rules.lincoln import GAME, board
from rules.lincoln.data import EUROPE_START
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


def _move(state: dict, role: str, start: str, dest: str, armies: list[str]) -> None:
    train = "Irish Brigade" if role == "union" else "Richard Ewell"
    extra = ["Franz Sigel", "Iron Brigade"] if role == "union" else ["Stonewall Brigade"]
    hand(state, role, [train, *extra])
    act(state, role, "move", card(train))
    act(state, role, "from", start)
    act(state, role, "to", dest)
    if state["step"] == "move_pick":
        for key in armies:
            if state["step"] == "move_pick":
                act(state, role, "army", key)
        if state["step"] == "move_pick":
            act(state, role, "go")


def _front_royal(defenders: list[tuple[int, int]], attackers: list[int]) -> dict:
    """Union armies in Harper's Ferry, Confederate units in Front Royal (strength 0: fort)."""
    state = empty_board()
    put(state, "washington", "union", 3)
    put(state, "richmond", "confederate", 3)
    for strength in attackers:
        put(state, "harpers_ferry", "union", strength)
    for strength, half in defenders:
        put(state, "front_royal", "confederate", strength, half)
    hand(state, "confederate", ["Bread Riots", "Sterling Price"])
    return state


def test_attackers_enter_the_half_of_the_link_and_defenders_gather_there_forts_stay() -> None:
    state = _front_royal([(2, 1), (0, 1)], [3])
    _move(state, "union", "harpers_ferry", "front_royal", ["army3"])
    battle = state["battle"]
    assert battle["half"] == 0  # Front Royal's North half faces Harper's Ferry
    assert units(state, "front_royal", 0) == [("confederate", "army2")]
    assert units(state, "front_royal", 1) == [("confederate", "fort")]
    assert [u["strength"] for u in battle["attackers"]] == [3]
    assert_sound(state)


def test_the_attacker_must_play_a_card_face_down_hidden_from_the_defender() -> None:
    state = _front_royal([(2, 0)], [3])
    _move(state, "union", "harpers_ferry", "front_royal", ["army3"])
    actions = GAME.view(state, "union")["actions"]
    assert set(actions) - {"undo"} == {"card"}  # required: no way to skip it
    sigel = card("Franz Sigel")
    act(state, "union", "card", sigel)
    assert GAME.view(state, "confederate")["battle"]["attacker_card"] == "hidden"
    assert GAME.view(state, None)["battle"]["attacker_card"] == "hidden"
    assert GAME.view(state, "union")["battle"]["attacker_card"]["id"] == sigel
    assert sigel not in str(GAME.view(state, "confederate"))


def test_the_defender_may_fight_with_a_face_down_card_or_without() -> None:
    state = _front_royal([(2, 0)], [3])
    _move(state, "union", "harpers_ferry", "front_royal", ["army3"])
    act(state, "union", "card", card("Franz Sigel"))
    actions = GAME.view(state, "confederate")["actions"]
    assert {"fight", "card", "withdraw"} <= set(actions)
    price = card("Sterling Price")
    act(state, "confederate", "card", price)
    # revealed: Union 3 + 0, Confederacy 2 + 1
    assert state["last_battle"]["totals"] == {"union": 3, "confederate": 3}
    assert price in state["piles"]["confederate"]["discard"]
    assert card("Franz Sigel") in state["piles"]["union"]["discard"]


def test_ruling_12_the_defender_may_play_only_a_leadership_card_face_down() -> None:
    # Combat step 3: the defender may play "a Leadership card face down".
    state = _front_royal([(2, 0)], [3])
    _move(state, "union", "harpers_ferry", "front_royal", ["army3"])
    act(state, "union", "card", card("Franz Sigel"))
    actions = GAME.view(state, "confederate")["actions"]
    assert actions["card"] == [card("Sterling Price")]  # not Bread Riots (no leadership)
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction):
        act(state, "confederate", "card", card("Bread Riots"))
    assert state == before


def test_ruling_12_a_defender_without_leadership_cards_fights_without_one() -> None:
    state = _front_royal([(2, 0)], [3])
    hand(state, "confederate", ["Bread Riots", "Inflation"])
    _move(state, "union", "harpers_ferry", "front_royal", ["army3"])
    act(state, "union", "card", card("Franz Sigel"))
    assert "card" not in GAME.view(state, "confederate")["actions"]
    assert "fight" in GAME.view(state, "confederate")["actions"]


def test_ruling_12_a_defence_benefit_without_leadership_may_be_played_by_the_defender() -> None:
    state = empty_board()
    put(state, "washington", "union", 2)
    put(state, "manassas", "confederate", 3)
    put(state, "richmond", "confederate", 1)
    confederate_turn(state)
    _move(state, "confederate", "manassas", "washington", ["army3"])
    act(state, "confederate", "card", card("Stonewall Brigade"))
    hand(state, "union", ["Defenses of Washington", "Franz Sigel"])
    assert GAME.view(state, "union")["actions"]["card"] == [card("Defenses of Washington")]


def test_ruling_12_the_attacker_may_play_any_card_face_down() -> None:
    # Combat step 2: the attacker plays "one card face down", leadership or not.
    state = _front_royal([(2, 0)], [3])
    _move(state, "union", "harpers_ferry", "front_royal", ["army3"])
    offered = GAME.view(state, "union")["actions"]["card"]
    assert card("Franz Sigel") in offered  # leadership 0
    assert card("Iron Brigade") in offered


def test_the_defender_wins_ties() -> None:
    state = _front_royal([(2, 0)], [2])
    _move(state, "union", "harpers_ferry", "front_royal", ["army2"])
    act(state, "union", "card", card("Franz Sigel"))
    act(state, "confederate", "fight")
    assert state["last_battle"]["totals"] == {"union": 2, "confederate": 2}
    assert state["last_battle"]["winner"] == "confederate"


def test_a_fort_is_worth_3_to_the_defender() -> None:
    state = _front_royal([(1, 0), (0, 0)], [3])
    _move(state, "union", "harpers_ferry", "front_royal", ["army3"])
    act(state, "union", "card", card("Franz Sigel"))
    act(state, "confederate", "fight")
    assert state["battle"]["totals"] == {"union": 3, "confederate": 1 + 3}


def test_the_rail_modifier_helps_a_defender_of_its_colour() -> None:
    state = empty_board()
    put(state, "washington", "union", 3)
    put(state, "manassas", "confederate", 3)
    _move(state, "union", "washington", "manassas", ["army3"])
    act(state, "union", "card", card("Iron Brigade"))  # leadership 2
    act(state, "confederate", "fight")
    assert state["last_battle"]["totals"] == {"union": 5, "confederate": 3 + 1}


def test_a_side_never_benefits_from_a_modifier_of_the_opponents_colour() -> None:
    state = empty_board()
    put(state, "washington", "union", 3)
    put(state, "manassas", "confederate", 3)
    put(state, "richmond", "confederate", 1)
    confederate_turn(state)
    _move(state, "confederate", "manassas", "washington", ["army3"])
    act(state, "confederate", "card", card("Stonewall Brigade"))  # leadership 1
    hand(state, "union", ["Franz Sigel"])
    act(state, "union", "fight")
    assert state["last_battle"]["totals"] == {"confederate": 4, "union": 3}
    assert state["last_battle"]["winner"] == "confederate"


def test_no_modifier_applies_inside_an_already_contested_location() -> None:
    state = empty_board()
    put(state, "washington", "union", 3)
    put(state, "manassas", "confederate", 3, half=0)
    put(state, "manassas", "union", 1, half=1)
    put(state, "richmond", "confederate", 1)
    _move(state, "union", "washington", "manassas", ["army3"])
    assert state["battle"]["contested_before"]
    act(state, "union", "card", card("Franz Sigel"))
    act(state, "confederate", "fight")
    assert state["last_battle"]["totals"] == {"union": 3, "confederate": 3}


def test_ruling_11_attack_in_a_contested_location_with_every_army_there() -> None:
    state = empty_board()
    put(state, "washington", "union", 3)
    put(state, "manassas", "union", 3, half=0)
    put(state, "manassas", "union", 1, half=0)
    put(state, "manassas", "confederate", 2, half=1)
    put(state, "richmond", "confederate", 1)
    hand(state, "union", ["Franz Sigel"])
    act(state, "union", "attack", "manassas")
    assert state["battle"]["by"] == "inside" and state["battle"]["half"] == 1
    assert sorted(u["strength"] for u in state["battle"]["attackers"]) == [1, 3]
    act(state, "union", "card", card("Franz Sigel"))
    act(state, "confederate", "fight")
    assert state["battle"]["winner"] == "union"
    act(state, "union", "lose", "army1")  # loser 1 counter, winner 1 of its 2
    assert units(state, "manassas") == [("union", "army3")]
    assert state["flags"]["manassas"] == "union"


def test_casualties_loser_half_rounded_up_winner_half_down_never_more_than_the_loser() -> None:
    state = _front_royal([(1, 0)], [3, 3, 2, 2])
    _move(state, "union", "harpers_ferry", "front_royal", ["army3", "army3", "army2", "army2"])
    act(state, "union", "card", card("Franz Sigel"))
    act(state, "confederate", "fight")
    # Confederacy lost its one counter; the Union would lose 2 of 4 but never more than 1
    assert state["battle"]["owed"] == {"union": 1, "confederate": 0}
    act(state, "union", "lose", "army2")
    assert state["last_battle"]["losses"] == {"union": 1, "confederate": 1}
    assert_sound(state)


def test_each_side_chooses_its_own_casualties_loser_first() -> None:
    state = _front_royal([(2, 0), (1, 0)], [3, 1])
    _move(state, "union", "harpers_ferry", "front_royal", ["army3", "army1"])
    act(state, "union", "card", card("Franz Sigel"))
    act(state, "confederate", "card", card("Sterling Price"))  # 3+1 vs 2+1+1: tie
    assert GAME.active_roles(state) == ("union",)
    assert GAME.view(state, "union")["actions"]["lose"] == ["army1", "army3"]
    act(state, "union", "lose", "army3")
    assert GAME.active_roles(state) == ("confederate",)
    act(state, "confederate", "lose", "army1")
    assert units(state, "front_royal") == [("confederate", "army2")]
    assert units(state, "harpers_ferry") == [("union", "army1")]  # back where it came from


def test_a_beaten_attacker_retreats_where_it_came_from() -> None:
    state = _front_royal([(3, 0), (1, 0)], [2, 2])
    _move(state, "union", "harpers_ferry", "front_royal", ["army2", "army2"])
    act(state, "union", "card", card("Franz Sigel"))
    act(state, "confederate", "fight")
    act(state, "confederate", "lose", "army1")
    assert state["last_battle"]["winner"] == "confederate"
    assert units(state, "harpers_ferry") == [("union", "army2")]


def test_a_beaten_defender_retreats_to_a_connected_friendly_location() -> None:
    state = _front_royal([(2, 0), (1, 0)], [3, 3, 3])
    _move(state, "union", "harpers_ferry", "front_royal", ["army3", "army3", "army3"])
    act(state, "union", "card", card("Iron Brigade"))
    act(state, "confederate", "fight")
    assert state["step"] in ("battle_casualties", "battle_retreat")
    if state["step"] == "battle_casualties":
        act(state, "confederate", "lose", "army1")
    view = GAME.view(state, "confederate")
    assert sorted(view["actions"]["to"]) == ["manassas", "richmond"]
    act(state, "confederate", "to", "richmond")
    assert ("confederate", "army2") in units(state, "richmond")
    assert board.control(state, "front_royal") == "union"
    assert state["flags"]["front_royal"] == "union"
    assert_sound(state)


def test_an_army_with_no_path_of_retreat_is_eliminated() -> None:
    state = _front_royal([(2, 0), (1, 0)], [3, 3, 3])
    flag(state, "manassas", "union")
    board.return_unit(state, state["board"]["richmond"][0].pop())
    put(state, "atlanta", "confederate", 1)
    put(state, "richmond", "confederate", 1, half=1)
    put(state, "richmond", "union", 1, half=0)  # the link from Front Royal enters here
    _move(state, "union", "harpers_ferry", "front_royal", ["army3", "army3", "army3"])
    act(state, "union", "card", card("Iron Brigade"))
    act(state, "confederate", "fight")
    if state["step"] == "battle_casualties":
        act(state, "confederate", "lose", "army1")
    assert units(state, "front_royal") == [("union", "army3"), ("union", "army3")]
    assert state["last_battle"]["losses"]["confederate"] == 2
    assert state["stock"]["confederate"]["armies"]["2"] == 7
    assert_sound(state)


def test_europe_moves_by_the_losers_counters_toward_the_winner() -> None:
    state = _front_royal([(2, 0), (1, 0)], [3, 3, 3])
    _move(state, "union", "harpers_ferry", "front_royal", ["army3", "army3", "army3"])
    act(state, "union", "card", card("Iron Brigade"))
    act(state, "confederate", "fight")
    if state["step"] == "battle_casualties":
        act(state, "confederate", "lose", "army1")
    act(state, "confederate", "to", "manassas")
    assert state["last_battle"]["losses"]["confederate"] == 1
    assert state["europe"] == EUROPE_START - 1


def test_a_confederate_capture_of_a_union_location_moves_europe_until_lost_again() -> None:
    state = empty_board()
    put(state, "washington", "union", 3)
    put(state, "front_royal", "confederate", 2)
    confederate_turn(state)
    put(state, "richmond", "confederate", 1)
    _move(state, "confederate", "front_royal", "harpers_ferry", ["army2"])
    assert board.control(state, "harpers_ferry") == "confederate"
    assert state["europe"] == EUROPE_START + 1 and state["captures"] == ["harpers_ferry"]
    state["turn"].update(player="union", actions_left=2)
    _move(state, "union", "washington", "harpers_ferry", ["army3"])
    act(state, "union", "card", card("Iron Brigade"))
    act(state, "confederate", "fight")
    # the Union won (5 vs 2): one Europe space for the battle, one given back
    assert state["captures"] == []
    assert state["europe"] == EUROPE_START - 1


# ---------------------------------------------------------------------- withdrawal


def test_withdrawal_from_a_whole_location_goes_to_the_other_half() -> None:
    state = _front_royal([(2, 0)], [3])
    _move(state, "union", "harpers_ferry", "front_royal", ["army3"])
    act(state, "union", "card", card("Franz Sigel"))
    act(state, "confederate", "withdraw")
    assert units(state, "front_royal", 1) == [("confederate", "army2")]
    assert units(state, "front_royal", 0) == [("union", "army3")]
    assert board.contested(state, "front_royal")
    assert state["europe"] == EUROPE_START
    assert card("Franz Sigel") in state["piles"]["union"]["discard"]
    assert state["last_battle"]["cards"] == {"union": None, "confederate": None}  # unrevealed


def test_withdrawal_from_a_contested_location_goes_to_a_connected_one() -> None:
    state = empty_board()
    put(state, "washington", "union", 3)
    put(state, "richmond", "confederate", 1)
    put(state, "front_royal", "union", 3, half=0)
    put(state, "front_royal", "confederate", 2, half=1)
    hand(state, "union", ["Franz Sigel"])
    act(state, "union", "attack", "front_royal")
    act(state, "union", "card", card("Franz Sigel"))
    act(state, "confederate", "withdraw")
    assert sorted(GAME.view(state, "confederate")["actions"]["to"]) == ["manassas", "richmond"]
    act(state, "confederate", "to", "manassas")
    assert units(state, "manassas") == [("confederate", "army2")]
    assert units(state, "front_royal") == [("union", "army3")]


def test_withdrawal_is_not_offered_without_a_friendly_place_to_go() -> None:
    state = empty_board()
    put(state, "washington", "union", 3)
    put(state, "richmond", "confederate", 1)
    put(state, "front_royal", "union", 3, half=1)
    put(state, "front_royal", "confederate", 2, half=0)  # only Harper's Ferry (Union) that side
    hand(state, "union", ["Franz Sigel"])
    act(state, "union", "attack", "front_royal")
    act(state, "union", "card", card("Franz Sigel"))
    assert "withdraw" not in GAME.view(state, "confederate")["actions"]


def test_forts_left_behind_by_a_withdrawal_fight_alone() -> None:
    state = _front_royal([(2, 0), (0, 0)], [3])
    _move(state, "union", "harpers_ferry", "front_royal", ["army3"])
    act(state, "union", "card", card("Franz Sigel"))
    act(state, "confederate", "withdraw")
    assert state["last_battle"]["totals"] == {"union": 3, "confederate": 3}
    assert state["last_battle"]["winner"] == "confederate"  # the fort holds on a tie
    assert units(state, "front_royal", 1) == [("confederate", "army2")]
    assert state["last_battle"]["losses"] == {"union": 1, "confederate": 0}
    assert units(state, "harpers_ferry") == []
    assert state["europe"] == EUROPE_START + 1


# ----------------------------------------------------------------- by sea


def _savannah(naval_cards: list[str]) -> dict:
    state = empty_board()
    put(state, "washington", "union", 3)
    put(state, "fort_monroe", "union", 2)
    put(state, "fort_monroe", "union", 2)
    flag(state, "fort_monroe", "union")
    put(state, "savannah", "confederate", 3)
    put(state, "richmond", "confederate", 1)
    hand(state, "union", ["USS Monitor", "David Dixon Porter", "Franz Sigel", *naval_cards])
    act(state, "union", "naval", card("USS Monitor"))
    act(state, "union", "army", "fort_monroe:army2")
    act(state, "union", "to", "savannah")
    act(state, "union", "naval", card("David Dixon Porter"))
    act(state, "union", "army", "fort_monroe:army2")
    act(state, "union", "to", "savannah")
    act(state, "union", "go")
    act(state, "union", "card", card("Franz Sigel"))
    act(state, "confederate", "fight")
    return state


def test_a_naval_attack_meets_the_ports_naval_defense() -> None:
    state = _savannah([])
    assert state["last_battle"]["totals"] == {"union": 4, "confederate": 3 + 1}
    assert state["last_battle"]["winner"] == "confederate"


def test_a_union_army_beaten_after_landing_without_a_naval_card_is_eliminated() -> None:
    state = _savannah([])
    assert units(state, "washington") == [("union", "army3")]
    assert state["last_battle"]["losses"]["union"] == 2
    assert_sound(state)


def test_ruling_15_a_union_army_beaten_after_landing_goes_home_with_a_naval_card() -> None:
    state = _savannah(["Samuel F. Du Pont"])
    assert GAME.view(state, "union")["actions"] == {
        "sea": [card("Samuel F. Du Pont")],
        "stay": True,
    }
    act(state, "union", "sea", card("Samuel F. Du Pont"))
    assert units(state, "washington") == [("union", "army2"), ("union", "army3")]


def test_ruling_15_a_union_defender_in_a_port_may_withdraw_to_washington_by_sea() -> None:
    state = empty_board()
    put(state, "washington", "union", 3)
    put(state, "wilmington", "union", 2)
    flag(state, "wilmington", "union")
    put(state, "petersburg", "confederate", 3)
    put(state, "richmond", "confederate", 1)
    confederate_turn(state)
    _move(state, "confederate", "petersburg", "wilmington", ["army3"])
    act(state, "confederate", "card", card("Stonewall Brigade"))
    monitor = hand(state, "union", ["USS Monitor"])[0]
    before = copy.deepcopy(state)
    act(state, "union", "sea", monitor)
    assert units(state, "washington") == [("union", "army2"), ("union", "army3")]
    assert board.control(state, "wilmington") == "confederate"
    assert monitor in state["piles"]["union"]["discard"]
    assert GAME.invariants(before) == []
