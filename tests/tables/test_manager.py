"""GameManager on a real SQLite file with the toy game: lobby, play, outbox, reminders."""

from __future__ import annotations

import asyncio
import json
import logging
import random
from pathlib import Path
from typing import Any

import pytest
from conftest import FakeClock, RecordingFrontEnd

from bot import errors
from bot.delivery.port import GameInfo
from bot.tables.manager import GameManager
from bot.tables.requests import Move, NewGame


async def start(manager: GameManager, seed: int = 5, channel: str = "c1") -> GameInfo:
    await manager.create_game("g1", channel, "alice", NewGame("toy", seed=seed, seat="north"))
    return await manager.join(channel, "bob")


async def snapshot(manager: GameManager, game_id: int) -> dict[str, Any]:
    """Everything an action could change, to prove a refused one changed nothing."""
    async with manager.store.read() as db:
        row = await db.game(game_id)
        actions = await db.actions(game_id)
        outbox = await db._all("SELECT id, delivered_at FROM outbox ORDER BY id")
        timers = await db.timers.of_game(game_id)
    assert row is not None
    return {"row": row, "actions": actions, "outbox": [tuple(r) for r in outbox], "timers": timers}


# -- lobby ---------------------------------------------------------------------------


async def test_create_and_join_starts_the_game(
    manager: GameManager, front_end: RecordingFrontEnd
) -> None:
    lobby = await manager.create_game("g1", "c1", "alice", NewGame("toy", seed=5))
    assert lobby.status == "lobby" and lobby.seats[0].role == "north"
    assert front_end.deliveries == []
    game = await manager.join("c1", "bob")
    assert game.status == "active"
    assert game.active_roles == ("north",)
    assert game.version == 0
    [post] = front_end.posts
    # One notification: alice's turn reaches her by DM (the default), so the post, which
    # names her, pings nobody (one ping per turn).
    assert post.kind == "start" and post.mention_user_ids == ()
    assert post.log_lines == ("Toy Twenty-One begins.",)
    # alice gets her turn prompt; bob gets his private set-up line (his codeword).
    [turn] = front_end.privates("alice")
    assert turn.kind == "turn" and turn.view["actions"]["add"] == [1, 2, 3]
    [reveal] = front_end.privates("bob")
    assert reveal.kind == "reveal" and reveal.log_lines[0].startswith("Your codeword is")


async def test_opponent_at_creation_starts_at_once(manager: GameManager) -> None:
    game = await manager.create_game(
        "g1", "c1", "alice", NewGame("toy", seat="south", opponent_id="bob")
    )
    assert game.status == "active"
    assert {s.role: s.user_id for s in game.seats} == {"south": "alice", "north": "bob"}


async def test_random_seat_is_seeded(manager: GameManager) -> None:
    a = await manager.create_game("g1", "c1", "alice", NewGame("toy", seed=11, seat="random"))
    b = await manager.create_game("g1", "c2", "alice", NewGame("toy", seed=11, seat="random"))
    assert a.seats[0].role == b.seats[0].role


async def test_lobby_errors(manager: GameManager) -> None:
    with pytest.raises(errors.UnknownGame, match="no game called"):
        await manager.create_game("g1", "c1", "alice", NewGame("chess"))
    with pytest.raises(errors.BadOptions):
        await manager.create_game("g1", "c1", "alice", NewGame("toy", options={"colour": "red"}))
    with pytest.raises(errors.UnknownRole):
        await manager.create_game("g1", "c1", "alice", NewGame("toy", seat="east"))
    await manager.create_game("g1", "c1", "alice", NewGame("toy"))
    with pytest.raises(errors.ChannelBusy) as busy:
        await manager.create_game("g1", "c1", "carol", NewGame("toy"))
    assert "already has a game" in str(busy.value)
    with pytest.raises(errors.AlreadySeated):
        await manager.join("c1", "alice")
    with pytest.raises(errors.SeatTaken):
        await manager.join("c1", "bob", role="north")
    with pytest.raises(errors.UnknownRole):
        await manager.join("c1", "bob", role="west")
    with pytest.raises(errors.NoGameInChannel):
        await manager.join("nowhere", "bob")
    with pytest.raises(errors.NotCreator):
        await manager.cancel("c1", "bob")
    with pytest.raises(errors.GameNotActive):
        await manager.act("c1", "alice", Move("add", 1))
    await manager.join("c1", "bob")
    with pytest.raises(errors.GameNotActive):
        await manager.join("c1", "carol")
    with pytest.raises(errors.NotAllowed):
        await manager.cancel("c1", "alice")
    with pytest.raises(errors.NotAllowed):
        await manager.leave("c1", "bob")


