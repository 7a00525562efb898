"""Fort Sumter scenario tests: the Final Crisis, final scoring and tie-breaks, and the
optional Event Discard rule."""

from __future__ import annotations

import json
from typing import Any

from rules.fort_sumter import GAME
from tests.rules.test_fort_sumter_helpers import (
    S,
    U,
    act,
    actions,
    at_card_play,
    give,
    jump,
    put,
    set_pool,
)

# Final Crisis dimensions of a few cards.
ARMAMENTS = ["S02", "S15", "S21"]
POLITICAL = ["S04", "S05", "S09"]
SECESSION = ["S07", "S08", "S12"]
OPINION = ["S03", "S11", "S13"]


def _take(state: dict[str, Any], card: str) -> None:
    for place in (state["strategy_deck"], state["hands"][U], state["hands"][S]):
        if card in place:
            place.remove(card)
            return
    raise AssertionError(card)


def at_final_crisis(cards: dict[str, list[str]], round_number: int = 3) -> dict[str, Any]:
    """The Final Crisis with these set-aside cards, both hands empty."""
    state = at_card_play()
    for role in (U, S):
        state["strategy_deck"].extend(state["hands"][role])
        state["hands"][role] = []
    for role, chosen in cards.items():
        for card in chosen:
            _take(state, card)
        state["set_aside"][role] = list(chosen)
    state["round"] = round_number
    return jump(state, "final_crisis")


def ordered(state: dict[str, Any], order: dict[str, list[str]]) -> dict[str, Any]:
    for role in (U, S):
        state = act(state, role, "order", ",".join(order[role]))
    return state


def test_final_crisis_follows_round_three() -> None:
    state = at_card_play()
    state["round"] = 3
    state["peace_commissioner"] = "texas"
    for role in (U, S):
        give(state, role, [state["hands"][role][0]])
        state["played"][role] = 3
    state = jump(state, "set_aside")
    assert state["step"] == "final_crisis_order" and state["peace_commissioner"] is None
    assert {r: len(state["hands"][r]) for r in (U, S)} == {U: 3, S: 3}


def test_final_crisis_early_when_both_final_crisis_zones_are_breached() -> None:
    state = at_card_play()
    for role in (U, S):
        state["breached"][role]["final_crisis"] = True
        give(state, role, [state["hands"][role][0]])
        state["played"][role] = 3
    state = jump(state, "set_aside")
    assert state["round"] == 1 and state["step"] == "final_crisis_order"
    # One set-aside card each, two more dealt to make three.
    assert {r: len(state["hands"][r]) for r in (U, S)} == {U: 3, S: 3}
    assert "is dealt 2" in "\n".join(state["log"])


def test_final_crisis_orders_are_secret_and_pairs_revealed_one_at_a_time() -> None:
    state = at_final_crisis({U: ARMAMENTS, S: POLITICAL})
    put(state, "texas", U, 1)  # something to move, so each pair asks for decisions
    assert set(GAME.active_roles(state)) == {U, S}
    assert len(actions(state, U)["order"]) == 6
    state = act(state, U, "order", ",".join(reversed(ARMAMENTS)))
    assert GAME.active_roles(state) == (S,)
    for viewer in (None, S):
        text = json.dumps(GAME.view(state, viewer))
        assert all(json.dumps(c) not in text for c in ARMAMENTS)
    state = act(state, S, "order", ",".join(POLITICAL))
    revealed = GAME.view(state, None)["final_crisis"]["revealed"]
    assert [c["id"] for c in revealed[U]] == [ARMAMENTS[-1]]
    assert [c["id"] for c in revealed[S]] == [POLITICAL[0]]
    assert json.dumps(ARMAMENTS[0]) not in json.dumps(GAME.view(state, S))


def test_same_dimension_each_must_remove_one_there_or_two_anywhere() -> None:
    state = at_final_crisis({U: ARMAMENTS, S: ["S01", "S22", "S25"]})  # all Armaments
    put(state, "fort_sumter", U, 2)
    put(state, "texas", S, 1)
    put(state, "washington", S, 2)
    state = ordered(state, {U: ARMAMENTS, S: ["S01", "S22", "S25"]})
    assert state["step"] == "final_crisis_match" and GAME.active_roles(state) == (U,)
    legal = actions(state, U)
    assert legal["remove"] == ["fort_sumter"] and "done" not in legal
    state = act(state, U, "remove", "fort_sumter")
    assert state["spaces"]["fort_sumter"][U] == 1
    # The Secessionist has nothing in Armaments: two tokens from anywhere.
    assert GAME.active_roles(state) == (S,)
    assert set(actions(state, S)) == {"remove_any"}
    state = act(state, S, "remove_any", "texas")
    assert actions(state, S) == {"remove_any": ["washington"], "undo": True}
    state = act(state, S, "remove_any", "washington")
    assert state["spaces"]["washington"][S] == 1
    assert state["final_crisis"]["pair"] == 2


