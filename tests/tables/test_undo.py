"""Undo snapshots are cheap (a structural copy without the logs) and exact: across many
random playthroughs of every game, each undo gives back precisely the state a JSON round
trip saved before that action, logs cut back included, however many undos in a row. The
simulation path (``record_undo=False``) plays the same actions to the same final state."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from rules import GAMES, get_game
from rules.core import undo
from tests.playthrough import legal_moves

GAME_NAMES = sorted(GAMES)


def _without_undo(state: dict[str, Any]) -> str:
    return json.dumps({k: v for k, v in state.items() if k != "undo"})


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_undo_restores_the_state_a_json_round_trip_saved(name: str) -> None:
    game = get_game(name)
    probed = 0
    for seed in range(40):
        chooser = random.Random(seed)
        state = game.setup(seed=seed)
        saved: list[str] = []  # the reference: what the old JSON snapshots would hold
        while game.outcome(state) is None:
            moves = legal_moves(game, state)
            undoable = [m for m in moves if m[1] == "undo"]
            others = [m for m in moves if m[1] != "undo"] or undoable
            pool = undoable if undoable and chooser.random() < 0.35 else others
            role, verb, arg = chooser.choice(pool)
            held = len(state["undo"])
            before = _without_undo(state)
            state = game.act(state, role, verb, arg)
            if verb == "undo" and len(state["undo"]) == held - 1:
                probed += 1
                assert _without_undo(state) == saved.pop()  # byte for byte, key order too
            elif verb != "undo" and len(state["undo"]) == held + 1:
                saved.append(before)
            elif not state["undo"]:
                saved.clear()
            assert len(saved) == len(state["undo"])
    assert probed >= 10, f"{name}: too few undos probed ({probed})"


def test_a_snapshot_shares_nothing_with_the_live_state() -> None:
    game = get_game("fort_sumter")
    state = game.setup(seed=5)
    copy = undo.snapshot(state)
    frozen = json.dumps(copy)
    for value in state.values():
        if isinstance(value, dict):
            value["touched"] = True
        elif isinstance(value, list):
            value.append("touched")
    assert json.dumps(copy) == frozen
    assert copy["state"]["log"] is None and copy["log"] > 0


def test_copy_json_is_a_deep_copy_equal_to_a_json_round_trip() -> None:
    document = {"a": [1, {"b": [None, True, 2.5, "x"]}], "c": {}, "d": []}
    copied = undo.copy_json(document)
    assert copied == json.loads(json.dumps(document))
    copied["a"][1]["b"].append(3)
    assert document["a"][1]["b"] == [None, True, 2.5, "x"]


@pytest.mark.parametrize("name", GAME_NAMES)
def test_simulation_without_snapshots_reaches_the_same_final_state(name: str) -> None:
    game = get_game(name)
    for seed in range(15):
        chooser = random.Random(seed)
        normal, fast = game.setup(seed=seed), game.setup(seed=seed)
        while game.outcome(normal) is None:
            moves = [m for m in legal_moves(game, normal) if m[1] != "undo"]
            role, verb, arg = chooser.choice(moves)
            normal = game.act(normal, role, verb, arg)
            fast = game.act(fast, role, verb, arg, record_undo=False)
            assert fast["undo"] == []  # no snapshot was kept
            assert _without_undo(fast) == _without_undo(normal)
        assert json.dumps(fast) == json.dumps(normal)


def test_a_hand_over_closes_undo_without_counting_a_seal_and_a_draw_counts_one() -> None:
    """Both sides choose a Fort Sumter objective. The first choice hands the decision to
    the other side: its undo is gone, but nothing was revealed, so the seal count stays.
    The second choice shuffles the unkept objectives: new information, counted."""
    game = get_game("fort_sumter")
    state = game.setup(seed=4)
    assert state["step"] == "choose_objective" and game.active_roles(state) == (
        "unionist",
        "secessionist",
    )
    seal = state["seal"]
    offer = state["objective_offer"]["unionist"]
    state = game.act(state, "unionist", "keep", offer[0])
    assert game.active_roles(state) == ("secessionist",)
    assert state["undo"] == [] and state["seal"] == seal
    assert "undo" not in game.legal_actions(state, "unionist")
    offer = state["objective_offer"]["secessionist"]
    state = game.act(state, "secessionist", "keep", offer[0])
    assert state["undo"] == [] and state["seal"] > seal


@pytest.mark.parametrize("name", GAME_NAMES)
def test_an_undo_stored_by_the_old_engine_still_restores(name: str) -> None:
    """A version-1 undo entry (a whole copy, logs included) is converted on upgrade."""
    game = get_game(name)
    state = game.setup(seed=2)
    entry = {"role": game.roles[0], "state": {k: v for k, v in state.items() if k != "undo"}}
    converted = undo.from_full_copy(json.loads(json.dumps(entry)))
    assert converted["log"] == len(state["log"]) and converted["state"]["log"] is None
    assert undo.from_full_copy(converted) is converted
    live = json.loads(json.dumps(state))
    live["log"].append("later")
    live["undo"] = [converted]
    undo.restore(live)
    assert live == state
