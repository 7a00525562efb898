"""The search opponent: determinization from the view alone, no peeking,
determinism, legal play only, and one search shared by the small decisions of a turn."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from rules import BUILTIN_GAMES, IllegalAction, get_game
from rules.ai import SearchPlayer, make_player, search, supports_search
from rules.ai.ismcts import Node, fingerprint, view_actions
from rules.ai.player import GreedyPlayer
from rules.core import Game
from rules.core.undo import copy_json
from tests.fate_helpers import swap_a_face_down_card

#: View keys a determinized state need not reproduce: the logs (history, not position),
#: undo (a determinized state has no snapshots) and War's record of the last battle.
_HISTORY = ("log", "private_log", "last_battle")
#: Every built-in game that implements the search hooks.
SEARCHABLE = [name for name in BUILTIN_GAMES if supports_search(get_game(name))]
#: Games for which the no-peeking test knows how to swap a hidden card (see
#: ``_twin_with_other_hidden_cards``); a new game adds its own swap there.
TWINNED = ("war", "fort_sumter", "lincoln")


def _random_states(game: Game, seed: int, every: int = 1) -> list[dict[str, Any]]:
    """Copies of the states of one random game."""
    chooser = random.Random(seed)
    state = game.setup(seed=seed)
    states = []
    n = 0
    while game.outcome(state) is None:
        if n % every == 0:
            states.append(copy_json(state))
        n += 1
        role = chooser.choice(game.active_roles(state))
        legal = game.legal_actions(state, role)
        verb = chooser.choice(sorted(v for v in legal if v != "undo"))
        args = legal[verb]
        game.act(state, role, verb, None if args is True else chooser.choice(args))
    return states


def random_move(chooser: random.Random, view: dict[str, Any]) -> tuple[str, Any]:
    """A uniformly random action of those ``view`` lists (never ``undo``)."""
    moves = [
        (verb, arg)
        for verb, args in view["actions"].items()
        if verb != "undo"
        for arg in (args if isinstance(args, list) else [None])
    ]
    return chooser.choice(moves)


def _comparable(view: dict[str, Any]) -> dict[str, Any]:
    view = {k: v for k, v in view.items() if k not in _HISTORY}
    view["actions"] = {k: v for k, v in view["actions"].items() if k != "undo"}
    view["labels"] = {k: v for k, v in view["labels"].items() if k != "undo"}
    return view


@pytest.mark.parametrize("name", SEARCHABLE)
def test_a_determinized_state_shows_the_same_view(name: str) -> None:
    """Whatever it samples, the knower sees exactly what it saw: the same board, counts,
    own cards, prompt and legal actions; and the sampled state is a sound state."""
    game = get_game(name)
    checked = 0
    for seed in range(4):
        for state in _random_states(game, seed, every=3):
            for role in game.roles:
                view = game.view(state, role)
                sampled = game.determinize(view, role, seed * 7919 + checked)
                assert _comparable(game.view(sampled, role)) == _comparable(view)
                assert game.invariants(sampled) == []
                assert json.loads(json.dumps(sampled)) == sampled
                checked += 1
    assert checked > 200


@pytest.mark.parametrize("name", SEARCHABLE)
def test_determinization_samples_the_hidden_cards(name: str) -> None:
    """Different keys deal the other side different cards: the sample is not the truth."""
    game = get_game(name)
    state = _random_states(game, 3)[5]
    role = game.roles[0]
    view = game.view(state, role)
    other = game.opponent(role)
    # What the other side sees of its own cards (its view: hand and all) differs between
    # samples. (Comparing the set of its secrets would not do for a game such as Lincoln,
    # where every card it holds anywhere is secret: the set is the same however dealt.)
    samples = {
        json.dumps(game.view(game.determinize(view, role, key), other), sort_keys=True)
        for key in range(12)
    }
    assert len(samples) > 1


def _twin_with_other_hidden_cards(name: str) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """A state where the opponent of the returned role holds a hidden card, and a twin
    that differs only in which card it is (swapped with one from its face-down deck)."""
    game = get_game(name)
    for state in _random_states(game, 11):
        for role in game.active_roles(state):
            other = game.opponent(role)
            twin = copy_json(state)
            if name == "war":
                here = twin["sides"][other]
                if not here["hand"] or not here["deck"]:
                    continue
                here["hand"][0], here["deck"][-1] = here["deck"][-1], here["hand"][0]
            elif name == "lincoln":
                here = twin["piles"][other]
                if not here["hand"] or not here["deck"]:
                    continue
                here["hand"][0], here["deck"][-1] = here["deck"][-1], here["hand"][0]
            else:
                if not twin["hands"][other] or not twin["strategy_deck"]:
                    continue
                hand, deck = twin["hands"][other], twin["strategy_deck"]
                hand[0], deck[0] = deck[0], hand[0]
            if game.view(state, role) == game.view(twin, role):
                return role, state, twin
    raise AssertionError("no state with a hidden opponent card")


@pytest.mark.parametrize("name", TWINNED)
def test_no_peeking_the_search_is_the_same_whatever_the_opponent_holds(name: str) -> None:
    game = get_game(name)
    role, state, twin = _twin_with_other_hidden_cards(name)
    other = game.opponent(role)
    # The twins really differ in what the opponent holds (its own view shows it), and the
    # searching role's view of them is the same (``_twin_with_other_hidden_cards``).
    assert game.view(state, other) != game.view(twin, other)
    first = search(game, game.view(state, role), seed=5, iterations=60)
    second = search(game, game.view(twin, role), seed=5, iterations=60)
    assert first.action == second.action
    assert first.visits() == second.visits()
    assert _tree(first.root) == _tree(second.root)
    # And a player fed the two views decides the same.
    a = SearchPlayer(game, role, seed=9, iterations=40).choose(game.view(state, role))
    b = SearchPlayer(game, role, seed=9, iterations=40).choose(game.view(twin, role))
    assert a == b


def _tree(node: Any, depth: int = 3) -> Any:
    """The whole tree's statistics, a few plies deep, as plain data."""
    if depth == 0:
        return None
    return [
        [
            list(action),
            child.visits,
            child.available,
            round(child.reward, 6),
            _tree(child, depth - 1),
        ]
        for action, child in node.children.items()
    ]


