"""The flow's call stack: a procedure called with its own locals, nested calls, return
values, a reload in the middle, and an event op that calls a procedure and resumes."""

from __future__ import annotations

import json
from typing import Any, ClassVar

import pytest

from rules.core import (
    Actions,
    Arg,
    EventGame,
    EventStep,
    Game,
    Op,
    State,
    Step,
    View,
    begin_event,
    call,
    goto,
    local,
    log,
    ret,
    returned,
)
from rules.core.events import Frame, Instruction, current_frame
from rules.core.flow import depth


class Main(Step):
    """The main sequence: ``march`` calls a march of 2 hexes; ``rally`` plays an event."""

    def active(self, game: Game, state: State) -> tuple[str, ...]:
        return ("a",)

    def actions(self, game: Game, state: State, role: str) -> Actions:
        return {"march": True, "rally": True}

    def on_march(self, game: Game, state: State, role: str, arg: Arg) -> None:
        call(game, state, "march", then="after_march", left=2)

    def on_rally(self, game: Game, state: State, role: str, arg: Arg) -> None:
        begin_event(game, state, "rally", role, then="main")


class AfterMarch(Step):
    def enter(self, game: Game, state: State) -> None:
        log(state, f"march returned {returned(state)}")
        goto(game, state, "main")


class March(Step):
    """A procedure: each ``hex`` spends one of its ``left``; a ``battle`` may interrupt."""

    def active(self, game: Game, state: State) -> tuple[str, ...]:
        return ("a",)

    def actions(self, game: Game, state: State, role: str) -> Actions:
        return {"hex": True, "battle": True}

    def on_hex(self, game: Game, state: State, role: str, arg: Arg) -> None:
        here = local(state)
        here["left"] -= 1
        if here["left"] == 0:
            ret(game, state, "arrived")

    def on_battle(self, game: Game, state: State, role: str, arg: Arg) -> None:
        call(game, state, "battle", then="march_after_battle", rounds=1)


class MarchAfterBattle(Step):
    def enter(self, game: Game, state: State) -> None:
        local(state)["battle"] = returned(state)
        goto(game, state, "march")


class Battle(Step):
    """Nested inside a march; ``fight`` ends it with the number of rounds fought."""

    def active(self, game: Game, state: State) -> tuple[str, ...]:
        return ("b",)

    def actions(self, game: Game, state: State, role: str) -> Actions:
        return {"fight": True}

    def on_fight(self, game: Game, state: State, role: str, arg: Arg) -> None:
        ret(game, state, {"won": True, "rounds": local(state)["rounds"]})


class CallsBattle(Op):
    """An event instruction that fights a battle and ends when the battle returns."""

    def start(self, game: Game, state: State, frame: Frame, instruction: Instruction) -> bool:
        call(game, state, "battle", then="event", rounds=3)
        return False

    def resume(
        self, game: Game, state: State, frame: Frame, instruction: Instruction, value: Any
    ) -> bool:
        state["event_result"] = value
        return True


class Logs(Op):
    def start(self, game: Game, state: State, frame: Frame, instruction: Instruction) -> bool:
        log(state, f"after the battle, pc {frame['pc']}")
        return True


class Nest(EventGame, Game):
    name = "nest"
    title = "Nest"
    roles = ("a", "b")
    steps: ClassVar[dict[str, Step]] = {
        "main": Main(),
        "after_march": AfterMarch(),
        "march": March(),
        "march_after_battle": MarchAfterBattle(),
        "battle": Battle(),
        "event": EventStep(),
    }
    event_ops: ClassVar[dict[str, Op]] = {"battle": CallsBattle(), "log": Logs()}

    def event_instructions(self, state: State, source: str) -> list[dict[str, Any]]:
        return [{"op": "battle"}, {"op": "log"}]

    def initialise(self, state: State) -> None:
        goto(self, state, "main")

    def public_view(self, state: State) -> View:
        return {}


GAME = Nest()


def reload(state: State) -> State:
    copy: State = json.loads(json.dumps(state))
    assert copy == state
    return copy


def test_a_called_procedure_keeps_its_own_locals_and_returns_to_the_caller() -> None:
    state = GAME.setup(seed=1)
    GAME.act(state, "a", "march")
    assert state["step"] == "march" and depth(state) == 1 and local(state) == {"left": 2}
    state = reload(state)
    GAME.act(state, "a", "hex")
    assert local(state) == {"left": 1}
    GAME.act(state, "a", "hex")
    assert state["step"] == "main" and depth(state) == 0
    assert state["log"][-1] == "march returned arrived"
    assert local(state) == {}  # the value was taken by the step it was returned to


def test_procedures_nest_and_each_returns_to_its_own_caller() -> None:
    state = GAME.setup(seed=1)
    GAME.act(state, "a", "march")
    GAME.act(state, "a", "hex")
    GAME.act(state, "a", "battle")
    assert state["step"] == "battle" and depth(state) == 2
    assert [f["proc"] for f in state["calls"]] == ["", "march", "battle"]
    assert GAME.active_roles(state) == ("b",)
    state = reload(state)  # a restart in the middle of the nested procedure
    GAME.act(state, "b", "fight")
    assert state["step"] == "march" and depth(state) == 1
    assert local(state) == {"left": 1, "battle": {"won": True, "rounds": 1}}
    GAME.act(state, "a", "hex")
    assert state["step"] == "main" and state["log"][-1] == "march returned arrived"


def test_an_event_instruction_calls_a_procedure_and_resumes_after_it() -> None:
    state = GAME.setup(seed=1)
    GAME.act(state, "a", "rally")
    assert state["step"] == "battle" and [f["proc"] for f in state["calls"]] == [
        "",
        "event",
        "battle",
    ]
    here = current_frame(state)
    assert here is not None and here["pc"] == 0 and here["started"]
    state = reload(state)
    GAME.act(state, "b", "fight")
    assert state["event_result"] == {"won": True, "rounds": 3}
    assert state["log"][-1] == "after the battle, pc 1"
    assert state["step"] == "main" and current_frame(state) is None and depth(state) == 0


def test_the_main_sequence_cannot_return() -> None:
    state = GAME.setup(seed=1)
    with pytest.raises(RuntimeError):
        ret(GAME, state)
    with pytest.raises(KeyError):
        call(GAME, state, "march", then="nowhere")
