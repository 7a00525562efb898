"""Drive any registered game through the rules contract, for the generic tests.

The chooser uses Python's ``random`` with its own seed: tests may use randomness to pick
actions; the rules engines themselves never do.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from rules import Game

Action = tuple[str, str, Any]  # role, verb, arg


@dataclass
class Step:
    """One decision of a random playthrough and the state it produced."""

    role: str
    verb: str
    arg: Any
    state: dict[str, Any]


def legal_moves(game: Game, state: dict[str, Any]) -> list[Action]:
    """Every action an active role's view offers now: its ``legal_actions``, which is what
    ``view`` lists as ``actions`` (tests/rules/test_contract.py holds the two equal at every step)
    without drawing the rest of the view, two thirds of a random game's time."""
    moves: list[Action] = []
    for role in game.active_roles(state):
        actions = game.legal_actions(state, role)
        for verb, args in actions.items():
            if args is True:
                moves.append((role, verb, None))
            else:
                moves.extend((role, verb, arg) for arg in args)
    return moves


def random_moves(
    game: Game, seed: int, *, undo_rate: float = 0.05, max_steps: int = 20_000
) -> Iterator[Step]:
    """Play one game with uniformly random legal moves; yields after every action."""
    chooser = random.Random(seed)
    state = game.setup(seed=seed)
    for _ in range(max_steps):
        if game.outcome(state) is not None:
            return
        moves = legal_moves(game, state)
        if not moves:
            raise AssertionError(
                f"{game.name} seed {seed}: nobody can act but the game is not over"
            )
        undoable = [m for m in moves if m[1] == "undo"]
        others = [m for m in moves if m[1] != "undo"] or undoable
        pool = undoable if undoable and chooser.random() < undo_rate else others
        role, verb, arg = chooser.choice(pool)
        state = game.act(state, role, verb, arg)
        yield Step(role, verb, arg, state)
    raise AssertionError(f"{game.name} seed {seed}: no end after {max_steps} actions")


def replay(game: Game, seed: int, actions: list[Action]) -> dict[str, Any]:
    state = game.setup(seed=seed)
    for role, verb, arg in actions:
        state = game.act(state, role, verb, arg)
    return state


def canonical(document: Any) -> str:
    return json.dumps(document, sort_keys=True)


def play_to_end(game: Game, seed: int, on_step: Callable[[Step], None] | None = None) -> Step:
    last = None
    for step in random_moves(game, seed):
        if on_step is not None:
            on_step(step)
        last = step
    assert last is not None
    return last
