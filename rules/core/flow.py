"""The flow of play as a table of named steps.

Each game keeps a table ``{name: Step}``; ``state["step"]`` names the current one. A step
says who must decide (``active``), what to tell them (``prompt``), what they may do
(``actions``) and, through one ``on_<verb>`` method per verb, what each decision does.
``enter`` does the automatic work on arrival (deal, score, check breaches) and usually
moves on with ``goto``. Reading a game's steps in order should read like the sequence of
play of its rulebook.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.core.errors import IllegalAction
from rules.core.types import Actions, Arg, State

if TYPE_CHECKING:
    from rules.core.game import Game


class Step:
    """One named state of the flow of play. Subclasses override what they need."""

    def enter(self, game: Game, state: State) -> None:
        """Automatic work when play arrives here. Default: wait for decisions."""

    def active(self, game: Game, state: State) -> tuple[str, ...]:
        """Roles that owe a decision in this step."""
        return ()

    def prompt(self, game: Game, state: State, role: str) -> str:
        """What ``role`` is asked to do (only called for active roles)."""
        return ""

    def actions(self, game: Game, state: State, role: str) -> Actions:
        """Every legal action of ``role`` now (only called for active roles)."""
        return {}

    def status(self, game: Game, state: State) -> str:
        """A public line saying what the table is waiting for."""
        waiting = game.active_roles(state)
        if not waiting:
            return ""
        names = " and ".join(game.role_name(r) for r in waiting)
        return f"Waiting for {names}."

    def label(self, game: Game, state: State, role: str, verb: str, arg: Arg) -> str:
        """Button text for one action; the default is the verb and its argument."""
        return verb if arg is None else f"{verb} {arg}"

    def handle(self, game: Game, state: State, role: str, verb: str, arg: Arg) -> None:
        """Run the handler ``on_<verb>`` of this step."""
        handler: Any = getattr(self, f"on_{verb}", None)
        if handler is None:
            raise IllegalAction(f"'{verb}' is not possible now.")
        handler(game, state, role, arg)


def goto(game: Game, state: State, name: str) -> None:
    """Move play to step ``name`` and run its automatic work."""
    if name not in game.steps:
        raise KeyError(f"{game.name}: no step named {name!r}")
    state["step"] = name
    game.steps[name].enter(game, state)
