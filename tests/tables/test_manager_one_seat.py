"""A one-seat game (a CDG Solo System session) through the GameManager: it starts at once,
its start post carries the player's prompt, nothing goes by DM, no reminder nags, undo
and the end work as for any game."""

from __future__ import annotations

from conftest import FakeClock, RecordingFrontEnd

from bot.tables.manager import GameManager
from bot.tables.requests import Move, NewGame

SOLO = {"playsheet": "paths_of_glory", "side": "central_powers"}


async def test_a_solo_session_starts_at_once_with_its_prompt_at_the_table(
    manager: GameManager, front_end: RecordingFrontEnd
) -> None:
    info = await manager.create_game(None, "dm-1", "alice", NewGame("solo", options=SOLO, seed=4))
    assert info.status == "active" and info.roles == ("solo",)
    assert info.active_roles == ("solo",)
    [post] = front_end.posts
    assert post.kind == "start"
    assert post.view is not None and "roll" in post.view["actions"]
    assert post.view["actions"]["roll"] == ["central_powers"]
    assert "Card Display dealt" in " ".join(post.log_lines)
    assert front_end.privates() == []


async def test_clicks_post_nothing_more_and_set_no_reminders(
    manager: GameManager, front_end: RecordingFrontEnd, clock: FakeClock
) -> None:
    info = await manager.create_game("g1", "c1", "alice", NewGame("solo", options=SOLO, seed=4))
    result = await manager.act(info.id, "alice", Move("roll", "central_powers", info.version))
    assert result.view["step"] in ("choose", "table")
    assert any(line.startswith("Fate Die for Central Powers") for line in result.view["log"])
    assert len(front_end.posts) == 1 and front_end.privates() == []
    async with manager.store.read() as db:
        assert await db.timers.of_game(info.id) == []
    clock.advance(10 * 24 * 3600)
    assert await manager.background.fire_due_timers() == 0
    assert front_end.privates() == []


async def test_undo_and_the_end_of_a_session(
    manager: GameManager, front_end: RecordingFrontEnd
) -> None:
    info = await manager.create_game("g1", "c1", "alice", NewGame("solo", options=SOLO, seed=4))
    rolled = await manager.act(info.id, "alice", Move("roll", "central_powers", info.version))
    if rolled.view["step"] == "choose":
        card = rolled.view["actions"]["played"][0]
        played = await manager.act(info.id, "alice", Move("played", card, rolled.version))
        assert "undo" in played.view["actions"]
        back = await manager.undo(info.id, "alice")
        assert back.view["step"] == "choose"
        assert back.view["actions"]["played"] == rolled.view["actions"]["played"]
        version = back.version
        while back.view["step"] != "table":
            verb = next(v for v in back.view["actions"] if v != "undo")
            args = back.view["actions"][verb]
            back = await manager.act(
                info.id, "alice", Move(verb, None if args is True else args[0], version)
            )
            version = back.version
    now = await manager.get_game_info(info.id)
    ended = await manager.act(info.id, "alice", Move("end", None, now.version))
    assert ended.outcome is not None and ended.outcome["code"] == "closed"
    end = front_end.posts[-1]
    assert end.kind == "end" and end.headline == "Session over (the solo session was closed)."
    assert front_end.privates() == []  # no "you won / you lost" DM for a solo session
    assert (await manager.get_game_info(info.id)).status == "finished"
    assert await manager.records.verify_replay(info.id)
