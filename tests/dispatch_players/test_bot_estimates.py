"""Where the game turned: Dispatch keeps its own estimate after each
searched move, secret while the game runs (no post, DM or log line carries it), and a
finished game's ``/game log`` tells the three decisions where it changed most."""

from __future__ import annotations

import pytest
from conftest import RecordingFrontEnd

from bot import errors
from bot.dispatch_players.bots import BotSeats
from bot.dispatch_players.decision import SearchLimits, decide
from bot.storage.rows import BotEstimateRow
from bot.tables.bot_users import bot_user
from bot.tables.manager import GameManager
from bot.tables.records import estimates
from bot.tables.requests import NewGame
from rules import get_game
from tests.tables.test_ratings import end_post, play_greedy

NORMAL = bot_user("normal")


def _row(version: int, estimate: float, role: str = "unionist") -> BotEstimateRow:
    return BotEstimateRow(1, version, role, estimate, f"Move words {version}.")


def test_the_turning_points_are_the_largest_changes_between_consecutive_decisions() -> None:
    rows = [
        _row(2, 0.50),
        _row(5, 0.52),  # +2
        _row(8, 0.64),  # +12
        _row(11, 0.31),  # -33
        _row(14, 0.30),  # -1
        _row(17, 0.10),  # -20
        _row(3, 0.9, "secessionist"),  # one decision of another seat: no pair
    ]
    points = estimates.turning_points(rows)
    assert [(a.version, b.version) for a, b in points] == [(5, 8), (8, 11), (14, 17)]
    assert estimates.turning_lines([], {}) == []
    assert estimates.turning_lines(rows[:1], {}) == []


def test_a_turning_point_is_told_as_what_happened_between_the_two_decisions() -> None:
    """The estimate kept at a decision is the chance after Dispatch's move, so a swing to
    its next decision is the other side's moves and the draws, not the earlier move; and
    it is told in words, not as a percentage the estimates cannot back yet."""
    line = estimates.turning_line(_row(8, 0.64), _row(11, 0.12), NORMAL)
    assert line == (
        "Moves 8 to 11: after Dispatch (normal)'s move 8 (Move words 8), the other side's "
        "moves and the draws up to its next decision took Dispatch (normal)'s estimate "
        "from undecided to behind."
    )
    same = estimates.turning_line(_row(8, 0.79), _row(11, 0.31), NORMAL)
    assert same.endswith("left Dispatch (normal)'s estimate undecided, though lower.")
    end = estimates.end_line([_row(8, 0.95), _row(11, 0.31)], {"unionist": NORMAL})
    assert end == (
        "Between moves 8 and 11, the other side's moves and the draws took Dispatch "
        "(normal)'s estimate from ahead to undecided: where the game turned is in /game log."
    )
    assert "%" not in line + same + end
    words = [estimates.outlook(p) for p in (0.0, 0.19, 0.2, 0.5, 0.89, 0.9, 1.0)]
    assert words == ["behind", "behind", "undecided", "undecided", "undecided", "ahead", "ahead"]


def test_a_searched_decision_carries_its_estimate_and_an_easy_one_none() -> None:
    game = get_game("fort_sumter")
    state = game.setup(seed=2)
    role = game.active_roles(state)[0]
    view = game.view(state, role)
    searched = decide("fort_sumter", 991, role, "normal", view, SearchLimits(iterations=40))
    assert searched.estimate is not None and 0.0 <= searched.estimate <= 1.0
    assert decide("fort_sumter", 992, role, "easy", view).estimate is None


@pytest.mark.usefixtures("toy_game")
async def test_the_estimates_are_secret_until_the_end_then_the_log_shows_where_it_turned(
    manager: GameManager, front_end: RecordingFrontEnd
) -> None:
    BotSeats.attach(manager, workers="thread", iterations=12)
    info = await manager.create_game(
        "g1", "c1", "alice", NewGame("fort_sumter", seat="secessionist", opponent_id=NORMAL)
    )
    await BotSeats.of(manager).idle()
    await BotSeats.of(manager).idle()
    assert not any("estimate" in line for line in await manager.records.log(info.id, 200))
    await play_greedy(manager, info.id, "alice")
    assert end_post(front_end).outcome is not None
    async with manager.store.read() as db:
        kept = await db.hints.bot_estimates(info.id)
    assert len(kept) >= 4 and {r.role for r in kept} == {"unionist"}
    # Not one post or DM before the end says what Dispatch expected; the end post does,
    # in one short line.
    end = next(i for i, d in enumerate(front_end.deliveries) if d.post and d.post.kind == "end")
    for delivery in front_end.deliveries[:end]:
        assert "estimate" not in repr(delivery), delivery
        assert not (delivery.post and delivery.post.turned)
    turned = end_post(front_end).turned
    assert turned.startswith("Between moves ") and "/game log" in turned
    assert f"took {NORMAL}'s estimate from " in turned or f"left {NORMAL}'s estimate" in turned
    lines = await manager.records.log(info.id, 200)
    at = lines.index("Where the game turned, by Dispatch's own estimate of its chances:")
    points = lines[at + 1 :]
    assert len(points) == estimates.TURNING_POINTS
    assert all(f"{NORMAL}'s estimate" in line for line in points)
    # The end post's line is the largest of them.
    [(before, after)] = estimates.turning_points(kept, top=1)
    assert turned.startswith(f"Between moves {before.version} and {after.version}, ")


@pytest.mark.usefixtures("toy_game")
async def test_the_estimate_of_a_refused_move_is_taken_back(manager: GameManager) -> None:
    BotSeats.attach(manager, workers="thread", iterations=12)
    BotSeats.of(manager).nudge = lambda game_id: None  # type: ignore[method-assign]
    info = await manager.create_game(
        "g1", "c1", "alice", NewGame("fort_sumter", seat="secessionist", opponent_id=NORMAL)
    )
    act = manager.act

    async def stale(*args: object, **kwargs: object) -> object:
        raise errors.StalePrompt(0, "")

    manager.act = stale  # type: ignore[method-assign]
    assert await BotSeats.of(manager).play_one(info.id) is True
    async with manager.store.read() as db:
        assert await db.hints.bot_estimates(info.id) == []
    manager.act = act  # type: ignore[method-assign]
    assert await BotSeats.of(manager).play_one(info.id) is True
    async with manager.store.read() as db:
        [kept] = await db.hints.bot_estimates(info.id)
    assert kept.role == "unionist" and kept.version == info.version and kept.move
