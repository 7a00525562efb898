"""A level plays the same on a busy server as on a quiet one.

A search level is a budget of iterations per search in each game, not of seconds: a
machine busy with other games makes each search take longer, never think less. A time cap
(in CPU seconds of the searching thread, twelve times the level's nominal time, widened on
a machine that probes slow: ``tests/ai/test_ai_safety_cap.py``) only stops a pathological
search, and says so in the log. The clocks here are fakes that advance a
fixed amount each time they are read: a "busy" one makes every iteration look slow.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import FakeClock, RecordingFrontEnd

from bot.dispatch_players import decision as deciding
from bot.dispatch_players import searching
from bot.dispatch_players.bots import BotSeats
from bot.dispatch_players.decision import SearchLimits, decide
from bot.dispatch_players.seeding import search_seed
from bot.tables.bot_users import bot_user
from bot.tables.manager import GameManager
from bot.tables.requests import NewGame
from rules import BUILTIN_GAMES, get_game
from rules.ai import (
    LEVEL_ITERATIONS,
    LEVEL_SECONDS,
    SearchPlayer,
    level_iterations,
    make_player,
    safety_seconds,
    search,
    supports_search,
)
from rules.ai import player as ai_player

SEARCHABLE = [name for name in BUILTIN_GAMES if supports_search(get_game(name))]
ROOT = Path(__file__).resolve().parents[2]


class TickingClock:
    """CPU seconds that advance ``step`` each time they are read (no real time)."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


@pytest.fixture(autouse=True)
def fresh_players(monkeypatch: pytest.MonkeyPatch) -> None:
    """No search tree kept by another test's game of the same id."""
    monkeypatch.setattr(deciding, "_PLAYERS", {})


@pytest.mark.parametrize("name", SEARCHABLE)
def test_each_search_level_is_a_budget_of_iterations_in_each_game(name: str) -> None:
    game = get_game(name)
    assert set(LEVEL_ITERATIONS[name]) == set(LEVEL_SECONDS)  # calibrated, not defaulted
    budgets = [level_iterations(game, level) for level in ("normal", "hard")]
    assert 0 < budgets[0] < budgets[1]
    for level, budget in zip(("normal", "hard"), budgets, strict=True):
        player = make_player(game, game.roles[0], level, seed=1)
        assert isinstance(player, SearchPlayer) and player.iterations == budget
    assert safety_seconds("normal") == 12 * LEVEL_SECONDS["normal"]


def test_a_busy_machine_does_not_change_a_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same view, seed and budget: on a quiet clock and on a busy one where every
    iteration looks four times as slow (twice the level's nominal time in all, below the
    safety cap), the same search to the last visit and the same move."""
    game = get_game("fort_sumter")
    budget = 150
    monkeypatch.setitem(LEVEL_ITERATIONS, "fort_sumter", {"normal": budget, "hard": 2 * budget})
    view = game.view(game.setup(seed=4), "unionist")
    nominal = LEVEL_SECONDS["normal"]
    quiet = TickingClock(nominal / budget / 2)
    busy = TickingClock(2 * nominal / budget)
    # What a deadline of the nominal time would do on the busy machine: stop halfway.
    end = busy() + nominal
    rushed = search(game, view, seed=search_seed(7, "unionist"), should_stop=lambda: busy() >= end)
    assert rushed.iterations < budget * 0.6
    decisions = {}
    visits = {}
    for label, clock in (("quiet", quiet), ("busy", busy)):
        deciding._PLAYERS.clear()
        decisions[label] = decide(
            "fort_sumter", 7, "unionist", "normal", view, SearchLimits(clock=clock, slowdown=1.0)
        )
        player = deciding._PLAYERS[(7, "unionist", "normal")]
        assert isinstance(player, SearchPlayer) and player.last is not None
        visits[label] = player.last.visits()
    assert decisions["quiet"] == decisions["busy"]
    assert decisions["busy"].iterations == budget and not decisions["busy"].cut
    assert visits["quiet"] == visits["busy"]
    assert busy.now > nominal  # the busy search did take longer than the nominal time


def test_the_safety_cap_stops_a_search_that_runs_far_too_long(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = get_game("fort_sumter")
    monkeypatch.setitem(LEVEL_ITERATIONS, "fort_sumter", {"normal": 100, "hard": 200})
    view = game.view(game.setup(seed=4), "unionist")
    # Each iteration looks like a tenth of the cap: about ten run, and it says so.
    crawling = TickingClock(safety_seconds("hard") / 10)
    limits = SearchLimits(clock=crawling, slowdown=1.0)
    decision = decide("fort_sumter", 8, "unionist", "hard", view, limits)
    assert decision.cut and decision.budget == 200
    assert decision.iterations is not None and 5 <= decision.iterations <= 11
    assert decision.cap_seconds == safety_seconds("hard") == 12 * LEVEL_SECONDS["hard"]
    legal = [(verb, arg) for verb, args in view["actions"].items() for arg in args]
    assert decision.action in legal


def _seats(manager: GameManager, clock: Callable[[], float]) -> BotSeats:
    """Thread workers with each level's own budget (no ``iterations`` override)."""
    BotSeats.attach(manager, workers="thread", clock=clock)
    BotSeats.of(manager).nudge = lambda game_id: None  # type: ignore[method-assign]
    return BotSeats.of(manager)


