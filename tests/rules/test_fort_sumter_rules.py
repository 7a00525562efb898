"""Fort Sumter scenario tests, one per rule: set-up, the deal, objectives, card play,
tokens, breaches and the Peace Commissioner. (Round end: test_fort_sumter_round_end.py;
Final Crisis, final scoring and options: test_fort_sumter_final_crisis.py.)"""

from __future__ import annotations

import json

from rules import get_game
from rules.fort_sumter import GAME
from rules.fort_sumter.board import first_player
from tests.rules.test_fort_sumter_helpers import (
    S,
    U,
    act,
    actions,
    at_card_play,
    give,
    new_game,
    put,
    set_pool,
    set_track,
)

MAJOR_ANDERSON = "S02"  # blue 2: place 3 in Fort Sumter
PEACE_COMMISSIONER = "S04"  # gray 1
PEACE_CONFERENCE = "S05"  # both 2
JOHN_BROWN = "S14"  # both 2: remove up to 2 opposing from Public Opinion
STAR_OF_THE_WEST = "S15"  # both 3
CORWIN = "S19"  # blue 1
FORT_PICKENS = "S21"  # blue 2
CORNERSTONE = "S26"  # gray 1
CHARLESTON_MERCURY = "S31"  # gray 1


def test_game_is_registered() -> None:
    assert get_game("fort_sumter") is GAME
    assert GAME.roles == (U, S)


def test_set_up() -> None:
    state = new_game(seed=3)
    for role in (U, S):
        assert state["track"][role] == 16
        assert state["pool"][role] == 0
        assert state["vp"][role] == 0
        assert state["bonus_boxes"]["escalation"][role] == 2
        assert state["bonus_boxes"]["tension"][role] == 3
        assert state["bonus_boxes"]["final_crisis"][role] == 4
        assert not any(state["breached"][role].values())
    assert state["peace_commissioner"] is None
    assert state["round"] == 1
    assert len(state["strategy_deck"]) == 40 - 8
    assert len(state["objective_deck"]) == 12 - 4
    assert GAME.setup(seed=4)["strategy_deck"] != state["strategy_deck"]  # shuffled
    view = GAME.view(state, None)
    assert view["crisis_tracks"][U]["occupied"] == [True] * 16


def test_each_round_deals_four_strategy_and_two_objective_cards() -> None:
    state = new_game()
    for role in (U, S):
        assert len(state["hands"][role]) == 4
        assert len(state["objective_offer"][role]) == 2
    assert GAME.view(state, None)["hand_counts"] == {U: 4, S: 4}


def test_objective_choice_is_simultaneous_and_hidden() -> None:
    state = new_game()
    assert set(GAME.active_roles(state)) == {U, S}
    kept, returned = state["objective_offer"][U]
    state = act(state, U, "keep", kept)
    assert GAME.active_roles(state) == (S,)
    assert "undo" not in actions(state, S)
    secessionist_view = json.dumps(GAME.view(state, S))
    assert json.dumps(kept) not in secessionist_view
    state = act(state, S, "keep", state["objective_offer"][S][1])
    assert state["objective"] == {U: kept, S: state["objective"][S]}
    assert returned in state["objective_deck"] and len(state["objective_deck"]) == 10
    assert json.dumps(returned) not in json.dumps(GAME.view(state, S))
    assert GAME.view(state, U)["objective"]["id"] == kept


def test_first_player_is_highest_vp_unionist_on_tie() -> None:
    state = new_game()
    assert first_player(state) == U
    state["vp"] = {U: 2, S: 3}
    assert first_player(state) == S
    state["vp"] = {U: 3, S: 3}
    assert first_player(state) == U


def test_card_play_starts_with_the_first_player_and_alternates() -> None:
    state = new_game()
    state["vp"] = {U: 0, S: 1}
    from tests.rules.test_fort_sumter_helpers import keep_objectives

    state = keep_objectives(state)
    order = []
    while state["step"] in ("play_cards", "value_play"):
        role = GAME.active_roles(state)[0]
        if state["step"] == "play_cards":
            order.append(role)
            state = act(state, role, "value", state["hands"][role][0])
        else:
            state = act(state, role, "done")
        if state["step"] == "tension_peace_commissioner":
            break
    assert order == [S, U, S, U, S, U]


