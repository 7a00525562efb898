"""Generic tests: every registered game keeps the rules contract (docs/architecture.md).

They know nothing about any one game; a new game is covered the moment it is registered.
"""

from __future__ import annotations

import json

import pytest

from rules import GAMES, Game, IllegalAction, MalformedAction, NotAllowedNow, get_game
from rules.core import UnknownGame
from tests.playthrough import canonical, legal_moves, random_moves, replay

GAME_NAMES = sorted(GAMES)
THOROUGH_SEEDS = range(1, 7)
FUZZ_SEEDS = range(100, 160)


def test_at_least_one_game_is_registered() -> None:
    assert GAME_NAMES


def test_unknown_game_is_a_lookup_error_with_a_helpful_message() -> None:
    with pytest.raises(UnknownGame, match="known:"):
        get_game("no such game")


@pytest.mark.parametrize("name", GAME_NAMES)
def test_game_declares_name_title_and_roles(name: str) -> None:
    game = get_game(name)
    assert game.name == name
    assert game.title
    assert len(game.roles) >= 1
    assert len(set(game.roles)) == len(game.roles)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_setup_is_json_with_a_version_and_deterministic(name: str) -> None:
    game = get_game(name)
    first, second = game.setup(seed=42), game.setup(seed=42)
    assert isinstance(first["version"], int)
    assert json.loads(json.dumps(first)) == first
    assert canonical(first) == canonical(second)
    assert canonical(first) != canonical(game.setup(seed=43))


@pytest.mark.parametrize("name", GAME_NAMES)
def test_unknown_option_is_refused(name: str) -> None:
    with pytest.raises(IllegalAction):
        get_game(name).setup(seed=1, options={"no_such_option": True})


def _check_view_contract(game, state, role) -> str:  # type: ignore[no-untyped-def]
    """Check ``role``'s view of ``state``; return it as canonical JSON (for the leak check)."""
    view = game.view(state, role)
    text = canonical(view)
    assert json.loads(text) == view
    assert isinstance(view["prompt"], str)
    actions = view["actions"]
    assert isinstance(actions, dict)
    for verb, args in actions.items():
        assert isinstance(verb, str) and verb
        assert args is True or (isinstance(args, list) and args), (verb, args)
        if isinstance(args, list):
            assert all(isinstance(a, int | str) for a in args), (verb, args)
            assert len(set(map(str, args))) == len(args), f"duplicate args for {verb}"
    if role is not None:
        # what random play (tests/playthrough.py legal_moves) takes its moves from
        assert actions == game.legal_actions(state, role)
    if role is None:
        assert actions == {}
    elif role in game.active_roles(state):
        assert actions, f"{role} is active but has no action"
        assert view["prompt"], f"{role} is active but has no prompt"
    else:
        assert actions == {} and view["prompt"] == ""
    return text


class _Quoted:
    """Whether a JSON text holds ``needle`` (``json.dumps`` of a secret), as a substring:
    the same answer as ``needle in text``, found in a set for the many secrets of a state.

    A needle without a quote inside its two quotes spans two neighbouring quote marks of
    the text, so its inside is one of the pieces ``text.split('"')`` gives between them."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._pieces: set[str] | None = None

    def __contains__(self, needle: str) -> bool:
        inside = needle[1:-1]
        if '"' in inside:
            return needle in self.text
        if self._pieces is None:
            self._pieces = set(self.text.split('"')[1:-1])
        return inside in self._pieces


def _check_no_leaks(game, state, views: dict[str | None, str]) -> None:  # type: ignore[no-untyped-def]
    """No role's secret in another's view (``views``: each role's, as canonical JSON, of
    this very state) nor in the log. The log's words are split once, not once a secret."""
    texts = {viewer: _Quoted(text) for viewer, text in views.items()}
    log_words: set[str] | None = None
    for owner in game.roles:
        secrets = game.secrets(state, owner)
        if not secrets:
            continue
        for viewer in [None, *[r for r in game.roles if r != owner]]:
            text = texts[viewer]
            for secret in secrets:
                assert json.dumps(secret) not in text, (
                    f"{owner}'s secret {secret!r} is visible to {viewer or 'observers'}"
                )
        if log_words is None:
            log_words = set("\n".join(state["log"]).split())
        for secret in secrets:
            assert secret not in log_words, f"{owner}'s secret {secret!r} is in the log"


@pytest.mark.parametrize("seed", THOROUGH_SEEDS)
@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_action_keeps_the_contract(name: str, seed: int) -> None:
    """JSON round-trip, pure views, no leaks, invariants, after every single action."""
    game = get_game(name)
    for step in random_moves(game, seed):
        state = step.state
        # The round trip's copy is equal to the state and shares nothing with it: the
        # reference that shows a view changed nothing (a deep copy would be a second one).
        before = json.loads(json.dumps(state))
        assert before == state
        views = {role: _check_view_contract(game, state, role) for role in [None, *game.roles]}
        assert state == before, "view() changed the state"
        _check_no_leaks(game, state, views)
        assert game.invariants(state) == []