async def test_leave_and_cancel(manager: GameManager) -> None:
    await manager.create_game("g1", "c1", "alice", NewGame("toy"))
    with pytest.raises(errors.NotSeated):
        await manager.leave("c1", "bob")
    info = await manager.leave("c1", "alice")
    assert info.status == "cancelled"  # nobody left seated
    game = await manager.create_game("g1", "c1", "alice", NewGame("toy"))
    cancelled = await manager.cancel(game.id, "alice")
    assert cancelled.status == "cancelled"
    assert await manager.game_in_channel("c1") is None


async def test_racing_creates_one_wins(manager: GameManager) -> None:
    results = await asyncio.gather(
        *(manager.create_game("g1", "c1", f"u{i}", NewGame("toy")) for i in range(5)),
        return_exceptions=True,
    )
    assert sum(isinstance(r, GameInfo) for r in results) == 1
    assert all(isinstance(r, GameInfo | errors.ChannelBusy) for r in results)


# -- playing -------------------------------------------------------------------------


async def test_act_happy_path_and_no_message_storm(
    manager: GameManager, front_end: RecordingFrontEnd
) -> None:
    game = await start(manager)
    front_end.clear()
    result = await manager.act(game.id, "alice", Move("add", "2", expected_version=0))
    assert result.version == 1 and result.role == "north"
    assert not result.turn_passed
    assert result.view["actions"] == {"done": True, "undo": True}
    assert front_end.deliveries == []  # a sub-action of the same turn posts nothing
    result = await manager.act("c1", "alice", Move("done", None, expected_version=1))
    assert result.turn_passed and result.active_roles == ("south",)
    [post] = front_end.posts
    assert post.kind == "turn" and post.version == 2
    assert post.log_lines == ("North adds 2: the counter is 2.",)
    assert post.mention_user_ids == ()  # bob is told by DM, once
    assert post.headline == "South to act."
    [turn] = front_end.privates("bob")
    assert turn.kind == "turn" and turn.version == 2 and "add" in turn.view["actions"]
    assert front_end.privates("alice") == []


async def test_undo(manager: GameManager) -> None:
    game = await start(manager)
    with pytest.raises(errors.NothingToUndo):
        await manager.undo(game.id, "alice")
    await manager.act(game.id, "alice", Move("add", 3))
    result = await manager.undo(game.id, "alice")
    assert result.view["counter"] == 0 and "add" in result.view["actions"]
    assert await manager.records.verify_replay(game.id)
    await manager.act(game.id, "alice", Move("add", 1))
    await manager.resign(game.id, "bob")
    # Once the game is over, undo says so, not that there is nothing to undo.
    with pytest.raises(errors.GameNotActive, match="This game is over"):
        await manager.undo(game.id, "alice")


async def test_refused_actions_change_nothing(
    manager: GameManager, front_end: RecordingFrontEnd
) -> None:
    game = await start(manager)
    await manager.act(game.id, "alice", Move("add", 1))
    before = await snapshot(manager, game.id)
    delivered = len(front_end.deliveries)
    cases: list[tuple[type[errors.DispatchError], tuple[Any, ...], dict[str, Any]]] = [
        (errors.NotSeated, ("carol", "done", None), {}),
        (errors.NotYourTurn, ("bob", "add", 1), {}),
        (errors.IllegalMove, ("alice", "add", 2), {}),  # not listed in the confirm step
        (errors.IllegalMove, ("alice", "fly", None), {}),
        (errors.IllegalMove, ("alice", "done", "7"), {}),
        (errors.StalePrompt, ("alice", "done", None), {"expected_version": 0}),
    ]
    for error, (user, verb, arg), kwargs in cases:
        with pytest.raises(error):
            await manager.act(game.id, user, Move(verb, arg, **kwargs))
    with pytest.raises(errors.GameNotFound):
        await manager.act(404, "alice", Move("done"))
    assert await snapshot(manager, game.id) == before
    assert len(front_end.deliveries) == delivered


async def test_stale_prompt_carries_current_version_and_prompt(manager: GameManager) -> None:
    game = await start(manager)
    await manager.act(game.id, "alice", Move("add", 1))
    with pytest.raises(errors.StalePrompt) as stale:
        await manager.act(game.id, "alice", Move("add", 1, expected_version=0))
    assert stale.value.current_version == 1
    assert "Confirm your turn" in stale.value.prompt
    assert "out of date" in str(stale.value)