def test_event_only_for_own_colour_or_both_value_for_anyone() -> None:
    state = give(at_card_play(), U, [MAJOR_ANDERSON, STAR_OF_THE_WEST, CORNERSTONE, CORWIN])
    legal = actions(state, U)
    assert sorted(legal["event"]) == sorted([MAJOR_ANDERSON, STAR_OF_THE_WEST, CORWIN])
    assert sorted(legal["value"]) == sorted(state["hands"][U])
    labels = GAME.view(state, U)["labels"]
    assert labels["event"][STAR_OF_THE_WEST] == "Play Star of the West for its event (3)"


def test_value_play_adds_up_to_value_tokens_one_at_a_time_then_done() -> None:
    state = give(at_card_play(), U, [STAR_OF_THE_WEST, CORWIN, MAJOR_ANDERSON, FORT_PICKENS])
    state = act(state, U, "value", STAR_OF_THE_WEST)
    assert set(actions(state, U)) == {"place", "done", "undo"}
    for space in ("fort_sumter", "fort_sumter", "texas"):
        state = act(state, U, "place", space)
    assert "place" not in actions(state, U)
    state = act(state, U, "done")
    assert state["spaces"]["fort_sumter"][U] == 2 and state["spaces"]["texas"][U] == 1
    assert GAME.active_roles(state) == (S,)
    assert GAME.view(state, None)["last_play"]["how"] == "value"


def test_up_to_allows_zero() -> None:
    state = give(at_card_play(), U, [STAR_OF_THE_WEST, CORWIN, MAJOR_ANDERSON, FORT_PICKENS])
    state = act(state, U, "value", CORWIN)
    state = act(state, U, "done")
    assert state["track"][U] == 16 and GAME.active_roles(state) == (S,)
    state = give(state, S, [JOHN_BROWN, CORNERSTONE, CHARLESTON_MERCURY, PEACE_COMMISSIONER])
    state = act(state, S, "event", JOHN_BROWN)  # nothing to remove: the step is skipped
    assert GAME.active_roles(state) == (U,)


def test_tokens_come_from_the_pool_first_then_the_track_highest_space_first() -> None:
    state = give(at_card_play(), U, [STAR_OF_THE_WEST, CORWIN, MAJOR_ANDERSON, FORT_PICKENS])
    set_pool(state, U, 1)  # track now 15: space 15 is empty
    state = act(state, U, "value", STAR_OF_THE_WEST)
    state = act(state, U, "place", "texas")
    assert state["pool"][U] == 0 and state["track"][U] == 15
    state = act(state, U, "place", "texas")
    assert state["track"][U] == 14
    occupied = GAME.view(state, None)["crisis_tracks"][U]["occupied"]
    assert occupied[13] and not occupied[14] and not occupied[15]


def test_at_most_four_tokens_of_a_side_per_space() -> None:
    state = give(at_card_play(), U, [STAR_OF_THE_WEST, CORWIN, MAJOR_ANDERSON, FORT_PICKENS])
    put(state, "fort_sumter", U, 3)
    put(state, "fort_sumter", S, 4)
    state = act(state, U, "value", STAR_OF_THE_WEST)
    state = act(state, U, "place", "fort_sumter")
    assert "fort_sumter" not in actions(state, U)["place"]


def test_removed_tokens_go_to_their_owners_pool() -> None:
    state = give(at_card_play(), U, [JOHN_BROWN, CORWIN, MAJOR_ANDERSON, FORT_PICKENS])
    put(state, "newspapers", S, 2)
    pool = state["pool"][S]
    state = act(state, U, "event", JOHN_BROWN)
    assert actions(state, U)["remove"] == ["newspapers"]
    state = act(state, U, "remove", "newspapers")
    assert state["pool"][S] == pool + 1 and state["spaces"]["newspapers"][S] == 1


