"""The simulation fast path (issue 12): ``act(..., trusted=True)`` plays exactly as the
checked path. Each game's own shortcuts are held to their rules in its
``tests/test_<game>_fast_paths.py``."""

from __future__ import annotations

import json
import random

import pytest

from rules import BUILTIN_GAMES, get_game


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