async def test_racing_acts_exactly_one_applies(manager: GameManager) -> None:
    game = await start(manager)
    outcomes = await asyncio.gather(
        manager.act(game.id, "alice", Move("add", 1, expected_version=0)),
        manager.act(game.id, "alice", Move("add", 3, expected_version=0)),
        return_exceptions=True,
    )
    applied = [o for o in outcomes if not isinstance(o, BaseException)]
    stale = [o for o in outcomes if isinstance(o, errors.StalePrompt)]
    assert len(applied) == 1 and len(stale) == 1
    assert stale[0].current_version == 1
    async with manager.store.read() as db:
        assert await db.count_actions(game.id) == 1


async def _secret_round(manager: GameManager) -> int:
    game = await start(manager, seed=3)
    for user in ("alice", "bob", "alice", "bob"):
        await manager.act(game.id, user, Move("add", 1))
        await manager.act(game.id, user, Move("done"))
    return game.id


async def test_simultaneous_secret_round_no_leaks(
    manager: GameManager, front_end: RecordingFrontEnd
) -> None:
    game = await manager.get_game_info(await _secret_round(manager))
    info = await manager.get_game_info(game.id)
    assert set(info.active_roles) == {"north", "south"}
    post = front_end.posts[-1]
    # bob just acted and is not pinged for the step that follows; alice is told by DM
    assert post.mention_user_ids == ()
    assert [m.kind for m in front_end.privates("alice")][-1] == "turn"
    front_end.clear()
    first = await manager.act(game.id, "bob", Move("pick", 3))
    # bob is done, but half of a simultaneous step is not a turn: nobody new is waited
    # for, so the table gets no post and alice (already prompted) no second prompt.
    assert not first.turn_passed and first.active_roles == ("north",)
    assert front_end.posts == []
    assert front_end.privates("alice") == []
    await manager.act(game.id, "alice", Move("pick", 0))
    # Both have picked: the turn is complete and the table hears of it once.
    assert len(front_end.posts) == 1
    public = json.dumps([p.view for p in front_end.posts])
    assert '"my_pick"' not in public and "codeword" not in public
    # alice picked lower: her new codeword is revealed to her alone, privately.
    reveal = front_end.privates("alice")
    codewords = [m for m in reveal if any("codeword" in line for line in m.log_lines)]
    assert codewords == []  # alice acted: her lines come back in her ActResult instead
    pv_alice = await manager.view_for(game.id, "alice")
    pv_bob = await manager.view_for(game.id, "bob")
    everything_bob_got = json.dumps(
        [m.view for m in front_end.privates("bob")] + [p.view for p in front_end.posts]
    )
    assert pv_alice.view["codeword"] not in everything_bob_got
    assert pv_bob.view["codeword"] not in json.dumps([p.view for p in front_end.posts])


async def test_reveal_to_a_non_acting_player_goes_privately(
    manager: GameManager, front_end: RecordingFrontEnd
) -> None:
    game = await manager.get_game_info(await _secret_round(manager))
    await manager.act(game.id, "alice", Move("pick", 0))  # alice lower: she draws a new codeword
    front_end.clear()
    result = await manager.act(game.id, "bob", Move("pick", 2))
    assert result.private_log_lines == ()
    reveals = [m for m in front_end.privates("alice") if m.kind == "reveal"]
    turns = [m for m in front_end.privates("alice") if m.kind == "turn"]
    lines = [line for m in reveals + turns for line in m.log_lines]
    assert any(line.startswith("Your new codeword") for line in lines)
    assert front_end.privates("bob") == [] or all(
        "Your new codeword" not in line for m in front_end.privates("bob") for line in m.log_lines
    )


async def play_to_end(manager: GameManager, game_id: int, seed: int = 0) -> int:
    rng = random.Random(seed)
    steps = 0
    while True:
        info = await manager.get_game_info(game_id)
        if info.status != "active":
            return steps
        role = rng.choice(info.active_roles)
        user = info.seat_of(role).user_id  # type: ignore[union-attr]
        pv = await manager.view_for(game_id, user, role=role)
        choices = [
            (verb, arg)
            for verb, args in pv.view["actions"].items()
            if verb != "undo"
            for arg in (args if isinstance(args, list) else [None])
        ]
        verb, arg = rng.choice(choices)
        await manager.act(game_id, user, Move(verb, arg, expected_version=pv.version, role=role))
        steps += 1
        assert steps < 500


