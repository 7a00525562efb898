"""Undo: a stack of snapshots that new information wipes out.

Before each action the engine takes a snapshot of the state; afterwards it keeps the
snapshot on ``state["undo"]`` unless the action *sealed* the state: revealed hidden
information, drew from the random generator, or passed the decision to another role.
``undo`` restores the newest snapshot, and only its own author may take it, so a player
can step back through their own small decisions but never un-see a card or take back a
move the opponent has already answered.
"""

from __future__ import annotations

import json
from typing import Any

from rules.core.types import State


def seal(state: State) -> None:
    """Mark that new information arrived: nothing before this point may be undone."""
    state["undo"] = []
    state["seal"] = int(state.get("seal", 0)) + 1


def snapshot(state: State) -> dict[str, Any]:
    """A deep copy of the state without its own undo stack."""
    copy: dict[str, Any] = json.loads(json.dumps({k: v for k, v in state.items() if k != "undo"}))
    return copy


def push(state: State, role: str, before: dict[str, Any]) -> None:
    """Remember ``before`` as the point ``role`` may return to."""
    state.setdefault("undo", []).append({"role": role, "state": before})


def can_undo(state: State, role: str) -> bool:
    stack = state.get("undo") or []
    return bool(stack) and stack[-1]["role"] == role


def restore(state: State) -> None:
    """Step back to the newest snapshot, in place."""
    stack = state["undo"]
    entry = stack.pop()
    rest = stack
    state.clear()
    state.update(entry["state"])
    state["undo"] = rest
