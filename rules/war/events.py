"""The event vocabulary of War Between the States, as Ops on the core event interpreter.

An Event card's ``instructions`` (in ``data/decks.json``) are run in order by
``rules.core.events``; the owner of the card is the frame's role. Ops that need a column
pause with the choosing player as the active role (verb ``column``), unless there is only
one sensible column, which is taken without asking (play-by-post pacing), or none, in
which case the instruction does nothing. Each op declares its parameters (``parameters``);
every card's instructions are checked against them when this module loads.

- ``modify``   side, column ("all" | "choose"), amount, unit: a modifier for this battle
- ``strike``   choose an opposing column; its top card goes to the opponent's Graveyard
- ``march``    choose one of your columns; the top card of your deck joins it
- ``recruit``  count: the top cards of your Graveyard return to your Survivors
- ``blockade`` count: the top cards of the opposing deck go, unseen, to its Graveyard
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from rules.core import Actions, Arg, IllegalAction, Op, Param, State, log, plural
from rules.core.events import Frame, Instruction
from rules.core.events import instruction_problems as _problems_in
from rules.war.battle import (
    ADJECTIVE,
    COLUMN_LABELS,
    COLUMNS,
    can_draw,
    column_total,
    describe,
    draw,
    opponent,
    play_late,
    side,
    stack,
)
from rules.war.cards import UNIT_KINDS, card, cards

if TYPE_CHECKING:
    from rules.core import Game


def _one_of(*allowed: Any) -> Param:
    def check(value: Any) -> str | None:
        return None if value in allowed else f"must be one of {allowed}"

    return Param(check=check)


def _int_in(low: int, high: int, *, zero: bool = True) -> Param:
    def check(value: Any) -> str | None:
        if not isinstance(value, int) or isinstance(value, bool):
            return "must be an int"
        if not low <= value <= high or (value == 0 and not zero):
            return f"must be {low}..{high}" + ("" if zero else ", not 0")
        return None

    return Param(check=check)


def _owner(frame: Frame) -> str:
    return str(frame["role"])


def _event_name(frame: Frame) -> str:
    return card(frame["source"]).name


def _standing(state: State, role: str, column: str) -> str:
    """'you 7 vs 9' from ``role``'s point of view."""
    mine = column_total(state, role, column)
    theirs = column_total(state, opponent(role), column)
    return f"you {mine} vs {theirs}"


class ColumnOp(Op):
    """An op that asks its owner for a column, then applies itself there."""

    verbs = ("column",)
    question = ""

    def options(self, state: State, frame: Frame, instruction: Instruction) -> list[str]:
        return list(COLUMNS)

    def apply(self, state: State, frame: Frame, instruction: Instruction, column: str) -> None:
        raise NotImplementedError

    def fizzle(self, state: State, frame: Frame) -> None:
        log(state, f"{_event_name(frame)} has nothing to act on.")

    def start(self, game: Game, state: State, frame: Frame, instruction: Instruction) -> bool:
        options = self.options(state, frame, instruction)
        if not options:
            self.fizzle(state, frame)
            return True
        if len(options) == 1:
            self.apply(state, frame, instruction, options[0])
            return True
        return False

    def chooser(self, game: Game, state: State, frame: Frame, instruction: Instruction) -> str:
        return _owner(frame)

    def prompt(self, game: Game, state: State, frame: Frame, instruction: Instruction) -> str:
        role = _owner(frame)
        standing = ", ".join(
            f"{column} {column_total(state, role, column)} vs "
            f"{column_total(state, opponent(role), column)}"
            for column in COLUMNS
        )
        return (
            f"Battle {state['battle']}. Your columns: {standing}. "
            f"{_event_name(frame)}: {self.question}"
        )

    def actions(self, game: Game, state: State, frame: Frame, instruction: Instruction) -> Actions:
        return {"column": list(self.options(state, frame, instruction))}

    def label(
        self, game: Game, state: State, frame: Frame, instruction: Instruction, verb: str, arg: Arg
    ) -> str:
        column = str(arg)
        return f"{COLUMN_LABELS.get(column, column)} ({_standing(state, _owner(frame), column)})"

    def handle(
        self, game: Game, state: State, frame: Frame, instruction: Instruction, verb: str, arg: Arg
    ) -> bool:
        if verb != "column" or arg not in self.options(state, frame, instruction):
            raise IllegalAction("Choose one of the columns offered.")
        self.apply(state, frame, instruction, str(arg))
        return True