async def test_play_to_the_end_records_result_and_replays(
    manager: GameManager, front_end: RecordingFrontEnd
) -> None:
    game = await start(manager, seed=9)
    steps = await play_to_end(manager, game.id, seed=9)
    assert steps > 10
    info = await manager.get_game_info(game.id)
    assert info.status == "finished" and info.active_roles == ()
    end = front_end.posts[-1]
    assert end.kind == "end" and end.outcome is not None
    assert end.headline.startswith("Game over")
    async with manager.store.read() as db:
        result = await db.records.result(game.id)
        assert await db.timers.of_game(game.id) == []
    assert result is not None and result.reason == end.outcome["reason"]
    assert await manager.records.verify_replay(game.id)
    async with manager.store.read() as db:
        row = await db.game(game.id)
    assert row is not None
    assert json.loads(row.state_json or "") == await manager.records.replay(game.id)
    exported = await manager.records.export(game.id)
    assert exported["seed"] == 9 and len(exported["actions"]) == steps
    assert exported["seats"] == {"north": "alice", "south": "bob"}
    # every public log line reached the table exactly once, in order
    posted = [line for p in front_end.posts for line in p.log_lines]
    assert posted == await manager.records.log(game.id, 10_000)
    with pytest.raises(errors.GameNotActive):
        await manager.act(game.id, "alice", Move("add", 1))
    # the channel is free again
    await manager.create_game("g1", "c1", "carol", NewGame("toy"))


async def test_resign_and_abandon(manager: GameManager, front_end: RecordingFrontEnd) -> None:
    game = await start(manager)
    with pytest.raises(errors.NotSeated):
        await manager.resign(game.id, "carol")
    info = await manager.resign(game.id, "bob")
    assert info.status == "finished"
    assert front_end.posts[-1].outcome == {
        "winner": "north",
        "code": "resigned",
        "reason": "South resigned",
        "score": {},
    }
    game = await start(manager, channel="c2")
    first = await manager.abandon(game.id, "alice")
    assert not first.abandoned and first.waiting_on == ("bob",)
    assert front_end.posts[-1].mention_user_ids == ("bob",)
    again = await manager.abandon(game.id, "alice")
    assert not again.abandoned
    done = await manager.abandon(game.id, "bob")
    assert done.abandoned and done.game.status == "abandoned"
    game = await start(manager, channel="c3")
    with pytest.raises(errors.NotSeated):
        await manager.abandon(game.id, "carol")
    assert (await manager.abandon(game.id, "carol", is_moderator=True)).abandoned


async def test_queries(manager: GameManager, clock: FakeClock) -> None:
    game = await start(manager)
    clock.advance(60)
    await manager.act(game.id, "alice", Move("add", 2))
    await manager.act(game.id, "alice", Move("done"))
    [mine] = await manager.records.games_for_user("bob")
    assert mine.my_turn and mine.roles == ("south",) and mine.waiting_on == ("bob",)
    assert mine.since == clock.now
    [hers] = await manager.records.games_for_user("alice")
    assert not hers.my_turn
    assert await manager.records.games_for_user("carol") == []
    observer = await manager.view_for(game.id, "carol")
    assert observer.role is None and "codeword" not in observer.view
    assert observer.view["actions"] == {}
    assert (await manager.view_for("c1", "bob")).role == "south"
    assert await manager.records.log("c1", 1) == ["North adds 2: the counter is 2."]
    assert (await manager.game_in_channel("c1")).id == game.id  # type: ignore[union-attr]
    assert await manager.game_in_channel("c9") is None


async def test_hotseat_needs_explicit_role_when_ambiguous(manager: GameManager) -> None:
    game = await manager.create_game(
        "g1", "c1", "solo", NewGame("toy", opponent_id="solo", hotseat=True, seed=3)
    )
    assert game.status == "active"
    await manager.act(game.id, "solo", Move("add", 1))  # only north is active: no ambiguity
    await manager.act(game.id, "solo", Move("done"))
    await manager.act(game.id, "solo", Move("add", 1, role="south"))
    with pytest.raises(errors.NotSeated):
        await manager.act(game.id, "alice", Move("done", role="south"))
    await manager.act(game.id, "solo", Move("done", role="south"))
    for role in ("north", "south"):  # on to the secret round: both seats are active
        await manager.act(game.id, "solo", Move("add", 1, role=role))
        await manager.act(game.id, "solo", Move("done", role=role))
    with pytest.raises(errors.ChooseRole):
        await manager.act(game.id, "solo", Move("pick", 1))
    await manager.act(game.id, "solo", Move("pick", 1, role="south"))
    await manager.act(game.id, "solo", Move("pick", 2))  # only north is left to pick
    with pytest.raises(errors.AlreadySeated):
        await manager.create_game("g1", "c2", "solo", NewGame("toy", opponent_id="solo"))


