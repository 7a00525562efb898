"""A click whose move is applied but whose message cannot be edited.

Found by careful play: when editing the clicked DM failed, the error line in the server
log named the button's custom id (``dsp:a:1:2:place:left:U48``, the face-down card), and
the player was told "nothing was changed" although the move had been applied. Now no
log line carries a custom id's argument, and the reply says the move was made.

Each game is brought to the decision by its automated player through the manager (fast),
then the decision is pressed through Discord with the edit of the clicked message made
to fail, for War ``place``, Lincoln's face-down battle card and ``pay``, and Fort Sumter
``event``.
"""

from __future__ import annotations

import logging
from typing import Any

import pytest

import rules
from bot.discord_app import custom_ids as ids
from bot.tables.requests import Move
from tests.discord.test_discord_controls import press_for
from tests.discord.test_discord_e2e_war import best_prompt
from tests.discord_helpers import table, version_of

EDIT_CLICKED = "PATCH /webhooks/*/messages/@original"

CASES = [
    ("war", "place", ""),
    ("lincoln", "card", "face down"),
    ("lincoln", "pay", ""),
    ("fort_sumter", "event", ""),
]


def wanted(view: dict[str, Any], verb: str, prompt_has: str) -> bool:
    return verb in (view.get("actions") or {}) and prompt_has in str(view.get("prompt", ""))


def first_arg(view: dict[str, Any], verb: str) -> Any:
    choices = view["actions"][verb]
    return choices[0] if isinstance(choices, list) else choices


def log_text(records: list[logging.LogRecord]) -> str:
    handler = logging.Handler()
    handler.setFormatter(logging.Formatter("%(name)s %(message)s"))
    return "\n".join(handler.format(r) for r in records)


@pytest.mark.parametrize(("name", "verb", "prompt_has"), CASES)
async def test_a_move_whose_message_cannot_be_edited_is_reported_as_made_and_never_logged(
    tmp_path: Any, caplog: pytest.LogCaptureFixture, name: str, verb: str, prompt_has: str
) -> None:
    game = rules.get_game(name)
    choose = game.automated_player()
    assert choose is not None
    caplog.set_level(logging.INFO)
    caplog.set_level(logging.DEBUG, logger="dispatch")
    async with table(tmp_path, "alice", "bob") as t:
        await t.start()
        seats = dict(zip(game.roles, ("alice", "bob"), strict=True))
        new = await t.slash(
            "alice", "game new", game=name, opponent=t.players["bob"], side=game.roles[0], seed=1
        )
        assert "the game is on" in new.text, new.text
        manager = t.bot.manager
        info = await manager.game_in_channel(str(t.channel.id))
        game_id = info.id
        for _ in range(200):
            info = await manager.get_game_info(game_id)
            role = info.active_roles[0]
            uid = str(t.players[seats[role]].id)
            pv = await manager.view_for(game_id, uid, role=role)
            if wanted(pv.view, verb, prompt_has):
                break
            await manager.act(game_id, uid, Move(*choose(game, pv.view), pv.version, role=role))
        else:
            raise AssertionError(f"{name} never asked for {verb}")
        who = seats[role]
        await t.slash(who, "game hand")
        prompt = best_prompt(t, who)
        assert prompt is not None and version_of(prompt) == pv.version
        arg = first_arg(pv.view, verb)
        custom_id, value = press_for(prompt, game_id, verb, arg)
        caplog.clear()
        t.emu.fail_next(EDIT_CLICKED, status=404, code=10008, message="Unknown Message")
        result = await t.press(who, prompt, custom_id, value)
        said = "\n".join(m.text() for m in await result.followups(1))
        after = await manager.get_game_info(game_id)
    assert after.version > pv.version  # the move was applied
    assert "nothing was changed" not in said
    assert "move was made" in said and "/game hand" in said
    logged = log_text(caplog.records)
    assert "answering it failed" in logged  # the failure itself is logged, without the id
    assert ids.action_id(game_id, pv.version, verb, arg) not in logged
    assert f":{verb}:{ids.encode_arg(arg)}" not in logged
    assert str(arg) not in logged, logged


def test_a_log_line_shows_only_a_custom_ids_form_and_game() -> None:
    """The unrecognised-component warning and the error line use ``id_label``."""
    from bot.discord_app.interactions import id_label

    assert id_label("dsp:a:1:2:place:left:U48") == "dsp:a:1"
    assert id_label("dsp:s:1:2:card:0") == "dsp:s:1"
    assert "U48" not in id_label("forged:U48:" + "x" * 200)