@pytest.mark.parametrize("name", SEARCHABLE)
def test_a_fixed_search_seed_gives_the_same_search(name: str) -> None:
    game = get_game(name)
    states = _random_states(game, 2)
    picked = [s for s in states[:: max(1, len(states) // 6)]][:6]
    differs = False
    for state in picked:
        role = game.active_roles(state)[0]
        view = game.view(state, role)
        one = search(game, view, seed=17, iterations=40)
        again = search(game, copy_json(view), seed=17, iterations=40)
        assert one.action == again.action and _tree(one.root) == _tree(again.root)
        other = search(game, view, seed=18, iterations=40)
        differs = differs or _tree(other.root) != _tree(one.root)
    assert differs  # the seed does steer the search


@pytest.mark.parametrize("name", SEARCHABLE)
@pytest.mark.parametrize("opponent", ["random", "easy", "search"])
def test_the_search_player_only_takes_legal_actions(name: str, opponent: str) -> None:
    """Whole games at a small budget, the bot on each side; every action goes through the
    checked path, which raises on anything not listed."""
    game = get_game(name)
    # Lincoln's games are long (about 400 actions, each roll-out a whole random game), so
    # fewer and cheaper there; bench/bench_ai_legality.py plays hundreds of each.
    games = {"war": 6, "lincoln": 2}.get(name, 8)
    iterations = 2 if name == "lincoln" else 6
    for seed in range(games):
        bot_role = game.roles[seed % 2]
        players = {bot_role: SearchPlayer(game, bot_role, seed=seed, iterations=iterations)}
        other = game.opponent(bot_role)
        if opponent == "easy":
            players[other] = GreedyPlayer(game)
        elif opponent == "search":
            players[other] = SearchPlayer(game, other, seed=seed + 50, iterations=iterations)
        chooser = random.Random(seed)
        state = game.setup(seed=seed + 300)
        decisions = 0
        while game.outcome(state) is None:
            role = game.active_roles(state)[0]
            view = game.view(state, role)
            if role in players:
                verb, arg = players[role].choose(view)
                listed = view["actions"][verb]
                assert verb != "undo" and (arg is None if listed is True else arg in listed)
                decisions += role == bot_role
            else:
                verb, arg = random_move(chooser, view)
            try:
                game.act(state, role, verb, arg)
            except IllegalAction as error:  # pragma: no cover - the failure being tested
                raise AssertionError(f"{role} tried an illegal {verb} {arg}: {error}") from None
        assert decisions > 0


def test_the_small_decisions_of_a_turn_share_one_search() -> None:
    """Fort Sumter's value play is one token per decision: after the search that chose the
    card, the tokens come from the same tree without a new search each time."""
    game = get_game("fort_sumter")
    role = "unionist"
    bot = SearchPlayer(game, role, seed=3, iterations=400, reuse_visits=10)
    easy = GreedyPlayer(game)
    state = game.setup(seed=21)
    decisions = 0
    while game.outcome(state) is None:
        mover = game.active_roles(state)[0]
        view = game.view(state, mover)
        if mover == role:
            verb, arg = bot.choose(view)
            decisions += 1
        else:
            verb, arg = easy.choose(view)
        game.act(state, mover, verb, arg)
    assert bot.reused > 0
    assert bot.searches + bot.reused == decisions


def test_a_planned_action_is_reused_only_for_the_view_it_expected() -> None:
    """The tree is carried on only when the next view is the one it expected: the real
    next view of a value play is, a view that differs in anything gets a fresh search."""
    game = get_game("fort_sumter")
    state = next(
        s
        for s in _random_states(game, 4)
        if s["step"] == "value_play" and s["value_play"]["left"] >= 3
    )
    role = game.active_roles(state)[0]
    view = game.view(state, role)
    trusting, wary = (
        SearchPlayer(game, role, seed=3, iterations=300, reuse_visits=1) for _ in range(2)
    )
    verb, arg = trusting.choose(view)
    assert (verb, arg) == wary.choose(view)
    assert verb == "place"
    game.act(state, role, verb, arg)
    after = game.view(state, role)
    trusting.choose(after)
    assert (trusting.searches, trusting.reused) == (1, 1)
    changed = copy_json(after)
    changed["known_state"]["seal"] += 1
    wary.choose(changed)
    assert (wary.searches, wary.reused) == (2, 0)


def test_searchable_games() -> None:
    assert {"war", "fort_sumter", "lincoln"} <= set(SEARCHABLE)


def test_a_playout_stops_at_the_games_horizon_and_takes_its_estimate() -> None:
    """A playout plays the game's horizon of rounds, as many as the reference loop
    (``Game._playout_checked``, one ``act`` a round) with the same draws, then takes the
    game's estimate; without a horizon it plays to the end."""
    from rules.ai.ismcts import rollout
    from rules.lincoln import Lincoln

    class Judged(Lincoln):
        playout_horizon = 7

        def estimate(self, state: dict[str, Any]) -> dict[str, float] | None:
            return {"union": 0.25, "confederate": 0.75}

    game = Judged()

    def checked(rounds: int) -> str:
        state = game.setup(seed=3)
        game._playout_checked(state, random.Random(1).random, rounds)
        return without_logs(state)

    state = game.setup(seed=3)
    result = rollout(game, state, random.Random(1).random)
    assert without_logs(state) == checked(7) != checked(8)
    assert result == {"union": 0.25, "confederate": 0.75}
    # With no horizon the playout goes on to the end of the game.
    Judged.playout_horizon = None
    state = game.setup(seed=3)
    result = rollout(game, state, random.Random(1).random)
    assert state["outcome"] is not None
    assert sorted(result.values()) == [0.0, 1.0]


def without_logs(state: dict[str, Any]) -> str:
    """The state as JSON, less the lines a quiet playout does not write."""
    return json.dumps({k: v for k, v in state.items() if k not in ("log", "private_log")})


def test_the_search_never_passes_where_passing_changes_nothing() -> None:
    """Lincoln offers Pass to a full hand (ruling 23), but a pass there changes nothing:
    the tree leaves it out, so two searches cannot pass for ever."""
    from rules.ai.ismcts import listed
    from rules.lincoln import GAME as LINCOLN

    state = LINCOLN.setup(seed=3)
    assert len(state["piles"]["union"]["hand"]) == 6 and "pass" in LINCOLN.legal_actions(
        state, "union"
    )
    assert LINCOLN.idle_actions(state, "union") == {("pass", None)}
    assert ("union", "pass", None) not in listed(LINCOLN, state, "union")
    view = LINCOLN.view(state, "union")
    player = SearchPlayer(LINCOLN, "union", seed=1, iterations=60)
    assert player.choose(view)[0] != "pass"
    assert player.last is not None
    assert ("union", "pass", None) not in player.last.root.children
    # With a card gone from the hand a pass draws one more card: the search may weigh it.
    hand = state["piles"]["union"]["hand"]
    state["piles"]["union"]["discard"].append(hand.pop())
    assert LINCOLN.idle_actions(state, "union") == set()
    assert ("union", "pass", None) in listed(LINCOLN, state, "union")


def test_an_unfinished_playout_of_a_game_without_an_estimate_is_a_draw() -> None:
    from rules.ai.ismcts import rollout
    from rules.war import WarBetweenTheStates

    class Short(WarBetweenTheStates):
        playout_horizon = 3

    game = Short()
    assert game.estimate(game.setup(seed=1)) is None
    result = rollout(game, game.setup(seed=1), random.Random(1).random)
    assert result == {role: 0.5 for role in game.roles}


def test_a_game_without_the_search_hooks_gets_its_greedy_player_at_every_level() -> None:
    from rules.war import WarBetweenTheStates

    class WithoutSearch(WarBetweenTheStates):
        determinize = Game.determinize

    game = WithoutSearch()
    assert not supports_search(game)
    for level in ("easy", "normal", "hard"):
        assert isinstance(make_player(game, "union", level, seed=1), GreedyPlayer)


def test_levels() -> None:
    game = get_game("war")
    assert isinstance(make_player(game, "union", "easy", seed=1), GreedyPlayer)
    assert isinstance(make_player(game, "union", "hard", seed=1, iterations=5), SearchPlayer)
    with pytest.raises(ValueError, match="levels"):
        make_player(game, "union", "impossible", seed=1)
    player = SearchPlayer(game, "union", seed=1)
    state = game.setup(seed=1)
    with pytest.raises(ValueError, match="deadline"):
        player.choose(game.view(state, "union"))
    # A deadline callback stops the search: here after three iterations.
    calls = iter(range(100))
    verb, _ = player.choose(game.view(state, "union"), should_stop=lambda: next(calls) >= 2)
    assert player.last is not None and player.last.iterations == 3
    assert verb in game.legal_actions(state, "union")


# ------------------------------------------------ the Fate Die opponent

#: Games with a Fate Die playsheet: one side's hand is a Card Display (``fate`` option).
FATED = [name for name in SEARCHABLE if "fate" in get_game(name).default_options]


def _fate_states(name: str, side: str, seed: int, every: int) -> list[dict[str, Any]]:
    game = get_game(name)
    chooser = random.Random(seed)
    state = game.setup(seed=seed, options={"fate": side})
    states = []
    n = 0
    while game.outcome(state) is None and n < 900:
        if n % every == 0:
            states.append(copy_json(state))
        n += 1
        role = chooser.choice(game.active_roles(state))
        legal = game.legal_actions(state, role)
        verb = chooser.choice(sorted(v for v in legal if v != "undo"))
        args = legal[verb]
        game.act(state, role, verb, None if args is True else chooser.choice(args))
    return states


def test_every_game_with_a_fate_playsheet_is_searchable() -> None:
    assert FATED == ["fort_sumter", "lincoln"]


@pytest.mark.parametrize("name", FATED)
def test_a_determinized_fate_game_shows_the_same_view(name: str) -> None:
    """With one side run by the Fate Die, both sides' samples still show exactly what
    they saw: the display's face-up cards, its backs, the roll and the allowed cards."""
    game = get_game(name)
    checked = 0
    for side in game.roles:
        for state in _fate_states(name, side, 2, every=7 if name == "fort_sumter" else 23):
            for role in game.roles:
                view = game.view(state, role)
                sampled = game.determinize(view, role, checked)
                assert _comparable(game.view(sampled, role)) == _comparable(view)
                assert game.invariants(sampled) == []
                checked += 1
    assert checked > 40


@pytest.mark.parametrize("name", FATED)
def test_no_peeking_at_the_fate_displays_face_down_cards(name: str) -> None:
    """The search of the side facing a Fate Die display is the same whichever card lies
    face down in it (swapped with an unseen card of the deck)."""
    game = get_game(name)
    side = game.roles[1]
    role = game.opponent(side)
    for state in _fate_states(name, side, 12, every=1):
        if role not in game.active_roles(state):
            continue
        if not any(not e["up"] for s in state["fate"]["slots"].values() for e in s):
            continue
        twin = copy_json(state)
        hand = twin["hands"][side] if name == "fort_sumter" else twin["piles"][side]["hand"]
        deck = twin["strategy_deck"] if name == "fort_sumter" else twin["piles"][side]["deck"]
        swap_a_face_down_card(twin, hand, deck)
        assert game.invariants(twin) == []
        assert game.view(state, side) != game.view(twin, side)
        assert game.view(state, role) == game.view(twin, role)
        first = search(game, game.view(state, role), seed=5, iterations=30)
        second = search(game, game.view(twin, role), seed=5, iterations=30)
        assert first.action == second.action
        assert _tree(first.root) == _tree(second.root)
        return
    raise AssertionError("no position with a face-down display card while the other side acts")


def test_a_kept_tree_never_chooses_what_the_view_does_not_list() -> None:
    """A tree carried over from an earlier search also holds actions that other chance
    outcomes allowed at that point (another Fate Die roll, another card drawn); however
    often the earlier search visited them, only what the view lists may be chosen."""
    game = get_game("fort_sumter")
    state = game.setup(seed=5)
    role = game.active_roles(state)[0]
    view = game.view(state, role)
    kept = Node(None)
    stale = Node(role)
    stale.visits = stale.available = 10_000
    stale.reward = 10_000.0
    kept.children[(role, "keep", "not-a-card")] = stale
    result = search(game, view, seed=1, iterations=5, root=kept)
    verb, arg = result.action
    assert verb == "keep" and arg in view["actions"]["keep"]
    bot = SearchPlayer(game, role, seed=1, iterations=5, reuse_visits=1)
    bot._expected = (fingerprint(view), kept)
    assert bot.choose(view) == result.action


def test_the_search_player_with_the_fate_die_keeps_to_the_listed_actions() -> None:
    """A Lincoln game in which the Union's kept trees held moves and deployments that
    another roll of the die had allowed (the bot chose them before this was fixed)."""
    game = get_game("lincoln")
    seed = 50098
    bot = SearchPlayer(game, "union", seed=seed, iterations=2)
    chooser = random.Random(seed)
    state = game.setup(seed=seed, options={"fate": "union"})
    decisions = 0
    while game.outcome(state) is None:
        role = chooser.choice(game.active_roles(state))
        view = game.view(state, role)
        if role == "union":
            verb, arg = bot.choose(view)
            listed = view["actions"][verb]
            assert listed is True if arg is None else arg in listed
            decisions += 1
        else:
            verb, arg = random_move(chooser, view)
        game.act(state, role, verb, arg)
    assert decisions > 50


def test_a_policy_margin_keeps_the_policys_choice_unless_the_search_beats_it() -> None:
    from rules.lincoln import Lincoln

    class Alone(Lincoln):
        policy_margin = None

    class Deferring(Lincoln):
        policy_margin = 1.0  # results run 0 to 1: the search can never beat the policy

    view = Alone().view(Alone().setup(seed=5), "union")
    policy = Alone().automated_player()
    assert policy is not None
    hint = policy(Alone(), view)
    alone = SearchPlayer(Alone(), "union", seed=2, iterations=80)
    own = alone.choose(view)
    assert own != hint  # the position and seed where the two disagree
    assert alone.deferred == 0
    assert alone.last is not None and alone.last.action == own
    deferring = SearchPlayer(Deferring(), "union", seed=2, iterations=80)
    assert deferring.choose(view) == hint
    assert deferring.deferred == 1
    assert deferring.last is not None and deferring.last.action == own


def test_a_reused_plan_is_held_to_the_policy_margin_too() -> None:
    """A planned action taken from the tree without a new search still yields to the
    policy's choice when it did not average ``policy_margin`` more at its node."""
    from rules.lincoln import Lincoln

    class Alone(Lincoln):
        policy_margin = None

    class Deferring(Lincoln):
        policy_margin = 0.5

    view = Alone().view(Alone().setup(seed=6), "union")
    policy = Alone().automated_player()
    assert policy is not None
    hint = ("union", *policy(Alone(), view))
    planned = next(a for a in view_actions(view) if a != hint)

    def carried_on(player: SearchPlayer, planned_mean: float) -> tuple[str, Any]:
        node = Node(None)
        node.children[planned] = Node("union")
        node.children[planned].visits, node.children[planned].reward = 60, 60 * planned_mean
        node.children[hint] = Node("union")
        node.children[hint].visits, node.children[hint].reward = 20, 20 * 0.4
        player._expected = (fingerprint(view), node)
        return player.choose(view)

    plan = planned[1:]
    assert carried_on(SearchPlayer(Alone(), "union", seed=1, iterations=1), 0.8) == plan
    deferring = SearchPlayer(Deferring(), "union", seed=1, iterations=1)
    assert carried_on(deferring, 0.8) == hint[1:]  # 0.8 - 0.4 is under the margin
    assert (deferring.searches, deferring.reused, deferring.deferred) == (0, 1, 1)
    beaten = SearchPlayer(Deferring(), "union", seed=1, iterations=1)
    assert carried_on(beaten, 0.95) == plan  # 0.95 - 0.4 clears it
    assert beaten.deferred == 0