@pytest.mark.parametrize("name", GAME_NAMES)
def test_same_seed_and_actions_give_a_byte_identical_state(name: str) -> None:
    game = get_game(name)
    actions = []
    final = None
    for step in random_moves(game, seed=11):
        actions.append((step.role, step.verb, step.arg))
        final = step.state
    assert canonical(replay(game, 11, actions)) == canonical(final)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_unlisted_actions_are_refused_and_change_nothing(name: str) -> None:
    game = get_game(name)
    for number, step in enumerate(random_moves(game, seed=5)):
        state = step.state
        if game.outcome(state) is not None or number > 300:
            break
        before = canonical(state)
        active = game.active_roles(state)
        for role in game.roles:
            if role not in active:
                with pytest.raises(IllegalAction):
                    game.act(state, role, "done")
                continue
            with pytest.raises(IllegalAction):
                game.act(state, role, "no-such-verb")
            for verb, args in game.view(state, role)["actions"].items():
                with pytest.raises(IllegalAction):
                    game.act(state, role, verb, "no-such-arg" if args is True else "\x00forged")
        assert canonical(state) == before
    with pytest.raises(IllegalAction):
        game.act(game.setup(seed=5), "no-such-role", "done")


@pytest.mark.parametrize("name", GAME_NAMES)
def test_nothing_is_legal_once_the_game_is_over(name: str) -> None:
    game = get_game(name)
    final = None
    for step in random_moves(game, seed=3):
        final = step.state
    assert final is not None
    outcome = game.outcome(final)
    assert outcome is not None
    assert outcome["winner"] in (*game.roles, None)
    assert isinstance(outcome["reason"], str) and outcome["reason"]
    assert game.active_roles(final) == ()
    assert legal_moves(game, final) == []
    for role in game.roles:
        with pytest.raises(IllegalAction):
            game.act(final, role, "done")


@pytest.mark.parametrize("name", GAME_NAMES)
def test_undo_steps_back_only_the_actors_own_decision(name: str) -> None:
    """Undo keeps the actor on move and lets them make the undone decision again; with the
    core's snapshot undo it restores exactly the state before their last action."""
    game = get_game(name)
    snapshot_undo = type(game).undo is Game.undo
    probed = 0
    for seed in range(20, 30):
        before: dict[str, str] = {}
        last: dict[str, tuple[str, object]] = {}
        previous = canonical(game.setup(seed=seed))
        for step in random_moves(game, seed, undo_rate=0.0):
            before[step.role], last[step.role] = previous, (step.verb, step.arg)
            previous = canonical(step.state)
            state = step.state
            if "undo" not in game.view(state, step.role)["actions"]:
                continue
            trial = json.loads(json.dumps(state))  # as the store would hold it, unshared
            game.act(trial, step.role, "undo")
            probed += 1
            assert game.invariants(trial) == []
            assert step.role in game.active_roles(trial), "undo gave the turn away"
            verb, arg = last[step.role]
            legal = game.view(trial, step.role)["actions"].get(verb)
            assert legal is True or arg in legal, "the undone decision cannot be made again"
            if snapshot_undo:
                restored = {k: v for k, v in trial.items() if k != "undo"}
                expected = {k: v for k, v in json.loads(before[step.role]).items() if k != "undo"}
                assert restored == expected
    assert probed > 0, f"{name}: random play never offered undo"


@pytest.mark.slow
@pytest.mark.parametrize("name", GAME_NAMES)
def test_random_play_always_ends(name: str) -> None:
    """Fuzz: many seeds of uniformly random play; every game must end with an outcome."""
    game = get_game(name)
    for seed in FUZZ_SEEDS:
        final = None
        for step in random_moves(game, seed):
            final = step.state
        assert final is not None and game.outcome(final) is not None, f"seed {seed}"
        assert game.invariants(final) == []


@pytest.mark.parametrize("name", GAME_NAMES)
def test_malformed_requests_and_actions_not_allowed_now_are_told_apart(name: str) -> None:
    game = get_game(name)
    state = game.setup(seed=5)
    before = canonical(state)
    role = game.active_roles(state)[0]
    idle = [r for r in game.roles if r not in game.active_roles(state)]
    actions = game.view(state, role)["actions"]
    verb, args = next(iter(actions.items()))
    malformed = [
        ("no-such-role", verb, None),
        (role, "No Such Verb!", None),
        (role, ["a", "list"], None),
        (role, verb, ["a", "list"]),
        (role, verb, True),
    ]
    malformed.append((role, verb, "x") if args is True else (role, verb, None))
    for who, what, arg in malformed:
        with pytest.raises(MalformedAction):
            game.act(state, who, what, arg)  # type: ignore[arg-type]
    not_now = [(role, "surely_not_offered_now", None)]
    if isinstance(args, list):
        not_now.append((role, verb, "\x00forged"))
    not_now += [(r, verb, args[0] if isinstance(args, list) else None) for r in idle]
    for who, what, arg in not_now:
        with pytest.raises(NotAllowedNow):
            game.act(state, who, what, arg)
    assert canonical(state) == before


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_ending_names_its_reason_with_a_code(name: str) -> None:
    game = get_game(name)
    final = None
    for step in random_moves(game, seed=8):
        final = step.state
    assert final is not None
    outcome = game.outcome(final)
    assert outcome is not None
    assert set(outcome) == {"winner", "code", "reason", "score"}
    assert outcome["code"] and outcome["code"] != "unrecorded" and outcome["reason"]
    # an outcome stored before codes existed still reads back, named as such
    old = {**final, "outcome": {k: v for k, v in final["outcome"].items() if k != "code"}}
    assert game.outcome(old)["code"] == "unrecorded"  # type: ignore[index]
