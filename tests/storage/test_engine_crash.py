"""A rules engine that crashes on a move: the player is told politely, nothing changes,
and the host's log says where it crashed without the exception's message, which may name
a card in someone's hand (the host may be a player)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
from toy_game import ToyGame

import rules
from bot import errors
from bot.tables.manager import GameManager
from bot.tables.requests import Move, NewGame
from tests.conftest import FakeClock, RecordingFrontEnd


class CrashingToy(ToyGame):
    """Toy Twenty-One whose ``add 3`` fails, naming the other side's secret codeword."""

    name = "crashing_toy"

    def act(self, state: dict[str, Any], role: str, verb: str, arg: Any = None) -> dict[str, Any]:
        if verb == "add" and arg == 3:
            other = "south" if role == "north" else "north"
            raise KeyError(state["codeword"][other])
        return super().act(state, role, verb, arg)


async def test_a_crash_refuses_the_move_changes_nothing_and_logs_no_secret(
    db_path: Path,
    front_end: RecordingFrontEnd,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    game = CrashingToy()
    monkeypatch.setitem(rules.GAMES, game.name, game)
    manager = await GameManager.open(db_path, front_end, clock=clock)
    try:
        info = await manager.create_game("g", "c", "alice", NewGame(game.name, opponent_id="bob"))
        before = await manager.records.export(info.id)
        secret = (await manager.records.replay(info.id))["codeword"]["south"]
        with caplog.at_level(logging.DEBUG), pytest.raises(errors.IllegalMove) as refused:
            await manager.act(info.id, "alice", Move("add", 3, info.version))
        assert "error in the game rules; nothing changed" in str(refused.value)
        assert secret not in str(refused.value)
        assert await manager.records.export(info.id) == before
        logged = "\n".join(r.getMessage() for r in caplog.records)
        assert "rules engine failed on add" in logged and "KeyError" in logged
        assert "crashing_toy" in logged or "test_engine_crash.py" in logged  # where it was
        assert secret not in logged and secret not in caplog.text
        # The game goes on: another move is taken.
        assert (
            await manager.act(info.id, "alice", Move("add", 2, info.version))
        ).version > info.version
    finally:
        await manager.close()
