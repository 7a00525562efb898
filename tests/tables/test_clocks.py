"""Clocks: the pure arithmetic, the store, the turn's transaction,
the loss on time found through the deadline index, and the race with a late click.
Time only moves when the test says so (the ``clock`` fixture)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot import errors
from bot.storage.migrate import MIGRATIONS_DIR
from bot.storage.queries import CLOCK_QUERIES
from bot.storage.rows import ClockRow
from bot.storage.store import Store
from bot.tables import clocks, validate
from bot.tables.clocks import DAY, HOUR, Control, clock_pass
from bot.tables.manager import GameManager
from bot.tables.requests import Move, NewGame
from tests.conftest import FakeClock, RecordingFrontEnd

FAST = clocks.PRESETS["fast"]
assert FAST is not None


# -- parsing, at the manager's door --------------------------------------------------


def test_presets_and_the_written_form() -> None:
    assert validate.clock(None) is None
    assert validate.clock("none") is None
    assert validate.clock("relaxed") == Control(7 * DAY, 2 * DAY, 14 * DAY)
    assert validate.clock("Standard") == Control(3 * DAY, DAY, 7 * DAY)
    assert validate.clock("fast") == Control(DAY, 12 * HOUR, 3 * DAY)
    assert validate.clock("3d+1d/7d") == Control(3 * DAY, DAY, 7 * DAY)
    assert validate.clock("2h+30m/4h") == Control(2 * HOUR, 1800, 4 * HOUR)
    assert Control(3 * DAY, DAY, 7 * DAY).written() == "3d+1d/7d"
    assert FAST.written() == "1d+12h/3d"


@pytest.mark.parametrize(
    "bad", ["", "soon", "3d", "3d+1d", "3x+1d/7d", "7d+1d/3d", "1m+1m/1h", "3d+1d/99d", 3, ["fast"]]
)
def test_bad_clocks_are_refused_politely(bad: object) -> None:
    with pytest.raises(errors.BadInput) as caught:
        validate.clock(bad)
    assert str(caught.value)


# -- the arithmetic ---------------------------------------------------------------------


def test_runs_only_while_owed_and_the_increment_is_capped() -> None:
    rows = clocks.start_rows(FAST, ["north", "south"])
    rows = clocks.advance(rows, FAST, clocks.Change((), ("north",), 0.0))
    north, south = rows
    # Runs, with its deadline; warned at 2 h left (a day is not more than 24 h).
    assert north == ClockRow("north", DAY, 0.0, DAY, DAY - 2 * HOUR)
    assert south == ClockRow("south", DAY)  # stopped
    # North thinks 2 hours then hands over: charged 2 h, gains 12 h, capped at 3 days.
    rows = clocks.advance(rows, FAST, clocks.Change(("north",), ("south",), 2 * HOUR))
    assert rows[0] == ClockRow("north", DAY + 10 * HOUR)
    assert rows[1] == ClockRow("south", DAY, 2 * HOUR, 2 * HOUR + DAY, DAY)
    full = [ClockRow("north", 3 * DAY - HOUR, 0.0, 3 * DAY - HOUR), rows[1]]
    capped = clocks.advance(full, FAST, clocks.Change(("north",), ("south",), 0.0))
    assert capped[0].remaining_s == 3 * DAY


def test_simultaneous_steps_run_both_and_undo_gives_nothing_back() -> None:
    rows = clocks.start_rows(FAST, ["north", "south"])
    rows = clocks.advance(rows, FAST, clocks.Change((), ("north", "south"), 0.0))
    assert all(r.deadline == DAY for r in rows)
    later = clocks.advance(rows, FAST, clocks.Change(("north", "south"), ("south",), HOUR))
    assert later[0].remaining_s == DAY - HOUR + 12 * HOUR and later[0].deadline is None
    assert later[1].left(HOUR) == DAY - HOUR and later[1].deadline == DAY
    # An undo that hands the decision back gives no increment, and the time spent stays spent.
    undone = clocks.advance(rows, FAST, clocks.Change(("north",), ("south",), HOUR, undo=True))
    assert undone[0].remaining_s == DAY - HOUR


def test_the_end_stops_every_clock() -> None:
    rows = clocks.advance(
        clocks.start_rows(FAST, ["north"]), FAST, clocks.Change((), ("north",), 0.0)
    )
    over = clocks.advance(rows, FAST, clocks.Change(("north",), (), HOUR, over=True))
    assert over == [ClockRow("north", DAY - HOUR)]


def test_clock_lines_are_discord_timestamps() -> None:
    rows = [ClockRow("north", DAY, 0.0, 86_400.0), ClockRow("south", 2 * DAY + 5 * HOUR)]
    lines = clocks.describe(rows, {"north": "North"}, now=0.0)
    assert lines == ["⏱ North: runs out <t:86400:R>", "⏱ south: 2d 5h left"]


# -- the store: the expiry pass reads the deadline index alone ------------------------------


# SQLite's planner (EXPLAIN QUERY PLAN); PostgreSQL's plans of the same queries, at 10,000
# games: tests/storage/test_store_plans_pg.py.
@pytest.mark.sqlite_only
async def test_expired_clocks_are_read_through_the_deadline_index(db_path: Path) -> None:
    store = await Store.open(db_path)
    try:
        async with store.read() as db:
            for name, (sql, params) in CLOCK_QUERIES.items():
                plan = await db.db.execute_fetchall("EXPLAIN QUERY PLAN " + sql, params)
                text = " ".join(str(r[3]) for r in plan)
                assert "SCAN" not in text.replace("USING INDEX", ""), (name, text)
                if name == "expired_clocks":
                    assert "clocks_deadline" in text, text
                if name == "due_clock_warnings":
                    assert "clocks_warn_at" in text, text
    finally:
        await store.close()


def test_the_migration_is_found_by_name() -> None:
    found = list(MIGRATIONS_DIR.glob("*_clocks.sql"))
    assert len(found) == 1
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE games (id INTEGER PRIMARY KEY)")
    db.executescript(found[0].read_text())
    indexes = {r[1] for r in db.execute("PRAGMA index_list(clocks)")}
    assert "clocks_deadline" in indexes


# -- through the manager ------------------------------------------------------------------


async def _fast_game(manager: GameManager, **kwargs: object) -> int:
    info = await manager.create_game(
        "g", "chan", "alice", NewGame("toy", opponent_id="bob", clock="fast", **kwargs)
    )
    return info.id


async def test_a_turn_moves_the_clocks_in_its_transaction(
    manager: GameManager, clock: object
) -> None:
    game = await _fast_game(manager)
    start = manager.clock()
    async with manager.store.read() as db:
        rows = {r.role: r for r in await db.clocks.clock_rows(game)}
    assert rows["north"].deadline == start + DAY and rows["south"].deadline is None
    clock.advance(3 * HOUR)  # type: ignore[attr-defined]
    added = await manager.act(game, "alice", Move("add", 1))
    # The prompt edited in place after the click shows the clocks, as every look does.
    assert "runs out <t:" in " ".join(added.view["clocks"])
    await manager.act(game, "alice", Move("done"))
    assert "runs out <t:" in " ".join((await manager.view_for(game, "bob")).view["clocks"])
    assert "clocks" not in (await manager.view_for(game, None)).view  # observers: /game status
    async with manager.store.read() as db:
        rows = {r.role: r for r in await db.clocks.clock_rows(game)}
    assert rows["north"].remaining_s == DAY - 3 * HOUR + 12 * HOUR
    assert rows["south"].deadline == manager.clock() + DAY
    lines = await manager.clocks.lines(game)
    assert f"<t:{int(manager.clock() + DAY)}:R>" in "\n".join(lines)
    # The prompt DM of the player whose turn it is carries the clocks.
    turn_dms = [m for m in manager.front_end.privates("bob") if m.kind == "turn"]  # type: ignore[attr-defined]
    assert any("<t:" in " ".join(m.view.get("clocks", [])) for m in turn_dms)


async def test_practice_and_no_clock_games_have_none(manager: GameManager) -> None:
    info = await manager.create_game(
        "g", "chan", "alice", NewGame("toy", opponent_id="bob", seed=3)
    )
    assert await manager.clocks.lines(info.id) == []
    async with manager.store.read() as db:
        assert await db.clocks.game_clock(info.id) is None
        assert await db.clocks.clock_rows(info.id) == []


async def test_a_bad_clock_changes_nothing(manager: GameManager) -> None:
    with pytest.raises(errors.BadInput):
        await manager.create_game(
            "g", "chan", "alice", NewGame("toy", opponent_id="bob", clock="1y")
        )
    assert await manager.game_in_channel("chan") is None


async def test_dispatch_seats_have_no_clock(manager: GameManager) -> None:
    info = await manager.create_game("g", "chan", "alice", NewGame("toy", clock="fast"))
    await manager.seat_dispatch(info.id, "alice", "easy")
    async with manager.store.read() as db:
        roles = [r.role for r in await db.clocks.clock_rows(info.id)]
    assert roles == ["north"]


async def test_the_player_loses_on_time_once(manager: GameManager, clock: object) -> None:
    game = await _fast_game(manager)
    clock.advance(DAY - 1)  # type: ignore[attr-defined]
    assert await manager.clocks.expire() == 0
    clock.advance(1)  # type: ignore[attr-defined]
    assert await manager.clocks.expire() == 1
    assert await manager.clocks.expire() == 0  # exactly once
    info = await manager.get_game_info(game)
    assert info.status == "finished"
    async with manager.store.read() as db:
        result = await db.records.result(game)
        assert await db.clocks.expired_clocks(manager.clock() + 10 * DAY) == []
    assert result is not None and result.code == "timeout" and result.winner == "south"
    end = [p for p in manager.front_end.posts if p.kind == "end"]  # type: ignore[attr-defined]
    assert len(end) == 1 and "ran out of time" in end[0].headline


async def test_a_decision_before_the_deadline_stands(manager: GameManager, clock: object) -> None:
    game = await _fast_game(manager)
    await manager.act(game, "alice", Move("add", 1))
    clock.advance(DAY - 1)  # type: ignore[attr-defined]
    await manager.act(game, "alice", Move("done"))  # one second to spare
    clock.advance(2)  # type: ignore[attr-defined]
    assert await manager.clocks.expire() == 0  # the pass comes late: north handed over
    assert (await manager.get_game_info(game)).status == "active"


async def test_a_decision_after_the_deadline_is_refused(
    manager: GameManager, clock: object
) -> None:
    game = await _fast_game(manager)
    await manager.act(game, "alice", Move("add", 1))
    version = (await manager.get_game_info(game)).version
    clock.advance(DAY)  # type: ignore[attr-defined]
    # The click arrives before the background pass: refused, the move not played...
    with pytest.raises(errors.TimeRanOut) as caught:
        await manager.act(game, "alice", Move("done"))
    assert "your time ran out" in str(caught.value)
    info = await manager.get_game_info(game)
    assert info.version == version  # ... and the loss on time applied, once
    assert info.status == "finished"
    async with manager.store.read() as db:
        assert (await db.records.result(game)).code == "timeout"  # type: ignore[union-attr]
    # A click later still is refused the same polite way, and ends nothing twice.
    with pytest.raises(errors.TimeRanOut):
        await manager.act(game, "alice", Move("done"))
    with pytest.raises(errors.GameNotActive):  # the winner is told the game is over
        await manager.act(game, "bob", Move("add", 1))
    assert len([p for p in manager.front_end.posts if p.kind == "end"]) == 1  # type: ignore[attr-defined]


async def test_a_rematch_keeps_the_clock(manager: GameManager, clock: object) -> None:
    game = await _fast_game(manager)
    clock.advance(DAY)  # type: ignore[attr-defined]
    await manager.clocks.expire()
    again = await manager.rematch(game, "bob")
    async with manager.store.read() as db:
        assert await db.clocks.game_clock(again.id) == (
            FAST.initial_s,
            FAST.increment_s,
            FAST.cap_s,
        )


# -- the sandbox ------------------------------------------------------------------------


@pytest.mark.usefixtures("toy_game")
async def test_the_sandbox_takes_a_clock_prints_it_and_times_out(
    tmp_path: Path, clock: object
) -> None:
    import io

    from bot.terminal.frontend import TerminalFrontEnd
    from bot.terminal.sandbox import Sandbox

    out = io.StringIO()
    front_end = TerminalFrontEnd(out=out, out_dir=tmp_path / "out")
    manager = await GameManager.open(tmp_path / "s.sqlite3", front_end, clock=clock)  # type: ignore[arg-type]
    try:
        sandbox = Sandbox(manager, front_end, seed=0)
        await sandbox.handle("new toy clock=nonsense")
        assert "A clock is none, relaxed" in out.getvalue()
        await sandbox.handle("new toy clock=fast")
        assert "north: 1d 0h left (running)" in out.getvalue()
        clock.advance(5 * HOUR)  # type: ignore[attr-defined]
        await sandbox.handle("status")
        assert "north: 19h 0m left (running)" in out.getvalue()
        assert "south: 1d 0h left" in out.getvalue()
        clock.advance(DAY)  # type: ignore[attr-defined]
        await sandbox.handle("add 1")
        text = out.getvalue()
        assert "ran out of time" in text
        assert "your time ran out" in text
    finally:
        await manager.close()


async def test_time_the_bot_was_down_is_never_charged(
    db_path: Path, front_end: object, clock: object, toy_game: object
) -> None:
    manager = await GameManager.open(db_path, front_end, clock=clock)  # type: ignore[arg-type]
    game = (
        await manager.create_game(
            "g", "c", "alice", NewGame("toy", opponent_id="bob", clock="fast")
        )
    ).id
    clock.advance(HOUR)  # type: ignore[attr-defined]
    await clock_pass.beat(manager.store)  # the background loop's last beat
    await manager.close()
    clock.advance(2 * DAY)  # type: ignore[attr-defined]  # the bot is down for two days
    manager = await GameManager.open(db_path, front_end, clock=clock)  # type: ignore[arg-type]
    try:
        assert await manager.clocks.expire() == 0
        async with manager.store.read() as db:
            north = next(r for r in await db.clocks.clock_rows(game) if r.role == "north")
        assert north.left(manager.clock()) == DAY - HOUR  # only the hour it was up
        clock.advance(DAY - HOUR)  # type: ignore[attr-defined]
        assert await manager.clocks.expire() == 1
    finally:
        await manager.close()


async def _north(manager: GameManager, game: int) -> ClockRow:
    async with manager.store.read() as db:
        return next(r for r in await db.clocks.clock_rows(game) if r.role == "north")


async def _down_for(manager: GameManager, clock: FakeClock, seconds: float) -> GameManager:
    """The bot beats, stops, stays down ``seconds``, starts again: the new manager."""
    await clock_pass.beat(manager.store)
    db_path, front_end = manager.store.path, manager.front_end
    await manager.close()
    clock.advance(seconds)
    return await GameManager.open(db_path, front_end, clock=clock)


async def test_downtime_gives_back_only_what_a_paused_clock_would_have_run(
    db_path: Path, front_end: RecordingFrontEnd, clock: FakeClock, toy_game: object
) -> None:
    manager = await GameManager.open(db_path, front_end, clock=clock)
    try:
        game = await _fast_game(manager)
        await manager.clocks.vacation("g", "alice", 3)  # north's 24 h wait for the vacation's end
        paused = await _north(manager, game)
        manager = await _down_for(manager, clock, 2 * DAY)  # down, and still on vacation
        assert await _north(manager, game) == paused  # nothing ran, nothing is given back

        await manager.clocks.vacation("g", "alice")  # back early: north's clock runs again
        clock.advance(HOUR)
        manager = await _down_for(manager, clock, 5 * HOUR)
        # The hour before the downtime is spent; the downtime is not; nor is any pause left.
        assert (await _north(manager, game)).left(clock()) == DAY - HOUR
        clock.advance(HOUR)
        assert (await _north(manager, game)).left(clock()) == DAY - 2 * HOUR
    finally:
        await manager.close()


async def test_a_vacation_that_ends_while_the_bot_is_down_is_charged_from_its_end(
    db_path: Path, front_end: RecordingFrontEnd, clock: FakeClock, toy_game: object
) -> None:
    manager = await GameManager.open(db_path, front_end, clock=clock)
    try:
        game = await _fast_game(manager)
        await manager.clocks.vacation("g", "alice", 1)
        clock.advance(HOUR)
        manager = await _down_for(manager, clock, 2 * DAY)  # the vacation ended a day ago
        # The day north's clock would have run while the bot was down is given back, and
        # no more: it runs from now, with no pause added.
        assert (await _north(manager, game)).left(clock()) == DAY
        clock.advance(HOUR)
        assert (await _north(manager, game)).left(clock()) == DAY - HOUR
    finally:
        await manager.close()


async def test_a_gap_shorter_than_two_heartbeats_is_no_downtime(
    db_path: Path, front_end: RecordingFrontEnd, clock: FakeClock, toy_game: object
) -> None:
    """With several bot processes on one database one of them beat meanwhile and players
    could play: a restart within two heartbeats forgives nothing (on one process its few
    seconds are charged)."""
    manager = await GameManager.open(db_path, front_end, clock=clock)
    try:
        game = await _fast_game(manager)
        manager = await _down_for(manager, clock, clock_pass.DOWN_AFTER_S)
        assert (await _north(manager, game)).left(clock()) == DAY - clock_pass.DOWN_AFTER_S
        manager = await _down_for(manager, clock, clock_pass.DOWN_AFTER_S + 1)
        assert (await _north(manager, game)).left(clock()) == DAY - clock_pass.DOWN_AFTER_S
    finally:
        await manager.close()


@pytest.mark.sqlite_only  # about SQLite itself (its file, pragmas or plans)
async def test_warnings_once_at_24_and_2_hours_left_where_the_player_chose(
    manager: GameManager, clock: object
) -> None:
    await manager.settings.notify("alice", "both")
    info = await manager.create_game(
        "g", "chan", "alice", NewGame("toy", opponent_id="bob", clock="standard")
    )
    fe = manager.front_end

    def warnings() -> tuple[list[str], list[object]]:
        dms = [m.headline for m in fe.privates("alice") if m.kind == "reminder"]  # type: ignore[attr-defined]
        posts = [p for p in fe.posts if p.kind == "reminder"]  # type: ignore[attr-defined]
        return dms, posts

    clock.advance(2 * DAY - 1)  # type: ignore[attr-defined]
    assert await manager.clocks.warn() == 0
    clock.advance(1)  # type: ignore[attr-defined]  # 24 hours left
    assert await manager.clocks.warn() == 1
    assert await manager.clocks.warn() == 0  # once
    dms, posts = warnings()
    deadline = int(manager.clock() + DAY)
    assert dms == [
        f"Your clock runs out <t:{deadline}:R> (1d 0h left): decide by then or lose on time."
    ]
    assert "North has 1d 0h left" in posts[0].headline  # type: ignore[attr-defined]
    assert posts[0].mention_user_ids == ("alice",)  # type: ignore[attr-defined]  # chose both
    clock.advance(22 * HOUR)  # type: ignore[attr-defined]  # 2 hours left
    assert await manager.clocks.warn() == 1
    clock.advance(HOUR)  # type: ignore[attr-defined]
    assert await manager.clocks.warn() == 0
    assert len(warnings()[0]) == 2
    # bob's clock has not run: no warning for him. (That the pass reads them from their
    # index: test_expired_clocks_are_read_through_the_deadline_index, and on PostgreSQL
    # tests/storage/test_store_plans_pg.py.)
    assert [m for m in fe.privates("bob") if m.kind == "reminder"] == []  # type: ignore[attr-defined]
    assert (await manager.get_game_info(info.id)).status == "active"


# -- the board's headline band --------------------------------------------------------------


async def test_the_table_post_carries_the_clocks_for_the_board(manager: GameManager) -> None:
    await _fast_game(manager)
    start = manager.front_end.posts[-1]  # type: ignore[attr-defined]
    assert start.view["clock_band"] == "Clock: North 1d 0h"


@pytest.mark.parametrize("name", ["war", "fort_sumter", "lincoln"])
def test_the_headline_band_draws_the_clocks(name: str) -> None:
    import render
    import rules

    game = rules.GAMES[name]
    view = game.view(game.setup(seed=1), None)
    plain = render.board_png(name, view)
    timed = render.board_png(name, {**view, "clock_band": "Clock: North 1d 0h"})
    assert plain != timed
    assert render.board_png(name, {**view, "clock_band": ""}) == plain


async def test_a_server_default_clock_spares_practice_and_explicit_none(
    manager: GameManager,
) -> None:
    assert await manager.clocks.server_default("g") == "none"
    assert await manager.clocks.server_default("g", "2d+1d/4d") == "2d+1d/4d"
    with pytest.raises(errors.BadInput):
        await manager.clocks.server_default("g", "soon")
    assert await manager.clocks.server_default("g") == "2d+1d/4d"  # the bad one changed nothing
    with pytest.raises(errors.ServerOnly):
        await manager.clocks.server_default(None, "fast")
    timed = await manager.create_game("g", "c1", "alice", NewGame("toy", opponent_id="bob"))
    practice = await manager.create_game(
        "g", "c2", "alice", NewGame("toy", opponent_id="bob", seed=1)
    )
    untimed = await manager.create_game(
        "g", "c3", "alice", NewGame("toy", opponent_id="bob", clock="none")
    )
    elsewhere = await manager.create_game("h", "c4", "alice", NewGame("toy", opponent_id="bob"))
    async with manager.store.read() as db:
        assert await db.clocks.game_clock(timed.id) == (2 * DAY, DAY, 4 * DAY)
        for info in (practice, untimed, elsewhere):
            assert await db.clocks.game_clock(info.id) is None


async def test_a_game_played_alone_takes_no_clock(manager: GameManager) -> None:
    solo = {"playsheet": "paths_of_glory", "side": "central_powers"}
    with pytest.raises(errors.PlayedAlone):
        await manager.create_game("g", "c1", "alice", NewGame("solo", options=solo, clock="fast"))
    assert await manager.game_in_channel("c1") is None
    await manager.clocks.server_default("g", "fast")
    info = await manager.create_game("g", "c1", "alice", NewGame("solo", options=solo))
    async with manager.store.read() as db:
        assert await db.clocks.game_clock(info.id) is None


async def test_a_seat_handed_to_dispatch_loses_its_clock(manager: GameManager) -> None:
    game = await _fast_game(manager)
    await manager.seat_changes.hand_over(game, "alice", "easy")
    async with manager.store.read() as db:
        assert [r.role for r in await db.clocks.clock_rows(game)] == ["south"]
    assert await manager.clocks.expire() == 0
