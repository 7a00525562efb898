"""Card events as data, run by an interpreter that can pause for a choice.

A game describes each event as a list of steps, e.g.::

    [{"op": "remove", "count": 2, "up_to": true, "spaces": ["fort_sumter"]},
     {"op": "place", "count": 3, "spaces": ["fort_sumter"]}]

and gives the interpreter a vocabulary: one :class:`Op` per ``"op"`` name. The position
of the interpreter (which event, which step, the step's scratch data) lives in
``state["events"]``, a stack of frames, so an event can stop to ask a player something,
survive a restart, and resume exactly where it was. Events may start other events (an
objective's event during scoring, say): frames stack.

Flow: a step handler calls :func:`begin_event`; the game's steps table contains an
:class:`EventStep` under the name ``"event"``; when the event's last step is done the
interpreter moves play to the step named ``then``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rules.core.errors import IllegalAction
from rules.core.flow import Step, goto
from rules.core.types import Actions, Arg, State

if TYPE_CHECKING:
    from rules.core.game import Game

Frame = dict[str, Any]
Params = Mapping[str, Any]


class Op:
    """One word of an event vocabulary.

    ``start`` does what needs no decision and returns True when the step is complete; if
    it returns False the interpreter pauses and asks ``chooser`` with ``prompt`` and
    ``actions`` until ``handle`` returns True. ``frame["scratch"]`` is the step's own
    memory (tokens placed so far, say); it is cleared before each step.
    """

    def start(self, game: Game, state: State, frame: Frame, params: Params) -> bool:
        return True

    def chooser(self, game: Game, state: State, frame: Frame, params: Params) -> str:
        role: str = params.get("who", frame["role"])
        if role == "self":
            return str(frame["role"])
        if role == "opponent":
            return game.roles[1 - game.roles.index(frame["role"])]
        return role

    def prompt(self, game: Game, state: State, frame: Frame, params: Params) -> str:
        return ""

    def actions(self, game: Game, state: State, frame: Frame, params: Params) -> Actions:
        return {}

    def label(
        self, game: Game, state: State, frame: Frame, params: Params, verb: str, arg: Arg
    ) -> str:
        return verb if arg is None else f"{verb} {arg}"

    def handle(
        self, game: Game, state: State, frame: Frame, params: Params, verb: str, arg: Arg
    ) -> bool:
        raise IllegalAction(f"'{verb}' is not possible now.")


class EventGame:
    """What a game provides to run events (mixed into its :class:`Game` subclass)."""

    #: The vocabulary: op name -> Op.
    event_ops: Mapping[str, Op] = {}

    def event_steps(self, state: State, source: str) -> Sequence[Params]:
        """The steps of the event called ``source`` (a card id, usually)."""
        raise NotImplementedError


def begin_event(game: Game, state: State, source: str, role: str, then: str) -> None:
    """Start the event ``source`` for ``role``; play goes to step ``then`` when it ends."""
    state.setdefault("events", []).append(
        {"source": source, "role": role, "pc": 0, "started": False, "scratch": {}, "then": then}
    )
    run_events(game, state)


def current_frame(state: State) -> Frame | None:
    stack = state.get("events") or []
    return stack[-1] if stack else None


def _steps(game: Game, state: State, frame: Frame) -> Sequence[Params]:
    if not isinstance(game, EventGame):
        raise TypeError(f"{game.name} does not run events")
    return game.event_steps(state, frame["source"])


def _op(game: Game, params: Params) -> Op:
    if not isinstance(game, EventGame):
        raise TypeError(f"{game.name} does not run events")
    try:
        return game.event_ops[params["op"]]
    except KeyError:
        raise IllegalAction(f"Unknown event step {params.get('op')!r}.") from None


def run_events(game: Game, state: State) -> None:
    """Run event steps until one needs a decision or every event is done."""
    while True:
        frame = current_frame(state)
        if frame is None:
            return
        steps = _steps(game, state, frame)
        if frame["pc"] >= len(steps):
            state["events"].pop()
            goto(game, state, frame["then"])
            return
        params = steps[frame["pc"]]
        op = _op(game, params)
        if not frame["started"]:
            frame["started"] = True
            frame["scratch"] = {}
            if op.start(game, state, frame, params):
                _advance(frame)
                continue
        if current_frame(state) is not frame:
            continue  # the op started a nested event
        state["step"] = "event"
        return


def _advance(frame: Frame) -> None:
    frame["pc"] += 1
    frame["started"] = False
    frame["scratch"] = {}


def skip_rest(state: State) -> None:
    """End the current event early (an op found nothing left to do)."""
    frame = current_frame(state)
    if frame is not None:
        frame["pc"] = 1 << 30


class EventStep(Step):
    """The flow-of-play step in which an event waits for a decision."""

    def _here(self, game: Game, state: State) -> tuple[Frame, Params, Op]:
        frame = current_frame(state)
        if frame is None:
            raise IllegalAction("No event is waiting for a decision.")
        params = _steps(game, state, frame)[frame["pc"]]
        return frame, params, _op(game, params)

    def active(self, game: Game, state: State) -> tuple[str, ...]:
        frame, params, op = self._here(game, state)
        return (op.chooser(game, state, frame, params),)

    def prompt(self, game: Game, state: State, role: str) -> str:
        frame, params, op = self._here(game, state)
        return op.prompt(game, state, frame, params)

    def actions(self, game: Game, state: State, role: str) -> Actions:
        frame, params, op = self._here(game, state)
        return op.actions(game, state, frame, params)

    def label(self, game: Game, state: State, role: str, verb: str, arg: Arg) -> str:
        frame, params, op = self._here(game, state)
        return op.label(game, state, frame, params, verb, arg)

    def handle(self, game: Game, state: State, role: str, verb: str, arg: Arg) -> None:
        frame, params, op = self._here(game, state)
        if op.handle(game, state, frame, params, verb, arg):
            _advance(frame)
        run_events(game, state)