def test_mandatory_event_goes_as_far_as_it_can() -> None:
    state = give(at_card_play(), U, [MAJOR_ANDERSON, CORWIN, STAR_OF_THE_WEST, FORT_PICKENS])
    state = act(state, U, "event", MAJOR_ANDERSON)  # no decision: 3 into Fort Sumter
    assert state["spaces"]["fort_sumter"][U] == 3 and GAME.active_roles(state) == (S,)
    state = give(at_card_play(), U, [MAJOR_ANDERSON, CORWIN, STAR_OF_THE_WEST, FORT_PICKENS])
    put(state, "fort_sumter", U, 2)
    state = act(state, U, "event", MAJOR_ANDERSON)
    assert state["spaces"]["fort_sumter"][U] == 4  # the limit of four stops it
    state = give(at_card_play(), U, [MAJOR_ANDERSON, CORWIN, STAR_OF_THE_WEST, FORT_PICKENS])
    set_track(state, U, 0)  # all 16 in the pool; park 15 of them on the map
    for space, n in (("texas", 4), ("deep_south", 4), ("washington", 4), ("montgomery", 3)):
        put(state, space, U, n)
    assert state["pool"][U] == 1
    state["breached"][U] = {"escalation": True, "tension": True, "final_crisis": True}
    state = act(state, U, "event", MAJOR_ANDERSON)
    assert state["spaces"]["fort_sumter"][U] == 1  # no token left


def test_breach_bonus_reaches_the_pool_when_the_card_play_ends() -> None:
    state = give(at_card_play(), U, [STAR_OF_THE_WEST, CORWIN, MAJOR_ANDERSON, FORT_PICKENS])
    set_track(state, U, 11)  # 5 tokens to the pool, parked on the map
    put(state, "texas", U, 4)
    put(state, "deep_south", U, 1)
    assert state["pool"][U] == 0 and state["track"][U] == 11
    state = act(state, U, "value", STAR_OF_THE_WEST)
    state = act(state, U, "place", "washington")  # uncovers space 10
    assert state["pool"][U] == 0 and not state["breached"][U]["escalation"]
    state = act(state, U, "done")
    assert state["breached"][U]["escalation"]
    assert state["pool"][U] == 2 and state["bonus_boxes"]["escalation"][U] == 0


def test_breaches_in_order_escalation_tension_final_crisis() -> None:
    state = give(at_card_play(), U, [STAR_OF_THE_WEST, CORWIN, MAJOR_ANDERSON, FORT_PICKENS])
    set_track(state, U, 8)
    put(state, "texas", U, 4)
    put(state, "deep_south", U, 4)
    assert state["pool"][U] == 0 and state["track"][U] == 8
    state = act(state, U, "value", STAR_OF_THE_WEST)
    for space in ("washington", "washington", "washington"):
        state = act(state, U, "place", space)
    state = act(state, U, "done")  # track 5: every zone uncovered at once
    lines = [line for line in state["log"] if "breaches" in line or "breach the" in line]
    assert [line.split(" the ")[1].split(" zone")[0] for line in lines] == [
        "Escalation",
        "Tension",
        "Final Crisis",
    ]
    assert state["pool"][U] == 2 + 3 + 4 and state["vp"][U] == -1


def test_first_tension_breach_lets_the_opponent_place_the_peace_commissioner() -> None:
    state = give(at_card_play(), U, [STAR_OF_THE_WEST, CORWIN, MAJOR_ANDERSON, FORT_PICKENS])
    state["breached"][U]["escalation"] = True
    set_track(state, U, 8)
    put(state, "texas", U, 4)
    put(state, "deep_south", U, 4)
    state = act(state, U, "value", CORWIN)
    state = act(state, U, "place", "washington")  # track 7: Tension breached
    state = act(state, U, "done")
    assert state["step"] == "tension_peace_commissioner"
    assert GAME.active_roles(state) == (S,)
    assert len(actions(state, S)["space"]) == 12
    state = act(state, S, "space", "washington")
    assert state["peace_commissioner"] == "washington"
    assert state["step"] == "play_cards" and GAME.active_roles(state) == (S,)


