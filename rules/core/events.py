"""Card events as data, run by an interpreter that can pause for a choice.

A game describes each event as a list of instructions, e.g.::

    [{"op": "remove", "count": 2, "up_to": true, "spaces": ["fort_sumter"]},
     {"op": "place", "count": 3, "spaces": ["fort_sumter"]}]

and gives the interpreter a vocabulary: one :class:`Op` per ``"op"`` name. (In this
project "step" means a state of the flow of play; an event is made of *instructions*.)

An event runs as a procedure on the flow's call stack (see ``rules.core.flow``): it is
called into the game's step named ``"event"`` (an :class:`EventStep`), and its frame's
locals hold its position: which event (``source``), for whom (``role``), which
instruction (``pc``), whether that instruction has started, and the instruction's
``scratch`` memory. So an event can stop to ask a player something, survive a restart,
and resume exactly where it was; when its last instruction is done it returns to the
step its caller named. An op may itself call a procedure (another event, a battle): it
returns False from ``start`` and is told the result through ``resume``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from mypy_extensions import mypyc_attr

from rules.core.errors import IllegalAction
from rules.core.flow import Step, call, frame, local, ret, returned
from rules.core.game import Game
from rules.core.types import Actions, Arg, State

#: The locals of a running event (its frame's data): source, role, pc, started, scratch.
Frame = dict[str, Any]
#: One instruction of an event: ``{"op": name, **parameters}``.
Instruction = Mapping[str, Any]
#: The flow step (and procedure) in which events run.
EVENT = "event"


def _anything(value: Any) -> str | None:
    return None


@dataclass(frozen=True)
class Param:
    """One parameter an op takes: whether every instruction must give it, and ``check``,
    which says what is wrong with a value ("must be 1-8") or returns None when it is fine."""

    required: bool = True
    check: Callable[[Any], str | None] = _anything


@mypyc_attr(allow_interpreted_subclasses=True)
class Op:
    """One word of an event vocabulary.

    ``parameters`` declares the parameters the op takes, so event data can be checked against
    the op itself (:func:`instruction_problems`) before any game runs.

    ``start`` does what needs no decision and returns True when the instruction is
    complete; if it returns False the interpreter pauses and asks ``chooser`` with
    ``prompt`` and ``actions`` until ``handle`` returns True. ``frame["scratch"]`` is the
    instruction's own memory (tokens placed so far, say); it is cleared before each one.
    An op that calls a procedure from ``start`` returns False and gets the procedure's
    return value in ``resume``.
    """

    parameters: ClassVar[Mapping[str, Param]] = {}
    #: Every verb ``actions`` may ever list, so that front ends know the game's words
    #: even when they are not legal now (a word typed at the wrong moment is "not now",
    #: not "unknown").
    verbs: ClassVar[tuple[str, ...]] = ()

    def start(self, game: Game, state: State, frame: Frame, instruction: Instruction) -> bool:
        return True

    def resume(
        self, game: Game, state: State, frame: Frame, instruction: Instruction, value: Any
    ) -> bool:
        """A procedure this op called has returned ``value``: is the instruction done?"""
        return True

    def chooser(self, game: Game, state: State, frame: Frame, instruction: Instruction) -> str:
        role: str = instruction.get("who", frame["role"])
        if role == "self":
            return str(frame["role"])
        if role == "opponent":
            return game.roles[1 - game.roles.index(frame["role"])]
        return role

    def prompt(self, game: Game, state: State, frame: Frame, instruction: Instruction) -> str:
        return ""

    def actions(self, game: Game, state: State, frame: Frame, instruction: Instruction) -> Actions:
        return {}

    def batch(
        self, game: Game, state: State, frame: Frame, instruction: Instruction
    ) -> dict[str, int]:
        """How many args of a verb may be chosen at once (see ``Step.batch``)."""
        return {}

    def repeats(
        self, game: Game, state: State, frame: Frame, instruction: Instruction, verb: str
    ) -> dict[str, int]:
        """How often each arg of a batch verb may be taken in a row (see ``Step.repeats``)."""
        return {}

    def label(
        self, game: Game, state: State, frame: Frame, instruction: Instruction, verb: str, arg: Arg
    ) -> str:
        return verb if arg is None else f"{verb} {arg}"

    def handle(
        self, game: Game, state: State, frame: Frame, instruction: Instruction, verb: str, arg: Arg
    ) -> bool:
        raise IllegalAction(f"'{verb}' is not possible now.")


@mypyc_attr(allow_interpreted_subclasses=True)
class EventGame(Game):
    """A game whose cards carry events: what it provides to run them."""

    #: The vocabulary: op name -> Op.
    event_ops: ClassVar[Mapping[str, Op]] = {}

    def event_instructions(self, state: State, source: str) -> Sequence[Instruction]:
        """The instructions of the event called ``source`` (a card id, usually)."""
        raise NotImplementedError


def instruction_problems(ops: Mapping[str, Op], instruction: Mapping[str, Any]) -> list[str]:
    """Everything wrong with one instruction for the vocabulary ``ops`` (empty if sound)."""
    name = instruction.get("op")
    op = ops.get(str(name))
    if op is None:
        return [f"unknown op {name!r}"]
    problems = [
        f"{name} takes no parameter {key!r}"
        for key in instruction
        if key != "op" and key not in op.parameters
    ]
    for key, param in op.parameters.items():
        if key not in instruction:
            if param.required:
                problems.append(f"{name} needs {key!r}")
            continue
        problem = param.check(instruction[key])
        if problem:
            problems.append(f"{name}: {key} {problem}")
    return problems


def begin_event(game: Game, state: State, source: str, role: str, then: str) -> None:
    """Call the event ``source`` for ``role``; play goes on at step ``then`` when it ends."""
    call(game, state, EVENT, then=then, source=source, role=role, pc=0, started=False, scratch={})


def current_frame(state: State) -> Frame | None:
    """The locals of the innermost running event, or None when no event is running."""
    for entry in reversed(state["calls"]):
        if entry["proc"] == EVENT:
            data: Frame = entry["locals"]
            return data
    return None


def run_events(game: Game, state: State) -> None:
    """Run the innermost event's instructions until one needs a decision (or waits for a
    procedure it called), or the event is over and has returned to its caller."""
    top = frame(state)
    if top["proc"] != EVENT:
        return
    if not isinstance(game, EventGame):
        raise TypeError(f"{game.name} does not run events")
    here: Frame = top["locals"]
    instructions = game.event_instructions(state, here["source"])
    ops = game.event_ops
    while True:
        if here["pc"] >= len(instructions):
            ret(game, state)
            return
        if here["started"]:
            return  # waiting for a decision
        instruction = instructions[here["pc"]]
        op = ops.get(instruction["op"])
        if op is None:
            raise IllegalAction(f"Unknown event instruction {instruction.get('op')!r}.")
        here["started"] = True
        here["scratch"] = {}
        if not op.start(game, state, here, instruction):
            return  # a decision is needed, or a procedure the op called is running
        _advance(here)


def _advance(here: Frame) -> None:
    here["pc"] += 1
    here["started"] = False
    here["scratch"] = {}


@mypyc_attr(allow_interpreted_subclasses=True)
class EventStep(Step):
    """The flow-of-play step in which an event runs and waits for decisions."""

    one_chooser = True  # the op's chooser

    def _here(self, game: Game, state: State) -> tuple[Frame, Instruction, Op]:
        # Asked several times for every decision in an event, so read straight from the
        # innermost frame (the same checks as ``frame``, ``_instructions`` and ``_op``).
        top = state["calls"][-1]
        if top["proc"] != EVENT:
            raise IllegalAction("No event is waiting for a decision.")
        if not isinstance(game, EventGame):
            raise TypeError(f"{game.name} does not run events")
        here: Frame = top["locals"]
        instruction = game.event_instructions(state, here["source"])[here["pc"]]
        op = game.event_ops.get(instruction["op"])
        if op is None:
            raise IllegalAction(f"Unknown event instruction {instruction.get('op')!r}.")
        return here, instruction, op

    def enter(self, game: Game, state: State) -> None:
        here = local(state)
        if here["started"]:
            # Back from a procedure the current instruction called.
            _, instruction, op = self._here(game, state)
            if op.resume(game, state, here, instruction, returned(state)):
                _advance(here)
        run_events(game, state)

    def active(self, game: Game, state: State) -> tuple[str, ...]:
        here, instruction, op = self._here(game, state)
        return (op.chooser(game, state, here, instruction),)

    def prompt(self, game: Game, state: State, role: str) -> str:
        here, instruction, op = self._here(game, state)
        return op.prompt(game, state, here, instruction)

    def actions(self, game: Game, state: State, role: str) -> Actions:
        here, instruction, op = self._here(game, state)
        return op.actions(game, state, here, instruction)

    def batch(self, game: Game, state: State, role: str) -> dict[str, int]:
        here, instruction, op = self._here(game, state)
        return op.batch(game, state, here, instruction)

    def repeats(self, game: Game, state: State, role: str, verb: str) -> dict[str, int]:
        here, instruction, op = self._here(game, state)
        return op.repeats(game, state, here, instruction, verb)

    def label(self, game: Game, state: State, role: str, verb: str, arg: Arg) -> str:
        here, instruction, op = self._here(game, state)
        return op.label(game, state, here, instruction, verb, arg)

    def handle(self, game: Game, state: State, role: str, verb: str, arg: Arg) -> None:
        here, instruction, op = self._here(game, state)
        if op.handle(game, state, here, instruction, verb, arg):
            _advance(here)
            run_events(game, state)
        # Otherwise the instruction is still waiting for a decision (or for a procedure
        # it called, which has run up to its own decision): running on would stop at once.


def frames_from_version_1(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Call frames for the event stack a version-1 state kept in ``state["events"]``."""
    frames = []
    for old in events:
        here = {k: v for k, v in old.items() if k != "then"}
        frames.append({"proc": EVENT, "then": old["then"], "locals": here})
    return frames