async def test_action_log_line(manager: GameManager, caplog: pytest.LogCaptureFixture) -> None:
    game = await start(manager)
    with caplog.at_level(logging.INFO, logger="dispatch.manager"):
        await manager.act(game.id, "alice", Move("add", 2))
    [line] = [r.getMessage() for r in caplog.records if "verb=add" in r.getMessage()]
    assert f"game={game.id}" in line and "user=alice" in line and "ms" in line


# -- DMs, retries, reminders ---------------------------------------------------------


async def test_closed_dms_marked_told_once_not_retried(
    manager: GameManager, front_end: RecordingFrontEnd
) -> None:
    front_end.closed_dms.add("bob")
    game = await start(manager)
    notices = [p for p in front_end.posts if p.kind == "notice"]
    assert len(notices) == 1 and notices[0].mention_user_ids == ("bob",)
    assert "/game hand" in notices[0].headline
    assert "codeword" not in json.dumps([p.view for p in front_end.posts])
    info = await manager.get_game_info(game.id)
    assert info.seat_of("south").dm_failed  # type: ignore[union-attr]
    assert front_end.refused == ["bob"]
    for _ in range(2):
        await manager.act(game.id, "alice", Move("add", 1))
        await manager.act(game.id, "alice", Move("done"))
        await manager.act(game.id, "bob", Move("add", 1))
        await manager.act(game.id, "bob", Move("done"))
    await manager.act(game.id, "bob", Move("pick", 1))  # secret round: alice lower, reveal to her
    await manager.act(game.id, "alice", Move("pick", 2))  # bob lower: a reveal he cannot get by DM
    assert [p for p in front_end.posts if p.kind == "notice"] == notices
    assert front_end.privates("bob") == []
    assert front_end.refused == ["bob"]  # never tried again
    # bob still reads his prompt and secrets through /game hand
    assert "Your new codeword" in (await manager.view_for(game.id, "bob")).view["private_log"][-1]
    async with manager.store.read() as db:
        assert await db.outbox.undelivered() == []
    assert await manager.prompts.dms_reopened("bob") == 1


async def test_transient_failures_retry_with_backoff(
    manager: GameManager, front_end: RecordingFrontEnd, clock: FakeClock
) -> None:
    game = await start(manager)
    front_end.clear()
    front_end.transient_failures = 2
    await manager.act(game.id, "alice", Move("add", 1))
    await manager.act(game.id, "alice", Move("done"))  # table post fails once, bob's DM once
    assert front_end.deliveries == []
    async with manager.store.read() as db:
        pending = await db.outbox.undelivered()
    assert len(pending) == 2 and all(r.attempts == 1 for r in pending)
    assert all(r.next_attempt_at == clock.now + manager.tuning.retry_base_s for r in pending)
    assert await manager.deliver_due() == 0  # not due yet
    clock.advance(manager.tuning.retry_base_s)
    front_end.transient_failures = 1
    assert await manager.deliver_due() == 1  # one failed again (backing off), one delivered
    async with manager.store.read() as db:
        [left] = await db.outbox.undelivered()
    assert (
        left.attempts == 2 and left.next_attempt_at == clock.now + 2 * manager.tuning.retry_base_s
    )
    clock.advance(2 * manager.tuning.retry_base_s)
    assert await manager.deliver_due() == 1
    assert len(front_end.posts) == 1 and len(front_end.privates("bob")) == 1


async def test_failed_table_post_holds_back_later_posts_in_order(
    manager: GameManager, front_end: RecordingFrontEnd, clock: FakeClock
) -> None:
    game = await start(manager)
    front_end.clear()
    front_end.crash = True
    for user in ("alice", "bob"):
        await manager.act(game.id, user, Move("add", 1))
        await manager.act(game.id, user, Move("done"))
    front_end.crash = False
    clock.advance(3600)
    await manager.deliver_due()
    assert [p.version for p in front_end.posts] == [2, 4]


async def test_reminders_fire_escalate_and_clear(
    manager: GameManager, front_end: RecordingFrontEnd, clock: FakeClock
) -> None:
    game = await start(manager)
    await manager.settings.reminder_hours("c1", reminder_hours=2)
    assert (await manager.settings.reminder_hours("c1")).reminder_hours == 2
    # the setting applies from the next scheduling; alice's current timer is the default
    await manager.act(game.id, "alice", Move("add", 1))  # acting resets her reminder: now 2 h
    front_end.clear()
    clock.advance(2 * 3600 - 1)
    assert await manager.background.fire_due_timers() == 0
    clock.advance(1)
    assert await manager.background.fire_due_timers() == 1
    [nudge] = front_end.privates("alice")
    assert nudge.kind == "reminder" and nudge.view["actions"]["done"] is True
    [mention] = front_end.posts
    # alice is reminded by DM (her default); the table sees whom it waits for, unpinged.
    assert mention.kind == "reminder" and mention.active_roles == ("north",)
    assert mention.mention_user_ids == ()
    clock.advance(2 * 3600)
    assert await manager.background.fire_due_timers() == 0  # next one waits twice as long
    clock.advance(2 * 3600)
    assert await manager.background.fire_due_timers() == 1
    await manager.act(game.id, "alice", Move("done"))
    async with manager.store.read() as db:
        timers = await db.timers.of_game(game.id)
    assert [(t.role, t.interval_s) for t in timers] == [("south", 2 * 3600)]
    with pytest.raises(errors.NotAllowed):
        await manager.settings.reminder_hours("c1", reminder_hours=0)