def test_second_tension_breach_does_not_move_the_peace_commissioner() -> None:
    state = give(at_card_play(), U, [STAR_OF_THE_WEST, CORWIN, MAJOR_ANDERSON, FORT_PICKENS])
    state["tension_peace_commissioner_given"] = True
    state["peace_commissioner"] = "texas"
    state["breached"][U]["escalation"] = True
    set_track(state, U, 8)
    put(state, "fort_pickens", U, 4)
    put(state, "deep_south", U, 4)
    state = act(state, U, "value", CORWIN)
    state = act(state, U, "place", "washington")
    state = act(state, U, "done")
    assert state["breached"][U]["tension"] and state["pool"][U] == 3
    assert state["peace_commissioner"] == "texas" and state["step"] == "play_cards"


def test_first_final_crisis_breach_costs_a_vp_second_gives_only_two() -> None:
    state = give(at_card_play(), U, [STAR_OF_THE_WEST, CORWIN, MAJOR_ANDERSON, FORT_PICKENS])
    for role in (U, S):
        state["breached"][role].update(escalation=True, tension=True)
        set_track(state, role, 6)
        put(state, "texas", role, 4)
        put(state, "fort_pickens", role, 4)
        put(state, "abolitionists", role, 2)
    state = act(state, U, "value", CORWIN)
    state = act(state, U, "place", "washington")
    state = act(state, U, "done")
    assert state["vp"][U] == -1 and state["pool"][U] == 4
    state = give(state, S, [CORNERSTONE, JOHN_BROWN, CHARLESTON_MERCURY, PEACE_COMMISSIONER])
    state = act(state, S, "value", CORNERSTONE)
    state = act(state, S, "place", "montgomery")
    state = act(state, S, "done")
    assert state["vp"][S] == 0 and state["pool"][S] == 2
    assert state["bonus_boxes"]["final_crisis"] == {U: 0, S: 2}


def test_peace_commissioner_blocks_placing_and_removing_in_its_space() -> None:
    state = give(at_card_play(), U, [JOHN_BROWN, STAR_OF_THE_WEST, CORWIN, FORT_PICKENS])
    state["peace_commissioner"] = "newspapers"
    put(state, "newspapers", S, 2)
    put(state, "abolitionists", S, 1)
    state = act(state, U, "event", JOHN_BROWN)
    assert actions(state, U)["remove"] == ["abolitionists"]
    state = act(state, U, "done")
    state = give(state, S, [CHARLESTON_MERCURY, CORNERSTONE, PEACE_COMMISSIONER, "S33"])
    state = act(state, S, "event", CHARLESTON_MERCURY)  # place up to 2 in Newspapers: blocked
    assert state["spaces"]["newspapers"][S] == 2 and GAME.active_roles(state) == (U,)
    state = act(state, U, "value", STAR_OF_THE_WEST)
    assert "newspapers" not in actions(state, U)["place"]


def test_peace_commissioner_is_moved_by_its_three_events() -> None:
    state = give(at_card_play(), U, [PEACE_CONFERENCE, STAR_OF_THE_WEST, CORWIN, FORT_PICKENS])
    state["peace_commissioner"] = "texas"
    state = act(state, U, "event", PEACE_CONFERENCE)
    assert len(actions(state, U)["space"]) == 12
    state = act(state, U, "space", "fort_sumter")
    assert state["peace_commissioner"] == "fort_sumter"
    assert actions(state, U)["place"] == ["washington", "montgomery", "springfield"]
    view = GAME.view(state, None)
    assert view["peace_commissioner"] == "fort_sumter"
    assert [s["id"] for s in view["spaces"] if s["peace_commissioner"]] == ["fort_sumter"]