def test_different_dimensions_each_may_move_up_to_two_into_its_own_dimension() -> None:
    state = at_final_crisis({U: ARMAMENTS, S: POLITICAL})
    put(state, "texas", U, 2)
    set_pool(state, U, 1)
    set_pool(state, S, 1)
    state = ordered(state, {U: ARMAMENTS, S: POLITICAL})
    assert state["step"] == "final_crisis_move" and GAME.active_roles(state) == (U,)
    assert "pool" in actions(state, U)["from"]
    state = act(state, U, "from", "pool")
    assert actions(state, U)["to"] == ["federal_arsenal", "fort_pickens", "fort_sumter"]
    state = act(state, U, "to", "fort_sumter")
    state = act(state, U, "from", "texas")
    state = act(state, U, "to", "fort_pickens")
    assert state["pool"][U] == 0 and state["spaces"]["texas"][U] == 1
    assert state["track"][U] == 16 - 3  # never from the Crisis Track
    assert GAME.active_roles(state) == (S,)  # two moves spent: the Secessionist's turn
    state = act(state, S, "done")
    assert state["final_crisis"]["pair"] == 2


def test_final_scoring_dimensions_fort_sumter_and_pool_bonus() -> None:
    state = at_card_play()
    for space in ("federal_arsenal", "fort_pickens", "fort_sumter"):
        put(state, space, U, 1)
    set_pool(state, U, 4)
    state["vp"] = {U: 2, S: 5}
    state = jump(state, "final_scoring")
    assert state["vp"] == {U: 2 + 1 + 1 + 1, S: 5}
    assert GAME.outcome(state) == {
        "winner": U,
        "code": "tie_fort_sumter",
        "reason": "tied on VP; controls Fort Sumter",
        "score": {U: 5, S: 5},
    }
    assert GAME.active_roles(state) == ()


def test_final_ties_go_to_fort_sumter_then_most_spaces_then_the_unionist() -> None:
    state = at_card_play()
    put(state, "fort_sumter", S, 1)
    put(state, "fort_sumter", U, 0)
    state["vp"] = {U: 4, S: 3}  # S gains 1 for Fort Sumter: 4-4
    state = jump(state, "final_scoring")
    assert GAME.outcome(state)["winner"] == S
    assert "Fort Sumter" in GAME.outcome(state)["reason"]
    assert GAME.outcome(state)["code"] == "tie_fort_sumter"

    state = at_card_play()
    put(state, "texas", S, 1)
    put(state, "deep_south", S, 1)
    put(state, "washington", U, 1)
    state = jump(state, "final_scoring")
    assert GAME.outcome(state)["winner"] == S and "spaces" in GAME.outcome(state)["reason"]
    assert GAME.outcome(state)["code"] == "tie_spaces"

    state = jump(at_card_play(), "final_scoring")
    assert GAME.outcome(state) == {
        "winner": U,
        "code": "tie_unionist",
        "reason": "tied on VP, Fort Sumter and spaces; the Unionist wins ties",
        "score": {U: 0, S: 0},
    }


# ------------------------------------------------------------------ Event Discard option


def _gray_for_value(options: dict[str, Any]) -> dict[str, Any]:
    state = at_card_play(**options)
    give(state, U, ["S26", "S19", "S02", "S21"])  # Cornerstone Speech (gray, 1) first
    give(state, S, ["S31", "S10", "S33", "S04"])  # values 1, 3, 1, 1
    state = act(state, U, "value", "S26")
    return act(state, U, "done")


def test_event_discard_is_off_by_default() -> None:
    assert GAME.default_options["event_discard"] is False
    assert GAME.default_options["fate"] == ""  # no side run by the Fate Die
    state = _gray_for_value({})
    assert "claim" not in actions(state, S)


def test_event_discard_claims_the_opponents_card_for_its_event() -> None:
    state = _gray_for_value({"event_discard": True})
    assert sorted(actions(state, S)["claim"]) == ["S04", "S10", "S31", "S33"]
    state = act(state, S, "claim", "S10")
    assert "S10" in state["out_of_play"]["strategy"] and "S10" not in state["hands"][S]
    assert state["step"] == "event" and GAME.active_roles(state) == (S,)
    assert "Cornerstone Speech" in GAME.view(state, S)["prompt"]
    state = act(state, S, "place", "fire_eaters")
    state = act(state, S, "done")
    assert state["spaces"]["fire_eaters"][S] == 1 and state["played"][S] == 1
    assert GAME.view(state, None)["last_play"]["how"] == "claimed event"


def test_event_discard_window_closes_after_the_next_card_play_and_at_round_end() -> None:
    state = _gray_for_value({"event_discard": True})
    state = act(state, S, "value", "S33")
    state = act(state, S, "done")
    state = act(state, U, "value", "S19")
    state = act(state, U, "done")
    assert "claim" not in actions(state, S)
    state["claimable"] = {"role": S, "card": "S26"}
    for role in (U, S):
        give(state, role, [state["hands"][role][0]])
        state["played"][role] = 3
    state = jump(state, "set_aside")
    assert state["claimable"] is None


def test_a_secret_order_is_one_decision_that_undo_never_crosses() -> None:
    state = at_final_crisis({U: ARMAMENTS, S: POLITICAL})
    put(state, "texas", U, 1)
    put(state, "washington", S, 1)
    state = act(state, S, "order", ",".join(POLITICAL))
    assert actions(state, S) == {} and "undo" not in actions(state, U)
    state = act(state, U, "order", ",".join(ARMAMENTS))
    assert state["final_crisis"]["pair"] == 1 and state["undo"] == []
