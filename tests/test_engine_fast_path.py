"""The simulation fast path (issue 12): ``act(..., trusted=True)`` plays exactly as the
checked path. Each game's own shortcuts are held to their rules in its
``tests/test_<game>_fast_paths.py``."""

from __future__ import annotations

import copy
import json
import random

import pytest

from rules import BUILTIN_GAMES, GAMES, get_game


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


@pytest.mark.parametrize("name", sorted(GAMES))
def test_decisions_is_every_active_role_with_its_legal_actions_but_undo(name: str) -> None:
    """Played with undo snapshots, so that ``undo`` is often listed and must be left out;
    the answer is new on every call, its dicts and its lists of args alike, so a caller
    may change it freely: the state and the next answers stay whole."""
    game = get_game(name)
    positions = 0
    for seed in range(6):
        chooser = random.Random(seed)
        state = game.setup(seed=seed)
        while game.outcome(state) is None and positions < 3000:
            positions += 1
            found = game.decisions(state)
            expected = {}
            for role in game.active_roles(state):
                legal = game.legal_actions(state, role)
                legal.pop("undo", None)
                expected[role] = legal
            assert found == expected and list(found) == list(expected)
            kept, stored = copy.deepcopy(expected), json.dumps(state)
            for actions in found.values():
                for args in actions.values():
                    if isinstance(args, list):
                        args.clear()  # a list shared with the state would empty it
                actions.clear()  # the caller's to change: the next answers are whole
            assert json.dumps(state) == stored
            assert game.decisions(state) == kept
            role = chooser.choice(list(expected))
            verb = chooser.choice(sorted(expected[role]))
            args = expected[role][verb]
            state = game.act(state, role, verb, None if args is True else chooser.choice(args))
        assert game.decisions(state) == {} or positions >= 3000
    assert positions > 40
