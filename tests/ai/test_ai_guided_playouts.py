"""Playouts guided by the game's own automated player (``guide_epsilon``): off unless
asked, the policy's moves with epsilon 0, and reachable from the benches' player names.
Whether they are kept is a measured question (docs/ai.md, *Policy-guided playouts*)."""

from __future__ import annotations

import random

import pytest

from bench.bench_ai_strength import make
from rules import get_game
from rules.ai import SearchPlayer, search
from rules.ai.ismcts import guided_rollout, rewards
from rules.core.undo import copy_json


def test_epsilon_zero_plays_the_automated_player_to_the_end() -> None:
    game = get_game("fort_sumter")
    policy = game.automated_player()
    assert policy is not None
    state = game.setup(seed=3)
    guided = copy_json(state)
    result = guided_rollout(0.0, policy)(game, guided, random.Random(1).random)
    while game.outcome(state) is None:
        role = game.active_roles(state)[0]
        verb, arg = policy(game, game.view(state, role))
        game.act(state, role, verb, arg)
    assert guided["outcome"] == state["outcome"]
    assert result == rewards(game, state)


def test_an_epsilon_outside_zero_to_one_is_refused() -> None:
    policy = get_game("war").automated_player()
    assert policy is not None
    with pytest.raises(ValueError, match="probability"):
        guided_rollout(1.5, policy)


def test_the_guide_is_off_by_default_and_changes_the_search_when_asked() -> None:
    game = get_game("fort_sumter")
    state = game.setup(seed=3)
    view = game.view(state, game.active_roles(state)[0])
    plain = search(game, view, seed=1, iterations=40)
    again = search(game, view, seed=1, iterations=40, guide_epsilon=None)
    guided = search(game, view, seed=1, iterations=40, guide_epsilon=0.0)
    assert plain.visits() == again.visits()
    assert guided.visits() != plain.visits()
    assert sum(guided.visits().values()) == 40


def test_a_bench_player_takes_the_guide_as_a_search_option() -> None:
    game = get_game("lincoln")
    player = make(game, "union", "normal@20:guide=0.25", 1, {"normal@20:guide=0.25": 20})
    assert isinstance(player, SearchPlayer)
    assert player.guide_epsilon == 0.25 and player.iterations == 20
    assert player.game.policy_margin == game.policy_margin
    plain = make(game, "union", "normal@20", 1, {"normal@20": 20})
    assert isinstance(plain, SearchPlayer) and plain.guide_epsilon is None
