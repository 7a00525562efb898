"""A seed column holding text (SQLite keeps what a hand edit writes, whatever the column's
type) is a damaged record: the moderator's export and the replay check answer, never a
raw ``TypeError``, and the text written there is not shown back."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import FakeClock, RecordingFrontEnd

from bot import errors
from bot.tables.manager import GameManager
from bot.tables.requests import Move, NewGame

# PostgreSQL refuses text in its bigint column: the damage is SQLite's alone.
pytestmark = [pytest.mark.sqlite_only, pytest.mark.usefixtures("toy_game")]


async def finished_game(manager: GameManager, seed: int | None) -> int:
    info = await manager.create_game(
        "g", "c1", "alice", NewGame("toy", seed=seed, opponent_id="bob")
    )
    await manager.act(info.id, "alice", Move("add", 2))
    await manager.resign(info.id, "bob")
    return info.id


async def write_seed(manager: GameManager, game_id: int, seed: str) -> None:
    async with manager.store.write() as db:
        await db._run("UPDATE games SET seed = ? WHERE id = ?", (seed, game_id))


async def test_a_seed_of_text_exports_the_games_key_which_still_replays(
    db_path: Path, clock: FakeClock
) -> None:
    manager = await GameManager.open(db_path, RecordingFrontEnd(), clock=clock)
    try:
        game_id = await finished_game(manager, None)  # dealt from a secret key
        key = (await manager.records.export(game_id))["seed"]
        await write_seed(manager, game_id, "secret-U99x")
        exported = await manager.records.export_for_player(game_id, is_moderator=True)
        assert exported["seed"] == key  # the key, kept apart from the seed
        assert await manager.records.verify_replay(game_id) is True
    finally:
        await manager.close()


async def test_a_chosen_seed_overwritten_with_text_cannot_replay_and_says_so(
    db_path: Path, clock: FakeClock
) -> None:
    manager = await GameManager.open(db_path, RecordingFrontEnd(), clock=clock)
    try:
        game_id = await finished_game(manager, 3)  # the toy game keeps no key of a seed
        await write_seed(manager, game_id, "secret-U99x")
        exported = await manager.records.export_for_player(game_id, is_moderator=True)
        assert exported["seed"] is None and "secret" not in repr(exported)
        with pytest.raises(errors.CorruptGame) as refused:
            await manager.records.verify_replay(game_id)
        assert "damaged" in refused.value.message and "secret" not in refused.value.message
    finally:
        await manager.close()
