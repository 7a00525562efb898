"""Unit tests of the shared rules machinery, on a tiny game defined here.

The game: two players take turns; on your turn you remove counters from a pile one at a
time (then say ``done``), or play your single "rally" card, an event that asks you how many
counters to add back and then draws a random bonus. Whoever takes the last counter wins.
"""

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
    IllegalAction,
    Op,
    State,
    Step,
    View,
    begin_event,
    goto,
    log,
    randbelow,
    shuffle,
)
from rules.core.events import Frame, Instruction, current_frame
from rules.core.flow import main_frame
from rules.core.rng import generator


class Turn(Step):
    def active(self, game: Game, state: State) -> tuple[str, ...]:
        return (state["turn"],)

    def prompt(self, game: Game, state: State, role: str) -> str:
        return f"{state['pile']} counters left. Take some, or rally."

    def actions(self, game: Game, state: State, role: str) -> Actions:
        actions: Actions = {}
        if state["pile"] and state["taken"] < 3:
            actions["take"] = True
        if state["taken"]:
            actions["done"] = True
        elif role not in state["rallied"]:
            actions["rally"] = True
        return actions

    def on_take(self, game: Game, state: State, role: str, arg: Arg) -> None:
        state["pile"] -= 1
        state["taken"] += 1
        if state["pile"] == 0:
            game.finish(state, role, "took the last counter", {}, code="last_counter")

    def on_done(self, game: Game, state: State, role: str, arg: Arg) -> None:
        log(state, f"{role} took {state['taken']}.")
        state["taken"] = 0
        state["turn"] = "b" if role == "a" else "a"

    def on_rally(self, game: Game, state: State, role: str, arg: Arg) -> None:
        state["rallied"].append(role)
        begin_event(game, state, "rally", role, then="after_rally")


class AfterRally(Step):
    def enter(self, game: Game, state: State) -> None:
        state["turn"] = "b" if state["turn"] == "a" else "a"
        goto(game, state, "turn")


class AddBack(Op):
    def start(self, game: Game, state: State, frame: Frame, instruction: Instruction) -> bool:
        return False

    def prompt(self, game: Game, state: State, frame: Frame, instruction: Instruction) -> str:
        return "How many counters do you add back?"

    def actions(self, game: Game, state: State, frame: Frame, instruction: Instruction) -> Actions:
        return {"add": list(range(1, instruction["most"] + 1))}

    def handle(
        self, game: Game, state: State, frame: Frame, instruction: Instruction, verb: str, arg: Arg
    ) -> bool:
        assert isinstance(arg, int)
        state["pile"] += arg
        return True


class RandomBonus(Op):
    def start(self, game: Game, state: State, frame: Frame, instruction: Instruction) -> bool:
        state["pile"] += randbelow(state, 2)
        return True


class Tiny(EventGame, Game):
    name = "tiny"
    title = "Tiny"
    roles = ("a", "b")
    outcome_codes = frozenset({"last_counter"})
    default_options: ClassVar[dict[str, Any]] = {"pile": 7}
    steps: ClassVar[dict[str, Step]] = {
        "turn": Turn(),
        "after_rally": AfterRally(),
        "event": EventStep(),
    }
    event_ops: ClassVar[dict[str, Op]] = {"add_back": AddBack(), "bonus": RandomBonus()}

    def event_instructions(self, state: State, source: str) -> list[dict[str, Any]]:
        return [{"op": "add_back", "most": 2}, {"op": "bonus"}]

    def initialise(self, state: State) -> None:
        state.update(pile=state["options"]["pile"], taken=0, turn="a", rallied=[])
        goto(self, state, "turn")

    def public_view(self, state: State) -> View:
        return {"pile": state["pile"]}


GAME = Tiny()


def roundtrip(state: State) -> State:
    return json.loads(json.dumps(state))  # type: ignore[no-any-return]


def test_rng_is_deterministic_and_lives_in_the_state() -> None:
    a, b = {"rng": generator(9), "seal": 0}, {"rng": generator(9), "seal": 0}
    assert [randbelow(a, 1000) for _ in range(20)] == [randbelow(b, 1000) for _ in range(20)]
    c = {"rng": generator(10), "seal": 0}
    assert [randbelow(c, 1000) for _ in range(20)] != [randbelow(a, 1000) for _ in range(20)]


def test_rng_draws_are_roughly_uniform() -> None:
    state = {"rng": generator(1), "seal": 0}
    counts = [0, 0, 0]
    for _ in range(30_000):
        counts[randbelow(state, 3)] += 1
    assert all(9_500 < n < 10_500 for n in counts), counts


def test_shuffle_is_a_permutation_and_seals_undo() -> None:
    state: State = {"rng": generator(3), "seal": 0, "undo": [{"role": "a", "state": {}}]}
    items = list(range(30))
    shuffle(state, items)
    assert sorted(items) == list(range(30)) and items != list(range(30))
    assert state["undo"] == [] and state["seal"] > 0


