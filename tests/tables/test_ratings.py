"""Ratings: a rated game changes each player's rating once, in the
transaction that records its result (also across a crash between that commit and the
delivery of its end post); every kind of game that is not rated is not; Dispatch's
levels are rated players; the leaderboard is read in order from an index."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import FakeClock, RecordingFrontEnd

from bot import errors
from bot.delivery.port import GameInfo, TablePost
from bot.dispatch_players.bots import BotSeats
from bot.storage.queries import RATING_QUERIES
from bot.tables.bot_users import bot_user
from bot.tables.manager import GameManager
from bot.tables.records import ratings
from bot.tables.requests import Move, NewGame
from rules import get_game

pytestmark = pytest.mark.usefixtures("toy_game")

#: Toy Twenty-One to 12: four turns of "add 3, done", two decisions each per turn; south
#: brings the counter to 12 and wins, each side having made four decisions.
SHORT = {"target": 12}


async def play_to_the_end(manager: GameManager, game: GameInfo) -> None:
    for turn in range(4):
        user = game.seats[turn % 2].user_id
        role = game.seats[turn % 2].role
        await manager.act(game.id, user, Move("add", 3, role=role))
        await manager.act(game.id, user, Move("done", role=role))


async def new_game(
    manager: GameManager, guild: str | None = "g1", channel: str = "c1", **kwargs: object
) -> GameInfo:
    """alice (north) against bob (south), dealt from a secret key unless a seed is given."""
    opponent = kwargs.pop("opponent_id", "bob")
    return await manager.create_game(
        guild,
        channel,
        "alice",
        NewGame("toy", options=dict(SHORT), seat="north", opponent_id=opponent, **kwargs),
    )


def end_post(front_end: RecordingFrontEnd) -> TablePost:
    [post] = [p for p in front_end.posts if p.kind == "end"]
    return post


async def changes_of(manager: GameManager, game_id: int) -> list[tuple[str, str]]:
    async with manager.store.read() as db:
        return [(c.role, c.player_id) for c in await db.records.rating_changes(game_id)]


async def test_a_finished_game_changes_each_rating_once_and_the_end_post_says_so(
    manager: GameManager, front_end: RecordingFrontEnd
) -> None:
    game = await new_game(manager)
    await play_to_the_end(manager, game)
    post = end_post(front_end)
    assert post.outcome is not None and post.outcome["winner"] == "south"
    by_role = {c.role: c for c in post.ratings}
    assert by_role["south"].player_id == "bob" and by_role["north"].player_id == "alice"
    assert by_role["south"].before == by_role["north"].before == 1500
    assert by_role["south"].delta > 0 > by_role["north"].delta
    board = await manager.records.leaderboard("g1", "toy")
    assert [(s.rank, s.player_id, s.games, s.wins) for s in board] == [
        (1, "bob", 1, 1),
        (2, "alice", 1, 0),
    ]
    assert [s.points for s in board] == [by_role["south"].after, by_role["north"].after]
    # Delivering again (nothing left) or reading again changes nothing.
    assert await manager.deliver_pending() == 0
    assert await manager.records.leaderboard("g1", "toy") == board
    assert sorted(await changes_of(manager, game.id)) == [("north", "alice"), ("south", "bob")]


async def test_ratings_accumulate_per_server_and_a_resignation_is_rated(
    manager: GameManager, front_end: RecordingFrontEnd
) -> None:
    first = await new_game(manager)
    await play_to_the_end(manager, first)
    second = await new_game(manager, channel="c2")
    for _turn in range(2):  # two turns each: four decisions by each side
        for user in ("alice", "bob"):
            await manager.act(second.id, user, Move("add", 1))
            await manager.act(second.id, user, Move("done"))
    front_end.clear()
    await manager.resign(second.id, "bob")
    post = end_post(front_end)
    assert {c.player_id: c.delta > 0 for c in post.ratings} == {"alice": True, "bob": False}
    board = {s.player_id: s for s in await manager.records.leaderboard("g1", "toy")}
    assert board["alice"].games == board["bob"].games == 2
    assert board["alice"].wins == board["bob"].wins == 1
    assert {p: s.points for p, s in board.items()} == {c.player_id: c.after for c in post.ratings}
    # Another server has its own ladder.
    assert await manager.records.leaderboard("g2", "toy") == []


async def test_a_crash_between_the_commit_and_the_delivery_rates_the_game_once(
    db_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen = RecordingFrontEnd()
    first = await GameManager.open(db_path, seen, clock=clock)

    class Killed(Exception):
        """Stands in for the process dying (SystemExit would stop the event loop)."""

    async def crash_before_delivery(*args: object, **kwargs: object) -> int:
        raise Killed

    try:
        game = await new_game(first)
        await play_to_the_end(first, game)  # a first game, delivered as usual
        board_before = await first.records.leaderboard("g1", "toy")
        assert board_before and all(s.games == 1 for s in board_before)
        second_game = await new_game(first, channel="c2")
        for turn in range(3):
            user = ("alice", "bob")[turn % 2]
            await first.act(second_game.id, user, Move("add", 3))
            await first.act(second_game.id, user, Move("done"))
        await first.act(second_game.id, "bob", Move("add", 3))  # all but the last decision...
        seen.clear()
        monkeypatch.setattr(first, "deliver_due", crash_before_delivery)
        with pytest.raises(Killed):
            await first.act(second_game.id, "bob", Move("done"))  # ...committed, then the crash
    finally:
        await first.close()
    assert seen.deliveries == []

    up = RecordingFrontEnd()
    second = await GameManager.open(db_path, up, clock=clock)  # start-up delivers
    try:
        post = end_post(up)
        assert {c.player_id for c in post.ratings} == {"alice", "bob"}
        assert all(c.before != 1500 for c in post.ratings)  # the second game's change
        board = await second.records.leaderboard("g1", "toy")
        assert {s.player_id: s.games for s in board} == {"alice": 2, "bob": 2}
        assert {s.player_id: s.points for s in board} == {
            c.player_id: c.after for c in post.ratings
        }
        assert await second.deliver_pending() == 0
    finally:
        await second.close()

    third = RecordingFrontEnd()
    again = await GameManager.open(db_path, third, clock=clock)
    try:
        assert third.deliveries == []
        assert await again.records.leaderboard("g1", "toy") == board
    finally:
        await again.close()


async def test_a_game_is_never_rated_twice_even_if_its_result_were_recorded_again(
    manager: GameManager,
) -> None:
    game = await new_game(manager)
    await play_to_the_end(manager, game)
    board = await manager.records.leaderboard("g1", "toy")
    async with manager.store.transaction() as db:
        row = await db.game(game.id)
        seats = await db.seats(game.id)
        assert row is not None
        again = await ratings.rate_game(db, row, seats, ("north", "south"), "north")
    assert {c.role: c.delta > 0 for c in again} == {"south": True, "north": False}
    assert await manager.records.leaderboard("g1", "toy") == board


# -- not rated ------------------------------------------------------------------------


async def assert_unrated(manager: GameManager, front_end: RecordingFrontEnd, game_id: int) -> None:
    assert await changes_of(manager, game_id) == []
    assert await manager.records.leaderboard("g1", "toy") == []
    assert all(not p.ratings for p in front_end.posts)


async def test_a_practice_game_is_not_rated(
    manager: GameManager, front_end: RecordingFrontEnd
) -> None:
    game = await new_game(manager, seed=7)
    await play_to_the_end(manager, game)
    assert end_post(front_end).outcome is not None
    await assert_unrated(manager, front_end, game.id)


async def test_a_hot_seat_game_is_not_rated(
    manager: GameManager, front_end: RecordingFrontEnd
) -> None:
    game = await new_game(manager, opponent_id="alice", hotseat=True)
    assert {s.user_id for s in game.seats} == {"alice"}
    await play_to_the_end(manager, game)
    assert end_post(front_end).outcome is not None
    await assert_unrated(manager, front_end, game.id)


async def test_a_game_resigned_before_each_side_made_three_decisions_is_not_rated(
    manager: GameManager, front_end: RecordingFrontEnd
) -> None:
    game = await new_game(manager)
    for user in ("alice", "bob", "alice"):  # alice 4 decisions, bob only 2
        await manager.act(game.id, user, Move("add", 1))
        await manager.act(game.id, user, Move("done"))
    await manager.resign(game.id, "bob")
    assert end_post(front_end).outcome is not None
    await assert_unrated(manager, front_end, game.id)


async def test_cancelled_and_abandoned_games_are_not_rated(
    manager: GameManager, front_end: RecordingFrontEnd
) -> None:
    lobby = await manager.create_game("g1", "c1", "alice", NewGame("toy", options=dict(SHORT)))
    await manager.cancel(lobby.id, "alice")
    game = await new_game(manager, channel="c2")
    for user in ("alice", "bob", "alice", "bob"):
        await manager.act(game.id, user, Move("add", 1))
        await manager.act(game.id, user, Move("done"))
    await manager.abandon(game.id, "alice")
    result = await manager.abandon(game.id, "bob")
    assert result.abandoned
    await assert_unrated(manager, front_end, lobby.id)
    await assert_unrated(manager, front_end, game.id)


async def test_a_one_seat_game_is_not_rated(
    manager: GameManager, front_end: RecordingFrontEnd
) -> None:
    solo = {"playsheet": "paths_of_glory", "side": "central_powers"}
    info = await manager.create_game("g1", "c1", "alice", NewGame("solo", options=solo))
    await manager.act(info.id, "alice", Move("roll", "central_powers", info.version))
    await manager.resign(info.id, "alice")
    assert await changes_of(manager, info.id) == []
    assert all(not p.ratings for p in front_end.posts)
    with pytest.raises(errors.PlayedAlone):
        await manager.records.leaderboard("g1", "solo")


def test_the_rules_of_what_is_rated() -> None:
    from bot.storage.rows import GameRow, SeatRow

    row = GameRow(1, "g", "c", "toy", "{}", -1, "finished", None, 9, "a", False, (), 0, 0, 0, None)
    seats = [
        SeatRow(1, "north", "a", False, False, 0, 0),
        SeatRow(1, "south", "b", False, False, 0, 0),
    ]
    roles = ("north", "south")
    enough = {"north": 3, "south": 3}
    assert ratings.unrated_reason(row, seats, roles, enough) is None
    assert ratings.unrated_reason(row, seats, roles, {"north": 3, "south": 2})
    practice = GameRow(
        1, "g", "c", "toy", "{}", 0, "finished", None, 9, "a", False, (), 0, 0, 0, None
    )
    assert ratings.unrated_reason(practice, seats, roles, enough) == "a practice game (chosen seed)"
    # The Fate Die is a player of its own, whichever level holds its seat.
    fated = GameRow(
        1,
        "g",
        "c",
        "toy",
        '{"fate": "south"}',
        -1,
        "finished",
        None,
        9,
        "a",
        False,
        (),
        0,
        0,
        0,
        None,
    )
    bot_seat = SeatRow(1, "south", bot_user("hard"), False, False, 0, 0)
    assert ratings.player_of(fated, bot_seat) == ratings.FATE_PLAYER
    assert ratings.player_of(row, bot_seat) == "Dispatch (hard)"


# -- Dispatch's levels ------------------------------------------------------------------


async def play_greedy(manager: GameManager, game_id: int, user: str) -> None:
    """The human side plays the game's greedy policy until the game ends."""
    policy = get_game((await manager.get_game_info(game_id)).game_name).automated_player()
    assert policy is not None
    for _ in range(2000):
        await BotSeats.of(manager).idle()
        info = await manager.get_game_info(game_id)
        if info.status != "active":
            return
        mine = [s.role for s in info.seats if s.user_id == user and s.role in info.active_roles]
        pv = await manager.view_for(game_id, user, role=mine[0])
        verb, arg = policy(get_game(info.game_name), pv.view)
        await manager.act(game_id, user, Move(verb, arg, pv.version, role=mine[0]))
    raise AssertionError("the game did not end")


