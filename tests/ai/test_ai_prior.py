"""The automated player's choices as a prior in the tree (``prior_weight``): off unless
asked, its choice expanded first, a bias that leans the visits its way, the same search
for the same seed, and reachable from the benches' player names. Whether a level uses it
is a measured question (docs/ai.md, *The automated player as a prior in the tree*)."""

from __future__ import annotations

import pytest

from bench.bench_ai_strength import make
from rules import get_game
from rules.ai import SearchPlayer, search
from rules.core import Game, View

GAMES = ("fort_sumter", "lincoln", "war")


def opening(name: str, seed: int = 3) -> tuple[Game, View]:
    game = get_game(name)
    state = game.setup(seed=seed)
    return game, game.view(state, game.active_roles(state)[0])


@pytest.mark.parametrize("name", GAMES)
def test_the_prior_is_off_by_default(name: str) -> None:
    game, view = opening(name)
    plain = search(game, view, seed=1, iterations=30)
    again = search(game, view, seed=1, iterations=30, prior_weight=None)
    assert plain.visits() == again.visits()
    assert all(not node.asked for node in plain.root.children.values())


@pytest.mark.parametrize("name", GAMES)
def test_the_first_action_tried_is_the_automated_players(name: str) -> None:
    game = get_game(name)
    state = game.setup(seed=5)
    role = game.active_roles(state)[0]
    view = game.view(state, role)
    policy = game.automated_player()
    assert policy is not None
    verb, arg = policy(game, view)
    once = search(game, view, seed=2, iterations=1, prior_weight=0.5)
    assert list(once.root.children) == [(role, verb, arg)]
    assert once.root.hint == (role, verb, arg)


def test_a_heavy_prior_spends_the_visits_on_the_automated_players_choice() -> None:
    game = get_game("fort_sumter")
    state = game.setup(seed=7)
    role = game.active_roles(state)[0]
    view = game.view(state, role)
    policy = game.automated_player()
    assert policy is not None
    chosen = policy(game, view)
    plain = search(game, view, seed=4, iterations=200)
    leaning = search(game, view, seed=4, iterations=200, prior_weight=50.0)
    key = f"{chosen[0]} {chosen[1]}" if chosen[1] is not None else chosen[0]
    assert len(plain.visits()) > 1
    assert leaning.visits()[key] > plain.visits().get(key, 0)
    assert leaning.visits()[key] == max(leaning.visits().values())
    assert leaning.action == chosen


@pytest.mark.parametrize("name", GAMES)
def test_the_same_seed_gives_the_same_search_with_a_prior(name: str) -> None:
    game, view = opening(name, seed=11)
    first = search(game, view, seed=9, iterations=40, prior_weight=0.3)
    second = search(game, view, seed=9, iterations=40, prior_weight=0.3)
    assert first.visits() == second.visits()
    assert first.action == second.action


def test_a_negative_weight_is_refused() -> None:
    game, view = opening("war")
    with pytest.raises(ValueError, match="not negative"):
        search(game, view, seed=1, iterations=5, prior_weight=-0.1)


def test_a_bench_player_takes_the_prior_as_a_search_option() -> None:
    game = get_game("lincoln")
    level = "normal@20:prior=0.4"
    player = make(game, "union", level, 1, {level: 20})
    assert isinstance(player, SearchPlayer)
    assert player.prior_weight == 0.4 and player.guide_epsilon is None
    assert player.game.policy_margin == game.policy_margin
    plain = make(game, "union", "normal@20", 1, {"normal@20": 20})
    assert isinstance(plain, SearchPlayer) and plain.prior_weight is None


def test_a_search_player_takes_its_games_prior_unless_told_and_zero_is_off(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = get_game("war")
    assert SearchPlayer(game, "union", seed=1, iterations=5).prior_weight == game.prior_weight
    monkeypatch.setattr(type(game), "prior_weight", 0.7)
    assert SearchPlayer(game, "union", seed=1, iterations=5).prior_weight == 0.7
    assert SearchPlayer(game, "union", seed=1, iterations=5, prior_weight=0.0).prior_weight == 0
    _, view = opening("war")
    plain = search(game, view, seed=3, iterations=30)
    zero = search(game, view, seed=3, iterations=30, prior_weight=0.0)
    assert zero.visits() == plain.visits()
    assert not zero.root.asked
