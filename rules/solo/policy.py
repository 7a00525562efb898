"""A simulated solo player: the automated player of golden playthroughs, render tests and
the sandbox's ``auto``.

It answers as a careful player would without a board: rolls the Fate Die for each
automated side while Cards Remaining allows (at most six rounds a turn), plays the first
card the die allows for its first purpose, tells plain facts of unknown cards (the lowest
free number, value 2, no event, the sheet's first kind), declines the optional procedures
and closes the session after turn 3. Stateless: everything it needs is in the view.
"""

from __future__ import annotations

from typing import Any

from rules.core import Arg, Game, View

#: Turns played before the simulated player closes the session.
LAST_TURN = 3
#: Rounds per turn at most (sheets without Cards Remaining would roll for ever).
ROUNDS_PER_TURN = 6
#: Answers in order of preference at any step but the table.
PREFERRED = (
    "played",
    "purpose",
    "flip",
    "number",
    "value",
    "event",
    "kind",
    "playable",
    "across",
    "reward",
    "dragon_discard",
    "done",
)
#: Fixed answers to the questions that ask for facts.
ANSWERS: dict[str, Arg] = {"value": 2, "event": "no", "playable": "yes", "across": "yes"}


def _rounds_this_turn(view: View) -> int:
    rounds = 0
    for line in reversed(view.get("log") or []):
        if line.startswith("# Turn"):
            break
        if line.startswith("# ") and line.endswith(" round"):
            rounds += 1
    return rounds


def choose(game: Game, view: View) -> tuple[str, Arg]:
    """The simulated player's next decision."""
    actions: dict[str, Any] = view["actions"]
    if view["step"] == "table":
        if view["turn"] > LAST_TURN:
            return "end", None
        rollable = actions.get("roll")
        if rollable and _rounds_this_turn(view) < ROUNDS_PER_TURN:
            rounds = _rounds_this_turn(view)
            return "roll", rollable[rounds % len(rollable)]
        return "new_turn", None
    for verb in PREFERRED:
        if verb not in actions:
            continue
        args = actions[verb]
        if args is True:
            return verb, None
        wanted = ANSWERS.get(verb)
        if wanted is not None and wanted in args:
            return verb, wanted
        return verb, args[0]
    verb = next(v for v in actions if v != "undo")
    args = actions[verb]
    return verb, None if args is True else args[0]
