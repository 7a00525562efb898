"""Vacations and the claim of a win on time, through the manager.
Time only moves when the test says so (the ``clock`` fixture)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot import errors
from bot.storage.queries import VACATION_QUERIES
from bot.storage.store import Store
from bot.tables.clocks import DAY, HOUR
from bot.tables.manager import GameManager
from bot.tables.requests import Move, NewGame
from tests.conftest import FakeClock, RecordingFrontEnd


async def _fast_game(manager: GameManager, guild: str = "g", channel: str = "chan") -> int:
    info = await manager.create_game(
        guild, channel, "alice", NewGame("toy", opponent_id="bob", clock="fast")
    )
    return info.id


async def _clock(manager: GameManager, game: int, role: str) -> object:
    async with manager.store.read() as db:
        return next(r for r in await db.clocks.clock_rows(game) if r.role == role)


# -- vacations ------------------------------------------------------------------------------


async def test_a_vacation_pauses_the_running_clock_and_moves_its_deadline(
    manager: GameManager, clock: FakeClock
) -> None:
    game = await _fast_game(manager)
    clock.advance(5 * HOUR)  # north (alice) has 19 h left
    taken = await manager.clocks.vacation("g", "alice", 3)
    assert (taken.days, taken.left, taken.games) == (3, 11, (game,))
    north = await _clock(manager, game, "north")
    assert north.deadline == manager.clock() + 3 * DAY + 19 * HOUR  # type: ignore[attr-defined]
    assert north.warn_at == north.deadline - 2 * HOUR  # type: ignore[attr-defined]  # warnings move
    # Nothing is spent while away: a day in, still 19 h left; the old deadline passes.
    clock.advance(DAY)
    assert north.left(manager.clock()) == 19 * HOUR  # type: ignore[attr-defined]
    assert await manager.clocks.expire() == 0
    assert await manager.clocks.warn() == 0
    # Opponents see it: /game status's lines and the table's one-line notice.
    lines = "\n".join(await manager.clocks.lines(game))
    assert f"on vacation until <t:{int(taken.until)}:R>" in lines
    told = [p.headline for p in manager.front_end.posts if p.kind == "notice"]  # type: ignore[attr-defined]
    end = int(taken.until)
    assert told == [f"North is on vacation until <t:{end}:f> (<t:{end}:R>): their clock is paused."]
    clock.advance(2 * DAY + 19 * HOUR - 1)
    assert await manager.clocks.expire() == 0
    clock.advance(1)
    assert await manager.clocks.expire() == 1  # the clock ran on after the vacation


async def test_a_clock_that_starts_during_a_vacation_starts_at_its_end(
    manager: GameManager, clock: FakeClock
) -> None:
    game = await _fast_game(manager)
    taken = await manager.clocks.vacation("g", "bob", 2)  # south's clock is stopped: nothing moves
    assert (await _clock(manager, game, "south")).deadline is None  # type: ignore[attr-defined]
    await manager.act(game, "alice", Move("add", 1))
    result = await manager.act(game, "alice", Move("done"))  # the turn passes to bob, away
    south = await _clock(manager, game, "south")
    assert south.running_since == taken.until  # type: ignore[attr-defined]
    assert south.deadline == taken.until + DAY  # type: ignore[attr-defined]
    assert any("south: 1d 0h left, on vacation until" in line for line in result.view["clocks"])
    # The board's headline band says so, in words an image can hold.
    band = manager.front_end.posts[-1].view["clock_band"]  # type: ignore[attr-defined]
    assert band.startswith("Clock: South on vacation until ") and band.endswith(" UTC"), band
    clock.advance(2 * DAY + DAY - 1)
    assert await manager.clocks.expire() == 0
    clock.advance(1)
    assert await manager.clocks.expire() == 1


async def test_ending_a_vacation_early_gives_back_the_whole_days_not_begun(
    manager: GameManager, clock: FakeClock
) -> None:
    game = await _fast_game(manager)
    await manager.clocks.vacation("g", "alice", 10)
    assert await manager.clocks.vacation_left("g", "alice") == (4, 14)
    clock.advance(DAY + HOUR)  # into the second day: two days count
    ended = await manager.clocks.vacation("g", "alice")
    assert ended.ended and ended.days == 2 and ended.left == 12
    north = await _clock(manager, game, "north")
    assert north.running_since == manager.clock()  # type: ignore[attr-defined]  # runs again now
    assert north.deadline == manager.clock() + DAY  # type: ignore[attr-defined]
    told = [p.headline for p in manager.front_end.posts if p.kind == "notice"]  # type: ignore[attr-defined]
    assert told[-1] == "North is back from vacation: their clock runs again."
    with pytest.raises(errors.VacationRefused):
        await manager.clocks.vacation("g", "alice", 0)


def _told_back(manager: GameManager) -> list[int]:
    """The games whose table was told North is back from vacation, once per telling."""
    fe: RecordingFrontEnd = manager.front_end  # type: ignore[assignment]
    return [
        d.game.id
        for d in fe.deliveries
        if d.post is not None
        and d.post.kind == "notice"
        and d.post.headline == "North is back from vacation: their clock runs again."
    ]


async def test_a_vacation_that_runs_to_its_end_is_told_at_each_table_once(
    manager: GameManager, clock: FakeClock
) -> None:
    first = await _fast_game(manager, channel="one")
    second = await _fast_game(manager, channel="two")
    other = await _fast_game(manager, guild="elsewhere", channel="three")
    await manager.clocks.vacation("g", "alice", 2)

    def back() -> list[int]:
        return _told_back(manager)

    clock.advance(2 * DAY - 1)
    assert await manager.clocks.tell_vacations_over() == 0 and back() == []  # not over yet
    clock.advance(1)
    assert await manager.clocks.tell_vacations_over() == 2
    assert sorted(back()) == [first, second]  # not the game on the other server
    assert other not in back()
    # Once: later passes (and a restart's) find nothing more to tell.
    clock.advance(DAY)
    assert await manager.clocks.tell_vacations_over() == 0 and len(back()) == 2
    # One ended early was told there and then, and never again by the pass.
    await manager.clocks.vacation("g", "alice", 3)
    clock.advance(HOUR)
    await manager.clocks.vacation("g", "alice")
    assert len(back()) == 4
    clock.advance(5 * DAY)
    assert await manager.clocks.tell_vacations_over() == 0 and len(back()) == 4


async def test_two_passes_racing_tell_a_vacations_end_once(
    manager: GameManager, clock: FakeClock
) -> None:
    """Several bot processes each run the background pass: the telling is claimed."""
    game = await _fast_game(manager)
    await manager.clocks.vacation("g", "alice", 1)
    clock.advance(DAY)
    async with manager.store.read() as db:
        (due,) = await db.clocks.vacations_back_due()
    async with manager.store.transaction() as db:
        assert await db.clocks.claim_vacation_back(due)
        assert not await db.clocks.claim_vacation_back(due)  # the other pass finds it taken
        assert await db.clocks.vacations_back_due() == []
    assert await manager.clocks.tell_vacations_over() == 0
    assert game not in _told_back(manager)


async def test_the_allowance_is_per_server_and_per_rolling_year(
    manager: GameManager, clock: FakeClock
) -> None:
    await _fast_game(manager)
    await manager.clocks.vacation("g", "alice", 14)
    with pytest.raises(errors.VacationRefused):
        await manager.clocks.vacation("g", "alice", 1)
    clock.advance(15 * DAY)
    with pytest.raises(errors.BadNumber, match="0 vacation days left"):
        await manager.clocks.vacation("g", "alice", 1)
    assert (await manager.clocks.vacation("h", "alice", 3)).left == 11  # another server's own
    clock.advance(351 * DAY)  # a year after the first: its days are back
    assert (await manager.clocks.vacation("g", "alice", 5)).left == 9


async def test_a_server_sets_the_days_and_may_turn_vacations_off(
    manager: GameManager, clock: FakeClock
) -> None:
    game = await _fast_game(manager)
    assert await manager.clocks.rules("g") == ("lose", 14)
    assert await manager.clocks.rules("g", vacation_days=0) == ("lose", 0)
    with pytest.raises(errors.VacationRefused):
        await manager.clocks.vacation("g", "alice", 1)
    for bad in ({"vacation_days": 91}, {"vacation_days": -1}, {"on_time": "draw"}):
        with pytest.raises(errors.BadInput):
            await manager.clocks.rules("g", **bad)  # type: ignore[arg-type]
    assert await manager.clocks.rules("g") == ("lose", 0)  # the bad ones changed nothing
    with pytest.raises(errors.ServerOnly):
        await manager.clocks.rules(None, on_time="claim")
    await manager.clocks.rules("g", vacation_days=7)
    with pytest.raises(errors.BadNumber, match="7 vacation days left"):
        await manager.clocks.vacation("g", "alice", 8)
    for bad_days in (-1, 1.5, "3", True):
        with pytest.raises(errors.BadInput):
            await manager.clocks.vacation("g", "alice", bad_days)  # type: ignore[arg-type]
    assert (await _clock(manager, game, "north")).deadline == manager.clock() + DAY  # type: ignore[attr-defined]


# SQLite's planner (EXPLAIN QUERY PLAN); PostgreSQL's plans of the same queries, at 10,000
# games: tests/storage/test_store_plans_pg.py.
@pytest.mark.sqlite_only
async def test_vacation_queries_are_answered_from_an_index(db_path: Path) -> None:
    store = await Store.open(db_path)
    try:
        async with store.read() as db:
            for name, (sql, params) in VACATION_QUERIES.items():
                plan = await db.db.execute_fetchall("EXPLAIN QUERY PLAN " + sql, params)
                text = " ".join(str(r[3]) for r in plan)
                assert "SCAN" not in text.replace("USING INDEX", ""), (name, text)
    finally:
        await store.close()


# -- claiming the win -----------------------------------------------------------------------


async def _claim_game(manager: GameManager, clock: FakeClock) -> int:
    await manager.clocks.rules("g", on_time="claim")
    game = await _fast_game(manager)
    clock.advance(DAY)  # north's clock runs out
    return game


async def test_at_zero_the_opponent_is_offered_the_win_once(
    manager: GameManager, clock: FakeClock
) -> None:
    game = await _claim_game(manager, clock)
    fe: RecordingFrontEnd = manager.front_end  # type: ignore[assignment]
    assert await manager.clocks.expire() == 1
    assert await manager.clocks.expire() == 0  # once: the flagged clock left the index
    assert (await manager.get_game_info(game)).status == "active"
    offers = [m for m in fe.privates("bob") if m.claim]
    assert len(offers) == 1 and "Claim the win" in offers[0].headline
    assert [m for m in fe.privates("alice") if m.claim] == []
    table = [p for p in fe.posts if p.claim]
    assert len(table) == 1 and "may claim the win" in table[0].headline
    assert "north: out of time" in "\n".join(await manager.clocks.lines(game))
    with pytest.raises(errors.NotSeated):
        await manager.clocks.claim_win(game, "carol")
    with pytest.raises(errors.NothingToDecide):
        await manager.clocks.claim_win(game, "alice")  # one's own clock
    info = await manager.clocks.claim_win(game, "bob")
    assert info.status == "finished"
    async with manager.store.read() as db:
        result = await db.records.result(game)
    assert result is not None and (result.code, result.winner) == ("timeout", "south")
    end = [p for p in fe.posts if p.kind == "end"]
    assert len(end) == 1 and "claimed" in end[0].headline
    with pytest.raises(errors.GameNotActive):
        await manager.clocks.claim_win(game, "bob")
    with pytest.raises(errors.TimeRanOut):  # the loser's late click: told why
        await manager.act(game, "alice", Move("add", 1))


async def test_the_late_player_may_move_until_a_claim(
    manager: GameManager, clock: FakeClock
) -> None:
    game = await _claim_game(manager, clock)
    # The click comes before the background pass: accepted, and the win offered then.
    await manager.act(game, "alice", Move("add", 1))
    assert len([p for p in manager.front_end.posts if p.claim]) == 1  # type: ignore[attr-defined]
    assert await manager.clocks.expire() == 0
    await manager.act(game, "alice", Move("done"))  # handed over: nothing to claim now
    with pytest.raises(errors.Outdated):
        await manager.clocks.claim_win(game, "bob")
    north = await _clock(manager, game, "north")
    assert north.remaining_s == 0 and north.flagged_at is not None  # type: ignore[attr-defined]  # owes on
    await manager.act(game, "bob", Move("add", 1))
    await manager.act(game, "bob", Move("done"))
    assert (await _clock(manager, game, "north")).remaining_s == 0  # type: ignore[attr-defined]
    await manager.clocks.claim_win(game, "bob")  # north owes again: the claim stands
    assert (await manager.get_game_info(game)).status == "finished"


@pytest.mark.parametrize("first", ["claim", "move"])
async def test_a_claim_racing_a_last_second_move_ends_the_game_at_most_once(
    manager: GameManager, clock: FakeClock, first: str
) -> None:
    game = await _claim_game(manager, clock)
    await manager.clocks.expire()
    await manager.act(game, "alice", Move("add", 1))

    async def claim() -> object:
        return await manager.clocks.claim_win(game, "bob")

    async def move() -> object:
        return await manager.act(game, "alice", Move("done"))

    order = (claim(), move()) if first == "claim" else (move(), claim())
    outcomes = await asyncio.gather(*order, return_exceptions=True)
    refused = [o for o in outcomes if isinstance(o, errors.DispatchError)]
    assert len(refused) == 1, outcomes  # exactly one of them happened
    info = await manager.get_game_info(game)
    ends = [p for p in manager.front_end.posts if p.kind == "end"]  # type: ignore[attr-defined]
    if first == "claim":
        assert info.status == "finished" and len(ends) == 1
        assert isinstance(refused[0], errors.TimeRanOut)
    else:
        assert info.status == "active" and ends == []
        assert isinstance(refused[0], errors.Outdated)


async def test_lose_stays_the_default(manager: GameManager, clock: FakeClock) -> None:
    game = await _fast_game(manager)
    clock.advance(DAY)
    assert await manager.clocks.expire() == 1
    assert (await manager.get_game_info(game)).status == "finished"
    assert [p for p in manager.front_end.posts if p.claim] == []  # type: ignore[attr-defined]


# -- the sandbox ----------------------------------------------------------------------------


@pytest.mark.usefixtures("toy_game")
async def test_the_sandbox_takes_a_vacation_and_a_claim(tmp_path: Path, clock: FakeClock) -> None:
    import io

    from bot.terminal.frontend import TerminalFrontEnd
    from bot.terminal.sandbox import Sandbox

    out = io.StringIO()
    front_end = TerminalFrontEnd(out=out, out_dir=tmp_path / "out")
    manager = await GameManager.open(tmp_path / "s.sqlite3", front_end, clock=clock)
    try:
        sandbox = Sandbox(manager, front_end, seed=0)
        await sandbox.handle("new toy clock=fast")
        await sandbox.handle("vacation soon")
        assert "takes a whole number of days" in out.getvalue()
        await sandbox.handle("vacation 2")
        assert "paused in 1 game; 12 days left" in out.getvalue()
        await sandbox.handle("status")
        assert "north: 1d 0h left, on vacation for 2d 0h" in out.getvalue()
        clock.advance(DAY + HOUR)
        await sandbox.handle("vacation")
        assert "it counted 2 days; 12 left" in out.getvalue()
        await sandbox.handle("ontime claim")
        assert "the opponent may claim the win" in out.getvalue()
        clock.advance(DAY)
        await sandbox.handle("status")  # the pass before each command flags the clock
        assert "north: out of time" in out.getvalue()
        await sandbox.handle("as bob")
        await sandbox.handle("claim")
        assert "ran out of time (the win was claimed)" in out.getvalue()
    finally:
        await manager.close()
