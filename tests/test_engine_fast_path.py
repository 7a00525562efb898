"""The simulation fast path (issue 12): ``act(..., trusted=True)`` plays exactly as the
checked path, and War's one-pass column totals follow the per-card rules."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from rules import BUILTIN_GAMES, get_game
from rules.war import GAME as WAR
from rules.war.battle import COLUMNS, card_points, column_total, stack
from rules.war.cards import SIDES, card


@pytest.mark.parametrize("name", BUILTIN_GAMES)
def test_trusted_actions_reach_the_same_states_as_checked_ones(name: str) -> None:
    game = get_game(name)
    for seed in range(12):
        chooser = random.Random(seed)
        checked, trusted = game.setup(seed=seed), game.setup(seed=seed)
        while game.outcome(checked) is None:
            role = chooser.choice(game.active_roles(checked))
            legal = game.legal_actions(checked, role)
            assert legal == game.legal_actions(trusted, role)
            verb = chooser.choice(sorted(v for v in legal if v != "undo"))
            args = legal[verb]
            arg = None if args is True else chooser.choice(args)
            checked = game.act(checked, role, verb, arg, record_undo=False)
            trusted = game.act(trusted, role, verb, arg, record_undo=False, trusted=True)
            assert json.dumps(trusted) == json.dumps(checked)


def _slow_total(state: dict[str, Any], role: str, column: str) -> int:
    """Rule 5 as the per-card definition states it."""
    cards_here = stack(state, column, role)
    if not cards_here:
        return 0
    total = sum(card_points(state, role, column, i) for i in range(len(cards_here)))
    for modifier in state["modifiers"]:
        if modifier["side"] == role and column in modifier["columns"] and modifier["unit"] is None:
            total += modifier["amount"]
    return max(0, total)


def test_column_total_is_the_sum_of_card_points() -> None:
    """Checked in every state of 40 random games, including boosts and modifiers."""
    compared = with_boost = with_modifier = 0
    for seed in range(40):
        chooser = random.Random(seed)
        state = WAR.setup(seed=seed)
        while WAR.outcome(state) is None:
            for role in SIDES:
                on_field = [c for column in COLUMNS for c in stack(state, column, role)]
                for column in COLUMNS:
                    assert column_total(state, role, column) == _slow_total(state, role, column)
                    compared += 1
                with_boost += any(card(c).boost is not None for c in on_field)
                with_modifier += any(m["side"] == role for m in state["modifiers"])
            role = chooser.choice(WAR.active_roles(state))
            legal = WAR.legal_actions(state, role)
            verb = chooser.choice(sorted(v for v in legal if v != "undo"))
            args = legal[verb]
            arg = None if args is True else chooser.choice(args)
            WAR.act(state, role, verb, arg, record_undo=False)
    assert compared > 10_000 and with_boost > 100 and with_modifier > 100
