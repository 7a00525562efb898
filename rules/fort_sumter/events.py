"""The event vocabulary of Fort Sumter, run by the core event interpreter.

Every card event (strategy and objective) is a list of instructions in the data files,
e.g.::

    {"op": "remove", "count": 2, "up_to": true, "side": "opponent",
     "where": {"dimension": "armaments"}}

Ops (parameters in brackets are optional; each op declares them in ``parameters``, and every
card's instructions are checked against those declarations when this module loads):

- ``place`` count, up_to, where [per_space, if_control]: place own tokens, one per action.
- ``remove`` count, up_to, side, where [if_control]: remove tokens of ``side`` ("self" or
  "opponent", seen from the card's player) into their owner's pool, one per action.
- ``move`` count, up_to, side, from, to [if_control]: move tokens of ``side`` between
  spaces, one per action in two small decisions (``from`` a space, then ``to`` a space).
- ``peace_commissioner`` where [if_control]: place (or move) the Peace Commissioner.

``where``/``from``/``to`` name spaces: ``{"spaces": [...]}``, ``{"dimension": id}`` or
``{"anywhere": true}``. With ``up_to`` the player may stop at any point with ``done``
("up to" allows zero); without it the instruction goes on until ``count`` is reached or
nothing more is possible (no token left, every space full or blocked), then ends by
itself. A mandatory placement with a single possible space is carried out without asking.
``if_control`` skips the instruction unless the card's player controls that space when
it begins. The Peace Commissioner blocks placement and removal in its space, so spaces it
occupies are never offered.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from rules.core import (
    Actions,
    Arg,
    IllegalAction,
    Op,
    Param,
    State,
    instruction_problems,
    log,
    telling,
)
from rules.core.events import Frame, Instruction
from rules.fort_sumter import board
from rules.fort_sumter.cards import (
    DIMENSIONS,
    OBJECTIVES,
    SPACES,
    STRATEGY,
    DataError,
    space_name,
)
from rules.fort_sumter.tracks import ROLE_NAMES

if TYPE_CHECKING:
    from rules.core import Game


# ------------------------------------------------------------- parameters and checks

#: Whose tokens, seen from the card's player.
SIDES = ("self", "opponent")


def _count_check(value: Any) -> str | None:
    ok = isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 8
    return None if ok else "must be 1-8"


def _flag_check(value: Any) -> str | None:
    return None if isinstance(value, bool) else "must be true or false"


def _per_space_check(value: Any) -> str | None:
    ok = isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 4
    return None if ok else "must be 1-4"


def _side_check(value: Any) -> str | None:
    return None if value in SIDES else f"must be one of {SIDES}"


def _space_check(value: Any) -> str | None:
    return None if value in SPACES else f"names an unknown space {value!r}"


def _where_check(where: Any) -> str | None:
    """A place: ``{"spaces": [...]}``, ``{"dimension": id}`` or ``{"anywhere": true}``."""
    if not isinstance(where, dict) or len(where) != 1:
        return "must be one of spaces/dimension/anywhere"
    ((kind, value),) = where.items()
    if kind == "spaces":
        if not isinstance(value, list) or not value:
            return "'spaces' must be a non-empty list"
        unknown = [s for s in value if s not in SPACES]
        return f"names unknown spaces {unknown}" if unknown else None
    if kind == "dimension":
        return None if value in DIMENSIONS else f"names an unknown dimension {value!r}"
    if kind == "anywhere":
        return None if value is True else "'anywhere' must be true"
    return f"has an unknown place kind {kind!r}"


COUNT = Param(check=_count_check)
UP_TO = Param(check=_flag_check)
SIDE = Param(check=_side_check)
PLACE = Param(check=_where_check)
IF_CONTROL = Param(required=False, check=_space_check)


def source_title(source: str) -> str:
    if source in STRATEGY:
        return STRATEGY[source].title
    return f"{OBJECTIVES[source].title} objective"


def source_text(source: str) -> str:
    if source in STRATEGY:
        return STRATEGY[source].text
    return OBJECTIVES[source].text


def _spaces(where: Mapping[str, Any]) -> tuple[str, ...]:
    """``board.resolve_where(where)``, worked out once for each place named in the card
    data (those dicts live as long as the process, so their ids stay theirs)."""
    known = _RESOLVED.get(id(where))
    return known if known is not None else tuple(board.resolve_where(where))


def _player(frame: Frame) -> str:
    return str(frame["role"])


def _side(frame: Frame, instruction: Instruction) -> str:
    role = _player(frame)
    return role if instruction.get("side", "self") == "self" else board.opponent(role)


def _count(instruction: Instruction) -> int:
    return int(instruction.get("count", 1))


def _done(frame: Frame) -> int:
    return int(frame["scratch"].get("n", 0))


def _left(frame: Frame, instruction: Instruction) -> int:
    # ``_count(instruction) - _done(frame)``, asked for every list of actions
    return int(instruction.get("count", 1)) - int(frame["scratch"].get("n", 0))


def _noun(n: int) -> str:
    return "token" if n == 1 else "tokens"


def _skipped(state: State, frame: Frame, instruction: Instruction) -> bool:
    space = instruction.get("if_control")
    return space is not None and board.controller(state, space) != _player(frame)


def _log_skip(state: State, frame: Frame, why: str) -> None:
    if telling(state):
        log(state, f"{source_title(frame['source'])}: {why}; that part is skipped.")


def _header(frame: Frame) -> str:
    return f"{source_title(frame['source'])}: {source_text(frame['source'])}"


class _TokenOp(Op):
    """Shared shape of the one-token-per-action ops."""

    verb = ""

    def targets(self, state: State, frame: Frame, instruction: Instruction) -> list[str]:
        raise NotImplementedError

    def apply(self, state: State, frame: Frame, instruction: Instruction, space: str) -> None:
        raise NotImplementedError

    def start(self, game: Game, state: State, frame: Frame, instruction: Instruction) -> bool:
        frame["scratch"]["n"] = 0
        if _skipped(state, frame, instruction):
            _log_skip(state, frame, "its condition is not met")
            return True
        if not self.targets(state, frame, instruction):
            if telling(state):
                preposition = "in" if self.verb == "place" else "from"
                where = board.describe_where(instruction["where"])
                _log_skip(state, frame, f"no token can be {self.verb}d {preposition} {where}")
            return True
        return False

    def _finished(self, state: State, frame: Frame, instruction: Instruction) -> bool:
        return _left(frame, instruction) <= 0 or not self.targets(state, frame, instruction)

    def actions(self, game: Game, state: State, frame: Frame, instruction: Instruction) -> Actions:
        actions: Actions = {}
        targets = self.targets(state, frame, instruction)
        if targets and _left(frame, instruction) > 0:
            actions[self.verb] = list(targets)
        if instruction.get("up_to", True) or not actions:
            actions["done"] = True
        return actions

    def handle(
        self, game: Game, state: State, frame: Frame, instruction: Instruction, verb: str, arg: Arg
    ) -> bool:
        if verb == "done":
            return True
        # Game.act hands over only a listed action: ``arg`` is one of the targets.
        if verb != self.verb:
            raise IllegalAction(f"'{verb} {arg}' is not possible now.")
        self.apply(state, frame, instruction, str(arg))
        frame["scratch"]["n"] = _done(frame) + 1
        return self._finished(state, frame, instruction)

    def batch(
        self, game: Game, state: State, frame: Frame, instruction: Instruction
    ) -> dict[str, int]:
        return {self.verb: _left(frame, instruction)}

    def repeats(
        self, game: Game, state: State, frame: Frame, instruction: Instruction, verb: str
    ) -> dict[str, int]:
        left = _left(frame, instruction)
        return {
            s: min(left, self.capacity(state, frame, instruction, s))
            for s in self.targets(state, frame, instruction)
        }

    def capacity(self, state: State, frame: Frame, instruction: Instruction, space: str) -> int:
        """How many times in a row this op could act on ``space``."""
        return 1

    def label(
        self, game: Game, state: State, frame: Frame, instruction: Instruction, verb: str, arg: Arg
    ) -> str:
        if verb == "done":
            return "Done" if _done(frame) else "Skip"
        return self.describe(state, frame, instruction, str(arg))

    def describe(self, state: State, frame: Frame, instruction: Instruction, space: str) -> str:
        return f"{self.verb} {space}"


class PlaceOp(_TokenOp):
    verb = "place"
    verbs = ("place", "done")
    parameters: ClassVar[Mapping[str, Param]] = {
        "count": COUNT,
        "up_to": UP_TO,
        "where": PLACE,
        "per_space": Param(required=False, check=_per_space_check),
        "if_control": IF_CONTROL,
    }

    def capacity(self, state: State, frame: Frame, instruction: Instruction, space: str) -> int:
        role = _player(frame)
        limit = instruction.get("per_space")
        done_here = frame["scratch"].get("per", {}).get(space, 0)
        most = min(board.room(state, role, space), board.supply(state, role))
        return most if limit is None else min(most, int(limit) - done_here)

    def targets(self, state: State, frame: Frame, instruction: Instruction) -> list[str]:
        spaces = board.placeable(state, frame["role"], _spaces(instruction["where"]))
        limit = instruction.get("per_space")
        if limit is None:
            return spaces
        per = frame["scratch"].get("per", {})
        return [s for s in spaces if per.get(s, 0) < limit]

    def start(self, game: Game, state: State, frame: Frame, instruction: Instruction) -> bool:
        if super().start(game, state, frame, instruction):
            return True
        # A mandatory placement into a single space needs no decision.
        if not instruction.get("up_to", True) and len(_spaces(instruction["where"])) == 1:
            (space,) = _spaces(instruction["where"])
            while not self._finished(state, frame, instruction):
                self.apply(state, frame, instruction, space)
                frame["scratch"]["n"] = _done(frame) + 1
            return True
        return False

    def apply(self, state: State, frame: Frame, instruction: Instruction, space: str) -> None:
        board.place(state, _player(frame), space)
        per = frame["scratch"].setdefault("per", {})
        per[space] = per.get(space, 0) + 1
        if telling(state):
            log(state, f"{ROLE_NAMES[_player(frame)]} places a token in {space_name(space)}.")

    def describe(self, state: State, frame: Frame, instruction: Instruction, space: str) -> str:
        return f"Place a token in {space_name(space)}"

    def prompt(self, game: Game, state: State, frame: Frame, instruction: Instruction) -> str:
        left = _left(frame, instruction)
        word = "up to " if instruction.get("up_to", True) else ""
        where = board.describe_where(instruction["where"])
        return f"{_header(frame)}\nPlace {word}{left} more {_noun(left)} in {where}."


class RemoveOp(_TokenOp):
    verb = "remove"
    verbs = ("remove", "done")
    parameters: ClassVar[Mapping[str, Param]] = {
        "count": COUNT,
        "up_to": UP_TO,
        "side": SIDE,
        "where": PLACE,
        "if_control": IF_CONTROL,
    }

    def targets(self, state: State, frame: Frame, instruction: Instruction) -> list[str]:
        side = _side(frame, instruction)
        return board.removable(state, side, _spaces(instruction["where"]))

    def capacity(self, state: State, frame: Frame, instruction: Instruction, space: str) -> int:
        return board.tokens(state, space, _side(frame, instruction))

    def apply(self, state: State, frame: Frame, instruction: Instruction, space: str) -> None:
        side = _side(frame, instruction)
        board.remove(state, side, space)
        if not telling(state):
            return
        log(
            state,
            f"{ROLE_NAMES[_player(frame)]} removes a {ROLE_NAMES[side]} token "
            f"from {space_name(space)}.",
        )

    def describe(self, state: State, frame: Frame, instruction: Instruction, space: str) -> str:
        return f"Remove a {ROLE_NAMES[_side(frame, instruction)]} token from {space_name(space)}"

    def prompt(self, game: Game, state: State, frame: Frame, instruction: Instruction) -> str:
        left = _left(frame, instruction)
        word = "up to " if instruction.get("up_to", True) else ""
        side = ROLE_NAMES[_side(frame, instruction)]
        where = board.describe_where(instruction["where"])
        return f"{_header(frame)}\nRemove {word}{left} more {side} {_noun(left)} from {where}."


class MoveOp(Op):
    """Move tokens one at a time: pick the space to take one ``from``, then ``to``."""

    verbs = ("from", "to", "done")

    parameters: ClassVar[Mapping[str, Param]] = {
        "count": COUNT,
        "up_to": UP_TO,
        "side": SIDE,
        "from": PLACE,
        "to": PLACE,
        "if_control": IF_CONTROL,
    }

    def _sources(self, state: State, frame: Frame, instruction: Instruction) -> list[str]:
        side = _side(frame, instruction)
        room = board.with_room(state, side, _spaces(instruction["to"]), None)
        return [
            s
            for s in board.removable(state, side, _spaces(instruction["from"]))
            # a token can move when some space other than its own has room for it
            if len(room) > 1 or (room and room[0] != s)
        ]

    def _targets(
        self, state: State, frame: Frame, instruction: Instruction, source: str
    ) -> list[str]:
        return board.with_room(state, _side(frame, instruction), _spaces(instruction["to"]), source)

    def _finished(self, state: State, frame: Frame, instruction: Instruction) -> bool:
        return _left(frame, instruction) <= 0 or not self._sources(state, frame, instruction)

    def start(self, game: Game, state: State, frame: Frame, instruction: Instruction) -> bool:
        frame["scratch"].update({"n": 0, "from": None})
        if _skipped(state, frame, instruction):
            _log_skip(state, frame, "its condition is not met")
            return True
        if not self._sources(state, frame, instruction):
            if telling(state):
                where = board.describe_where(instruction["from"])
                _log_skip(state, frame, f"no token can be moved from {where}")
            return True
        return False

    def actions(self, game: Game, state: State, frame: Frame, instruction: Instruction) -> Actions:
        source = frame["scratch"].get("from")
        if source is not None:
            return {"to": list(self._targets(state, frame, instruction, source))}
        actions: Actions = {}
        sources = self._sources(state, frame, instruction)
        if sources and _left(frame, instruction) > 0:
            actions["from"] = list(sources)
        if instruction.get("up_to", True) or not actions:
            actions["done"] = True
        return actions

    def handle(
        self, game: Game, state: State, frame: Frame, instruction: Instruction, verb: str, arg: Arg
    ) -> bool:
        scratch: dict[str, Any] = frame["scratch"]
        if verb == "done" and scratch.get("from") is None:
            return True
        if verb == "from" and arg in self._sources(state, frame, instruction):
            scratch["from"] = str(arg)
            return False
        source = scratch.get("from")
        if (
            verb == "to"
            and source is not None
            and arg in self._targets(state, frame, instruction, source)
        ):
            side = _side(frame, instruction)
            board.move(state, side, source, str(arg))
            scratch["from"] = None
            scratch["n"] = _done(frame) + 1
            if telling(state):
                log(
                    state,
                    f"{ROLE_NAMES[_player(frame)]} moves a {ROLE_NAMES[side]} token from "
                    f"{space_name(source)} to {space_name(str(arg))}.",
                )
            return self._finished(state, frame, instruction)
        raise IllegalAction(f"'{verb} {arg}' is not possible now.")

    def label(
        self, game: Game, state: State, frame: Frame, instruction: Instruction, verb: str, arg: Arg
    ) -> str:
        side = ROLE_NAMES[_side(frame, instruction)]
        if verb == "from":
            return f"Move a {side} token from {space_name(str(arg))}"
        if verb == "to":
            return f"Move it to {space_name(str(arg))}"
        return "Done" if _done(frame) else "Skip"

    def prompt(self, game: Game, state: State, frame: Frame, instruction: Instruction) -> str:
        side = ROLE_NAMES[_side(frame, instruction)]
        source = frame["scratch"].get("from")
        if source is not None:
            return f"{_header(frame)}\nMove the {side} token from {space_name(source)} to:"
        left = _left(frame, instruction)
        word = "up to " if instruction.get("up_to", True) else ""
        source_place = board.describe_where(instruction["from"])
        target_place = board.describe_where(instruction["to"])
        return (
            f"{_header(frame)}\nMove {word}{left} more {side} {_noun(left)} from "
            f"{source_place} to {target_place}."
        )


class PeaceCommissionerOp(Op):
    """Place the Peace Commissioner (or move it, if it is already on the map)."""

    verbs = ("space",)

    parameters: ClassVar[Mapping[str, Param]] = {"where": PLACE, "if_control": IF_CONTROL}

    def start(self, game: Game, state: State, frame: Frame, instruction: Instruction) -> bool:
        if _skipped(state, frame, instruction):
            _log_skip(state, frame, "its condition is not met")
            return True
        return False

    def actions(self, game: Game, state: State, frame: Frame, instruction: Instruction) -> Actions:
        return {"space": list(board.resolve_where(instruction["where"]))}

    def handle(
        self, game: Game, state: State, frame: Frame, instruction: Instruction, verb: str, arg: Arg
    ) -> bool:
        if verb != "space" or arg not in board.resolve_where(instruction["where"]):
            raise IllegalAction(f"'{verb} {arg}' is not possible now.")
        place_peace_commissioner(state, _player(frame), str(arg))
        return True

    def label(
        self, game: Game, state: State, frame: Frame, instruction: Instruction, verb: str, arg: Arg
    ) -> str:
        return f"Put the Peace Commissioner in {space_name(str(arg))}"

    def prompt(self, game: Game, state: State, frame: Frame, instruction: Instruction) -> str:
        where = board.describe_where(instruction["where"])
        return f"{_header(frame)}\nPlace the Peace Commissioner in {where}."


def place_peace_commissioner(state: State, role: str, space: str) -> None:
    state["peace_commissioner"] = space
    if telling(state):
        log(state, f"{ROLE_NAMES[role]} puts the Peace Commissioner in {space_name(space)}.")


EVENT_VOCABULARY: Mapping[str, Op] = {
    "place": PlaceOp(),
    "remove": RemoveOp(),
    "move": MoveOp(),
    "peace_commissioner": PeaceCommissionerOp(),
}


def event_problems(instructions: Sequence[Mapping[str, Any]], label: str) -> list[str]:
    """Everything wrong with one event's instructions (empty when it is valid)."""
    problems: list[str] = []
    if not instructions:
        problems.append(f"{label}: the event has no instructions")
    for number, instruction in enumerate(instructions, 1):
        problems.extend(
            f"{label} instruction {number}: {problem}"
            for problem in instruction_problems(EVENT_VOCABULARY, instruction)
        )
    return problems


#: The instructions of every event, strategy and objective cards alike, by card id.
EVENTS: dict[str, Sequence[Mapping[str, Any]]] = {
    **{c.id: c.event for c in STRATEGY.values()},
    **{o.id: o.event for o in OBJECTIVES.values()},
}
_problems = [p for source, event in EVENTS.items() for p in event_problems(event, source)]
#: Every place named in the card data, resolved (see ``_spaces``).
_RESOLVED: dict[int, tuple[str, ...]] = {
    id(instruction[key]): tuple(board.resolve_where(instruction[key]))
    for event in EVENTS.values()
    for instruction in event
    for key in ("where", "from", "to")
    if key in instruction
}
if _problems:
    raise DataError("Fort Sumter event data is invalid: " + "; ".join(_problems))
