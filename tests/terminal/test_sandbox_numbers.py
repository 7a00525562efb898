"""A number typed in the sandbox means the list last shown, for as long as that list is
still the player's decision: another side's move in a step both take at once (Dispatch's
face-down choice, say) moves the game on without changing the list, and the number is
taken; a decision of the player's own that changed is refused (test_sandbox_solo.py)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from bot.tables.manager import GameManager
from bot.tables.requests import Move
from bot.terminal.frontend import TerminalFrontEnd
from bot.terminal.sandbox import Sandbox


async def play_to_the_secret_round(manager: GameManager, game_id: int) -> None:
    """Both players take their first listed action until the toy's secret round, where
    both pick at once."""
    for _ in range(40):
        info = await manager.get_game_info(game_id)
        pv = await manager.view_for(game_id, info.waiting_on[0])
        if pv.view.get("step") == "secret":
            return
        verb, args = next(iter(pv.view["actions"].items()))
        arg = args[0] if isinstance(args, list) else None
        await manager.act(game_id, info.waiting_on[0], Move(verb, arg, pv.version, role=pv.role))
    raise AssertionError("the toy game never reached its secret round")


@pytest.mark.usefixtures("toy_game")
async def test_a_number_stands_when_only_the_other_side_moved_meanwhile(tmp_path: Path) -> None:
    out = io.StringIO()
    front_end = TerminalFrontEnd(out=out, out_dir=tmp_path / "out")
    manager = await GameManager.open(tmp_path / "s.sqlite3", front_end)
    try:
        sandbox = Sandbox(manager, front_end, seed=1)
        await sandbox.handle("new toy 3")
        await sandbox.handle("as bob")
        await play_to_the_secret_round(manager, 1)
        await sandbox.handle("as alice")  # alice's list: pick 0 to 3
        bob = await manager.view_for(1, "bob")
        await manager.act(1, "bob", Move("pick", 2, bob.version, role=bob.role))
        version = (await manager.get_game_info(1)).version
        out.truncate(0)
        await sandbox.handle("1")
        assert "changed since this list was shown" not in out.getvalue()
        assert (await manager.get_game_info(1)).version == version + 1
    finally:
        await manager.close()
