"""What the front ends ask of the GameManager when it takes more than a few values: a game
to open (``NewGame``, for ``GameManager.create_game``) and a decision to apply (``Move``,
for ``GameManager.act``).

The values are as a player gave them: the manager checks each one (``validate``) before
anything is read or written, so a bad one is refused politely and changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class NewGame:
    """A game to open in a channel (the channel, the server and the creator are given
    beside it)."""

    game_name: str
    options: dict[str, Any] | None = None
    #: A chosen seed (a practice game, never rated); None: a secret random one.
    seed: int | None = None
    #: The creator's role, ``"random"``, or None for the first role.
    seat: str | None = None
    #: Takes the next free role (the game then starts at once if every role is seated).
    opponent_id: str | None = None
    #: One user may hold several seats (the sandbox, testing).
    hotseat: bool = False
    #: The opponent's side is run by the Fate Die (the game's ``fate`` option set to that
    #: side; Fort Sumter and Lincoln have a playsheet for it).
    fate: bool = False
    #: The time control: ``none`` (the default), ``relaxed``,
    #: ``standard``, ``fast`` or written like ``3d+1d/7d`` (``bot.tables.clocks``);
    #: None: the server's default clock, if it has one and the game may take it.
    clock: str | None = None


@dataclass(frozen=True)
class Move:
    """One decision as a player sends it: the verb and its argument, as the view lists
    them."""

    verb: str
    arg: Any = None
    #: The game version the button was drawn at (None: a typed command, never stale).
    expected_version: int | None = None
    #: Which of the user's seats acts (hot-seat games); None: the only or active one.
    role: str | None = None
    #: Further args of the same verb picked in the same interaction (see the view's
    #: ``batch``), applied in order as separate small actions, all or nothing.
    more: Sequence[Any] = ()