class Modify(ColumnOp):
    """A modifier lasting this battle: ``amount`` to each chosen column of ``side`` (flat),
    or to each of that side's cards of kind ``unit`` in those columns."""

    parameters: ClassVar[Mapping[str, Param]] = {
        "side": _one_of("self", "opponent"),
        "column": _one_of("all", "choose"),
        "amount": _int_in(-5, 5, zero=False),
        "unit": Param(required=False, check=_one_of(None, *UNIT_KINDS, "commander").check),
    }

    question = "choose the column it applies to."

    def _target(self, frame: Frame, instruction: Instruction) -> str:
        owner = _owner(frame)
        return owner if instruction["side"] == "self" else opponent(owner)

    def options(self, state: State, frame: Frame, instruction: Instruction) -> list[str]:
        target = self._target(frame, instruction)
        return [column for column in COLUMNS if stack(state, column, target)]

    def start(self, game: Game, state: State, frame: Frame, instruction: Instruction) -> bool:
        if instruction["column"] == "all":
            self._add(state, frame, instruction, list(COLUMNS))
            return True
        return super().start(game, state, frame, instruction)

    def apply(self, state: State, frame: Frame, instruction: Instruction, column: str) -> None:
        self._add(state, frame, instruction, [column])

    def _add(
        self, state: State, frame: Frame, instruction: Instruction, columns: list[str]
    ) -> None:
        target = self._target(frame, instruction)
        unit = instruction.get("unit")
        state["modifiers"].append(
            {
                "source": frame["source"],
                "owner": _owner(frame),
                "side": target,
                "columns": columns,
                "amount": int(instruction["amount"]),
                "unit": unit,
            }
        )
        amount = f"{int(instruction['amount']):+d}"
        what = f"each {unit} card" if unit else "the column total"
        where = "every column" if len(columns) == len(COLUMNS) else f"the {columns[0]}"
        log(
            state,
            f"{_event_name(frame)}: {amount} to {what} of the {ADJECTIVE[target]} side, {where}.",
        )


class Strike(ColumnOp):
    """The top card of an opposing column of the owner's choice goes to its Graveyard."""

    question = "choose an opposing column; its top card goes to the Graveyard."

    def options(self, state: State, frame: Frame, instruction: Instruction) -> list[str]:
        enemy = opponent(_owner(frame))
        return [column for column in COLUMNS if stack(state, column, enemy)]

    def apply(self, state: State, frame: Frame, instruction: Instruction, column: str) -> None:
        enemy = opponent(_owner(frame))
        cid = stack(state, column, enemy).pop()
        side(state, enemy)["graveyard"].append(cid)
        log(
            state,
            f"{_event_name(frame)} strikes {describe(cid)} on the {column}: to the Graveyard.",
        )


class March(ColumnOp):
    """The top card of the owner's deck joins one of their columns (counted like a
    reinforcement: it chains, and an Event brought this way counts zero)."""

    question = "choose the column your next card marches to."

    def options(self, state: State, frame: Frame, instruction: Instruction) -> list[str]:
        return list(COLUMNS) if can_draw(state, _owner(frame)) else []

    def apply(self, state: State, frame: Frame, instruction: Instruction, column: str) -> None:
        role = _owner(frame)
        cid = draw(state, role)
        if cid is not None:
            play_late(state, role, column, cid, "marches")


class Recruit(Op):
    """The top ``count`` cards of the owner's Graveyard return to their Survivors."""

    parameters: ClassVar[Mapping[str, Param]] = {"count": _int_in(1, 5)}

    def start(self, game: Game, state: State, frame: Frame, instruction: Instruction) -> bool:
        role = _owner(frame)
        graveyard = side(state, role)["graveyard"]
        count = min(int(instruction["count"]), len(graveyard))
        for _ in range(count):
            side(state, role)["survivors"].append(graveyard.pop())
        log(
            state,
            f"{_event_name(frame)}: {plural(count, ADJECTIVE[role] + ' card')} "
            f"{'returns' if count == 1 else 'return'} to the Survivors.",
        )
        return True


class Blockade(Op):
    """The top ``count`` cards of the opposing deck go, unseen, to its Graveyard."""

    parameters: ClassVar[Mapping[str, Param]] = {"count": _int_in(1, 5)}

    def start(self, game: Game, state: State, frame: Frame, instruction: Instruction) -> bool:
        enemy = opponent(_owner(frame))
        deck = side(state, enemy)["deck"]
        count = min(int(instruction["count"]), len(deck))
        for _ in range(count):
            side(state, enemy)["graveyard"].append(deck.pop())
        log(
            state, f"{_event_name(frame)}: {plural(count, ADJECTIVE[enemy] + ' card')} lost unseen."
        )
        return True


EVENT_OPS: dict[str, Op] = {
    "modify": Modify(),
    "strike": Strike(),
    "march": March(),
    "recruit": Recruit(),
    "blockade": Blockade(),
}


def instruction_problems(instruction: dict[str, Any]) -> list[str]:
    """What is wrong with one event instruction (unknown op, unknown or invalid parameters)."""
    return _problems_in(EVENT_OPS, instruction)


_problems = [
    f"{c.name}: {problem}"
    for c in cards().values()
    for instruction in c.instructions
    for problem in instruction_problems(instruction)
]
if _problems:
    raise ValueError("decks.json has invalid event instructions: " + "; ".join(_problems[:5]))
