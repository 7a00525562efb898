"""A damaged game's rescue export still replays: its key is kept beside the state.

Found by careful play: the secret key lived only inside the state, so a game whose state
was damaged exported ``seed: null`` even for a moderator's rescue, and could not be
replayed. The key is now also in ``game_keys`` (migration 0010), read only by the
export: it is in no view, post or log line, and players still get no export before the
end.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest
from conftest import RecordingFrontEnd

from bot import errors
from bot.storage.migrate import discover
from bot.tables.manager import GameManager
from bot.tables.records.replay import replayed_state
from bot.tables.requests import Move, NewGame
from rules.core.rng import is_key

#: The number of the migration that adds ``game_keys``.
[KEYS_MIGRATION] = [m.version for m in discover() if m.name == "game_keys"]


async def damage(manager: GameManager, game_id: int) -> None:
    async with manager.store.write() as db:
        await db._run("UPDATE games SET state = '{}' WHERE id = ?", (game_id,))


async def played(manager: GameManager, game_id: int, moves: int) -> None:
    """A few moves by the toy game's first legal action, so the log has something."""
    for _ in range(moves):
        info = await manager.get_game_info(game_id)
        role = info.active_roles[0]
        seat = info.seat_of(role)
        assert seat is not None
        pv = await manager.view_for(game_id, seat.user_id, role=role)
        verb, choices = next((v, c) for v, c in pv.view["actions"].items() if v != "undo")
        arg = choices[0] if isinstance(choices, list) else None
        await manager.act(game_id, seat.user_id, Move(verb, arg, pv.version, role=role))


async def test_a_moderators_rescue_export_of_a_damaged_game_has_its_key_and_replays(
    manager: GameManager, front_end: RecordingFrontEnd, caplog: pytest.LogCaptureFixture
) -> None:
    # As ``setup_logging`` does: Dispatch's own lines at DEBUG, the libraries' at INFO.
    caplog.set_level(logging.INFO)
    caplog.set_level(logging.DEBUG, logger="dispatch")
    info = await manager.create_game("g1", "c1", "alice", NewGame("war", opponent_id="bob"))
    await played(manager, info.id, 3)
    healthy = await manager.records.export(info.id)
    key = healthy["seed"]
    assert is_key(key)
    expected = await manager.records.replay(info.id)
    await damage(manager, info.id)

    with pytest.raises(errors.WrongStage):  # a player: still nothing before the end
        await manager.records.export_for_player(info.id)
    rescued = await manager.records.export_for_player(info.id, is_moderator=True)
    assert rescued["seed"] == key
    assert replayed_state(rescued) == expected  # replays elsewhere as the game stood
    # The key was never in a view, a post or a log line.
    assert key not in json.dumps(front_end.__dict__, default=str)
    assert key not in caplog.text


async def test_games_stored_before_the_key_table_get_their_key_from_the_state(
    db_path: Path | str, front_end: RecordingFrontEnd
) -> None:
    """The migration copies the key of every keyed game whose state still holds it."""
    manager = await GameManager.open(db_path, front_end)
    info = await manager.create_game("g1", "c1", "alice", NewGame("war", opponent_id="bob"))
    key = (await manager.records.export(info.id))["seed"]
    async with manager.store.transaction() as raw:  # as a database of the version before
        await raw._run("DROP TABLE game_keys")
        await raw._run("DELETE FROM schema_migrations WHERE version = ?", (KEYS_MIGRATION,))
    await manager.close()
    manager = await GameManager.open(db_path, front_end)
    try:
        await damage(manager, info.id)
        rescued = await manager.records.export_for_player(info.id, is_moderator=True)
        assert rescued["seed"] == key
    finally:
        await manager.close()


async def test_a_chosen_seed_keeps_no_key(manager: GameManager) -> None:
    info = await manager.create_game("g1", "c1", "alice", NewGame("war", opponent_id="bob", seed=7))
    async with manager.store.read() as db:
        assert await db.game_key(info.id) is None
    await damage(manager, info.id)
    assert (await manager.records.export_for_player(info.id, is_moderator=True))["seed"] == 7


async def test_a_moderator_who_plays_gets_no_rescue_export(manager: GameManager) -> None:
    """Found in review: the rescue export went to any moderator, one seated at the game
    too, who then knew the other side's cards and every draw to come were the game taken
    up again. Another moderator still gets it."""
    info = await manager.create_game("g1", "c1", "alice", NewGame("war", opponent_id="bob"))
    await played(manager, info.id, 2)
    await damage(manager, info.id)
    with pytest.raises(errors.ModeratorOnly):
        await manager.records.export_for_player(info.id, is_moderator=True, user_id="alice")
    rescued = await manager.records.export_for_player(info.id, is_moderator=True, user_id="carol")
    assert is_key(rescued["seed"])
