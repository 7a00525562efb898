"""The Fate Die opponent in Lincoln: one side's hand is a Card Display
(``rules.fate_die.opponent``, playsheet ``rules/fate_die/data/lincoln.json``); before each of its
two actions a turn the die is rolled, and the card an action is built on must be one it
allows. Costs, battle cards and free actions stay the side's own choice."""

from __future__ import annotations

import io
import itertools
import random
from typing import Any

import pytest
from PIL import Image

import render
from rules import IllegalAction, get_game
from rules.ai import SearchPlayer
from rules.core.undo import copy_json
from rules.fate_die import opponent as fate
from tests.fate_helpers import (
    assert_determinize_keeps_the_face_up_cards,
    assert_face_down_cards_unseen,
    random_fate_game,
    swap_a_face_down_card,
)

GAME = get_game("lincoln")
OTHER = {"union": "confederate", "confederate": "union"}
#: The verbs whose card the die governs.
GOVERNED = ("deploy", "move", "naval", "action")


def _random_game(seed: int, side: str, limit: int = 2000) -> list[dict[str, Any]]:
    return random_fate_game(GAME, seed, side, limit=limit)


def _main_action(state: dict[str, Any]) -> bool:
    return bool(
        state["step"] == "turn"
        and state["turn"]["player"] == state["fate"]["role"]
        and state["turn"]["actions_left"] > 0
    )


@pytest.mark.parametrize("side", ["union", "confederate"])
def test_whole_games_keep_the_display_equal_to_the_hand(side: str) -> None:
    for seed in range(3):
        states = _random_game(seed, side)
        assert GAME.outcome(states[-1]) is not None
        for state in states:
            assert GAME.invariants(state) == []
        assert states[-1]["fate"]["rolls"] > 10


@pytest.mark.parametrize("side", ["union", "confederate"])
def test_each_action_rolls_once_and_builds_only_on_allowed_cards(side: str) -> None:
    checked = 0
    for state in _random_game(4, side, limit=900):
        if not _main_action(state):
            continue
        turn = state["turn"]
        assert state["fate"]["at"] == [turn["number"], turn["actions_left"]]
        allowed = set(state["fate"]["allowed"] or [])
        actions = GAME.legal_actions(state, side)
        for verb in GOVERNED:
            assert set(actions.get(verb, [])) <= allowed, verb
        # What the die allows lies face up; the table reads it in the prompt and the log.
        assert allowed <= set(fate.face_up(state["fate"]))
        assert "The Fate Die allows" in GAME.view(state, side)["prompt"]
        checked += 1
    assert checked > 30
    lines = [str(line) for line in _random_game(4, side, limit=900)[-1]["log"]]
    assert any(f"Fate Die for {GAME.role_names[side]}" in line for line in lines)


def test_the_restriction_bites_and_the_other_side_is_free() -> None:
    """Without the die the side could use cards the die now forbids (so the filter is
    doing something), and the other side is never filtered."""
    bitten = 0
    for state in _random_game(5, "confederate", limit=900):
        if _main_action(state):
            free = dict(state)
            free["fate"] = {**state["fate"], "allowed": None}
            bitten += GAME.legal_actions(free, "confederate") != GAME.legal_actions(
                state, "confederate"
            )
        if state["step"] == "turn" and state["turn"]["player"] == "union":
            unfated = {**state, "fate": None}
            assert GAME.legal_actions(unfated, "union") == GAME.legal_actions(state, "union")
    assert bitten > 5


def test_face_down_cards_never_reach_the_table_or_the_other_side() -> None:
    checked = 0
    for state in _random_game(6, "union", limit=700):
        checked += assert_face_down_cards_unseen(GAME, state, "union", "confederate")
    assert checked > 50


def test_the_board_shows_the_display_and_no_face_down_card() -> None:
    state = next(s for s in _random_game(7, "confederate") if fate.secret_cards(s))
    png = render.board_png("lincoln", GAME.view(state, None))
    assert Image.open(io.BytesIO(png)).height == 1032 + 128
    other = copy_json(state)
    piles = other["piles"]["confederate"]
    swap_a_face_down_card(other, piles["hand"], piles["deck"])
    assert GAME.invariants(other) == []
    assert render.board_png("lincoln", GAME.view(other, "union")) == png


