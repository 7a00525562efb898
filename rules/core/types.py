"""Type aliases shared by every rules engine.

A game state is one plain JSON document; views are JSON documents too. We keep the
aliases loose (``dict[str, Any]``) because each game owns the shape of its own state,
and strict typing inside a game comes from its own helpers.
"""

from __future__ import annotations

from typing import Any, TypeAlias, TypedDict

State: TypeAlias = dict[str, Any]
View: TypeAlias = dict[str, Any]
Arg: TypeAlias = int | str | None
#: Every legal action now: a verb maps to the list of its legal args, or to True when
#: the verb takes no argument.
Actions: TypeAlias = dict[str, list[int | str] | bool]


class Outcome(TypedDict):
    """How a game ended, as the state keeps it (plain JSON) and ``Game.outcome`` returns it."""

    #: The winning role, or None for a draw.
    winner: str | None
    #: Why, for programs: a short code such as ``"no_forces"`` or ``"vp"``, one per way
    #: the game can end. Games finished before codes existed read as ``"unrecorded"``.
    code: str
    #: Why, for people: the same in words ("the Confederacy has no forces left").
    reason: str
    #: The final score by role (and any other counts the game reports).
    score: dict[str, Any]


#: The code of an outcome stored before outcomes had one.
UNRECORDED = "unrecorded"
#: Endings the table decides, not the rules: a player resigned, a player's clock ran out.
RESIGNED = "resigned"
TIMEOUT = "timeout"
#: The codes any game may end with besides its own ``Game.outcome_codes``.
TABLE_OUTCOMES = frozenset({RESIGNED, TIMEOUT, UNRECORDED})
