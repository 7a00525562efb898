"""A league on a store shared by two managers (two processes' worth: two stores, two
connections) on both engines: a round advances exactly once whichever games end at once,
two processes opening a round's games open one game per pairing, a crash between the
last result and the next round's games leaves them to be opened once, and a moderator's
decision racing the game's own end gives one result."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from conftest import FakeClock, RecordingFrontEnd

from bot import errors
from bot.tables import endings
from bot.tables.leagues import play
from bot.tables.leagues.entrants import Outcome
from bot.tables.leagues.port import LocalRoom
from bot.tables.leagues.records import LeagueGameInfo, LeagueInfo, LeagueSpec
from bot.tables.manager import GameManager

SPEC = LeagueSpec("Cup", "toy", "round_robin")
PLAYERS = ("alice", "bob", "carol", "dave")


class SlowRoom(LocalRoom):
    """A room that yields while it opens a thread, so two openers interleave there."""

    async def open_table(self, league: LeagueInfo, game: LeagueGameInfo, name: str) -> str:
        await asyncio.sleep(0)
        return await super().open_table(league, game, name)


@pytest.fixture
async def two(
    toy_game: object, db_path: Path, clock: FakeClock
) -> AsyncIterator[tuple[GameManager, GameManager]]:
    first = await GameManager.open(db_path, RecordingFrontEnd(), clock=clock)
    second = await GameManager.open(db_path, RecordingFrontEnd(), clock=clock)
    first.leagues.attach_room(SlowRoom())
    second.leagues.attach_room(SlowRoom())
    yield first, second
    await first.close()
    await second.close()


async def _league(manager: GameManager, name: str = "Cup") -> int:
    spec = LeagueSpec(name, "toy", "round_robin")
    league = await manager.leagues.create("g", "chan", "mod", spec, may_run=True)
    for player in PLAYERS:
        await manager.leagues.join(league.id, "g", player)
    return league.id


async def _audit(manager: GameManager, league_id: int, what: str) -> list[str]:
    async with manager.store.read() as db:
        return [a.detail for a in await db.leagues.audit_list(league_id) if a.what == what]


async def test_two_games_ending_at_once_in_two_processes_advance_the_round_once(
    two: tuple[GameManager, GameManager],
) -> None:
    a, b = two
    # Several leagues at once, so the two processes' transactions overlap many times.
    leagues = [await _league(a, f"Cup {n}") for n in range(4)]
    ends = []
    for league_id in leagues:
        await a.leagues.start(league_id, "g", "mod", may_run=True)
        one, two_ = (await a.leagues.round(league_id, "g")).games
        assert one.game_id is not None and two_.game_id is not None
        ends += [a.resign(one.game_id, one.second), b.resign(two_.game_id, two_.second)]
    await asyncio.gather(*ends)
    for league_id in leagues:
        assert await _audit(a, league_id, "round done") == ["round 1"]
        assert await _audit(a, league_id, "round paired") == [
            "round 1: 2 games",
            "round 2: 2 games",
        ]
        info = await b.leagues.info(league_id, "g")
        assert info.round_number == 2
        assert (await b.leagues.round(league_id, "g", 1)).status == "done"


async def _paired_not_opened(manager: GameManager, league_id: int) -> None:
    """Start the league as the entry deadline's pass does: paired, not yet opened."""
    async with manager.store.transaction() as db:
        league = await db.leagues.lock_league(league_id)
        assert league is not None
        await play.start(db, league, "mod")


async def test_two_processes_opening_a_round_open_one_game_per_pairing(
    two: tuple[GameManager, GameManager],
) -> None:
    a, b = two
    leagues = [await _league(a, f"Cup {n}") for n in range(3)]
    for league_id in leagues:
        await _paired_not_opened(a, league_id)
    opened = await asyncio.gather(a.leagues.open_pending(), b.leagues.open_pending())
    assert sum(opened) == 6
    threads = [*a.leagues.room.opened, *b.leagues.room.opened]  # type: ignore[attr-defined]
    assert len(threads) == len(set(threads)) == 6
    async with a.store.read() as db:
        games = [g for league_id in leagues for g in await db.leagues.games(league_id)]
        live = [await db.lobby.live_game_in_channel(t) for t in threads]
    assert len({g.game_id for g in games}) == 6 and all(g.game_id for g in games)
    assert sorted(row.id for row in live if row is not None) == sorted(
        g.game_id for g in games if g.game_id
    )
    assert await a.leagues.open_pending() == 0
    assert await b.leagues.open_pending() == 0


async def test_a_crash_after_the_last_result_leaves_the_next_round_to_open_once(
    toy_game: object, db_path: Path, clock: FakeClock
) -> None:
    manager = await GameManager.open(db_path, RecordingFrontEnd(), clock=clock)
    league_id = await _league(manager)
    await manager.leagues.start(league_id, "g", "mod", may_run=True)
    one, last = (await manager.leagues.round(league_id, "g")).games
    assert one.game_id is not None and last.game_id is not None
    await manager.resign(one.game_id, one.second)
    # The last game ends in its transaction; the process dies right after the commit.
    async with manager.store.transaction(game=last.game_id) as db:
        await endings.resign(db, last.game_id, last.second, None)
    await manager.close()
    restarted = await GameManager.open(db_path, RecordingFrontEnd(), clock=clock)
    try:
        second = await restarted.leagues.round(league_id, "g")
        assert second.number == 2 and all(g.game_id is None for g in second.games)
        assert await restarted.leagues.open_pending() == 2
        assert await restarted.leagues.open_pending() == 0
        opened = await restarted.leagues.round(league_id, "g")
        assert all(g.game_id is not None for g in opened.games)
        assert await _audit(restarted, league_id, "round paired") == [
            "round 1: 2 games",
            "round 2: 2 games",
        ]
    finally:
        await restarted.close()


async def test_a_moderators_decision_racing_the_games_end_gives_one_result(
    two: tuple[GameManager, GameManager],
) -> None:
    a, b = two
    leagues = [await _league(a, f"Cup {n}") for n in range(3)]
    races = []
    for league_id in leagues:
        await a.leagues.start(league_id, "g", "mod", may_run=True)
        one, last = (await a.leagues.round(league_id, "g")).games
        assert one.game_id is not None and last.game_id is not None
        await a.resign(one.game_id, one.second)
        races += [
            a.leagues.decide(league_id, "g", 1, last.board, Outcome.DRAW, "mod", "", may_run=True),
            b.resign(last.game_id, last.second),
        ]
    outcomes = await asyncio.gather(*races, return_exceptions=True)
    for decided, resigned in zip(outcomes[::2], outcomes[1::2], strict=True):
        # Exactly one of the two went through; the other was refused politely.
        lost = [x for x in (decided, resigned) if isinstance(x, BaseException)]
        assert len(lost) == 1, outcomes
        assert isinstance(lost[0], errors.LeagueRefused | errors.GameNotActive)
    for league_id in leagues:
        results = await _audit(a, league_id, "result recorded") + await _audit(
            a, league_id, "decided"
        )
        assert len([r for r in results if r.startswith("round 1 board 2")]) == 1
        assert await _audit(a, league_id, "round done") == ["round 1"]
        assert (await a.leagues.info(league_id, "g")).round_number == 2
