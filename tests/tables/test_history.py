"""History and records: keyset pages of finished games, a player's record,
and which finished game's export a user may have; every query answered from an index."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import FakeClock, RecordingFrontEnd

from bot import errors
from bot.storage.finished_pages import HISTORY_QUERIES
from bot.tables.bot_users import bot_user
from bot.tables.manager import GameManager
from bot.tables.records import pages
from bot.tables.records.replay import watchable_export
from bot.tables.requests import Move, NewGame

pytestmark = pytest.mark.usefixtures("toy_game")

#: A plan line that reads a whole table ("SCAN games", "SCAN g"), not an index.
FULL_SCAN = re.compile(r"^SCAN \w+$")


async def finish(
    manager: GameManager, n: int, user: str = "ann", opponent: str = "bob", guild: str = "g1"
) -> int:
    """A finished game of ``user`` (the creator's seat) that ``opponent`` resigned."""
    info = await manager.create_game(
        guild, f"c{n}", user, NewGame("toy", seed=n, opponent_id=opponent)
    )
    await manager.act(info.id, user, Move("add", 1))
    await manager.resign(info.id, opponent)
    return info.id


async def fill(manager: GameManager, games: int) -> list[int]:
    return [await finish(manager, i) for i in range(games)]


# SQLite's planner (EXPLAIN QUERY PLAN); PostgreSQL's plans of the same queries, at 10,000
# games: tests/storage/test_store_plans_pg.py.
@pytest.mark.sqlite_only
@pytest.mark.parametrize("name", sorted(HISTORY_QUERIES))
async def test_every_history_query_is_answered_from_an_index(
    name: str, db_path: Path, clock: FakeClock
) -> None:
    manager = await GameManager.open(db_path, RecordingFrontEnd(), clock=clock)
    try:
        await fill(manager, 30)
        async with manager.store.transaction() as db:
            await db.db.execute_fetchall("ANALYZE")
        sql, params = HISTORY_QUERIES[name]
        async with manager.store.read() as db:
            rows = await db.db.execute_fetchall("EXPLAIN QUERY PLAN " + sql, params)
    finally:
        await manager.close()
    lines = [str(r[3]) for r in rows]
    # A scan of a subquery materialized from an index (a bounded list) is no table scan,
    # nor is a scan of a named subquery run as a co-routine (PostgreSQL needs the name).
    made = {line.split()[1] for line in lines if line.startswith(("MATERIALIZE ", "CO-ROUTINE "))}
    scans = [line for line in lines if FULL_SCAN.match(line) and line.split()[1] not in made]
    assert not scans, f"{name}: {lines}"
    assert any("USING" in line and "INDEX" in line for line in lines), f"{name}: {lines}"


async def test_pages_walk_the_finished_games_by_keyset_both_ways(manager: GameManager) -> None:
    ids = await fill(manager, 25)
    await manager.create_game(
        "g1", "live", "ann", NewGame("toy", seed=1, opponent_id="bob")
    )  # live
    first = await manager.records.finished_page("mine", "ann")
    assert [g.id for g in first.games] == ids[::-1][:10]
    assert first.newer is None and first.older == ids[15]
    second = await manager.records.finished_page("mine", "ann", key=first.older or 0)
    assert [g.id for g in second.games] == ids[::-1][10:20]
    last = await manager.records.finished_page("mine", "ann", key=second.older or 0)
    assert [g.id for g in last.games] == ids[::-1][20:] and last.older is None
    back = await manager.records.finished_page("mine", "ann", older=False, key=last.newer or 0)
    assert back == second
    assert (await manager.records.finished_page("server", "g1")).games == first.games
    assert (await manager.records.finished_page("server", "elsewhere")).games == ()
    row = first.games[0]
    assert row.winner == "north" and row.code == "resigned" and row.channel_id == "c24"
    assert dict(row.seats) == {"north": "ann", "south": "bob"}


@pytest.mark.parametrize("key", [-1, pages.FIRST + 1])
async def test_a_forged_page_key_is_refused_politely(manager: GameManager, key: int) -> None:
    with pytest.raises(errors.Malformed):
        await manager.records.finished_page("mine", "ann", key=key)


async def test_stats_count_sides_time_and_each_dispatch_level(
    manager: GameManager, clock: FakeClock
) -> None:
    await finish(manager, 1)  # ann beats bob
    won = await finish(manager, 2, opponent=bot_user("easy"))
    lost = await finish(manager, 3, user="bob", opponent="ann")  # bob wins as north
    async with manager.store.transaction() as db:
        await db.records.record_result(lost, "north", "Time ran out.", {}, "timeout")
    clock.advance(60)
    stats = await manager.records.stats("ann")
    assert stats.games == 3
    assert stats.by_side[("toy", "north")].text() == "2 won, 0 lost"
    assert stats.by_side[("toy", "south")].text() == "0 won, 1 lost"
    assert (stats.on_time.wins, stats.on_time.losses) == (0, 1)
    assert list(stats.against_levels) == ["easy"]
    assert stats.against_levels["easy"].wins == 1
    assert won and (await manager.records.stats("ann", "war")).games == 0
    assert (await manager.records.stats("nobody")).median_turn_s is None


async def test_median_turn_time_is_from_the_other_side_s_move(
    manager: GameManager, clock: FakeClock
) -> None:
    info = await manager.create_game("g1", "c", "ann", NewGame("toy", seed=1, opponent_id="bob"))
    await manager.act(info.id, "ann", Move("add", 1))
    await manager.act(info.id, "ann", Move("done"))
    clock.advance(300)
    await manager.act(info.id, "bob", Move("add", 2))
    await manager.resign(info.id, "ann")
    assert (await manager.records.stats("bob")).median_turn_s == 300
    assert (await manager.records.stats("bob")).turns == 1


async def test_export_by_number_for_players_and_this_server_only(manager: GameManager) -> None:
    mine = await finish(manager, 1, guild="g1")
    theirs = await finish(manager, 2, user="cat", opponent="dan", guild="g2")
    live = await manager.create_game("g1", "l", "ann", NewGame("toy", seed=3, opponent_id="bob"))
    assert (await manager.records.export_finished(mine, "ann", "g9"))["actions"]
    assert (await manager.records.export_finished(mine, "eve", "g1"))["actions"]
    assert (await manager.records.export_finished(theirs, "cat", None))["actions"]
    for number in (theirs, 999, -5):
        with pytest.raises(errors.NotYours):
            await manager.records.export_finished(number, "ann", "g1")
    with pytest.raises(errors.WrongStage):
        await manager.records.export_finished(live.id, "ann", "g1")


async def test_games_being_played_page_by_keyset_too(manager: GameManager) -> None:
    ids = []
    for n in range(12):
        info = await manager.create_game(
            "g1", f"live{n}", "ann", NewGame("toy", seed=n, opponent_id="bob")
        )
        ids.append(info.id)
    await finish(manager, 99)  # finished: not listed
    first = await manager.records.finished_page("live", "ann")
    assert [g.game.id for g in first.live()] == ids[::-1][:10] and first.newer is None
    assert first.live()[0].my_turn and first.live()[0].roles == ("north",)
    rest = await manager.records.finished_page("live", "ann", key=first.older or 0)
    assert [g.game.id for g in rest.live()] == ids[1::-1] and rest.older is None
    back = await manager.records.finished_page("live", "bob", older=False, key=ids[1])
    assert [g.game.id for g in back.live()] == ids[::-1][:10] and not back.live()[0].my_turn


# -- seats that changed hands ------------------------------------------


async def test_a_player_who_passed_a_seat_keeps_the_game_in_their_history(
    manager: GameManager, clock: FakeClock
) -> None:
    info = await manager.create_game("g1", "c", "ann", NewGame("toy", seed=1, opponent_id="bob"))
    await manager.act(info.id, "ann", Move("add", 1))
    await manager.act(info.id, "ann", Move("done"))
    clock.advance(100)
    await manager.act(info.id, "bob", Move("add", 1))
    await manager.act(info.id, "bob", Move("done"))  # ann's turn: she passes her seat to cat
    passed_at = (await manager.get_game_info(info.id)).version
    await manager.seat_changes.reseat(info.id, "north", "cat", "mod", is_moderator=True)
    clock.advance(500)
    await manager.act(info.id, "cat", Move("add", 1))  # cat's own turn time: 500 s
    await manager.resign(info.id, "bob")  # north (cat) wins
    other = await finish(manager, 7)  # and a game ann finished herself

    page = await manager.records.finished_page("mine", "ann")
    assert [g.id for g in page.finished()] == [other, info.id]
    passed = page.finished()[1]
    assert passed.passed == ("north", "cat", passed_at)
    # A moderator's reseat: ann's loss on time, though her side won (docs/ratings.md).
    assert pages.result_for(passed, "ann") == (
        f"lost on time: North reseated to cat at move {passed_at}"
    )
    assert pages.result_for(page.finished()[0], "ann") == "won"
    cats = await manager.records.finished_page("mine", "cat")
    assert [g.id for g in cats.finished()] == [info.id]
    assert (
        cats.finished()[0].passed is None and pages.result_for(cats.finished()[0], "cat") == "won"
    )
    # The side's result is credited to whoever held the seat at the end; the passer's
    # record keeps the game too, and a moderator's reseat is her loss on time
    # (docs/ratings.md); the turn times are each player's own.
    ann = await manager.records.stats("ann")
    assert ann.games == 2 and ann.by_side[("toy", "north")].text() == "1 won, 1 lost"
    assert (ann.on_time.wins, ann.on_time.losses) == (0, 1)
    cat = await manager.records.stats("cat")
    assert cat.games == 1 and cat.by_side[("toy", "north")].wins == 1
    assert cat.median_turn_s == 500 and cat.turns == 1
    # The passer may export and watch the game she played.
    assert (await manager.records.export_finished(info.id, "ann", None))["actions"]
    assert (await watchable_export(manager.store, info.id, "ann", None))["id"] == info.id
    with pytest.raises(errors.NotAllowed):
        await watchable_export(manager.store, info.id, "eve", None)
    with pytest.raises(errors.NotAllowed):
        await manager.records.export_finished(info.id, "eve", None)


# SQLite's planner (EXPLAIN QUERY PLAN); PostgreSQL's plans of the same queries, at 10,000
# games: tests/storage/test_store_plans_pg.py.
@pytest.mark.sqlite_only
async def test_passed_seats_are_paged_from_their_own_index(db_path: Path, clock: FakeClock) -> None:
    manager = await GameManager.open(db_path, RecordingFrontEnd(), clock=clock)
    try:
        sql, params = HISTORY_QUERIES["finished_of_user_older"]
        async with manager.store.read() as db:
            rows = await db.db.execute_fetchall("EXPLAIN QUERY PLAN " + sql, params)
    finally:
        await manager.close()
    plan = " ".join(str(r[3]) for r in rows)
    assert "seat_changes_by_passer (from_user=? AND game_id<?)" in plan, plan
    assert "seats_by_user (user_id=? AND game_id<?)" in plan, plan
