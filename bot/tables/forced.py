"""Forced choices: a decision with one legal action is taken for the player.

War's last placement of a battle has one card left for one column: asking for it costs a
tap and tells the player nothing. After a person's decision, while the same side owes a
decision whose only legal action (undo aside) is one, and that action is
*information-free*, it is taken for them, recorded as its own action (so the game
replays), and the player is told so in their own lines. Information-free means the side
may still take it back afterwards (``undo`` is listed for it): nothing was revealed or
drawn, and who acts has not changed, so nothing was decided that the player could not
see and undo. A lone Done (War's Commit) is never taken: after it the side no longer
acts, so it is no information-free choice but the end of a turn.

A player turns this off with ``/game settings forced_choices:ask`` (kept in
``user_settings.forced``, migration 0024); Dispatch's own seats never get it (their
search keeps its tree between the decisions of a turn, and a move made for them would
break it).
"""

from __future__ import annotations

import json
from typing import Any

import rules

#: The most choices taken for a player after one decision (a bound; War needs one).
MAX_FORCED = 4
#: The two settings: take forced choices for me, or ask me every time.
FORCED_SETTINGS = ("auto", "ask")
DEFAULT_FORCED = "auto"

Action = tuple[str, Any]


def only_action(view: dict[str, Any]) -> Action | None:
    """The one legal action of ``view`` besides undo, or None when there are several
    (or none)."""
    found: list[Action] = []
    for verb, args in (view.get("actions") or {}).items():
        if verb == "undo":
            continue
        if isinstance(args, list):
            found.extend((verb, arg) for arg in args)
        elif args:
            found.append((verb, None))
        if len(found) > 1:
            return None
    return found[0] if found else None


def take_forced(
    rules_game: rules.Game, state: dict[str, Any], role: str
) -> tuple[dict[str, Any], list[Action], list[str]]:
    """The state after every forced, information-free choice of ``role`` is taken (at
    most :data:`MAX_FORCED`), the actions taken, and a line for the player on each."""
    taken: list[Action] = []
    lines: list[str] = []
    while len(taken) < MAX_FORCED and role in rules_game.active_roles(state):
        view = rules_game.view(state, role)
        action = only_action(view)
        if action is None:
            break
        trial = rules_game.act(json.loads(json.dumps(state)), role, *action)
        if role not in rules_game.active_roles(trial):
            break  # the end of the side's turn (a Commit): the player's own decision
        if "undo" not in (rules_game.view(trial, role).get("actions") or {}):
            break  # something was revealed or drawn: the player decides when
        state = trial
        taken.append(action)
        lines.append(f"Your only choice left was made for you: {action_words(view, action)}.")
    return state, taken, lines


def action_words(view: dict[str, Any], action: Action) -> str:
    """The action in the words of its button (the view's label), else its verb and arg."""
    verb, arg = action
    label = (view.get("labels") or {}).get(verb)
    if isinstance(label, dict):
        label = label.get(str(arg))
    if isinstance(label, str) and label:
        return label
    return verb if arg is None else f"{verb} {arg}"
