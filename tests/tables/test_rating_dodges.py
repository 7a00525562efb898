"""A seat that changes hands does not take its result with it (docs/ratings.md): everyone
who made at least three decisions at a seat is rated on the game's result; a hand-over or
an offer never removes a player's result; a moderator's reseat of a vanished player is
that player's loss on time; the former holders keep the game in their record."""

from __future__ import annotations

import pytest

from bot.delivery.port import GameInfo
from bot.tables.bot_users import bot_user
from bot.tables.manager import GameManager
from bot.tables.records import pages
from bot.tables.requests import Move
from tests.tables.test_ratings import changes_of, new_game

pytestmark = pytest.mark.usefixtures("toy_game")

EASY = bot_user("easy")


async def turn(manager: GameManager, game: GameInfo, user: str) -> None:
    """Two decisions: add 1, done."""
    await manager.act(game.id, user, Move("add", 1))
    await manager.act(game.id, user, Move("done"))


async def three_turns(manager: GameManager, game: GameInfo) -> None:
    """alice (north) makes four decisions, bob (south) two; bob is to act."""
    await turn(manager, game, "alice")
    await turn(manager, game, "bob")
    await turn(manager, game, "alice")


async def deltas(manager: GameManager, game_id: int) -> dict[tuple[str, str], float]:
    async with manager.store.read() as db:
        return {
            (c.role, c.player_id): c.points_now - c.points_was
            for c in await db.records.rating_changes(game_id)
        }


async def test_a_seat_offered_to_a_second_account_keeps_its_loss_with_its_player(
    manager: GameManager,
) -> None:
    game = await new_game(manager)
    await three_turns(manager, game)
    await turn(manager, game, "bob")
    offer = await manager.seat_changes.offer(game.id, "alice", "alt")
    await manager.seat_changes.answer(game.id, offer.id, "alt", accept=True)
    await manager.resign(game.id, "alt")  # the second account takes the loss at once
    # alice played the seat (4 decisions): the loss is hers; alt made none: not rated.
    changed = await deltas(manager, game.id)
    assert sorted(changed) == [("north", "alice"), ("south", "bob")]
    assert changed[("north", "alice")] < 0 < changed[("south", "bob")]
    board = {s.player_id: (s.games, s.wins) for s in await manager.records.leaderboard("g1", "toy")}
    assert board == {"alice": (1, 0), "bob": (1, 1)}
    # ...and her record has the game, lost.
    stats = await manager.records.stats("alice")
    assert stats.games == 1 and stats.by_side[("toy", "north")].text() == "0 won, 1 lost"
    assert (await manager.records.stats("alt")).by_side[("toy", "north")].losses == 1
    # /games shows it among her finished games, with her result.
    [row] = (await manager.records.finished_page("mine", "alice")).finished()
    assert pages.result_for(row, "alice") == "lost, passed North to alt at move 8"


async def test_a_seat_handed_to_dispatch_rates_both_its_players_and_the_opponent_once(
    manager: GameManager,
) -> None:
    game = await new_game(manager)
    await three_turns(manager, game)
    await manager.seat_changes.hand_over(game.id, "alice", "easy")
    await turn(manager, game, "bob")  # a secret round follows: both pick
    await manager.act(game.id, EASY, Move("pick", 0))
    await manager.act(game.id, "bob", Move("pick", 0))
    await turn(manager, game, EASY)  # Dispatch has made three decisions
    await manager.resign(game.id, EASY)
    changed = await deltas(manager, game.id)
    assert set(changed) == {("north", "alice"), ("north", EASY), ("south", "bob")}
    assert changed[("north", "alice")] < 0 and changed[("north", EASY)] < 0
    # bob won one game: rated once, as against the seat's main player (alice: 4 decisions
    # to Dispatch's 3), so exactly as much as a plain win against a newcomer.
    board = {s.player_id: (s.games, s.wins) for s in await manager.records.leaderboard("g1", "toy")}
    assert board == {"alice": (1, 0), EASY: (1, 0), "bob": (1, 1)}
    assert round(changed[("south", "bob")]) == 206
    assert [c for c in await changes_of(manager, game.id) if c[1] == "alice"] == [
        ("north", "alice")
    ]


async def test_a_moderators_reseat_is_the_vanished_players_loss_on_time(
    manager: GameManager,
) -> None:
    game = await new_game(manager)
    await three_turns(manager, game)
    await turn(manager, game, "bob")
    await manager.seat_changes.reseat(game.id, "north", "carol", "mod", is_moderator=True)
    await manager.act(game.id, "carol", Move("pick", 1))
    await manager.act(game.id, "bob", Move("pick", 0))
    await turn(manager, game, "carol")
    await manager.resign(game.id, "bob")  # north wins, with carol in the seat
    changed = await deltas(manager, game.id)
    assert sorted(changed) == [("north", "alice"), ("north", "carol"), ("south", "bob")]
    assert changed[("north", "alice")] < 0  # alice vanished: her loss, on time
    assert changed[("north", "carol")] > 0 > changed[("south", "bob")]
    stats = await manager.records.stats("alice")
    assert stats.games == 1 and stats.by_side[("toy", "north")].text() == "0 won, 1 lost"
    assert (stats.on_time.wins, stats.on_time.losses) == (0, 1)
    carol = await manager.records.stats("carol")
    assert carol.by_side[("toy", "north")].wins == 1 and carol.on_time.losses == 0


async def test_a_new_holder_with_fewer_than_three_decisions_is_not_rated(
    manager: GameManager,
) -> None:
    game = await new_game(manager)
    await three_turns(manager, game)
    await manager.seat_changes.hand_over(game.id, "alice", "easy")
    await turn(manager, game, "bob")
    await manager.act(game.id, EASY, Move("pick", 0))
    await manager.act(game.id, "bob", Move("pick", 0))
    await manager.resign(game.id, EASY)  # Dispatch made one decision
    assert sorted(await changes_of(manager, game.id)) == [("north", "alice"), ("south", "bob")]


async def test_one_player_who_played_both_seats_makes_the_game_hot_seat_and_unrated(
    manager: GameManager,
) -> None:
    game = await new_game(manager)
    await three_turns(manager, game)
    await turn(manager, game, "bob")
    offer = await manager.seat_changes.offer(game.id, "alice", "carol")
    await manager.seat_changes.answer(game.id, offer.id, "carol", accept=True)
    await manager.seat_changes.reseat(game.id, "south", "alice", "mod", is_moderator=True)
    await manager.act(game.id, "carol", Move("pick", 0))
    await manager.act(game.id, "alice", Move("pick", 0))
    await turn(manager, game, "carol")
    await turn(manager, game, "alice")  # alice: 4 decisions at north, 3 at south
    await manager.resign(game.id, "carol")
    assert await changes_of(manager, game.id) == []
    assert await manager.records.leaderboard("g1", "toy") == []
