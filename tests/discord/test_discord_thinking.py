"""On Discord a seat of Dispatch's that owes the decision says "Dispatch is thinking…":
in the table post, in the prompt of the player who handed over to it, and in
``/game status``; a person's turn says nothing of the kind."""

from __future__ import annotations

import pytest

from bot.delivery.port import GameInfo, SeatInfo, TablePost
from bot.discord_app import formatting
from bot.dispatch_players.bots import BotSeats
from bot.tables.bot_users import bot_user
from rules.war import GAME
from tests.discord.test_discord_e2e_war import best_prompt
from tests.discord_helpers import catch_errors, choices_of, table

ALICE = "1576410281523806213"
SEATS = (SeatInfo("union", ALICE), SeatInfo("confederate", bot_user("hard")))


def game(*active: str) -> GameInfo:
    return GameInfo(3, "1", "2", "war", GAME.title, "active", 12, ALICE, SEATS, active)


def post(*active: str) -> TablePost:
    return TablePost("turn", 12, "Confederacy to act.", active_roles=active)


def test_the_table_post_says_dispatch_is_thinking_while_it_owes_the_move() -> None:
    text = formatting.table_content(post("confederate"), game("confederate"))
    assert text == "Dispatch (hard) Confederacy to act. Dispatch is thinking…"


def test_a_persons_turn_says_nothing_of_it() -> None:
    text = formatting.table_content(post("union"), game("union"))
    assert "thinking" not in text and f"<@{ALICE}>" in text
    assert formatting.thinking_line(game("union"), ("union",)) == ""
    assert formatting.thinking_line(game("union", "confederate"), ("union", "confederate"))


@pytest.mark.slow
async def test_a_prompt_handed_to_dispatch_and_its_table_post_say_it_thinks(tmp_path) -> None:
    with catch_errors() as errors:
        async with table(tmp_path, "alice") as t:
            await t.start()
            # Dispatch is still thinking, however long the test looks: it never moves.
            BotSeats.of(t.bot.manager).nudge = lambda game_id: None  # type: ignore[method-assign]
            await t.slash(
                "alice",
                "game new",
                game="war",
                opponent=t.emu.bot_user,
                side="union",
                level="hard",
                seed=7,
            )
            for _click in range(8):  # to her Commit (her last placement made for her)
                prompt = best_prompt(t, "alice")
                assert prompt is not None
                choices = [c for c in choices_of(prompt) if ":undo:" not in c[0]]
                done = [c for c in choices if ":done" in c[0]]
                await t.press("alice", prompt, *(done or choices)[0])
                if done:
                    break
            answered = t.emu.message(prompt.id).text()  # the clicked prompt, edited
            assert "Done. Dispatch is thinking… I will tell you" in answered
            posts = t.emu.channel_messages(t.channel.id)
            assert posts[-1].content.endswith("Confederacy to act. Dispatch is thinking…")
    assert errors.discord_errors() == []
