"""Golden playthroughs of every built-in game, one format, one test.

Seed 7, both sides played by the game's automated player (``Game.policy``; random legal
moves for a game without one). Each decision is written as text: the step and who is
active, the prompt and legal actions the actor sees, the action with its button label,
and the public and private log lines it produced; then the outcome. The test diffs the
result against ``tests/golden/<game>_seed7.txt``. After an intended change of rules, data
or policy, write them anew with ``UPDATE_GOLDEN=1 pytest tests/rules/test_golden.py`` and read
the diff before committing it.
"""

from __future__ import annotations

import difflib
import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

from rules import BUILTIN_GAMES, Game, get_game

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
SEED = 7


def _actions(actions: dict[str, Any]) -> str:
    return "; ".join(
        verb if args is True else f"{verb}={','.join(map(str, args))}"
        for verb, args in actions.items()
    )


def _label(view: dict[str, Any], verb: str, arg: Any) -> str:
    label = view["labels"].get(verb)
    return label if isinstance(label, str) else (label or {}).get(str(arg), "")


def playthrough(game: Game, seed: int = SEED) -> str:
    choose = game.automated_player()
    chooser = random.Random(seed)
    state = game.setup(seed=seed)
    who = game.policy or "random legal moves"
    out = [f"# {game.title}, seed {seed}, both sides played by {who}", ""]
    out += [f"  | {line}" for line in state["log"]]
    seen = len(state["log"])
    private_seen = {role: 0 for role in game.roles}
    for role in game.roles:
        lines = state["private_log"][role]
        out += [f"  ({role}) {line}" for line in lines]
        private_seen[role] = len(lines)
    number = 0
    while game.outcome(state) is None:
        number += 1
        active = game.active_roles(state)
        role = active[0]
        view = game.view(state, role)
        if choose is not None:
            verb, arg = choose(game, view)
        else:
            moves = [
                (v, a)
                for v, args in view["actions"].items()
                if v != "undo"
                for a in (args if isinstance(args, list) else [None])
            ]
            verb, arg = chooser.choice(moves)
        out += [
            "",
            f"## {number}. step {view['step']} · active: {', '.join(active)}",
            f"prompt ({role}): {view['prompt']}",
            f"actions: {_actions(view['actions'])}",
            f"action ({role}): {verb}{'' if arg is None else ' ' + str(arg)}"
            f"  [{_label(view, verb, arg)}]",
        ]
        state = game.act(state, role, verb, arg)
        out += [f"  | {line}" for line in state["log"][seen:]]
        seen = len(state["log"])
        for other in game.roles:
            lines = state["private_log"][other]
            out += [f"  ({other}) {line}" for line in lines[private_seen[other] :]]
            private_seen[other] = len(lines)
        assert number < 5_000, "the golden game does not end"
    out += ["", f"outcome: {json.dumps(game.outcome(state), sort_keys=True)}", ""]
    return "\n".join(out)


@pytest.mark.parametrize("name", BUILTIN_GAMES)
def test_golden_playthrough_seed_7(name: str) -> None:
    game = get_game(name)
    path = GOLDEN / f"{name}_seed{SEED}.txt"
    text = playthrough(game)
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(text)
    expected = path.read_text()
    if text != expected:
        diff = "".join(
            difflib.unified_diff(
                expected.splitlines(True), text.splitlines(True), "golden", "now", n=2
            )
        )
        raise AssertionError(f"{name} no longer plays as its golden file says:\n{diff[:4000]}")


@pytest.mark.parametrize("name", BUILTIN_GAMES)
def test_the_golden_game_is_the_same_every_time(name: str) -> None:
    game = get_game(name)
    assert playthrough(game) == playthrough(game)
