"""Dispatch in a seat: the bot plays its own moves through the manager, off
the event loop, from its own view; bot-versus-bot games run by themselves; a move that
was due when the process stopped is made after the restart."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import FakeClock, RecordingFrontEnd

from bot import errors
from bot.config import PAYLOAD_LOGGERS, setup_logging
from bot.delivery.courier import mark_damaged
from bot.delivery.port import GameInfo
from bot.dispatch_players.bots import RETRY_BASE_S, RETRY_CAP_S, BotSeats
from bot.dispatch_players.decision import SearchLimits, decide
from bot.tables import endings
from bot.tables.bot_users import BOT_USERS, bot_user, is_bot
from bot.tables.manager import GameManager
from bot.tables.requests import Move, NewGame
from rules import get_game


def _bots(manager: GameManager, iterations: int = 8) -> BotSeats:
    """Thread workers and a small fixed budget: quick, and the same every run."""
    return BotSeats.attach(manager, workers="thread", iterations=iterations)


async def _play_human(manager: GameManager, game_id: int, user: str) -> None:
    """The human side plays the game's greedy policy until the game ends."""
    policy = get_game((await manager.get_game_info(game_id)).game_name).automated_player()
    assert policy is not None
    for _ in range(2000):
        await BotSeats.of(manager).idle()
        info = await manager.get_game_info(game_id)
        if info.status != "active":
            return
        mine = [s.role for s in info.seats if s.user_id == user and s.role in info.active_roles]
        assert mine, "the bot owes nothing, yet the human is not asked to act"
        pv = await manager.view_for(game_id, user, role=mine[0])
        verb, arg = policy(get_game(info.game_name), pv.view)
        await manager.act(game_id, user, Move(verb, arg, pv.version, role=mine[0]))
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("name", ["fort_sumter", "war"])
async def test_a_human_plays_a_whole_game_against_dispatch(
    name: str, db_path: Path, front_end: RecordingFrontEnd, clock: FakeClock
) -> None:
    manager = await GameManager.open(db_path, front_end, clock=clock)
    try:
        moves: list[tuple[int, str, str, object]] = []
        _bots(manager).on_move = lambda *move: moves.append(move)
        info = await manager.create_game(
            "g1",
            "c1",
            "alice",
            NewGame(name, seat=get_game(name).roles[1], opponent_id=bot_user("hard")),
        )
        await _play_human(manager, info.id, "alice")
        done = await manager.get_game_info(info.id)
        assert done.status == "finished"
        bot_role = get_game(name).roles[0]
        assert moves and all(role == bot_role for _, role, _, _ in moves)
        # Every bot move is in the action log, replayable like a person's.
        exported = await manager.records.export(info.id)
        logged = [(a["verb"], a["arg"]) for a in exported["actions"] if a["role"] == bot_role]
        made = [(verb, arg) for _, _, verb, arg in moves]
        # The log also holds the formal Done the manager sends after a last token
        # (nothing left to choose); apart from those, it is the bot's moves in order.
        assert [m for m in logged if m != ("done", None)] == [m for m in made if m[0] != "done"]
        assert logged.count(("done", None)) >= made.count(("done", None))
        assert await manager.records.verify_replay(info.id)
        # Nothing was ever sent to the bot in private; the table saw its moves.
        assert front_end.privates(BOT_USERS["hard"]) == []
        assert front_end.posts
    finally:
        await manager.close()