def test_view_lists_prompt_actions_labels_and_status() -> None:
    state = GAME.setup(seed=1)
    view = GAME.view(state, "a")
    assert view["actions"] == {"take": True, "rally": True}
    assert view["prompt"] == "7 counters left. Take some, or rally."
    assert view["labels"]["take"] == "take"
    assert GAME.view(state, "b")["actions"] == {}
    assert GAME.view(state, None)["status"] == "Waiting for A."


def test_options_are_validated_and_defaulted() -> None:
    assert GAME.setup(seed=1, options={"pile": 4})["pile"] == 4
    with pytest.raises(IllegalAction, match="no option"):
        GAME.setup(seed=1, options={"size": 4})
    with pytest.raises(IllegalAction, match="takes a int"):
        GAME.setup(seed=1, options={"pile": "four"})


def test_out_of_turn_and_unlisted_actions_are_refused_without_change() -> None:
    state = GAME.setup(seed=1)
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(IllegalAction, match="not your turn"):
        GAME.act(state, "b", "take")
    with pytest.raises(IllegalAction, match="not possible now"):
        GAME.act(state, "a", "done")
    with pytest.raises(IllegalAction, match="takes no argument"):
        GAME.act(state, "a", "take", 3)
    assert json.dumps(state, sort_keys=True) == before


def test_undo_steps_back_own_small_decisions_one_at_a_time() -> None:
    state = GAME.setup(seed=1)
    GAME.act(state, "a", "take")
    GAME.act(state, "a", "take")
    assert state["pile"] == 5 and "undo" in GAME.view(state, "a")["actions"]
    GAME.act(state, "a", "undo")
    assert state["pile"] == 6 and state["taken"] == 1
    GAME.act(state, "a", "undo")
    assert state["pile"] == 7 and "undo" not in GAME.view(state, "a")["actions"]


def test_undo_never_crosses_a_change_of_player() -> None:
    state = GAME.setup(seed=1)
    GAME.act(state, "a", "take")
    GAME.act(state, "a", "done")
    assert state["undo"] == []
    assert "undo" not in GAME.view(state, "b")["actions"]


def test_undo_never_crosses_a_random_draw() -> None:
    state = GAME.setup(seed=1)
    GAME.act(state, "a", "rally")
    assert "undo" in GAME.view(state, "a")["actions"]  # only a choice so far
    GAME.act(state, "a", "add", 2)  # the bonus draw follows at once
    assert state["undo"] == []


def test_event_pauses_for_a_choice_and_resumes_after_a_reload() -> None:
    state = GAME.setup(seed=1)
    GAME.act(state, "a", "rally")
    assert state["step"] == "event"
    assert GAME.view(state, "a")["actions"] == {"add": [1, 2], "undo": True}
    assert GAME.view(state, "a")["prompt"] == "How many counters do you add back?"
    reloaded = roundtrip(state)  # as if the bot restarted here
    GAME.act(reloaded, "a", "add", "2")  # the string form of a listed int is accepted
    assert reloaded["pile"] in (9, 10)
    assert reloaded["step"] == "turn" and GAME.active_roles(reloaded) == ("b",)
    assert current_frame(reloaded) is None and reloaded["calls"] == [main_frame()]


def test_finish_records_the_outcome_and_stops_play() -> None:
    state = GAME.setup(seed=1, options={"pile": 1})
    GAME.act(state, "a", "take")
    assert GAME.outcome(state) == {
        "winner": "a",
        "code": "last_counter",
        "reason": "took the last counter",
        "score": {},
    }
    assert GAME.active_roles(state) == ()
    assert GAME.status(state) == "A won: took the last counter"
    with pytest.raises(IllegalAction, match="over"):
        GAME.act(state, "b", "take")


def test_each_step_handles_a_verb_with_its_own_on_verb_method() -> None:
    """``Step.handle`` finds ``on_<verb>`` in a table made once per class: the same
    method ``getattr`` finds, for every step of every game, and no verb more."""
    from rules import GAMES

    steps = [step for game in GAMES.values() for step in game.steps.values()]
    steps += [Turn(), Step(), EventStep()]
    for step in steps:
        names = [name for name in dir(step) if name.startswith("on_")]
        assert sorted(step.handlers) == sorted(name[3:] for name in names)
        for name in names:
            assert step.handlers[name[3:]] is getattr(type(step), name)
            assert getattr(step, name) == step.handlers[name[3:]].__get__(step)


def test_undo_is_asked_of_a_game_only_when_it_may_say_yes() -> None:
    """``legal_actions`` asks ``can_undo`` only with snapshots on the stack, unless the
    game answers it in its own way (``own_can_undo``): the plain answer with none is no."""
    from rules import GAMES

    for game in [*GAMES.values(), Tiny()]:
        mine = type(game).can_undo is not Game.can_undo
        assert game.own_can_undo == mine
    state = Tiny().setup(seed=1)
    for role in Tiny.roles:
        assert state["undo"] == [] and not Game.can_undo(Tiny(), state, role)
