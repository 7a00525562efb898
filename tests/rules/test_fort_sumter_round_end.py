"""Fort Sumter scenario tests for the end of a round: set-aside card, pivotal bonuses,
Crisis Dimension scoring, objective reveal, scoring and events, the Final Crisis check."""

from __future__ import annotations

import json
from typing import Any

from rules.fort_sumter import GAME
from rules.fort_sumter.board import controller
from tests.rules.test_fort_sumter_helpers import (
    S,
    U,
    act,
    actions,
    at_card_play,
    give,
    jump,
    put,
)

FORT_SUMTER_OBJECTIVE = "O09"  # place up to 2 in Fort Sumter
TEXAS_OBJECTIVE = "O03"  # remove up to 2 opposing from Texas
WASHINGTON_OBJECTIVE = "O04"  # place up to 2 in Political spaces


def set_objective(state: dict[str, Any], role: str, card: str) -> None:
    """Make ``card`` the kept objective of ``role`` (the old one goes back to the deck)."""
    old = state["objective"][role]
    state["objective_deck"].remove(card)
    state["objective_deck"].append(old)
    state["objective"][role] = card


def end_card_play(state: dict[str, Any]) -> dict[str, Any]:
    """Both sides have played three cards and hold their fourth: the round ends."""
    for role in (U, S):
        give(state, role, [state["hands"][role][0]])
        state["played"][role] = 3
    return jump(state, "set_aside")


def test_fourth_card_is_set_aside_face_down() -> None:
    state = at_card_play()
    kept = {r: state["hands"][r][0] for r in (U, S)}
    state = end_card_play(state)
    assert state["set_aside"] == {U: [kept[U]], S: [kept[S]]}
    public = GAME.view(state, None)
    assert public["set_aside_counts"] == {U: 1, S: 1}
    assert json.dumps(kept[U]) not in json.dumps(public)
    assert [c["id"] for c in GAME.view(state, U)["set_aside"]] == [kept[U]]


def test_control_needs_strictly_more_tokens() -> None:
    state = at_card_play()
    put(state, "texas", U, 2)
    put(state, "texas", S, 2)
    assert controller(state, "texas") is None
    put(state, "texas", S, 3)
    assert controller(state, "texas") == S


def test_pivotal_bonus_moves_or_removes_two_tokens_within_the_dimension() -> None:
    state = at_card_play()
    put(state, "border_states", U, 2)
    put(state, "deep_south", S, 1)
    put(state, "texas", S, 2)
    put(state, "fort_sumter", S, 1)
    state = end_card_play(state)
    assert state["step"] == "pivotal_bonus" and GAME.active_roles(state) == (U,)
    legal = actions(state, U)
    assert sorted(legal["remove"]) == sorted(
        ["border_states:unionist", "deep_south:secessionist", "texas:secessionist"]
    )
    state = act(state, U, "remove", "deep_south:secessionist")
    state = act(state, U, "move", "texas:secessionist")
    assert actions(state, U)["to"] == ["border_states", "deep_south"]
    state = act(state, U, "to", "deep_south")
    assert state["spaces"]["deep_south"][S] == 1 and state["spaces"]["texas"][S] == 1
    assert state["pool"][S] >= 1
    assert state["step"] != "pivotal_bonus"  # two actions spent: the bonus is over


def test_pivotal_bonuses_first_player_then_the_other() -> None:
    state = at_card_play()
    state["vp"] = {U: 0, S: 1}
    put(state, "border_states", U, 1)
    put(state, "washington", S, 1)
    state = end_card_play(state)
    assert GAME.active_roles(state) == (S,)
    assert actions(state, S)["remove"] == ["washington:secessionist"]
    state = act(state, S, "done")
    assert GAME.active_roles(state) == (U,)
    state = act(state, U, "done")
    assert state["step"] == "choose_objective"  # on to round 2


def test_one_vp_per_crisis_dimension_controlled() -> None:
    state = at_card_play()
    for space in ("border_states", "deep_south", "texas"):
        put(state, space, S, 1)
    put(state, "washington", U, 1)
    state["peace_commissioner"] = "border_states"  # no bonus possible: no decision
    vp = dict(state["vp"])
    state = end_card_play(state)
    while state["step"] == "pivotal_bonus":
        state = act(state, GAME.active_roles(state)[0], "done")
    lines = [line for line in state["log"] if "dimension: +1 VP" in line]
    assert lines == ["Secessionist controls the Secession dimension: +1 VP."]
    assert state["vp"][S] >= vp[S] + 1


def test_objectives_score_for_whoever_controls_their_space() -> None:
    state = at_card_play()
    set_objective(state, U, TEXAS_OBJECTIVE)
    set_objective(state, S, FORT_SUMTER_OBJECTIVE)
    put(state, "texas", S, 1)
    put(state, "fort_sumter", S, 1)
    state = end_card_play(state)
    assert state["vp"] == {U: 0, S: 2}
    revealed = GAME.view(state, None)["revealed_objectives"]
    assert revealed[U]["space"] == "texas" and revealed[S]["space"] == "fort_sumter"
    # The Secessionist scored its own objective: its event (place up to 2 in Fort Sumter).
    assert GAME.active_roles(state) == (S,) and "place" in actions(state, S)


def test_objective_events_only_for_own_objective_scored_first_player_first() -> None:
    state = at_card_play()
    state["vp"] = {U: 0, S: 3}
    set_objective(state, U, WASHINGTON_OBJECTIVE)
    set_objective(state, S, FORT_SUMTER_OBJECTIVE)
    put(state, "washington", U, 1)
    put(state, "fort_sumter", S, 1)
    state["peace_commissioner"] = "montgomery"
    state = end_card_play(state)
    while state["step"] == "pivotal_bonus":
        state = act(state, GAME.active_roles(state)[0], "done")
    assert state["step"] == "event" and GAME.active_roles(state) == (S,)
    state = act(state, S, "place", "fort_sumter")
    state = act(state, S, "done")
    assert GAME.active_roles(state) == (U,)
    assert "montgomery" not in actions(state, U)["place"]  # still blocked
    state = act(state, U, "done")
    assert state["step"] == "choose_objective"


def test_objective_cards_leave_the_game_after_scoring() -> None:
    state = at_card_play()
    kept = dict(state["objective"])
    state = end_card_play(state)
    assert state["step"] == "choose_objective" and state["round"] == 2
    for role in (U, S):
        assert kept[role] in state["out_of_play"]["objective"]
        assert kept[role] not in state["objective_deck"]
    assert len(state["objective_deck"]) == 12 - 2 - 4
    # Still on show for the board while the next objectives are chosen.
    revealed = GAME.view(state, None)["revealed_objectives"]
    assert {r: revealed[r]["id"] for r in (U, S)} == kept
    state = act(state, U, "keep", state["objective_offer"][U][0])
    state = act(state, S, "keep", state["objective_offer"][S][0])
    assert GAME.view(state, None)["revealed_objectives"] is None


def test_next_round_unless_final_crisis() -> None:
    state = end_card_play(at_card_play())
    assert state["round"] == 2 and state["step"] == "choose_objective"
    assert {r: len(state["hands"][r]) for r in (U, S)} == {U: 4, S: 4}
    assert state["set_aside"][U] and state["last_play"] is None
