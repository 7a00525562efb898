"""The shared playout loop (``Game.playout``) on the shapes of action lists the built-in
games rarely or never list: one verb of no args, an empty list, several verbs with empty
ones among them, several active roles, a step that overrides ``handle``. Each is held to
the checked loop (``decisions`` then ``act``): the same draws, the same actions."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import ClassVar

import pytest

from rules.core import Actions, Arg, Game, State, Step, View, goto


class Menu(Step):
    """Lists ``state["menu"][state["turn"] % len(menu)]``, as given by the test."""

    def active(self, game: Game, state: State) -> tuple[str, ...]:
        return tuple(state["movers"])

    def actions(self, game: Game, state: State, role: str) -> Actions:
        menu = state["menu"]
        listed: Actions = json.loads(json.dumps(menu[state["turn"] % len(menu)]))
        return listed

    def _took(self, state: State, role: str, verb: str, arg: Arg) -> None:
        state["taken"].append([role, verb, arg])
        state["turn"] += 1

    def on_a(self, game: Game, state: State, role: str, arg: Arg) -> None:
        self._took(state, role, "a", arg)

    def on_b(self, game: Game, state: State, role: str, arg: Arg) -> None:
        self._took(state, role, "b", arg)

    def on_c(self, game: Game, state: State, role: str, arg: Arg) -> None:
        self._took(state, role, "c", arg)


class Relayed(Menu):
    """Overrides ``handle``: a playout must go through it, not around it."""

    def handle(self, game: Game, state: State, role: str, verb: str, arg: Arg) -> None:
        state["relayed"] += 1
        super().handle(game, state, role, verb, arg)


class Toy(Game):
    name = "toy_playout"
    roles = ("north", "south")
    steps: ClassVar[dict[str, Step]] = {"menu": Menu(), "relayed": Relayed()}

    def initialise(self, state: State) -> None:
        state.update({"turn": 0, "taken": [], "relayed": 0, "menu": [], "movers": ["north"]})
        goto(self, state, "menu")

    def public_view(self, state: State) -> View:
        return {}


MENUS: list[list[Actions]] = [
    [{"a": True}],
    [{"a": ["x", "y", "z"]}],
    [{"a": []}, {"b": True}],
    [{"a": False}, {"b": [1, 2]}],
    [{"a": [], "b": True, "c": [7, 8, 9]}],
    [{"a": True, "b": True}, {"a": [1], "b": [], "c": [2, 3]}],
    [{}, {"c": ["only"]}],
]


def _start(step: str, menu: list[Actions], movers: list[str]) -> State:
    game = Toy()
    state = game.setup(seed=1)
    state.update({"menu": menu, "movers": movers, "step": step})
    return state


def _counting(seed: int, near_one: bool) -> tuple[Callable[[], float], list[float]]:
    made: list[float] = []
    source = random.Random(seed).random

    def draw() -> float:
        value = 1 - 2**-53 if near_one and len(made) % 3 == 0 else source()
        made.append(value)
        return value

    return draw, made


@pytest.mark.parametrize("step", ["menu", "relayed"])
@pytest.mark.parametrize("movers", [["north"], ["north", "south"], ["south", "south"]])
@pytest.mark.parametrize("menu", MENUS)
def test_every_shape_of_action_list_plays_as_the_checked_loop(
    menu: list[Actions], movers: list[str], step: str
) -> None:
    game = Toy()
    for seed in range(4):
        near_one = seed % 2 == 1
        fast, slow = _start(step, menu, movers), _start(step, menu, movers)
        fast_draw, fast_made = _counting(seed, near_one)
        slow_draw, slow_made = _counting(seed, near_one)
        game.playout(fast, fast_draw, 30)
        game._playout_checked(slow, slow_draw, 30)
        assert fast_made == slow_made  # the same draws, in the same order
        assert fast["taken"] == slow["taken"]
        assert fast["relayed"] == slow["relayed"]
        if step == "relayed" and fast["taken"]:
            assert fast["relayed"] == len(fast["taken"])  # through the step's own handle