async def test_reminders_say_how_long_the_game_has_waited(
    manager: GameManager, front_end: RecordingFrontEnd, clock: FakeClock
) -> None:
    """The second reminder, 24 + 48 hours after the turn began, says
    72 hours (the wait), not 48 (the interval since the first)."""
    game = await start(manager)
    front_end.clear()
    clock.advance(24 * 3600)
    assert await manager.background.fire_due_timers() == 1
    assert "for 24 hours" in front_end.privates("alice")[-1].headline
    clock.advance(48 * 3600)
    assert await manager.background.fire_due_timers() == 1
    assert "for 72 hours" in front_end.privates("alice")[-1].headline
    # Acting counts as being present: her clock starts again, her turn goes on.
    await manager.act(game.id, "alice", Move("add", 1))
    clock.advance(24 * 3600)
    assert await manager.background.fire_due_timers() == 1
    assert "for 24 hours" in front_end.privates("alice")[-1].headline


async def test_reminders_reach_players_where_they_chose(
    manager: GameManager, front_end: RecordingFrontEnd, clock: FakeClock
) -> None:
    """``notify: dm`` (the default) is reminded by DM and named at the
    table without a ping; ``channel`` is pinged there and sent no DM; ``both`` gets both."""
    game = await start(manager)
    for notify, dm, pinged in (("dm", 1, ()), ("channel", 0, ("alice",)), ("both", 1, ("alice",))):
        await manager.settings.notify("alice", notify)
        front_end.clear()
        clock.advance(10 * 24 * 3600)
        assert await manager.background.fire_due_timers() == 1
        assert len(front_end.privates("alice")) == dm, notify
        [post] = front_end.posts
        assert post.kind == "reminder" and post.active_roles == ("north",)
        assert post.mention_user_ids == pinged, notify
    assert game.id


async def test_reminders_survive_restart(toy_game: object, db_path: Path, clock: FakeClock) -> None:
    first = await GameManager.open(db_path, RecordingFrontEnd(), clock=clock)
    await start(first)
    await first.close()
    clock.advance(24 * 3600)
    front_end = RecordingFrontEnd()
    second = await GameManager.open(db_path, front_end, clock=clock)
    try:
        assert await second.background.fire_due_timers() == 1
        assert front_end.posts[-1].kind == "reminder"
        assert front_end.privates("alice")[-1].kind == "reminder"
    finally:
        await second.close()


async def test_corrupt_rows_affect_only_their_game(
    manager: GameManager, front_end: RecordingFrontEnd
) -> None:
    broken = await start(manager, channel="c1")
    unknown = await start(manager, channel="c2")
    healthy = await start(manager, channel="c3")
    async with manager.store.transaction() as db:
        await db._run("UPDATE games SET state = '{not json' WHERE id = ?", (broken.id,))
        await db._run("UPDATE games SET game_name = 'gone' WHERE id = ?", (unknown.id,))
    with pytest.raises(errors.CorruptGame, match="not valid JSON"):
        await manager.act(broken.id, "alice", Move("add", 1))
    with pytest.raises(errors.CorruptGame, match="unknown game"):
        await manager.view_for(unknown.id, "alice")
    assert len(await manager.records.games_for_user("alice")) == 3
    await manager.act(healthy.id, "alice", Move("add", 1))
    await manager.background.fire_due_timers()
    # a moderator can still clear the channel
    assert (await manager.abandon(broken.id, "mod", is_moderator=True)).abandoned


def test_queued_views_keep_only_recent_log_lines() -> None:
    from bot.delivery.outbox import VIEW_LOG_LINES
    from bot.delivery.outbox import post_payload as _post_payload
    from bot.delivery.port import TablePost

    view = {"log": [f"line {i}" for i in range(500)], "prompt": "p"}
    payload = _post_payload(TablePost(kind="turn", version=3, headline="", view=view))
    assert payload["view"]["log"] == view["log"][-VIEW_LOG_LINES:]
    assert len(view["log"]) == 500  # the caller's view is not touched


