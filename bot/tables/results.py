"""What the GameManager returns to its callers (the Discord cogs, the sandbox, tests).

These are the manager's own answers, not the delivery port's: delivery never sees them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.delivery.port import GameInfo, View


@dataclass(frozen=True)
class ActResult:
    """The outcome of one applied action, for the acting player's own reply."""

    game: GameInfo
    role: str
    #: The game version after the action (use it as the next ``expected_version``).
    version: int
    #: The acting role's new view: prompt, actions, hidden information.
    view: View
    #: True when the set of active roles changed or the game ended (a table post went out).
    turn_passed: bool
    active_roles: tuple[str, ...]
    outcome: dict[str, Any] | None = None
    #: New private log lines for the acting role (shown only to them).
    private_log_lines: tuple[str, ...] = ()


@dataclass(frozen=True)
class PlayerView:
    """What one user may see of a game now (``role`` None: an observer)."""

    game: GameInfo
    role: str | None
    version: int
    view: View


@dataclass(frozen=True)
class UserGame:
    """One line of a player's "my games" list."""

    game: GameInfo
    roles: tuple[str, ...]
    #: True when one of this user's roles owes a decision.
    my_turn: bool
    #: User ids the game is waiting for.
    waiting_on: tuple[str, ...]
    #: Epoch seconds since the current decision has been waiting.
    since: float | None


@dataclass(frozen=True)
class AbandonResult:
    game: GameInfo
    #: True when the game is now abandoned; else it still waits for ``waiting_on``.
    abandoned: bool
    waiting_on: tuple[str, ...] = ()


@dataclass(frozen=True)
class ChannelSettings:
    channel_id: str
    reminder_hours: float


@dataclass(frozen=True)
class Standing:
    """One line of a leaderboard (``manager.records.leaderboard``)."""

    rank: int
    #: A user id, or one of Dispatch's levels ("Dispatch (hard)").
    player_id: str
    points: int
    games: int
    wins: int
