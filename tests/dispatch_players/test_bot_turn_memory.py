"""Dispatch keeps one search tree through the small decisions of a turn (the tokens of a
value play, one move after another), in the worker that searched. A restart, another
worker, or a worker that dropped the player must not change a move: the player is grown
again from the turn's earlier decisions, replayed from the game's log, and holds the very
tree the kept one held. The same seed and budget give the same move, whatever the
process remembers."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from conftest import FakeClock, RecordingFrontEnd

from bot.dispatch_players import decision, searching
from bot.dispatch_players.bots import BotSeats
from bot.dispatch_players.decision import (
    Decision,
    Earlier,
    NeedsHistory,
    SearchLimits,
    SeatTurn,
    decide,
)
from bot.tables.bot_users import bot_user
from bot.tables.manager import GameManager
from bot.tables.requests import Move, NewGame
from rules import get_game

GAME = get_game("fort_sumter")
LIMITS = SearchLimits(iterations=60)
SEED = 77


#: How many actions the log held before the turn (any number: only the turn's own count).
PLAYED = 40


def moves(decisions: list[Decision]) -> tuple[tuple[str, Any], ...]:
    return tuple((d.verb, d.arg) for d in decisions)


def value_play(seed: int) -> tuple[str, dict[str, Any]]:
    """A Fort Sumter game played by the automated player up to a value play of three
    tokens or more: the side placing, and the state."""
    policy = GAME.automated_player()
    assert policy is not None
    state = GAME.setup(seed=seed)
    while GAME.outcome(state) is None:
        role = GAME.active_roles(state)[0]
        if state["step"] == "value_play" and state["value_play"]["left"] >= 3:
            return role, state
        GAME.act(state, role, *policy(GAME, GAME.view(state, role)))
    raise AssertionError("no value play of three")


def kept_then_restarted(seed: int) -> tuple[list[Decision], Decision, Decision]:
    """The third decision of a value play made three ways: by the player kept through the
    turn, by a new player grown from the turn's first two decisions, and by a new player
    that knows nothing of them."""
    role, state = value_play(seed)
    decision._PLAYERS.clear()
    kept, views = [], []
    for turn in range(3):
        views.append(GAME.view(state, role))
        seat = SeatTurn(SEED, turn, played=PLAYED + turn, tail=moves(kept))
        kept.append(decide("fort_sumter", 1, role, "normal", views[-1], LIMITS, seat))
        GAME.act(state, role, kept[-1].verb, kept[-1].arg)
        assert GAME.active_roles(state) == (role,), "the value play goes on"
    decision._PLAYERS.clear()
    third = SeatTurn(SEED, 2, played=PLAYED + 2, tail=moves(kept[:2]))
    with pytest.raises(NeedsHistory):
        decide("fort_sumter", 1, role, "normal", views[2], LIMITS, third)
    earlier = tuple(Earlier(v, d.verb, d.arg) for v, d in zip(views[:2], kept[:2], strict=True))
    grown = decide(
        "fort_sumter",
        1,
        role,
        "normal",
        views[2],
        LIMITS,
        dataclasses.replace(third, earlier=earlier),
    )
    decision._PLAYERS.clear()
    afresh = decide("fort_sumter", 1, role, "normal", views[2], LIMITS, SeatTurn(SEED, 0))
    return kept, grown, afresh


def test_a_player_grown_from_the_turn_so_far_decides_as_the_kept_one() -> None:
    kept, grown, afresh = kept_then_restarted(seed=5)
    assert grown == kept[2]
    # The turn's tree mattered here: without it the third decision comes out otherwise
    # (searched afresh, where the kept tree played its plan or searched on from it).
    assert (afresh.verb, afresh.arg) != (kept[2].verb, kept[2].arg)


def test_a_turn_that_begins_starts_afresh_whatever_the_player_kept() -> None:
    """A kept player carries nothing into a new turn: it decides as a new one does."""
    role, state = value_play(seed=5)
    view = GAME.view(state, role)
    decision._PLAYERS.clear()
    new = decide("fort_sumter", 1, role, "normal", view, LIMITS, SeatTurn(SEED, 0))
    decide("fort_sumter", 1, role, "normal", view, LIMITS, SeatTurn(SEED, 0))  # kept now
    again = decide("fort_sumter", 1, role, "normal", view, LIMITS, SeatTurn(SEED, 0))
    assert again == new


async def play_against_dispatch(tmp_path: Path, forgetful: bool) -> tuple[list[Any], list[Any]]:
    """A whole Fort Sumter game of the automated player against Dispatch (normal, a small
    budget), from a chosen seed: the action log and Dispatch's estimates. ``forgetful``:
    the worker drops every player before each of Dispatch's decisions, as a restart
    before every move would."""
    tmp_path.mkdir()
    decision._PLAYERS.clear()  # players another test kept for its own game of the same number
    manager = await GameManager.open(tmp_path / "g.sqlite3", RecordingFrontEnd(), clock=FakeClock())
    try:
        seats = BotSeats.attach(manager, workers="thread", iterations=40)
        asked = seats._decide

        async def decide_after_a_restart(*args: Any) -> Decision:
            decision._PLAYERS.clear()
            return await asked(*args)

        if forgetful:
            seats._decide = decide_after_a_restart  # type: ignore[method-assign]
        info = await manager.create_game(
            "g1", "c1", "alice", NewGame("fort_sumter", seed=9, opponent_id=bot_user("normal"))
        )
        policy = GAME.automated_player()
        assert policy is not None
        for _ in range(2000):
            await seats.idle()
            now = await manager.get_game_info(info.id)
            if now.status != "active":
                break
            mine = [s.role for s in now.seats if s.user_id == "alice"]
            role = next(r for r in mine if r in now.active_roles)
            pv = await manager.view_for(info.id, "alice", role=role)
            verb, arg = policy(GAME, pv.view)
            await manager.act(info.id, "alice", Move(verb, arg, pv.version, role=role))
        exported = await manager.records.export(info.id)
        async with manager.store.read() as db:
            estimates = await db.hints.bot_estimates(info.id)
        return exported["actions"], [(e.version, e.estimate) for e in estimates]
    finally:
        await manager.close()
        decision._PLAYERS.clear()


async def test_a_restart_before_every_move_changes_none_of_dispatchs_moves(
    tmp_path: Path,
) -> None:
    kept = await play_against_dispatch(tmp_path / "kept", forgetful=False)
    forgetful = await play_against_dispatch(tmp_path / "forgetful", forgetful=True)
    assert forgetful == kept
    bot_moves = [a for a in kept[0] if a["user"] == bot_user("normal")]
    assert len(bot_moves) > 30


@pytest.mark.parametrize(
    ("decided_at", "tail", "kept"),
    [
        (None, (("place", "a"),), False),  # no player decided here
        (40, (("place", "a"),), True),  # it made the turn's one decision
        (40, (("place", "a"), ("done", None)), True),  # then the manager's formal Done
        (40, (("place", "a"), ("place", "b")), False),  # the next was made elsewhere
        (39, (("place", "a"),), False),  # it decided before the turn began
        (41, (("place", "a"),), False),  # a log that does not add up
    ],
)
def test_a_kept_player_is_used_only_if_it_made_the_turns_last_decision(
    decided_at: int | None, tail: tuple[tuple[str, Any], ...], kept: bool
) -> None:
    seat = SeatTurn(SEED, len(tail), played=PLAYED + len(tail), tail=tail)
    assert decision._made_the_last(decided_at, seat) is kept


async def test_a_turn_that_does_not_replay_is_searched_afresh_and_logs_no_card(
    manager: GameManager, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    info = await manager.create_game(
        "g1", "c1", "alice", NewGame("fort_sumter", seed=9, opponent_id=bot_user("normal"))
    )

    def damaged(*args: Any) -> tuple[Earlier, ...]:
        raise ValueError("S12 is not in the secessionist hand")  # a rules message, a card

    monkeypatch.setattr(searching, "earlier_decisions", damaged)
    seats = BotSeats.of(manager)
    with caplog.at_level("WARNING", logger="dispatch.bots"):
        assert await seats._earlier(info.id, "secessionist", [], 1, None) == ()
    # The log as written, tracebacks included.
    assert "did not replay (ValueError)" in caplog.text and "S12" not in caplog.text