async def test_background_loop_retries_and_reminds(
    manager: GameManager, front_end: RecordingFrontEnd, clock: FakeClock
) -> None:
    game = await start(manager)
    front_end.clear()
    front_end.transient_failures = 1
    await manager.act(game.id, "alice", Move("add", 1))
    await manager.act(game.id, "alice", Move("done"))
    clock.advance(25 * 3600)  # past the retry and past bob's reminder
    task = asyncio.create_task(manager.background.run(interval_s=0.01))
    try:
        for _ in range(200):
            if any(p.kind == "reminder" for p in front_end.posts):
                break
            await asyncio.sleep(0.01)
    finally:
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
    assert [p.kind for p in front_end.posts] == ["turn", "reminder"]
    assert [m.kind for m in front_end.privates("bob")] == ["turn", "reminder"]


async def test_other_side_moving_in_a_simultaneous_step_keeps_my_button_fresh(
    manager: GameManager,
) -> None:
    game_id = await _secret_round(manager)
    drawn_at = (await manager.get_game_info(game_id)).version  # both prompts drawn here
    await manager.act(game_id, "alice", Move("pick", 1, expected_version=drawn_at))
    # bob's button is one version behind, but his decision has not changed: it applies.
    result = await manager.act(game_id, "bob", Move("pick", 2, expected_version=drawn_at))
    assert result.version == drawn_at + 2


async def test_a_double_click_applies_once_even_in_a_simultaneous_step(
    manager: GameManager,
) -> None:
    game_id = await _secret_round(manager)
    drawn_at = (await manager.get_game_info(game_id)).version
    await manager.act(game_id, "alice", Move("pick", 1, expected_version=drawn_at))
    with pytest.raises((errors.StalePrompt, errors.NotYourTurn)):
        await manager.act(game_id, "alice", Move("pick", 1, expected_version=drawn_at))
    async with manager.store.read() as db:
        assert await db.count_actions(game_id) == drawn_at + 1


async def test_a_button_from_the_future_is_refused(manager: GameManager) -> None:
    game_id = await _secret_round(manager)
    version = (await manager.get_game_info(game_id)).version
    with pytest.raises(errors.StalePrompt):
        await manager.act(game_id, "alice", Move("pick", 1, expected_version=version + 5))
    with pytest.raises(errors.StalePrompt):
        await manager.act(game_id, "alice", Move("pick", 1, expected_version="not-a-number"))
    assert (await manager.get_game_info(game_id)).version == version


async def test_a_completed_simultaneous_step_is_posted_even_if_its_last_player_acts_next(
    manager: GameManager, front_end: RecordingFrontEnd
) -> None:
    game_id = await _secret_round(manager)
    front_end.clear()
    await manager.act(game_id, "bob", Move("pick", 3))
    assert front_end.posts == []  # half of a simultaneous step: not a turn
    await manager.act(game_id, "alice", Move("pick", 0))
    info = await manager.get_game_info(game_id)
    assert info.status == "active" and info.active_roles == ("north",)  # alice acts next
    assert len(front_end.posts) == 1
    assert any("Secret picks revealed" in line for line in front_end.posts[0].log_lines)


async def test_each_hand_over_notifies_the_next_player_once_where_they_chose(
    manager: GameManager, front_end: RecordingFrontEnd
) -> None:
    game = await start(manager)
    # DM (the default): a "your turn" DM, no ping in the channel
    front_end.clear()
    await manager.act(game.id, "alice", Move("add", 1))
    await manager.act(game.id, "alice", Move("done"))
    assert [p.mention_user_ids for p in front_end.posts] == [()]
    assert [m.kind for m in front_end.privates("bob")] == ["turn"]
    # channel: a ping at the table, no DM
    assert await manager.settings.notify("alice", "channel") == "channel"
    front_end.clear()
    await manager.act(game.id, "bob", Move("add", 1))
    await manager.act(game.id, "bob", Move("done"))
    assert [p.mention_user_ids for p in front_end.posts] == [("alice",)]
    assert [m.kind for m in front_end.privates("alice")] == []
    # both
    await manager.settings.notify("bob", "both")
    front_end.clear()
    await manager.act(game.id, "alice", Move("add", 1))
    await manager.act(game.id, "alice", Move("done"))
    assert [p.mention_user_ids for p in front_end.posts] == [("bob",)]
    assert [m.kind for m in front_end.privates("bob")] == ["turn"]
    assert await manager.settings.notify("bob") == "both"
    with pytest.raises(errors.BadInput):
        await manager.settings.notify("bob", "pigeon")


