"""bot/tables and bot/delivery on floors that only point down: delivery never
imports tables, nothing in either room imports inside a function to dodge a cycle, and
the players' notices of a commit are planned by pure functions, tested here alone."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import rules
from bot.delivery.port import PrivateMessage, View
from bot.storage.rows import SeatRow
from bot.tables import notice_plan
from bot.tables.notice_plan import Change, Routing
from bot.tables.prompts import decision_digest
from rules.core.types import TABLE_OUTCOMES
from tests.playthrough import random_moves

ROOT = Path(__file__).resolve().parents[2]


def _modules(room: str) -> list[Path]:
    return sorted((ROOT / "bot" / room).rglob("*.py"))


def _imports(path: Path) -> list[tuple[str, bool]]:
    """(module imported, whether the import sits inside a function) for one file."""
    found: list[tuple[str, bool]] = []

    def visit(node: ast.AST, nested: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = nested or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            if isinstance(child, ast.ImportFrom) and child.module:
                found.append((child.module, nested))
            elif isinstance(child, ast.Import):
                found.extend((alias.name, nested) for alias in child.names)
            visit(child, inner)

    visit(ast.parse(path.read_text()), False)
    return found


@pytest.mark.parametrize("path", _modules("delivery"), ids=lambda p: p.name)
def test_delivery_never_imports_tables(path: Path) -> None:
    bad = [m for m, _ in _imports(path) if m == "bot.tables" or m.startswith("bot.tables.")]
    assert bad == [], f"{path.name} imports {bad}"


@pytest.mark.parametrize("path", _modules("delivery") + _modules("tables"), ids=lambda p: p.name)
def test_no_import_hides_inside_a_function(path: Path) -> None:
    nested = [m for m, inside in _imports(path) if inside and m.startswith("bot")]
    assert nested == [], f"{path.name} imports {nested} inside a function"


def test_the_managers_answers_live_with_the_manager_not_in_the_delivery_port() -> None:
    import bot.delivery.port as port
    import bot.tables.results as results

    for name in ("ActResult", "AbandonResult", "PlayerView", "UserGame", "Standing"):
        assert hasattr(results, name) and not hasattr(port, name), name


# -- the contract: one seat and outcome codes ----------------------------------------


@pytest.mark.parametrize("name", sorted(rules.GAMES))
def test_one_seat_is_declared_as_the_roles_say(name: str) -> None:
    game = rules.get_game(name)
    assert game.one_seat == (len(game.roles) == 1)


@pytest.mark.parametrize("name", sorted(rules.GAMES))
def test_every_game_declares_its_endings_apart_from_the_tables(name: str) -> None:
    game = rules.get_game(name)
    assert game.outcome_codes, f"{name} declares no outcome codes"
    assert not game.outcome_codes & TABLE_OUTCOMES


@pytest.mark.parametrize("name", sorted(rules.GAMES))
def test_every_ending_a_game_reaches_is_declared(name: str) -> None:
    game = rules.get_game(name)
    for seed in (1, 2, 3):
        final = None
        for step in random_moves(game, seed):
            final = step.state
        assert final is not None
        outcome = game.outcome(final)
        assert outcome is not None and outcome["code"] in game.outcome_codes


def test_finish_refuses_an_undeclared_code() -> None:
    game = rules.get_game("war")
    state = game.setup(seed=3)
    with pytest.raises(ValueError, match="outcome code"):
        game.finish(state, None, "made up", {}, code="made_up")
    assert state["outcome"] is None


# -- the notice planner, alone -------------------------------------------------------


def seat(role: str, user: str, *, dm_failed: bool = False, seen: int = 0) -> SeatRow:
    return SeatRow(1, role, user, dm_failed, False, seen, 0.0)


SEATS = (seat("union", "ann"), seat("confederate", "bob"))


def view(prompt: str = "", lines: tuple[str, ...] = ()) -> View:
    return {"prompt": prompt, "actions": {"go": None} if prompt else {}, "private_log": list(lines)}


def ending(role: str, v: View) -> PrivateMessage:
    return PrivateMessage(kind="end", role=role, version=9, headline="over", view=v)


def hand_over(**kw: object) -> Change:
    base: dict[str, object] = {
        "version": 9,
        "acting_role": "union",
        "active_before": ("union",),
        "active_now": ("confederate",),
        "ended": False,
    }
    return Change(**{**base, **kw})  # type: ignore[arg-type]


def test_a_hand_over_goes_where_the_next_player_chose() -> None:
    change = hand_over()
    assert change.handed_to() == ("confederate",)
    by_dm = notice_plan.route(change, SEATS, {}, table_parked=False)
    assert by_dm == Routing(frozenset(), frozenset({"confederate"}), ())
    both = notice_plan.route(change, SEATS, {"bob": "both"}, table_parked=False)
    assert both.by_dm == {"confederate"} and both.mention == ("bob",)
    channel = notice_plan.route(change, SEATS, {"bob": "channel"}, table_parked=True)
    assert channel.by_dm == {"confederate"}  # the parked table goes on by DM


def test_the_acting_player_is_never_handed_their_own_turn() -> None:
    change = hand_over(active_now=("union",))
    assert change.handed_to() == ()
    assert not notice_plan.turn_passed(change, ("union",), "s", "s")
    assert notice_plan.turn_passed(hand_over(), ("union",), "s", "s")


def test_a_one_seat_game_is_told_at_its_table_never_by_dm() -> None:
    solo = (seat("solo", "ann"),)
    change = Change(9, None, (), ("solo",), ended=False, start=True, one_seat=True)
    routing = notice_plan.route(change, solo, {"ann": "dm"}, table_parked=False)
    assert routing == Routing(frozenset({"solo"}), frozenset(), ("ann",))
    assert notice_plan.timers(change, solo, lambda _: False).start == ()
    planned = notice_plan.seat_notices(change, solo, {"solo": view("roll")}, routing, ending)
    assert planned.messages == [] and planned.endings == []


def test_the_end_mentions_everyone_closes_each_prompt_and_clears_the_timers() -> None:
    change = hand_over(active_now=(), ended=True)
    routing = notice_plan.route(change, SEATS, {}, table_parked=False)
    assert routing.mention == ("ann", "bob")
    views = {"union": view(), "confederate": view()}
    planned = notice_plan.seat_notices(change, SEATS, views, routing, ending)
    assert [m.role for m in planned.endings] == ["union", "confederate"]
    assert planned.messages == []
    assert notice_plan.timers(change, SEATS, lambda _: False) == notice_plan.TimerPlan(True)


def test_seat_notices_send_the_new_prompt_and_keep_the_acting_view_for_the_reply() -> None:
    change = hand_over()
    routing = notice_plan.route(change, SEATS, {}, table_parked=False)
    views = {"union": view(lines=("you drew a card",)), "confederate": view("Your move")}
    planned = notice_plan.seat_notices(change, SEATS, views, routing, ending)
    [message] = planned.messages
    assert (message.kind, message.role, message.headline) == ("turn", "confederate", "Your move")
    assert planned.acting_view == views["union"]
    assert planned.acting_lines == ("you drew a card",)
    updates = {u.role: u for u in planned.updates}
    assert updates["union"].private_seen == 1
    assert updates["confederate"].prompt == (9, decision_digest(views["confederate"]))


def test_a_closed_dm_gets_nothing_private_and_a_bot_no_reminder() -> None:
    seats = (seat("union", "ann"), seat("confederate", "Dispatch (hard)", dm_failed=True))
    change = hand_over()
    routing = notice_plan.route(change, seats, {}, table_parked=False)
    assert routing.by_channel == {"confederate"} and routing.by_dm == frozenset()
    views = {"union": view(), "confederate": view("Your move")}
    assert notice_plan.seat_notices(change, seats, views, routing, ending).messages == []
    plan = notice_plan.timers(change, seats, lambda user: user == "Dispatch (hard)")
    assert plan == notice_plan.TimerPlan(False, clear=("union",), start=())
    assert notice_plan.timers(change, SEATS, lambda _: False).start == ("confederate",)