@pytest.mark.parametrize("side", ["union", "confederate"])
def test_determinize_keeps_the_face_up_cards_and_deals_the_rest(side: str) -> None:
    knower = OTHER[side]
    for state in _random_game(8, side, limit=600)[::37]:
        assert_determinize_keeps_the_face_up_cards(GAME, state, side, knower, 23)


def test_the_search_keeps_to_the_die() -> None:
    state = GAME.setup(seed=9, options={"fate": "union"})
    player = SearchPlayer(GAME, "union", seed=2, iterations=2)
    rng = random.Random(9)
    governed = 0
    for _ in range(160):
        if GAME.outcome(state) is not None:
            break
        role = GAME.active_roles(state)[0]
        view = GAME.view(state, role)
        if role == "union":
            verb, arg = player.choose(view)
            if _main_action(state) and verb in GOVERNED:
                assert arg in state["fate"]["allowed"]
                governed += 1
        else:
            actions = {k: a for k, a in view["actions"].items() if k != "undo"}
            verb = rng.choice(sorted(actions))
            arg = None if actions[verb] is True else rng.choice(actions[verb])
        state = GAME.act(state, role, verb, arg)
    assert governed > 3


def test_a_side_that_is_no_side_is_refused() -> None:
    with pytest.raises(IllegalAction, match="names a side"):
        GAME.setup(seed=1, options={"fate": "nobody"})


def _fate_battle_card(state: dict[str, Any]) -> str | None:
    """The Fate side's battle card while it lies face down, else None."""
    battle = state["battle"]
    role = state["fate"]["role"]
    if battle is None or battle["revealed"]:
        return None
    card: str | None = battle["cards"].get(role)
    return card


@pytest.mark.parametrize("side", ["union", "confederate"])
def test_the_display_never_tells_which_card_went_into_battle(side: str) -> None:
    """The face-down battle card keeps its place in the display until it is revealed (or
    discarded unrevealed at the battle's end): the table sees the same display before and
    after it is played, and it is one of the face-down cards whenever there were any."""
    plays = 0
    for seed in range(10, 16):
        states = _random_game(seed, side, limit=1500)
        for before, after in itertools.pairwise(states):
            played = _fate_battle_card(after)
            if played is None or _fate_battle_card(before) is not None:
                continue
            plays += 1
            assert fate.public(after, _facts) == fate.public(before, _facts)
            # Played from the face-down cards when it had any.
            hidden_before = fate.secret_cards(before)
            if hidden_before & set(before["piles"][side]["hand"]):
                assert played in hidden_before
        for state in states:
            played = _fate_battle_card(state)
            if played is not None:
                assert played in fate.cards(state["fate"])
                assert played not in state["piles"][side]["hand"]
            elif state["battle"] is None:
                assert sorted(fate.cards(state["fate"])) == sorted(state["piles"][side]["hand"])
    assert plays >= 3


def test_a_sample_facing_a_face_down_battle_card_keeps_it_in_the_display() -> None:
    """The other side's samples deal the unrevealed battle card into one of the display's
    face-down places, so every sample keeps the display equal to hand and battle card."""
    checked = 0
    for seed in range(10, 16):
        for state in _random_game(seed, "confederate", limit=1500):
            if _fate_battle_card(state) is None:
                continue
            view = GAME.view(state, "union")
            for key in range(3):
                sample = GAME.determinize(view, "union", key)
                assert GAME.invariants(sample) == []
                assert _fate_battle_card(sample) in fate.cards(sample["fate"])
                assert GAME.view(sample, "union")["fate"] == view["fate"]
                checked += 1
    assert checked >= 6


def _facts(card: str) -> dict[str, Any]:
    return {"id": card}


def test_the_turn_prompt_offers_pass_as_it_is_always_listed() -> None:
    """Pass is one of the six actions whatever the hand (ruling 23), in the list and in
    the prompt alike."""
    seen = set()
    for state in _random_game(21, "confederate", limit=600):
        if state["step"] != "turn" or state["turn"]["actions_left"] <= 0:
            continue
        role = state["turn"]["player"]
        view = GAME.view(state, role)
        listed = "pass" in view["actions"]
        assert ("or pass" in view["prompt"]) == listed, view["prompt"]
        seen.add(listed)
    assert seen == {True}
