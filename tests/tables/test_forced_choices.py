"""A decision with one legal action that reveals nothing is taken for the player
(``bot.tables.forced``): War's last placement of a battle, on each store engine."""

from __future__ import annotations

from pathlib import Path

from conftest import RecordingFrontEnd

from bot.tables.manager import GameManager
from bot.tables.requests import Move, NewGame
from tests.terminal.test_sandbox import run_script


async def war(manager: GameManager) -> int:
    info = await manager.create_game("g1", "c1", "alice", NewGame("war", seed=7, opponent_id="bob"))
    return info.id


async def place_two(manager: GameManager, game_id: int, user: str):
    """``user`` places the first two of the battle's three reinforcements."""
    result = None
    for _ in range(2):
        pv = await manager.view_for(game_id, user)
        first = pv.view["actions"]["place"][0]
        result = await manager.act(game_id, user, Move("place", first, pv.version))
    assert result is not None
    return result


async def test_the_last_placement_of_a_battle_is_made_for_the_player(
    manager: GameManager, front_end: RecordingFrontEnd
) -> None:
    game_id = await war(manager)
    before = await manager.view_for(game_id, "alice")
    result = await place_two(manager, game_id, "alice")
    # The third card had one column left: placed for her, and she may commit at once.
    assert set(result.view["actions"]) == {"done", "undo"}
    [line] = result.private_log_lines
    assert line.startswith("Your only choice left was made for you: ")
    async with manager.store.read() as db:
        played = await db.actions(game_id)
    assert [a.verb for a in played] == ["place", "place", "place"]
    assert all(a.user_id == "alice" for a in played)
    assert result.version == before.version + 3


async def test_undo_takes_the_forced_placement_back_and_asks_for_it(
    manager: GameManager,
) -> None:
    game_id = await war(manager)
    result = await place_two(manager, game_id, "alice")
    undone = await manager.act(game_id, "alice", Move("undo", None, result.version))
    # Asked now (one place left), not taken again: the undo would undo nothing.
    assert len(undone.view["actions"]["place"]) == 1
    assert not undone.private_log_lines


async def test_a_player_who_asks_to_be_asked_is_asked(manager: GameManager) -> None:
    assert await manager.settings.forced("alice") == "auto"
    assert await manager.settings.forced("alice", "ask") == "ask"
    assert await manager.settings.forced("alice") == "ask"
    assert await manager.settings.notify("alice") == "dm"  # the other setting kept
    game_id = await war(manager)
    result = await place_two(manager, game_id, "alice")
    assert len(result.view["actions"]["place"]) == 1
    assert not result.private_log_lines
    # bob did not ask: his last placement is made for him.
    theirs = await place_two(manager, game_id, "bob")
    assert set(theirs.view["actions"]) == {"done", "undo"}


async def test_a_commit_is_never_taken_for_the_player(manager: GameManager) -> None:
    game_id = await war(manager)
    result = await place_two(manager, game_id, "alice")
    assert "alice" in [s.user_id for s in result.game.seats if s.role in result.active_roles]


async def test_the_sandbox_says_so_and_lets_a_player_be_asked(tmp_path: Path) -> None:
    text = await run_script(tmp_path, "new war 7\n1\n1\nforced ask\nforced\nforced bogus\n")
    assert "Your only choice left was made for you: " in text
    assert text.count("A choice with only one option is asked of alice.") == 2
    assert "! Forced choices are taken for you (auto) or you are asked each time" in text