async def test_a_player_with_closed_dms_is_pinged_at_the_table_instead(
    manager: GameManager, front_end: RecordingFrontEnd
) -> None:
    front_end.closed_dms.add("bob")
    game = await start(manager)
    front_end.clear()
    await manager.act(game.id, "alice", Move("add", 1))
    await manager.act(game.id, "alice", Move("done"))
    turn_posts = [p for p in front_end.posts if p.kind == "turn"]
    assert turn_posts[-1].mention_user_ids == ("bob",)
    assert front_end.privates("bob") == []


async def test_a_table_reminder_that_waited_past_the_turn_is_not_posted(
    manager: GameManager, front_end: RecordingFrontEnd, clock: FakeClock
) -> None:
    """Found in review: a table reminder held back (Discord down, or the channel parked
    until someone fixed it) went out after the player had moved, so the table read
    "the game is waiting for your move" about a turn long over, pinging a player who
    chose the channel. A DM reminder was already dropped so; the table's is too."""
    game = await start(manager)
    await manager.settings.notify("alice", "channel")
    front_end.crash = True
    clock.advance(24 * 3600)
    assert await manager.background.fire_due_timers() == 1  # queued, not delivered
    await manager.act(game.id, "alice", Move("add", 1))
    await manager.act(game.id, "alice", Move("done"))  # the turn passes to bob meanwhile
    front_end.crash = False
    front_end.clear()
    clock.advance(3600)
    await manager.deliver_due()
    assert [p.kind for p in front_end.posts] == ["turn"]


async def test_the_waiting_opponent_sees_no_decision_its_player_may_take_back(
    manager: GameManager,
) -> None:
    """North's add may still be taken back: South, waiting, sees the game as it stood
    before it (the counter, the log), until North passes the turn; North sees it."""
    info = await manager.create_game(
        "g1", "c1", "alice", NewGame("toy", seat="north", opponent_id="bob", seed=5)
    )
    added = await manager.act(info.id, "alice", Move("add", 2, info.version))
    mine = await manager.view_for(info.id, "alice")
    waiting = await manager.view_for(info.id, "bob")
    assert (mine.view["counter"], waiting.view["counter"]) == (2, 0)
    assert "North adds 2" in json.dumps(mine.view["log"])
    assert "North adds 2" not in json.dumps(waiting.view)
    assert waiting.view["actions"] == {} and waiting.version == added.version
    await manager.act(info.id, "alice", Move("done", None, added.version))
    waiting = await manager.view_for(info.id, "bob")
    assert waiting.view["counter"] == 2 and "North adds 2" in json.dumps(waiting.view["log"])
    assert "add" in waiting.view["actions"]


async def test_a_side_that_must_choose_too_sees_its_own_choices_as_they_are(
    manager: GameManager,
) -> None:
    """A simultaneous choice: North has picked (and may take it back), South must pick
    as well. South is offered its picks, sees that North has picked, and not what."""
    info = await manager.create_game(
        "g1", "c1", "alice", NewGame("toy", seat="north", opponent_id="bob", seed=5)
    )
    version = info.version
    for user, role in (("alice", "north"), ("bob", "south")) * 2:  # four turns: 1 each
        version = (await manager.act(info.id, user, Move("add", 1, version, role=role))).version
        version = (await manager.act(info.id, user, Move("done", None, version, role=role))).version
    assert set((await manager.get_game_info(info.id)).active_roles) == {"north", "south"}
    await manager.act(info.id, "alice", Move("pick", 3, version, role="north"))
    south = await manager.view_for(info.id, "bob")
    assert "pick" in south.view["actions"] and south.view["my_pick"] is None
    # The game as it stands: that North has picked, never what.
    assert south.view["picked"] == {"north": True, "south": False}


async def test_someone_not_seated_sees_no_decision_its_player_may_take_back(
    manager: GameManager,
) -> None:
    """North's add may still be taken back: North's own view shows it, someone not
    seated sees the game as it stood before it, until North passes the turn."""
    info = await manager.create_game(
        "g1", "c1", "alice", NewGame("toy", seat="north", opponent_id="bob", seed=5)
    )
    added = await manager.act(info.id, "alice", Move("add", 2, info.version))
    mine = await manager.view_for(info.id, "alice")
    watching = await manager.view_for(info.id, None)
    assert "North adds 2" in json.dumps(mine.view["log"])
    assert "North adds 2" not in json.dumps(watching.view["log"])
    await manager.act(info.id, "alice", Move("done", None, added.version))
    watching = await manager.view_for(info.id, None)
    assert "North adds 2" in json.dumps(watching.view["log"])
