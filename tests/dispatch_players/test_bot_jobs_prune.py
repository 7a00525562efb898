"""``bot_jobs`` stays bounded: a game's jobs go in the transaction that ends
it, whichever way it ends; a live game keeps its pending jobs and only its newest few
finished ones; the upgrade (migration 0020) deletes what databases kept before. Every
test runs on both engines (the store fixture is parametrized)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from chaos import moves_not_once
from conftest import FakeClock, RecordingFrontEnd
from job_history import job_history, keep_job_history

from bot import errors
from bot.delivery.port import GameInfo
from bot.dispatch_players.bots import BotSeats
from bot.storage.store import Store
from bot.tables.bot_jobs import KEEP_FINISHED
from bot.tables.bot_users import bot_user
from bot.tables.clocks import DAY
from bot.tables.manager import GameManager
from bot.tables.requests import Move, NewGame

NORMAL = bot_user("normal")
EASY = bot_user("easy")
HUMAN, BOT = "secessionist", "unionist"

pytestmark = pytest.mark.usefixtures("toy_game")


async def rows(store: Store, game_id: int | None = None) -> int:
    """``bot_jobs`` rows of one game, or of all."""
    where, params = ("WHERE game_id = ?", (game_id,)) if game_id is not None else ("", ())
    async with store.read() as db:
        r = await db._one(f"SELECT COUNT(*) FROM bot_jobs {where}", params)
    assert r is not None
    return int(r[0])


async def old_job(store: Store, game_id: int, version: int, status: str = "pending") -> None:
    """A job row as the store kept them before (written past the active-game check)."""
    async with store.write() as db:
        await db._run(
            "INSERT INTO bot_jobs (game_id, role, version, level, status, created_at)"
            " VALUES (?, 'south', ?, 'normal', ?, 0)",
            (game_id, version, status),
        )


def against_dispatch(manager: GameManager) -> None:
    """The bot's pool is driven by the test (``play_one``), never in the background."""
    BotSeats.attach(manager, workers="thread", iterations=1).nudge = lambda game_id: None  # type: ignore[method-assign]


async def alice_moves(manager: GameManager, game_id: int) -> None:
    """alice (secessionist) plays her first legal choices while she owes a decision."""
    while (info := await manager.get_game_info(game_id)).status == "active":
        if HUMAN not in info.active_roles:
            return
        pv = await manager.view_for(game_id, "alice", role=HUMAN)
        verb, arg = first_choice(pv.view)
        await manager.act(game_id, "alice", Move(verb, arg, pv.version, role=HUMAN))


def first_choice(view: dict[str, Any]) -> tuple[str, Any]:
    return next(
        (verb, arg)
        for verb, args in view["actions"].items()
        if verb != "undo"
        for arg in (args if isinstance(args, list) else [None])
    )


async def dispatch_moves(manager: GameManager, game_id: int) -> None:
    """Dispatch plays while it owes a decision."""
    while (info := await manager.get_game_info(game_id)).status == "active":
        if BOT not in info.active_roles:
            return
        assert await BotSeats.of(manager).play_one(game_id) is True


async def a_game_with_jobs(
    manager: GameManager, *, clock: str | None = None, channel: str = "c"
) -> GameInfo:
    """alice against Dispatch (which moves first), a turn of each made: done jobs and the
    one owed now."""
    against_dispatch(manager)
    info = await manager.create_game(
        "g", channel, "alice", NewGame("fort_sumter", seat=HUMAN, opponent_id=NORMAL, clock=clock)
    )
    await dispatch_moves(manager, info.id)
    await alice_moves(manager, info.id)
    async with manager.store.read() as db:
        statuses = [j.status for j in await db.bot_jobs.of_game(info.id)]
    assert statuses[-1] == "pending" and set(statuses[:-1]) == {"done"}, statuses
    return await manager.get_game_info(info.id)


async def resign(manager: GameManager, game: int, clock: FakeClock) -> None:
    await manager.resign(game, "alice")


async def abandon(manager: GameManager, game: int, clock: FakeClock) -> None:
    result = await manager.abandon(game, "alice")  # Dispatch's seat always agrees
    assert result.abandoned


async def moderator_ends(manager: GameManager, game: int, clock: FakeClock) -> None:
    result = await manager.abandon(game, "mod", is_moderator=True)
    assert result.abandoned


async def lose_on_time(manager: GameManager, game: int, clock: FakeClock) -> None:
    await dispatch_moves(manager, game)  # alice owes now, and her clock runs
    clock.advance(4 * DAY)  # alice's clock (fast: 3 days at most) runs out
    assert await manager.clocks.expire() == 1


