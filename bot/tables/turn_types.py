"""What the modules of a turn hand each other: the decision as checked at the door
(``CheckedMove``), the game as the turn's transaction read it (``Table``), how its state
came to change (``Commit``) and what the change did (``Progress``).

Kept apart from ``turn.py`` so that the turn's parts (``turn_checks``, ``applying``,
``turn_post``, ``turn_notices``) and the lobby, which commits a game's start as a turn,
name them without importing the turn itself.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

import rules
from bot.delivery.port import View
from bot.storage.rows import ClockRow, GameRow, SeatRow


@dataclasses.dataclass(frozen=True)
class CheckedMove:
    """One decision as a player sent it, its values already checked."""

    user_id: str
    verb: str
    arg: Any = None
    #: The game version the button was drawn at (None: a typed command, never stale).
    expected_version: int | None = None
    #: Which of the user's seats acts (hot-seat games); None: the only or active one.
    role: str | None = None
    #: Further args of the same verb chosen in the same interaction (a multi-choice
    #: select): applied after ``arg``, in order, all or nothing.
    more: tuple[Any, ...] = ()


@dataclasses.dataclass
class Progress:
    """What a change did, for the ``ActResult`` of whoever made it."""

    active_now: tuple[str, ...]
    outcome: Mapping[str, Any] | None
    turn_passed: bool
    acting_view: View | None = None
    acting_private_lines: tuple[str, ...] = ()
    turn_started_at: float | None = None


@dataclasses.dataclass(frozen=True)
class Table:
    """The game a commit changes, as read in its transaction."""

    row: GameRow
    seats: Sequence[SeatRow]
    rules_game: rules.Game


@dataclasses.dataclass(frozen=True)
class Commit:
    """How the state came to change: who acted, who was to act before, and the channel's
    reminder default."""

    acting_role: str | None
    active_before: tuple[str, ...]
    default_reminder_hours: float
    start: bool = False
    undo: bool = False
    #: The game's clocks as the turn read them (None: to be read).
    clocks: Sequence[ClockRow] | None = None
