"""Undo: a stack of snapshots that new information wipes out.

Before each action the engine takes a snapshot of the state; afterwards it keeps the
snapshot on ``state["undo"]`` unless the action *sealed* the state (revealed hidden
information or drew from the random generator: ``state["seal"]`` counts these) or
passed the decision to another role (a *hand-over*, which empties the stack the same
way but is not counted).
``undo`` restores the newest snapshot, and only its own author may take it, so a player
can step back through their own small decisions but never un-see a card or take back a
move the opponent has already answered.

A snapshot is cheap: a structural copy of the JSON data (no serialising round trip), and
without the logs. The public and private logs only ever grow, so a snapshot keeps just
their lengths, and restoring cuts them back to those lengths. Simulations that never
undo skip snapshots altogether (``Game.act(..., record_undo=False)``).
"""

from __future__ import annotations

import marshal
from typing import Any

from rules.core.types import State

#: The append-only logs: a snapshot keeps their lengths (and their place among the keys,
#: so a restored state serialises exactly as before), not their lines.
_LOGS = ("log", "private_log")


def seal(state: State) -> None:
    """Mark that new information arrived: nothing before this point may be undone.
    ``state["seal"]`` counts these moments (the engine compares it before and after a
    decision to see whether the decision revealed anything)."""
    state["undo"] = []
    # An int wherever it is kept (set up as 0, counted on by ``rng.shuffle`` too): a search
    # seals at every draw, so no conversion here.
    state["seal"] = state.get("seal", 0) + 1


def hand_over(state: State) -> None:
    """The decision passed to another role (or the game ended): nothing before this point
    may be undone. No information arrived, so the seal count stays as it is."""
    state["undo"] = []


def copy_json(value: Any) -> Any:
    """A deep copy of JSON data (dicts, lists and immutable scalars).

    A dict or list goes through ``marshal`` (a round trip in C that keeps every type and
    the order of every dict's keys: about twice as fast as a walk in Python, and several
    times faster than ``copy.deepcopy`` or ``json``); anything ``marshal`` refuses (an
    object that is not JSON data) falls back on the walk, which shares what it does not
    know."""
    kind = type(value)
    if kind is dict or kind is list:
        try:
            return marshal.loads(marshal.dumps(value))
        except ValueError:
            return _walk(value)
    return value


def _walk(value: Any) -> Any:
    """:func:`copy_json` in Python: dicts and lists copied, everything else shared."""
    kind = type(value)
    if kind is dict:
        return {key: _walk(item) for key, item in value.items()}
    if kind is list:
        return [_walk(item) for item in value]
    return value


def snapshot(state: State) -> dict[str, Any]:
    """What ``restore`` needs to bring ``state`` back to this moment."""
    copied = {k: None if k in _LOGS else copy_json(v) for k, v in state.items() if k != "undo"}
    return {
        "state": copied,
        "log": len(state["log"]),
        "private_log": {role: len(lines) for role, lines in state["private_log"].items()},
    }


def push(state: State, role: str, before: dict[str, Any]) -> None:
    """Remember the snapshot ``before`` as the point ``role`` may return to."""
    state.setdefault("undo", []).append({"role": role, **before})


def restore(state: State) -> None:
    """Step back to the newest snapshot, in place."""
    stack = state["undo"]
    entry = stack.pop()
    log: list[str] = state["log"]
    del log[entry["log"] :]
    private = state["private_log"]
    for role, lines in private.items():
        del lines[entry["private_log"].get(role, 0) :]
    for role in [r for r in private if r not in entry["private_log"]]:
        del private[role]
    state.clear()
    state.update(entry["state"])
    state["log"] = log
    state["private_log"] = private
    state["undo"] = stack


def settled(state: State) -> State:
    """The state as it was before the oldest decision that may still be taken back: what
    the other side and onlookers may know of the game, since a player's decisions up to
    a hand-over or a seal are theirs to take back unseen. ``state`` itself is unchanged
    (the answer shares the snapshot's data: read it, never change it)."""
    stack = state.get("undo")
    if not stack:
        return state
    if "log" not in stack[0]:  # a whole copy, logs included (``from_full_copy``)
        return {**stack[0]["state"], "undo": []}
    oldest = {
        **state,
        "undo": [stack[0]],
        "log": list(state["log"]),
        "private_log": {role: list(lines) for role, lines in state["private_log"].items()},
    }
    restore(oldest)
    return oldest


def from_full_copy(entry: dict[str, Any]) -> dict[str, Any]:
    """An undo entry of the old kind (``{"role", "state"}`` with a whole copy, logs
    included) in today's form; the logs of the copy are prefixes of the live logs."""
    if "log" in entry:
        return entry
    copied = dict(entry["state"])
    log, private = copied["log"], copied["private_log"]
    copied.update(log=None, private_log=None)
    return {
        "role": entry["role"],
        "state": copied,
        "log": len(log),
        "private_log": {role: len(lines) for role, lines in private.items()},
    }