def test_undo_takes_back_one_token_placement_of_its_author() -> None:
    state = give(at_card_play(), U, [STAR_OF_THE_WEST, CORWIN, MAJOR_ANDERSON, FORT_PICKENS])
    state = act(state, U, "value", STAR_OF_THE_WEST)
    state = act(state, U, "place", "texas")
    state = act(state, U, "place", "texas")
    state = act(state, U, "undo")
    assert state["spaces"]["texas"][U] == 1 and state["step"] == "value_play"
    state = act(state, U, "done")
    assert "undo" not in actions(state, S)


def test_event_step_with_a_condition_runs_only_if_it_holds() -> None:
    constitution = "S20"  # place up to 2 in Montgomery; if you control it, 1 in Deep South
    state = at_card_play()
    state = act(state, U, "value", state["hands"][U][0])
    state = act(state, U, "done")
    state = give(state, S, [constitution, CORNERSTONE, CHARLESTON_MERCURY, PEACE_COMMISSIONER])
    put(state, "montgomery", U, 3)
    state = act(state, S, "event", constitution)
    state = act(state, S, "place", "montgomery")
    state = act(state, S, "place", "montgomery")
    assert GAME.active_roles(state) == (U,)  # 2 vs 3: no control, no Deep South
    assert any("its condition is not met" in line for line in state["log"][-3:])


def test_public_view_carries_everything_a_board_image_needs() -> None:
    state = give(at_card_play(), U, [STAR_OF_THE_WEST, CORWIN, MAJOR_ANDERSON, FORT_PICKENS])
    state = act(state, U, "event", MAJOR_ANDERSON)
    view = GAME.view(state, None)
    for key in (
        "round",
        "phase",
        "first_player",
        "turn",
        "vp",
        "spaces",
        "dimensions",
        "peace_commissioner",
        "crisis_tracks",
        "bonus_boxes",
        "pools",
        "hand_counts",
        "set_aside_counts",
        "decks",
        "last_play",
        "revealed_objectives",
        "final_crisis",
    ):
        assert key in view, key
    sumter = next(s for s in view["spaces"] if s["id"] == "fort_sumter")
    assert sumter == {
        "id": "fort_sumter",
        "name": "Fort Sumter",
        "dimension": "armaments",
        "dimension_name": "Armaments",
        "pivotal": False,
        "tokens": {U: 3, S: 0},
        "controller": U,
        "peace_commissioner": False,
        "reconstructed": False,
    }
    assert view["last_play"]["card"]["title"] == "Major Anderson"
    assert view["last_play"]["how"] == "event"
    assert [z["zone"] for z in view["crisis_tracks"][U]["zones"]] == [
        "starting",
        "escalation",
        "tension",
        "final_crisis",
    ]
    private = GAME.view(state, U)
    assert {c["id"] for c in private["hand"]} == {STAR_OF_THE_WEST, CORWIN, FORT_PICKENS}
    assert private["hand"][0].keys() >= {"title", "value", "colour", "text", "fc_dimension"}


def test_a_value_play_offers_its_tokens_at_once_and_its_last_done_is_a_formality() -> None:
    """Front ends may send several placements in one decision (``batch``,
    a space twice where it has room: ``repeats``) and send the Done themselves once
    nothing is left to place (``done_implied``)."""
    state = give(at_card_play(), U, [STAR_OF_THE_WEST, CORWIN, MAJOR_ANDERSON, FORT_PICKENS])
    state = act(state, U, "value", STAR_OF_THE_WEST)
    view = GAME.view(state, U)
    assert view["batch"] == {"place": 3} and not view["done_implied"]
    assert view["repeats"]["place"]["texas"] == 3
    state = act(state, U, "place", "texas")
    assert GAME.view(state, U)["batch"] == {"place": 2}
    state = act(state, U, "place", "texas")
    state = act(state, U, "place", "washington")
    view = GAME.view(state, U)
    assert set(view["actions"]) == {"done", "undo"} and view["done_implied"]
    assert GAME.view(state, S)["batch"] == {} and not GAME.view(state, S)["done_implied"]
