"""The flow of play as a table of named steps, with a call stack for sub-procedures.

Each game keeps a table ``{name: Step}``; ``state["step"]`` names the current one. A step
says who must decide (``active``), what to tell them (``prompt``), what they may do
(``actions``) and, through one ``on_<verb>`` method per verb, what each decision does.
``enter`` does the automatic work on arrival (deal, score, check breaches) and usually
moves on with ``goto``. Reading a game's steps in order should read like the sequence of
play of its rulebook.

A procedure the rules run from several places (process breaches, carry out an event, a
battle with its retreats) is *called*: :func:`call` pushes a frame holding the
procedure's own locals and the step the caller continues at, and goes to the
procedure's first step; the procedure moves between its own steps with ``goto`` (its
locals stay with it) and ends with :func:`ret`, which pops the frame and goes to the
caller's continuation. Frames live in ``state["calls"]``, innermost last, so a procedure
can wait for a decision, survive a reload, and call further procedures: nesting is just
a deeper stack. ``state["step"]`` is the position of the innermost frame. The bottom
frame belongs to the game's main sequence and is never popped.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from mypy_extensions import mypyc_attr

from rules.core.errors import IllegalAction
from rules.core.types import Actions, Arg, State

if TYPE_CHECKING:
    from rules.core.game import Game

#: An ``on_<verb>`` method of a step, taken from its class: the step, the game, the state,
#: the deciding role and the decision's argument. Every call through ``Step.handlers``
#: is checked against this, and each handler's own signature where it is defined.
Handler = Callable[[Any, "Game", State, str, Arg], None]


@mypyc_attr(allow_interpreted_subclasses=True)
class Step:
    """One named state of the flow of play. Subclasses override what they need."""

    #: True when ``active`` always names exactly one role: then the role that decides
    #: here is that role, and ``Game._apply`` need not ask ``active`` before the handler.
    one_chooser: ClassVar[bool] = False
    #: ``{verb: on_<verb>}``, every handler of the class, for ``handle``; collected when
    #: the class is defined, so handlers belong in the class body.
    handlers: ClassVar[dict[str, Handler]] = {}
    #: False when the class keeps the default ``enter`` (nothing to do on arrival), so
    #: that ``goto`` need not call it.
    enters: ClassVar[bool] = False
    #: True when the class overrides ``handle``: then a playout (``Game.playout``) calls
    #: ``handle``, where otherwise it calls the handler from ``handlers`` itself.
    own_handle: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # The verbs a step handles are the names of its methods, found once here; the
        # handlers are then called through the typed table, never looked up by name.
        cls.handlers = {name[3:]: getattr(cls, name) for name in dir(cls) if name.startswith("on_")}
        cls.enters = cls.enter is not Step.enter
        cls.own_handle = cls.handle is not Step.handle

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

    def batch(self, game: Game, state: State, role: str) -> dict[str, int]:
        """Verbs of which ``role`` may choose several args at once, and how many at most
        (e.g. "place up to 3 tokens": ``{"place": 3}``). Each is still applied as its own
        small action, in order, so undo steps back one of them; front ends use this to
        offer one multi-choice control instead of a click per token."""
        return {}

    def repeats(self, game: Game, state: State, role: str, verb: str) -> dict[str, int]:
        """For a ``batch`` verb: how many times each arg may be taken in a row, where more
        than once (two tokens in the same space). Front ends offer that many picks of it."""
        return {}

    def done_implied(self, game: Game, state: State, role: str) -> bool:
        """True when ``done`` is listed only as a formality: nothing is left to choose here
        (e.g. "place up to 0 tokens more"). The rules still wait for the ``done`` (so
        every recorded game replays as it was played); front ends send it for the player
        in the same decision, where a step that asks for a real confirmation says False."""
        return False

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
        handler = self.handlers.get(verb)
        if handler is None:
            raise IllegalAction(f"'{verb}' is not possible now.")
        handler(self, game, state, role, arg)


Frame = dict[str, Any]


def goto(game: Game, state: State, name: str) -> None:
    """Move play to step ``name`` (in the same procedure) and run its automatic work."""
    try:
        step = game.steps[name]
    except KeyError:
        raise KeyError(f"{game.name}: no step named {name!r}") from None
    state["step"] = name
    if step.enters:
        step.enter(game, state)


def main_frame() -> Frame:
    """The bottom frame of a new game's call stack."""
    return {"proc": "", "then": None, "locals": {}}


def call(game: Game, state: State, name: str, *, then: str, **local: Any) -> None:
    """Run the procedure that starts at step ``name`` with its own ``local`` data (JSON);
    when it returns, play goes on at step ``then`` of the caller."""
    if then not in game.steps:
        raise KeyError(f"{game.name}: no step named {then!r}")
    state["calls"].append({"proc": name, "then": then, "locals": dict(local)})
    goto(game, state, name)


def ret(game: Game, state: State, value: Any = None) -> None:
    """End the innermost procedure; ``value`` (JSON, optional) is left for the caller to
    read with :func:`returned`."""
    calls = state["calls"]
    if len(calls) < 2:
        raise RuntimeError(f"{game.name}: return from the main sequence of play")
    frame = calls.pop()
    if value is not None:
        calls[-1]["locals"]["returned"] = value
    goto(game, state, frame["then"])


def frame(state: State) -> Frame:
    """The innermost frame of the call stack."""
    top: Frame = state["calls"][-1]
    return top


def local(state: State) -> dict[str, Any]:
    """The locals of the innermost procedure (a live dict: writes stay in the state)."""
    data: dict[str, Any] = state["calls"][-1]["locals"]
    return data


def returned(state: State) -> Any:
    """Take the value the last procedure called from here returned (None if none)."""
    return local(state).pop("returned", None)


def depth(state: State) -> int:
    """How many procedures are running above the main sequence."""
    return len(state["calls"]) - 1
