"""Seats that change hands: an offer accepted or declined, a
moderator's reseat, a hand-over to Dispatch; the old holder is refused at once, the new
one is told, the table hears it once, and the record still replays exactly."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import FakeClock, RecordingFrontEnd

from bot import errors
from bot.dispatch_players.bots import BotSeats
from bot.storage.queries import HOT_QUERIES
from bot.tables.bot_users import bot_user
from bot.tables.manager import GameManager
from bot.tables.requests import Move, NewGame
from bot.tables.seat_changes.changes import OFFER_HOURS


async def _game(manager: GameManager) -> int:
    info = await manager.create_game("g", "c", "alice", NewGame("toy", seed=1, opponent_id="bob"))
    return info.id


async def test_an_accepted_offer_passes_the_seat_and_the_old_holder_is_refused(
    manager: GameManager, front_end: RecordingFrontEnd
) -> None:
    game = await _game(manager)
    offer = await manager.seat_changes.offer(game, "alice", "carol")
    assert (offer.role, offer.to_user) == ("north", "carol")
    front_end.clear()
    change = await manager.seat_changes.answer(game, offer.id, "carol", accept=True)
    assert change is not None and (change.from_user, change.to_user) == ("alice", "carol")
    info = await manager.get_game_info(game)
    assert info.seat_of("north").user_id == "carol"  # type: ignore[union-attr]
    # The table is told once; carol gets the seat's hand and prompt by DM.
    assert [p.headline for p in front_end.posts] == [
        "carol now plays the North, in place of alice."
    ]
    (dm,) = front_end.privates("carol")
    assert dm.headline.startswith("You now play the North") and dm.view.get("actions")
    # alice's old button (at the current version) and her commands are refused.
    with pytest.raises(errors.SeatPassed, match="no longer yours: carol plays it now"):
        await manager.act(game, "alice", Move("add", 1, 0))
    with pytest.raises(errors.SeatPassed):
        await manager.view_for(game, "alice")
    # carol plays on; the log still replays to the stored state; the export says who.
    await manager.act(game, "carol", Move("add", 2, 0))
    assert await manager.records.verify_replay(game)
    data = await manager.records.export(game)
    assert data["seat_changes"] == [
        {
            "role": "north",
            "from": "alice",
            "to": "carol",
            "by": "alice",
            "how": "offer",
            "version": 0,
        }
    ]
    assert data["actions"][0]["user"] == "carol"


async def test_a_declined_offer_changes_nothing_and_cannot_be_answered_again(
    manager: GameManager, front_end: RecordingFrontEnd
) -> None:
    game = await _game(manager)
    offer = await manager.seat_changes.offer(game, "alice", "carol")
    front_end.clear()
    assert await manager.seat_changes.answer(game, offer.id, "carol", accept=False) is None
    with pytest.raises(errors.NotAllowed, match="already declined"):
        await manager.seat_changes.answer(game, offer.id, "carol", accept=True)
    info = await manager.get_game_info(game)
    assert info.seat_of("north").user_id == "alice"  # type: ignore[union-attr]
    assert front_end.deliveries == []


@pytest.mark.parametrize(
    ("who", "why"),
    [("dave", "is for carol, not you"), ("alice", "is for carol"), ("bob", "is for carol")],
)
async def test_only_the_named_user_may_answer(manager: GameManager, who: str, why: str) -> None:
    game = await _game(manager)
    offer = await manager.seat_changes.offer(game, "alice", "carol")
    with pytest.raises(errors.NotAllowed, match=why):
        await manager.seat_changes.answer(game, offer.id, who, accept=True)
    assert (await manager.seat_changes.open_offer_for(game, "carol")) is not None


async def test_an_offer_lapses_when_the_game_moves_on_or_after_a_day(
    manager: GameManager, clock: FakeClock
) -> None:
    game = await _game(manager)
    offer = await manager.seat_changes.offer(game, "bob", "carol")
    await manager.act(game, "alice", Move("add", 1))
    with pytest.raises(errors.NotAllowed, match="moved on"):
        await manager.seat_changes.answer(game, offer.id, "carol", accept=True)
    later = await manager.seat_changes.offer(game, "bob", "carol")
    clock.advance(OFFER_HOURS * 3600)
    with pytest.raises(errors.NotAllowed, match="expired"):
        await manager.seat_changes.answer(game, later.id, "carol", accept=True)


@pytest.mark.parametrize(
    ("by", "to", "error", "why"),
    [
        ("carol", "dave", errors.NotSeated, "not playing"),
        ("alice", "alice", errors.BadInput, "already yours"),
        ("alice", "bob", errors.SeatRefused, "one player, one seat"),
        ("alice", bot_user("easy"), errors.SeatRefused, "hand-over"),
        ("alice", "", errors.BadInput, "."),
        ("alice", "x" * 500, errors.BadInput, "."),
    ],
)
async def test_bad_offers_are_refused(
    manager: GameManager, by: str, to: str, error: type[Exception], why: str
) -> None:
    game = await _game(manager)
    with pytest.raises(error, match=why):
        await manager.seat_changes.offer(game, by, to)
    async with manager.store.read() as db:
        assert await db.seat_changes.open_seat_offers(game) == []


@pytest.mark.parametrize("offer_id", [0, -1, 2**70, "1", True, None, 99])
async def test_forged_offer_ids_are_refused(manager: GameManager, offer_id: object) -> None:
    game = await _game(manager)
    await manager.seat_changes.offer(game, "alice", "carol")
    with pytest.raises(errors.DispatchError):
        await manager.seat_changes.answer(game, offer_id, "carol", accept=True)  # type: ignore[arg-type]


async def test_another_games_offer_cannot_be_accepted_here(manager: GameManager) -> None:
    game = await _game(manager)
    other = (await manager.create_game("g", "c2", "x", NewGame("toy", seed=1, opponent_id="y"))).id
    offer = await manager.seat_changes.offer(other, "x", "carol")
    with pytest.raises(errors.NotAllowed, match="does not exist"):
        await manager.seat_changes.answer(game, offer.id, "carol", accept=True)


async def test_a_finished_game_keeps_its_seats(manager: GameManager) -> None:
    game = await _game(manager)
    offer = await manager.seat_changes.offer(game, "alice", "carol")
    await manager.resign(game, "bob")
    with pytest.raises(errors.NotAllowed, match="no longer running"):
        await manager.seat_changes.answer(game, offer.id, "carol", accept=True)
    with pytest.raises(errors.GameNotActive):
        await manager.seat_changes.offer(game, "alice", "carol")
    with pytest.raises(errors.GameNotActive):
        await manager.seat_changes.hand_over(game, "alice")
    with pytest.raises(errors.GameNotActive):
        await manager.seat_changes.reseat(game, "north", "carol", "mod", is_moderator=True)


async def test_a_moderator_reseats_and_nobody_else_may(
    manager: GameManager, front_end: RecordingFrontEnd
) -> None:
    game = await _game(manager)
    with pytest.raises(errors.ModeratorOnly):
        await manager.seat_changes.reseat(game, "north", "carol", "bob")
    with pytest.raises(errors.UnknownRole):
        await manager.seat_changes.reseat(game, "west", "carol", "mod", is_moderator=True)
    with pytest.raises(errors.SeatRefused):
        await manager.seat_changes.reseat(game, "north", "bob", "mod", is_moderator=True)
    front_end.clear()
    change = await manager.seat_changes.reseat(game, "north", "carol", "mod", is_moderator=True)
    assert change.line == "carol now plays the North, in place of alice."
    async with manager.store.read() as db:
        (timer,) = await db.timers.of_game(game)
    assert (timer.role, timer.user_id) == ("north", "carol")  # the reminder follows the seat
    assert await manager.records.verify_replay(game)


async def test_a_hand_over_to_dispatch_lets_the_bot_move(
    db_path: Path, front_end: RecordingFrontEnd, clock: FakeClock
) -> None:
    manager = await GameManager.open(db_path, front_end, clock=clock)
    BotSeats.attach(manager, workers="thread", iterations=8)
    try:
        info = await manager.create_game(
            "g", "c", "alice", NewGame("fort_sumter", opponent_id="bob")
        )
        first = info.active_roles[0]
        holder = info.seat_of(first).user_id  # type: ignore[union-attr]
        with pytest.raises(errors.UnknownWord):
            await manager.seat_changes.hand_over(info.id, holder, "grandmaster")
        change = await manager.seat_changes.hand_over(info.id, holder, "easy")
        assert change.to_user == bot_user("easy")
        await BotSeats.of(manager).idle()
        after = await manager.get_game_info(info.id)
        assert after.version > info.version  # Dispatch took its move
        assert await manager.records.verify_replay(info.id)
        with pytest.raises(errors.SeatPassed):
            await manager.view_for(info.id, holder)
    finally:
        await manager.close()


async def test_the_seat_queries_are_listed_as_hot_queries() -> None:
    # tests/storage/test_store_scale.py holds each of them to an index (EXPLAIN QUERY PLAN).
    for name in ("seat_changes", "seat_passed", "seat_offer", "open_seat_offers"):
        assert name in HOT_QUERIES