ENDINGS: dict[str, Callable[[GameManager, int, FakeClock], Awaitable[None]]] = {
    "resignation": resign,
    "abandon by agreement": abandon,
    "moderator's end": moderator_ends,
    "loss on time": lose_on_time,
}


@pytest.mark.parametrize("ending", sorted(ENDINGS))
async def test_a_game_against_dispatch_ended_keeps_no_job(
    manager: GameManager, clock: FakeClock, ending: str
) -> None:
    info = await a_game_with_jobs(manager, clock="fast")
    other = await a_game_with_jobs(manager, channel="c2")
    await ENDINGS[ending](manager, info.id, clock)
    assert (await manager.get_game_info(info.id)).status in ("finished", "abandoned")
    assert await rows(manager.store, info.id) == 0
    assert await rows(manager.store, other.id) >= 1  # another game's jobs stay


async def test_a_game_won_by_the_rules_keeps_no_job(manager: GameManager) -> None:
    info = await a_game_with_jobs(manager)
    while (await manager.get_game_info(info.id)).status == "active":
        await dispatch_moves(manager, info.id)
        await alice_moves(manager, info.id)
    async with manager.store.read() as db:
        result = await db.records.result(info.id)
    assert result is not None and result.code not in ("resigned", "timeout", "unrecorded")
    assert await rows(manager.store, info.id) == 0


async def test_the_move_that_ends_the_game_leaves_its_job_done(manager: GameManager) -> None:
    """The turn that ends the game settles Dispatch's job before the end deletes it, so
    the job's last word is done, as for every other move (not pending, as if the move
    had been made around it)."""
    against_dispatch(manager)
    await keep_job_history(manager.store)
    info = await manager.create_game(
        "g", "c", "alice", NewGame("toy", {"target": 2}, seat="north", opponent_id=EASY)
    )
    for verb, arg in (("add", 1), ("done", None)):  # alice: 1 of the 2
        version = (await manager.get_game_info(info.id)).version
        await manager.act(info.id, "alice", Move(verb, arg, version, role="north"))
    # South (Dispatch's seat) adds and confirms, each move at its job's version, as its
    # worker submits it (made here without a search, so the toy game serves in either
    # build): 2 is reached, and the game ends on Dispatch's move.
    for verb, arg in (("add", 1), ("done", None)):
        async with manager.store.read() as db:
            (owed,) = [j for j in await db.bot_jobs.of_game(info.id) if j.status == "pending"]
        await manager.act(info.id, EASY, Move(verb, arg, owed.version, role="south"))
    async with manager.store.read() as db:
        result = await db.records.result(info.id)
        actions = await db.actions(info.id)
    assert result is not None and result.winner == "south"
    assert actions[-1].user_id == EASY and actions[-1].verb == "done"
    history = await job_history(manager.store, info.id)
    assert await rows(manager.store, info.id) == 0
    assert [(j.version, j.status) for j in history] == [
        (a.seq - 1, "done") for a in actions if a.user_id == EASY
    ]
    assert moves_not_once(actions, history) == []


async def test_a_claimed_win_and_a_cancelled_lobby_keep_no_job(
    manager: GameManager, clock: FakeClock
) -> None:
    # Two humans: Dispatch cannot claim a win, so the rows stand in for its jobs.
    await manager.clocks.rules("g", on_time="claim")
    game = await manager.create_game(
        "g", "c", "alice", NewGame("toy", opponent_id="bob", clock="fast")
    )
    await old_job(manager.store, game.id, 0)
    clock.advance(DAY)
    assert await manager.clocks.expire() == 1  # flagged: the win is offered
    assert await rows(manager.store, game.id) == 1
    await manager.clocks.claim_win(game.id, "bob")
    assert await rows(manager.store, game.id) == 0
    lobby = await manager.create_game("g", "c3", "carol", NewGame("toy"))
    await old_job(manager.store, lobby.id, 0)
    await manager.cancel(lobby.id, "carol")
    assert await rows(manager.store, lobby.id) == 0


async def test_no_job_is_written_for_a_game_that_is_over(manager: GameManager) -> None:
    info = await a_game_with_jobs(manager)
    await manager.resign(info.id, "alice")
    async with manager.store.write() as db:  # a late second write, as play_one makes
        assert await db.bot_jobs.owe_bot_move(info.id, BOT, info.version, "normal") is False
    assert await BotSeats.of(manager).play_one(info.id) is False
    assert await rows(manager.store, info.id) == 0