async def test_a_bot_seat_searches_its_levels_budget_of_iterations(
    db_path: Path,
    front_end: RecordingFrontEnd,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A seat passes the player its level's iteration budget in this game, not a time:
    on a clock where the whole search looks like twice the nominal time, every
    iteration of the budget still runs."""
    monkeypatch.setitem(LEVEL_ITERATIONS, "fort_sumter", {"normal": 37, "hard": 53})
    made: list[int | None] = []
    real_make = ai_player.make_player

    def spy(*args: object, **kwargs: object) -> object:
        made.append(kwargs.get("iterations"))  # type: ignore[arg-type]
        return real_make(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(deciding, "make_player", spy)
    manager = await GameManager.open(db_path, front_end, clock=clock)
    try:
        seats = _seats(manager, TickingClock(2 * LEVEL_SECONDS["hard"] / 53))
        info = await manager.create_game(
            "g1",
            "c1",
            "alice",
            NewGame("fort_sumter", seed=1, seat="secessionist", opponent_id=bot_user("hard")),
        )
        assert await seats.play_one(info.id)
    finally:
        await manager.close()
    assert made == [None]  # no budget of its own: the level's
    player = deciding._PLAYERS[(info.id, "unionist", "hard")]
    assert isinstance(player, SearchPlayer)
    assert player.iterations == 53 and player.last is not None and player.last.iterations == 53


async def test_a_cut_search_is_logged_without_the_move(
    db_path: Path,
    front_end: RecordingFrontEnd,
    clock: FakeClock,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Past the safety cap the seat still moves, and the log says the search was cut, in
    which game and level, how far it got, how many were cut so far, and nothing of what
    it chose (War: which card went to which column); the seats' summary at their close
    counts the cuts. The cap is the level's, widened by the machine's probed slowdown."""
    caplog.set_level(logging.INFO, logger="dispatch.bots")
    monkeypatch.setattr(searching, "machine_slowdown", lambda: 2.0)
    manager = await GameManager.open(db_path, front_end, clock=clock)
    moves: list[object] = []
    try:
        seats = _seats(manager, TickingClock(100.0))  # past the cap after one iteration
        seats.on_move = lambda game_id, role, verb, arg: moves.append(arg)
        info = await manager.create_game(
            "g1",
            "c1",
            "alice",
            NewGame(
                "war",
                seed=1,  # both sides place at once (with other seeds one side may go first)
                seat="confederate",
                opponent_id=bot_user("normal"),
            ),
        )
        assert await seats.play_one(info.id)
    finally:
        await manager.close()
    budget = level_iterations(get_game("war"), "normal")
    cuts = [r.getMessage() for r in caplog.records if "safety cap" in r.getMessage()]
    assert cuts == [
        f"game={info.id} bot union (normal): the safety cap of 24 CPU s cut its search "
        f"after 1 of {budget} iterations (1 cut here since the start)",
        "Dispatch's seats close. Moves made here: 1; searches cut by the safety cap: 1",
    ]
    assert moves and all(str(arg) not in line for arg in moves for line in cuts)


#: One budgeted bot decision in each searchable game, 25 moves into a game of the
#: automated player against itself, printed with the search's visits at the root.
DECISIONS = textwrap.dedent(
    """
    import json
    from bot.dispatch_players.decision import _PLAYERS, SearchLimits, decide
    from rules import get_game
    out = {}
    for name in NAMES:
        game = get_game(name)
        state = game.setup(seed=11)
        policy = game.automated_player()
        for _ in range(25):
            role = game.active_roles(state)[0]
            verb, arg = policy(game, game.view(state, role))
            game.act(state, role, verb, arg)
        role = game.active_roles(state)[0]
        budget = SearchLimits(iterations=150)
        decision = decide(name, 5, role, "hard", game.view(state, role), budget)
        visits = _PLAYERS[(5, role, "hard")].last.visits()
        out[name] = [decision.verb, decision.arg, decision.iterations, sorted(visits.items())]
    print(json.dumps(out, sort_keys=True))
    """
)


def test_the_same_seed_and_budget_give_the_same_move_in_any_process() -> None:
    """Nothing but the game, the seat's seed and the budget decides: not the process,
    not its string hashing (which orders sets), not the clock."""
    script = DECISIONS.replace("NAMES", repr(SEARCHABLE))
    outputs = [
        subprocess.run(
            [sys.executable, "-c", script],
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": hash_seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for hash_seed in ("0", "4242")
    ]
    assert outputs[0] == outputs[1]
    decided = json.loads(outputs[0])
    assert set(decided) == set(SEARCHABLE)
    assert all(iterations == 150 for _, _, iterations, _ in decided.values())