async def test_dispatch_levels_are_rated_players(
    manager: GameManager, front_end: RecordingFrontEnd
) -> None:
    BotSeats.attach(manager, workers="thread", iterations=4)
    easy = bot_user("easy")
    info = await manager.create_game(
        "g1", "c1", "alice", NewGame("fort_sumter", seat="secessionist", opponent_id=easy)
    )
    await play_greedy(manager, info.id, "alice")
    post = end_post(front_end)
    assert {c.player_id for c in post.ratings} == {"alice", easy}
    assert all(c.before == 1500 and c.after != 1500 for c in post.ratings)
    board = await manager.records.leaderboard("g1", "fort_sumter")
    assert {s.player_id for s in board} == {"alice", easy}
    assert all(s.games == 1 for s in board)


# -- the leaderboard --------------------------------------------------------------------


async def test_the_leaderboard_refuses_bad_input_politely(manager: GameManager) -> None:
    with pytest.raises(errors.UnknownGame):
        await manager.records.leaderboard("g1", "chess")
    for size in (0, 26, "ten", True):
        with pytest.raises(errors.BadNumber):
            await manager.records.leaderboard("g1", "toy", size)  # type: ignore[arg-type]


# SQLite's planner (EXPLAIN QUERY PLAN); PostgreSQL's plans of the same queries, at 10,000
# games: tests/storage/test_store_plans_pg.py.
@pytest.mark.sqlite_only
@pytest.mark.parametrize("name", sorted(RATING_QUERIES))
async def test_the_ratings_queries_are_answered_from_an_index(
    name: str, db_path: Path, clock: FakeClock
) -> None:
    manager = await GameManager.open(db_path, RecordingFrontEnd(), clock=clock)
    try:
        async with manager.store.transaction() as db:
            for i in range(300):
                await db.db.execute(
                    "INSERT INTO ratings (scope, game_name, player_id, mu, sigma, points, games,"
                    " wins, updated_at) VALUES (?, ?, ?, 25, 8, ?, 1, 0, 0)",
                    (f"g{i % 7}", ("toy", "war")[i % 2], f"u{i}", 1500 + i),
                )
            await db.db.execute_fetchall("ANALYZE")
        sql, params = RATING_QUERIES[name]
        async with manager.store.read() as db:
            rows = await db.db.execute_fetchall("EXPLAIN QUERY PLAN " + sql, params)
    finally:
        await manager.close()
    plan = [str(r[3]) for r in rows]
    assert any("USING" in line and "INDEX" in line for line in plan), plan
    assert not any(line.startswith("SCAN") and "INDEX" not in line for line in plan), plan
    if name == "leaderboard":  # in order from its index: no sorting of a server's players
        assert plan == ["SEARCH ratings USING INDEX ratings_leaderboard (scope=? AND game_name=?)"]
