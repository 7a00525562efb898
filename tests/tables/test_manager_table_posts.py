"""What the table is told at a hand-over: a turn post always says
what happened, even when the decision that ended the turn wrote nothing to the log."""

from __future__ import annotations

from pathlib import Path

from conftest import FakeClock, RecordingFrontEnd

import rules
from bot.tables.manager import GameManager
from bot.tables.requests import Move, NewGame

GAME = rules.get_game("fort_sumter")


async def test_a_final_crisis_done_without_moves_tells_the_table_who_finished(
    tmp_path: Path, clock: FakeClock
) -> None:
    """Fort Sumter's Final Crisis: a side may move up to two tokens, then Done. A Done with
    no move logs nothing, and the table used to get a post saying only who is to act."""
    choose = GAME.automated_player()
    assert choose is not None
    front_end = RecordingFrontEnd()
    manager = await GameManager.open(tmp_path / "fs.sqlite3", front_end, clock=clock)
    try:
        info = await manager.create_game(
            "g", "c", "111", NewGame("fort_sumter", seed=1, seat="unionist", opponent_id="222")
        )
        users = {s.role: s.user_id for s in info.seats}
        checked = 0
        for _ in range(2000):
            info = await manager.get_game_info(info.id)
            if info.status != "active":
                break
            role = info.active_roles[0]
            pv = await manager.view_for(info.id, users[role], role=role)
            verb, arg = choose(GAME, pv.view)
            untouched = "move up to 2" in str(pv.view.get("prompt"))
            fc_done = pv.view.get("step") == "final_crisis_move" and untouched
            if fc_done:
                verb, arg = "done", None  # end the decision without moving a token
            before = len(front_end.posts)
            await manager.act(info.id, users[role], Move(verb, arg, pv.version))
            for post in front_end.posts[before:]:
                assert post.log_lines, f"a {post.kind} post with nothing but {post.headline!r}"
                if fc_done and post.kind == "turn":
                    # Either this side's Done, or (both done) the next pair revealed.
                    said = post.log_lines[0]
                    assert said.startswith("Final Crisis pair") or said == (
                        f"{GAME.role_names[role]} is done."
                    ), said
                    checked += said.endswith("is done.")
        assert info.status == "finished"
        assert checked >= 3
    finally:
        await manager.close()
