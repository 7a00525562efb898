"""The league statements on both engines: the league's lock bumps its version, a result
is recorded once, a round closes once, a pairing is linked to one game, and standings
are kept per version and never over a later one."""

from __future__ import annotations

from pathlib import Path

from conftest import FakeClock

from bot.storage.league_rows import NewLeagueRow
from bot.storage.store import Store


async def _league(store: Store) -> int:
    async with store.transaction() as db:
        return await db.leagues.insert_league(
            NewLeagueRow(
                "g",
                "c",
                "Cup",
                "toy",
                "round_robin",
                None,
                1,
                None,
                7.0,
                14.0,
                True,
                None,
                False,
                "mod",
                db.now + 100,
            )
        )


async def test_the_statements_record_once_close_once_and_link_once(
    db_path: Path, clock: FakeClock
) -> None:
    store = await Store.open(db_path, clock=clock)
    try:
        league_id = await _league(store)
        async with store.transaction() as db:
            before = await db.leagues.league(league_id)
            locked = await db.leagues.lock_league(league_id)
            assert before is not None and locked is not None
            assert locked.version == before.version + 1
            await db.leagues.add_round(league_id, 1, db.now + 10)
            await db.leagues.add_game(league_id, 1, 1, ("a", "b"))
            await db.leagues.add_game(league_id, 1, 2, ("c", "d"))
            one = await db.leagues.board(league_id, 1, 1)
            two = await db.leagues.board(league_id, 1, 2)
            assert one is not None and two is not None
            assert await db.leagues.set_outcome(one.id, "draw", None)
            assert not await db.leagues.set_outcome(one.id, "first wins", "mod")
            assert await db.leagues.close_round(league_id, 1)
            assert not await db.leagues.close_round(league_id, 1)
            assert not await db.leagues.link_game(one.id, 7)  # it has a result
            assert await db.leagues.link_game(two.id, 8)
            assert not await db.leagues.link_game(two.id, 9)
            linked = await db.leagues.game_of(8)
            assert linked is not None and linked.board == 2
            assert await db.leagues.game_of(9) is None
    finally:
        await store.close()


async def test_standings_are_kept_per_version_and_never_over_a_later_one(
    db_path: Path, clock: FakeClock
) -> None:
    store = await Store.open(db_path, clock=clock)
    try:
        league_id = await _league(store)
        async with store.transaction() as db:
            await db.leagues.save_standings(league_id, 3, "[3]")
            await db.leagues.save_standings(league_id, 2, "[2]")  # older: not kept
            assert await db.leagues.saved_standings(league_id, 3) == "[3]"
            assert await db.leagues.saved_standings(league_id, 2) is None
            await db.leagues.save_standings(league_id, 4, "[4]")
            assert await db.leagues.saved_standings(league_id, 3) is None
            assert await db.leagues.saved_standings(league_id, 4) == "[4]"
    finally:
        await store.close()