async def test_a_long_live_game_keeps_a_handful_of_jobs(manager: GameManager) -> None:
    info = await a_game_with_jobs(manager)
    await keep_job_history(manager.store)
    for _ in range(8):
        await dispatch_moves(manager, info.id)
        await alice_moves(manager, info.id)
    info = await manager.get_game_info(info.id)
    assert info.status == "active"
    async with manager.store.read() as db:
        jobs = await db.bot_jobs.of_game(info.id)
        actions = await db.actions(info.id)
    # Dozens of moves of Dispatch's made: the newest few finished jobs and the one owed.
    history = await job_history(manager.store, info.id)
    assert sum(j.status == "done" for j in history) > 3 * KEEP_FINISHED
    assert [j.status != "pending" for j in jobs] == [True] * KEEP_FINISHED + [False]
    assert jobs[-1].version == info.version
    assert (
        jobs[:-1]
        == sorted((j for j in history if j.status != "pending"), key=lambda j: j.version)[
            -KEEP_FINISHED:
        ]
    )
    # What was pruned was the jobs of moves made once each, as the history shows.
    assert len({(j.role, j.version) for j in history}) == len(history)
    assert moves_not_once(actions, history) == []
    assert await BotSeats.of(manager).play_one(info.id) is True  # the job owed is played as before


async def test_the_chaos_check_still_sees_a_move_without_its_job(manager: GameManager) -> None:
    """The history keeps the proof: a move of Dispatch's whose job was never done is
    caught after the game ended and its jobs were deleted."""
    info = await a_game_with_jobs(manager)
    await keep_job_history(manager.store)
    # Dispatch's move made around its job (the job left pending), then the game ends.
    view = await manager.view_for(info.id, NORMAL, role=BOT)
    verb, arg = first_choice(view.view)
    await manager.act(info.id, NORMAL, Move(verb, arg, view.version, role=BOT))
    async with manager.store.write() as db:
        await db._run(
            "UPDATE bot_jobs SET status = 'pending' WHERE game_id = ? AND version = ?",
            (info.id, view.version),
        )
    await manager.resign(info.id, "alice")
    assert await rows(manager.store, info.id) == 0
    async with manager.store.read() as db:
        actions = await db.actions(info.id)
    problems = moves_not_once(actions, await job_history(manager.store, info.id))
    assert problems == [f"a move at version {view.version} without its job done"]


async def test_the_upgrade_deletes_the_jobs_kept_before(
    toy_game: object, db_path: Path | str, clock: FakeClock
) -> None:
    manager = await GameManager.open(db_path, RecordingFrontEnd(), clock=clock)
    try:
        live = await a_game_with_jobs(manager, channel="c1")
        ended = await a_game_with_jobs(manager, channel="c2")
        await manager.resign(ended.id, "alice")
        for version in range(100, 130):  # what months of the old code left behind
            await old_job(manager.store, ended.id, version, "done")
            await old_job(manager.store, live.id, version - 130, "stale")
        await old_job(manager.store, 999_999, 1, "done")  # a game that is not there
        before = await rows(manager.store)
        async with manager.store.write() as db:
            await db._run("DELETE FROM schema_migrations WHERE version = 20")
            had = await db.bot_jobs.of_game(live.id)
    finally:
        await manager.close()
    store = await Store.open(db_path)  # migrates: 0020 runs as on an upgrade
    try:
        async with store.read() as db:
            jobs = await db.bot_jobs.of_game(live.id)
        assert before == len(had) + 31 and len(had) > 30
        assert await rows(store) == len(jobs) == KEEP_FINISHED + 1
        # The live game keeps its job owed and its newest finished ones.
        finished = sorted((j for j in had if j.status != "pending"), key=lambda j: j.version)
        assert jobs == [*finished[-KEEP_FINISHED:], had[-1]]
        assert had[-1].status == "pending"
    finally:
        await store.close()


async def test_a_job_claimed_when_its_game_ends_applies_nothing(
    manager: GameManager,
) -> None:
    """A process still searching when the game ended finds its job gone: nothing is
    applied, and nothing of the game is written again."""
    info = await a_game_with_jobs(manager)
    async with manager.store.write() as db:
        [job] = await db.bot_jobs.claim_bot_jobs("slow", 60.0, max_attempts=3)
    await manager.resign(info.id, "alice")
    assert await BotSeats.of(manager).play_job(job) == "over"
    assert await rows(manager.store, info.id) == 0
    with pytest.raises(errors.GameNotActive):
        await manager.act(info.id, NORMAL, Move("pass", None, info.version, role=BOT))
