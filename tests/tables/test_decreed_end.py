"""A game ended by decree (a resignation, a loss on time), not by its rules, is told as
one the rules ended: the end post's view, and so the board drawn from it, show the
result, not whom the game was waiting for."""

from __future__ import annotations

from conftest import RecordingFrontEnd

from bot.tables.manager import GameManager
from bot.tables.requests import NewGame
from render import board_png


async def test_the_end_post_and_last_board_of_a_resignation_show_the_result(
    manager: GameManager, front_end: RecordingFrontEnd
) -> None:
    request = NewGame("fort_sumter", seed=5, seat="unionist", opponent_id="bob")
    game = await manager.create_game("g1", "c1", "alice", request)
    await manager.resign(game.id, "alice")
    end = front_end.posts[-1]
    assert end.kind == "end" and end.view is not None
    assert end.view["status"] == "Secessionist won: Unionist resigned"
    # Nobody is "to play" on the last board, and its headline band reads the status.
    assert end.view["active"] == [] and end.view["outcome"]["winner"] == "secessionist"
    assert board_png("fort_sumter", end.view)
