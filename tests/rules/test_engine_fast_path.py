"""The simulation fast path: ``act(..., trusted=True)`` plays exactly as the
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


def reference_playout(game, state, draw, limit):
    """A search's playout as first written: ``decisions``, then one action
    drawn uniformly over every verb's args, through ``act(..., trusted=True)``."""
    for _ in range(limit):
        if state["outcome"] is not None:
            break
        options = game.decisions(state)
        if len(options) == 1:
            ((role, legal),) = options.items()
        else:
            role = list(options)[int(draw() * len(options))]
            legal = options[role]
        sizes = [
            len(args) if isinstance(args, list) else 1 if args is True else 0
            for args in legal.values()
        ]
        pick = int(draw() * sum(sizes))
        for (verb, args), size in zip(legal.items(), sizes, strict=True):
            if pick < size:
                arg = args[pick] if isinstance(args, list) else None
                game.act(state, role, verb, arg, record_undo=False, trusted=True)
                break
            pick -= size


#: What a playout leaves out (``Game.playout``): the lines of both logs.
SKIPPED = ("log", "private_log")


def without_logs(state):
    """``state`` as JSON, less the parts a playout skips."""
    return json.dumps({k: v for k, v in state.items() if k not in SKIPPED})


def playout_starts(game, seeds):
    """Set-ups of ``game`` (with the Fate Die running either side, where the game has
    one), each played on a few random actions so that playouts start mid-game too."""
    for seed in seeds:
        options = {}
        if "fate" in game.default_options and seed % 3:
            options = {"fate": game.roles[seed % 2]}
        state = game.setup(seed=seed, options=options)
        reference_playout(game, state, random.Random(-seed).random, seed % 7 * 5)
        yield seed, state


@pytest.mark.parametrize("name", sorted(GAMES))
def test_playout_reaches_every_state_of_the_reference_playout(name: str) -> None:
    """``Game.playout`` (the search's playouts) against the loop it stands for: the same
    draws give the same action at every round, so the same state after every round less
    the log lines, which the playout does not write (the logs stay as they were), and
    both have used the same number of draws at the end."""
    game = get_game(name)
    rounds = told = 0
    for seed, start in playout_starts(game, range(16)):
        fast, slow = copy.deepcopy(start), copy.deepcopy(start)
        fast_draw, slow_draw = random.Random(seed).random, random.Random(seed).random
        while slow["outcome"] is None and rounds < 20_000:
            game.playout(fast, fast_draw, 1)
            reference_playout(game, slow, slow_draw, 1)
            rounds += 1
            assert without_logs(fast) == without_logs(slow), f"seed {seed}, round {rounds}"
            assert "quiet" not in fast  # the mark is gone once the playout returns
        assert fast["log"] == start["log"]
        assert fast["private_log"] == start["private_log"]
        told += len(slow["log"]) - len(start["log"])
        assert fast_draw() == slow_draw()
    assert rounds > 300
    assert told > rounds / 4  # the reference wrote lines the playout skipped


@pytest.mark.parametrize("name", sorted(GAMES))
def test_playout_with_a_limit_stops_there_as_the_reference_does(name: str) -> None:
    game = get_game(name)
    for seed, start in playout_starts(game, range(30, 40)):
        for limit in (0, 3, 60, 20_000):
            fast, slow = copy.deepcopy(start), copy.deepcopy(start)
            game.playout(fast, random.Random(seed).random, limit)
            reference_playout(game, slow, random.Random(seed).random, limit)
            assert without_logs(fast) == without_logs(slow)


@pytest.mark.parametrize("name", BUILTIN_GAMES)
def test_playout_from_a_state_with_undo_snapshots_plays_through_act(name: str) -> None:
    """A player's state keeps undo snapshots; a playout from it goes through ``act`` (as
    the reference does), so the snapshots are handled exactly as there, and its log lines
    are written."""
    game = get_game(name)
    found = 0
    for seed in range(20):
        chooser = random.Random(seed)
        state = game.setup(seed=seed)
        for _ in range(200):
            if game.outcome(state) is not None or state["undo"]:
                break
            role = chooser.choice(game.active_roles(state))
            legal = game.legal_actions(state, role)
            verb = chooser.choice(sorted(v for v in legal if v != "undo"))
            args = legal[verb]
            state = game.act(state, role, verb, None if args is True else chooser.choice(args))
        if not state["undo"]:
            continue
        found += 1
        fast, slow = copy.deepcopy(state), copy.deepcopy(state)
        game.playout(fast, random.Random(seed).random, 40)
        reference_playout(game, slow, random.Random(seed).random, 40)
        assert json.dumps(fast) == json.dumps(slow)
    assert found >= 5


@pytest.mark.parametrize("name", BUILTIN_GAMES)
def test_a_quiet_state_writes_no_log_line_and_a_told_one_every_line(name: str) -> None:
    """The same actions through ``act``, once on a state marked quiet (as a playout's is)
    and once on a plain one: equal states less the lines, none written when quiet."""
    game = get_game(name)
    for seed in range(4):
        chooser = random.Random(seed)
        told = game.setup(seed=seed)
        quiet = copy.deepcopy(told)
        quiet["quiet"] = True
        logs = copy.deepcopy({k: quiet[k] for k in SKIPPED})
        while game.outcome(told) is None:
            role = chooser.choice(game.active_roles(told))
            legal = game.legal_actions(told, role)
            legal.pop("undo", None)
            verb = chooser.choice(sorted(legal))
            args = legal[verb]
            arg = None if args is True else chooser.choice(args)
            game.act(told, role, verb, arg, record_undo=False, trusted=True)
            game.act(quiet, role, verb, arg, record_undo=False, trusted=True)
        assert without_logs(quiet) == without_logs({**told, "quiet": True})
        assert {k: quiet[k] for k in SKIPPED} == logs
        assert len(told["log"]) > len(logs["log"])