@pytest.fixture
def debug_logging(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    """The server's logging set up as ``DISPATCH_LOG_LEVEL=DEBUG`` would, everything
    captured; the library loggers' levels are put back afterwards."""
    saved = {name: logging.getLogger(name).level for name in PAYLOAD_LOGGERS}
    caplog.set_level(logging.DEBUG)
    setup_logging("DEBUG")
    try:
        yield caplog
    finally:
        for name, level in saved.items():
            logging.getLogger(name).setLevel(level)


async def test_the_server_log_never_names_a_hidden_choice(
    db_path: Path, front_end: RecordingFrontEnd, clock: FakeClock, debug_logging: Any
) -> None:
    """Whoever reads the server log may be the player across the table: even at DEBUG it
    says who moved, never which face-down card went where, the human's or the bot's."""
    manager = await GameManager.open(db_path, front_end, clock=clock)
    try:
        _bots(manager)
        info = await manager.create_game(
            "g1", "c1", "alice", NewGame("war", seat="confederate", opponent_id=bot_user("normal"))
        )
        # A refused move names a card (in a real hand, one the player holds), and the
        # refusal lists what they may do: neither reaches the log.
        await BotSeats.of(manager).idle()  # Dispatch has chosen its columns: Alice's turn
        with pytest.raises(errors.IllegalMove):
            await manager.act(info.id, "alice", Move("place", "left:C99"))
        await _play_human(manager, info.id, "alice")
        exported = await manager.records.export(info.id)
    finally:
        await manager.close()
    placed = {a["role"]: set() for a in exported["actions"]}
    for action in exported["actions"]:
        if action["verb"] == "place":
            placed[action["role"]].add(str(action["arg"]))
    assert all(len(cards) > 10 for cards in placed.values()), placed.keys()
    lines = [f"{r.name}: {r.getMessage()}" for r in debug_logging.records]
    assert any("made a move: place" in line for line in lines)
    assert any("verb=place" in line for line in lines)
    every = set().union(*placed.values()) | {"left:C99"}
    assert [line for line in lines if any(card in line for card in every)] == []


async def test_dispatch_against_dispatch_plays_to_the_end(
    db_path: Path, front_end: RecordingFrontEnd, clock: FakeClock
) -> None:
    manager = await GameManager.open(db_path, front_end, clock=clock)
    try:
        _bots(manager, iterations=4)
        info = await manager.create_game(
            "g1", "c1", bot_user("easy"), NewGame("fort_sumter", opponent_id=bot_user("normal"))
        )
        await BotSeats.of(manager).idle()
        done = await manager.get_game_info(info.id)
        assert done.status == "finished"
        assert await manager.records.verify_replay(info.id)
    finally:
        await manager.close()


async def test_a_bot_move_due_at_a_crash_is_made_after_the_restart(
    db_path: Path, front_end: RecordingFrontEnd, clock: FakeClock
) -> None:
    manager = await GameManager.open(db_path, front_end, clock=clock)
    try:
        owed = await _leave_a_bot_move_owed(manager)
    finally:
        await manager.close()

    restarted = await GameManager.open(db_path, front_end, clock=clock, deliver=False)
    BotSeats.attach(restarted, workers="thread")
    await restarted.deliver_pending()  # the start: what the last run left owed is played
    try:
        BotSeats.of(restarted).iterations = 8
        await BotSeats.of(restarted).idle()
        after = await restarted.get_game_info(owed.id)
        assert after.version > owed.version
        assert "confederate" in after.active_roles or after.status == "finished"
    finally:
        await restarted.close()


async def _leave_a_bot_move_owed(manager: GameManager, channel: str = "c1") -> GameInfo:
    bots = _bots(manager)
    bots.nudge = lambda game_id: None  # type: ignore[method-assign]  # the process dies first
    info = await manager.create_game(
        "g1", channel, "alice", NewGame("war", seat="confederate", opponent_id=bot_user("normal"))
    )
    # War: both sides place at once; alice commits, and the bot still owes its move.
    policy = get_game("war").automated_player()
    assert policy is not None
    pv = await manager.view_for(info.id, "alice")
    while pv.view["actions"]:
        verb, arg = policy(get_game("war"), pv.view)
        await manager.act(info.id, "alice", Move(verb, arg, pv.version))
        pv = await manager.view_for(info.id, "alice")
    owed = await manager.get_game_info(info.id)
    assert owed.active_roles == ("union",)
    return owed


async def test_dispatch_plays_on_in_a_rated_game_unless_it_is_stuck(
    db_path: Path, front_end: RecordingFrontEnd, clock: FakeClock
) -> None:
    """Abandoning a rated game against Dispatch would take a game going badly out of the
    ratings: Dispatch does not agree (resigning ends it; a moderator may). Once its own
    move has been owed for long (a move that keeps failing), it agrees again."""
    manager = await GameManager.open(db_path, front_end, clock=clock)
    try:
        _bots(manager)
        info = await manager.create_game(
            "g1", "c1", "alice", NewGame("war", seat="confederate", opponent_id=bot_user("normal"))
        )
        policy = get_game("war").automated_player()
        assert policy is not None
        for _ in range(200):  # until each side made the 3 decisions of a rated game
            await BotSeats.of(manager).idle()
            async with manager.store.read() as db:
                decided = await db.records.decisions_by_role(info.id)
            if min(decided.get(role, 0) for role in ("union", "confederate")) >= 3:
                break
            pv = await manager.view_for(info.id, "alice")
            if pv.view["actions"]:
                verb, arg = policy(get_game("war"), pv.view)
                await manager.act(info.id, "alice", Move(verb, arg, pv.version))
        before = await manager.get_game_info(info.id)
        assert before.status == "active"
        with pytest.raises(errors.NotAllowed, match="counts for ratings"):
            await manager.abandon(info.id, "alice")
        after = await manager.get_game_info(info.id)
        assert (after.status, after.version) == ("active", before.version)
        async with manager.store.read() as db:
            assert not any(s.abandon_requested for s in await db.seats(info.id))

        # Stuck on Dispatch's side: a move of its owed for longer than STUCK_S.
        BotSeats.of(manager).nudge = lambda game_id: None  # type: ignore[method-assign]
        async with manager.store.transaction() as db:
            await db.bot_jobs.owe_bot_move(info.id, "union", before.version + 1, "normal")
        clock.advance(endings.STUCK_S - 1)
        with pytest.raises(errors.NotAllowed):
            await manager.abandon(info.id, "alice")
        clock.advance(2)
        assert (await manager.abandon(info.id, "alice")).abandoned
        assert front_end.posts[-1].headline == "The game was abandoned by agreement."

        # A moderator abandons a rated game against Dispatch as any other.
        rated = await manager.create_game(
            "g1", "c2", "bob", NewGame("war", seat="confederate", opponent_id=bot_user("easy"))
        )
        assert (await manager.abandon(rated.id, "mod", is_moderator=True)).abandoned
    finally:
        await manager.close()


def test_bot_users_and_levels() -> None:
    assert bot_user() == BOT_USERS["normal"] and is_bot(bot_user("HARD"))
    assert not is_bot("alice") and not is_bot(None)
    with pytest.raises(errors.UnknownWord):
        bot_user("grandmaster")


def test_the_decision_is_legal_and_the_same_for_the_same_view() -> None:
    game = get_game("fort_sumter")
    state = game.setup(seed=4)
    view = game.view(state, "unionist")
    first = decide("fort_sumter", 901, "unionist", "hard", view, SearchLimits(iterations=20))
    legal = [(verb, arg) for verb, args in view["actions"].items() for arg in args]
    assert first.action in legal and first.iterations == 20 and not first.cut
    assert (
        decide("fort_sumter", 901, "unionist", "hard", view, SearchLimits(iterations=20)) == first
    )


async def test_decisions_run_in_a_worker_process(
    db_path: Path, front_end: RecordingFrontEnd, clock: FakeClock
) -> None:
    """The default: the decision is made in another process, never on the event loop."""
    manager = await GameManager.open(db_path, front_end, clock=clock)
    BotSeats.attach(manager)
    try:
        assert BotSeats.of(manager).workers == "process"
        BotSeats.of(manager).iterations = 4
        info = await manager.create_game(
            "g1",
            "c1",
            "alice",
            NewGame("fort_sumter", seat="secessionist", opponent_id=bot_user("hard")),
        )
        pv = await manager.view_for(info.id, "alice")
        await manager.act(info.id, "alice", Move("keep", pv.view["actions"]["keep"][0], pv.version))
        await BotSeats.of(manager).idle()
        after = await manager.get_game_info(info.id)
        assert after.version > pv.version + 1  # the bot kept its objective too
        assert BotSeats.of(manager)._pools
    finally:
        await manager.close()


def test_messages_do_not_carry_the_known_state() -> None:
    """The state as a role knows it is for the search; outbox rows leave it out."""
    from bot.delivery.outbox import message_payload
    from bot.delivery.port import PrivateMessage

    game = get_game("war")
    view = game.view(game.setup(seed=1), "union")
    assert "known_state" in view
    message = PrivateMessage(kind="turn", role="union", version=0, headline="", view=view)
    payload = message_payload(message)
    assert payload["view"] is not None and "known_state" not in payload["view"]
    assert payload["view"]["actions"] == view["actions"]


async def test_a_dead_worker_process_is_replaced(
    db_path: Path, front_end: RecordingFrontEnd, clock: FakeClock
) -> None:
    manager = await GameManager.open(db_path, front_end, clock=clock)
    BotSeats.attach(manager)
    try:
        BotSeats.of(manager).iterations = 4
        BotSeats.of(manager).nudge = lambda game_id: None  # type: ignore[method-assign]
        info = await manager.create_game(
            "g1",
            "c1",
            "alice",
            NewGame("fort_sumter", seat="secessionist", opponent_id=bot_user("easy")),
        )
        assert await BotSeats.of(manager).play_one(info.id)  # the worker process is up
        [pool] = BotSeats.of(manager)._pools.values()
        for process in list(pool._processes.values()):
            process.kill()
            process.join()
        pv = await manager.view_for(info.id, "alice")
        await manager.act(info.id, "alice", Move("keep", pv.view["actions"]["keep"][0], pv.version))
        assert await BotSeats.of(manager).play_one(info.id)  # a new worker made the move
        assert pool not in BotSeats.of(manager)._pools.values()
    finally:
        await manager.close()


async def test_bot_games_decide_in_separate_workers_each_keeping_its_own(
    db_path: Path, front_end: RecordingFrontEnd, clock: FakeClock
) -> None:
    """With two worker processes, two bot games decide in different processes (side by
    side), and every decision of one game goes to the same process, where its search
    tree is kept between the small decisions of a turn."""
    manager = await GameManager.open(db_path, front_end, clock=clock)
    BotSeats.attach(manager)
    try:
        bots = BotSeats.of(manager)
        bots.iterations = 4
        bots.processes = 2
        bots.nudge = lambda game_id: None  # type: ignore[method-assign]
        games = [
            await manager.create_game(
                f"g{n}",
                f"c{n}",
                "alice",
                NewGame("fort_sumter", seat="secessionist", opponent_id=bot_user("normal")),
            )
            for n in (1, 2)
        ]
        workers: dict[int, set[int]] = {}
        for info in games:
            assert await bots.play_one(info.id)
            workers[info.id] = set(bots._pools[info.id % 2]._processes)
        assert len(bots._pools) == 2
        first, second = (workers[info.id] for info in games)
        assert first and second and first.isdisjoint(second)
        # The first game's next decision: the same worker process as before.
        info = games[0]
        pv = await manager.view_for(info.id, "alice")
        await manager.act(info.id, "alice", Move("keep", pv.view["actions"]["keep"][0], pv.version))
        assert await bots.play_one(info.id)
        assert set(bots._pools[info.id % 2]._processes) == first
    finally:
        await manager.close()


def test_the_bot_leaves_a_core_to_the_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.dispatch_players import processes

    for cores, expected in [(1, 1), (2, 1), (3, 2), (8, 4), (64, 4)]:
        monkeypatch.setattr(processes, "usable_cores", lambda cores=cores: cores)
        assert processes.default_processes() == expected
    # The cores the process may use, not every core of the machine.
    monkeypatch.undo()
    assert 1 <= processes.usable_cores() <= (os.cpu_count() or 1)


async def test_the_background_pass_nudges_only_games_where_a_bot_owes_a_move(
    db_path: Path, front_end: RecordingFrontEnd, clock: FakeClock
) -> None:
    manager = await GameManager.open(db_path, front_end, clock=clock)
    try:
        owed = await _leave_a_bot_move_owed(manager)  # nudges are switched off in here
        waiting = await manager.create_game(  # the bot has played; alice is to move
            "g1", "c2", "alice", NewGame("war", seat="confederate", opponent_id=bot_user("easy"))
        )
        while await BotSeats.of(manager).play_one(waiting.id):
            pass
        assert (await manager.get_game_info(waiting.id)).active_roles == ("confederate",)
        damaged = await _leave_a_bot_move_owed(manager, channel="c3")
        await mark_damaged(manager.store, damaged.id, "a test")
        nudged: list[int] = []
        BotSeats.of(manager).nudge = nudged.append  # type: ignore[method-assign]
        assert await BotSeats.of(manager).resume() == 1
        assert nudged == [owed.id]
    finally:
        await manager.close()


async def test_a_failing_bot_move_is_tried_again_after_a_growing_wait(
    db_path: Path, front_end: RecordingFrontEnd, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    manager = await GameManager.open(db_path, front_end, clock=clock)
    try:
        owed = await _leave_a_bot_move_owed(manager)
        bots = BotSeats.of(manager)
        del bots.nudge  # the real nudge again (the helper switched it off)
        attempts: list[float] = []
        card = " ".join(("Fort", "Pickens"))  # not written whole in the failing line

        async def broken(*args: object) -> tuple[str, object]:
            attempts.append(clock())
            # A search's exception may name a card it dealt to the player's hand.
            raise RuntimeError(f"the search broke on {card} in the hand")

        real_decide = bots._decide
        bots._decide = broken  # type: ignore[assignment, method-assign]

        async def background_pass() -> None:
            await bots.resume()
            await bots.idle()

        await background_pass()
        assert len(attempts) == 1
        # The log says where it failed, not what the message named.
        assert "RuntimeError" in caplog.text and "bot move failed" in caplog.text
        assert "Fort Pickens" not in caplog.text
        await background_pass()  # at once: still waiting
        clock.advance(RETRY_BASE_S)
        await background_pass()  # the first wait is over
        assert len(attempts) == 2
        clock.advance(RETRY_BASE_S)
        await background_pass()  # the second wait is twice as long
        assert len(attempts) == 2
        clock.advance(RETRY_BASE_S)
        await background_pass()
        assert len(attempts) == 3
        for _ in range(12):
            clock.advance(RETRY_CAP_S)
            await background_pass()
        assert attempts[-1] - attempts[-2] == RETRY_CAP_S  # the wait stops growing
        bots._decide = real_decide  # type: ignore[method-assign]
        clock.advance(RETRY_CAP_S)
        await background_pass()
        after = await manager.get_game_info(owed.id)
        assert after.version > owed.version  # the bot moved at last
        assert owed.id not in bots._failed
    finally:
        await manager.close()


async def test_dispatch_agrees_at_once_when_its_opponent_asks_to_abandon(
    db_path: Path, front_end: RecordingFrontEnd, clock: FakeClock
) -> None:
    """Abandoning needs every seat to ask; Dispatch never would, so it counts as asking:
    a player alone with the bot can always end the game without a moderator."""
    manager = await GameManager.open(db_path, front_end, clock=clock)
    try:
        owed = await _leave_a_bot_move_owed(manager)
        BotSeats.of(manager)._failed[owed.id] = (3, clock() + 60)  # as if its moves kept failing
        result = await manager.abandon(owed.id, "alice")
        assert result.abandoned and result.waiting_on == ()
        assert (await manager.get_game_info(owed.id)).status == "abandoned"
        assert front_end.posts[-1].headline == "The game was abandoned by agreement."
        assert await BotSeats.of(manager).resume() == 0  # nothing left for the bot to do
        assert BotSeats.of(manager)._failed == {}  # nor any retry to remember
    finally:
        await manager.close()


async def test_a_rematch_against_dispatch_is_opened_by_the_player_whichever_side(
    db_path: Path, front_end: RecordingFrontEnd, clock: FakeClock
) -> None:
    manager = await GameManager.open(db_path, front_end, clock=clock)
    try:
        owed = await _leave_a_bot_move_owed(manager)  # alice is confederate, the bot union
        await manager.resign(owed.id, "alice")
        again = await manager.rematch(owed.id, "alice", sides="swap")
        assert again.creator_id == "alice"
        assert {s.role: s.user_id for s in again.seats} == {
            "union": "alice",
            "confederate": bot_user("normal"),
        }
    finally:
        await manager.close()


async def test_a_game_that_ends_while_dispatch_thinks_is_no_failure(
    db_path: Path, front_end: RecordingFrontEnd, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    """The player resigns during the bot's (5 s, at hard) thinking: the move it then
    offers is refused, and that is the end of it, with no error and no retry."""
    manager = await GameManager.open(db_path, front_end, clock=clock)
    try:
        owed = await _leave_a_bot_move_owed(manager)
        bots = BotSeats.of(manager)
        real_decide = bots._decide

        async def resigned_meanwhile(*args: Any) -> tuple[str, Any]:
            move = await real_decide(*args)
            await manager.resign(owed.id, "alice")
            return move

        bots._decide = resigned_meanwhile  # type: ignore[method-assign]
        del bots.nudge  # the real nudge again (the helper switched it off)
        bots.nudge(owed.id)
        await bots.idle()
        assert (await manager.get_game_info(owed.id)).status == "finished"
        assert owed.id not in bots._failed
        assert not [r for r in caplog.records if r.levelname == "ERROR"]
    finally:
        await manager.close()


async def test_nobody_is_reminded_that_dispatch_owes_a_move(
    db_path: Path, front_end: RecordingFrontEnd, clock: FakeClock
) -> None:
    """A reminder clock runs for the human who owes a move, never for the bot's seat."""
    manager = await GameManager.open(db_path, front_end, clock=clock)
    try:
        owed = await _leave_a_bot_move_owed(manager)
        async with manager.store.read() as db:
            assert [t.role for t in await db.timers.of_game(owed.id)] == []
        clock.advance(30 * 24 * 3600)
        assert await manager.background.fire_due_timers() == 0
        del BotSeats.of(manager).nudge  # the bot moves: now alice owes one, and her clock runs
        BotSeats.of(manager).nudge(owed.id)
        await BotSeats.of(manager).idle()
        async with manager.store.read() as db:
            assert [t.role for t in await db.timers.of_game(owed.id)] == ["confederate"]
    finally:
        await manager.close()


async def test_a_one_seat_game_says_it_takes_no_opponent(
    db_path: Path, front_end: RecordingFrontEnd, clock: FakeClock
) -> None:
    manager = await GameManager.open(db_path, front_end, clock=clock)
    try:
        with pytest.raises(errors.PlayedAlone):
            await manager.create_game("g1", "c1", "alice", NewGame("solo", opponent_id=bot_user()))
        assert await manager.game_in_channel("c1") is None
    finally:
        await manager.close()
