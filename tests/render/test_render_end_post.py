"""War's final post was a wall of 3,943 characters on a phone (every
battle the automated side fought alone after the other ran out of decisions). The end
post reads as a short summary: the last lines of the final turn and the result, with the
rest left to ``/game log``."""

from __future__ import annotations

from typing import Any

from bot.delivery import notices
from bot.delivery.port import GameInfo
from bot.discord_app import formatting
from rules.war import GAME
from rules.war.strategy import choose


def _final_turn() -> tuple[dict[str, Any], list[str]]:
    """War, seed 1, played out by its policy: the public view at the end and the log of
    its last three battles (what the table had not yet been shown: 65 lines)."""
    state = GAME.setup(seed=1)
    while GAME.outcome(state) is None:
        role = GAME.active_roles(state)[0]
        state = GAME.act(state, role, *choose(GAME, GAME.view(state, role)), record_undo=False)
    public = GAME.view(state, None)
    log = [str(line) for line in public["log"]]
    battles = [i for i, line in enumerate(log) if line.startswith("# Battle")]
    return public, log[battles[-3] :]


def test_the_end_post_of_a_long_last_turn_is_short_and_points_to_the_log() -> None:
    public, lines = _final_turn()
    assert sum(len(line) + 1 for line in lines) > 2_000  # the wall it used to be
    news = notices.TurnNews(400, public, tuple(lines), active_now=())
    post = notices.turn_post(GAME, "war", news)
    assert post.kind == "end"
    shown = list(post.log_lines)
    assert shown[-1] == lines[-1] and shown[-1].startswith("# ")  # the result heading
    assert any(line.startswith("Forces alive") for line in shown)
    assert "/game log" in shown[0]
    game = GameInfo(7, "1", "2", "war", GAME.title, "finished", 400, "3", ())
    embed = formatting.table_embed(game, post, with_image=True)
    assert embed is not None and embed.description is not None
    assert len(embed.description) < 1_000


def test_a_short_last_turn_is_posted_whole() -> None:
    public, lines = _final_turn()
    news = notices.TurnNews(400, public, tuple(lines[-4:]), active_now=())
    post = notices.turn_post(GAME, "war", news)
    assert list(post.log_lines) == lines[-4:]
