"""``/game status`` and ``/game board`` answer the asker alone, with a button that shows
the look to the table."""

from __future__ import annotations

import pytest

from bot.discord_app import custom_ids as ids
from tests.discord.test_discord_e2e_fort_sumter import new_game
from tests.discord_helpers import catch_errors, table

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("command", ["status", "board"])
async def test_a_look_is_ephemeral_and_can_be_shown_to_the_table(tmp_path, command):
    with catch_errors() as errors_seen:
        async with table(tmp_path, "alice", "bob", "carol") as t:
            await t.start()
            game_id = await new_game(t, seed=5)
            posts = len(t.emu.channel_messages(t.channel.id))
            look = await t.slash("carol", f"game {command}")  # an onlooker may look too
            [answer] = look.messages
            assert answer.ephemeral and "Unionist" in answer.text()
            assert len([m for m in t.emu.channel_messages(t.channel.id) if not m.ephemeral]) == (
                len([m for m in t.emu.channel_messages(t.channel.id)[:posts] if not m.ephemeral])
            ), "the look was posted to the channel"
            assert answer.custom_ids() == [ids.show_id(game_id, command)]

            shown = await t.press("carol", answer, ids.show_id(game_id, command))
            public = [m for m in t.emu.channel_messages(t.channel.id) if not m.ephemeral]
            post = public[-1]
            assert post.id in [m.id for m in shown.messages] and not post.ephemeral
            assert t.players["carol"].mention in post.content and post.pinged == []
            assert "Unionist" in post.text()
            # The board is the one the start post shows: linked to, not uploaded again.
            assert post.attachments == [] and "latest post" in post.text()
            done = t.emu.message(answer.id)
            assert done.custom_ids() == [] and "Shown to the table" in done.text()
    assert errors_seen.all_errors() == []


async def test_a_show_button_of_another_channel_is_refused(tmp_path):
    with catch_errors() as errors_seen:
        async with table(tmp_path, "alice", "bob") as t:
            await t.start()
            game_id = await new_game(t, seed=5)
            look = await t.slash("alice", "game board")
            [answer] = look.messages
            other = t.emu.add_text_channel(t.guild, "elsewhere")
            answer.channel_id = other.id
            refused = await t.press("alice", answer, ids.show_id(game_id, "board"))
            assert "another channel" in refused.text and refused.messages[-1].ephemeral
    assert errors_seen.all_errors() == []


def test_the_show_id_round_trips_and_refuses_other_looks() -> None:
    parsed = ids.parse(ids.show_id(7, "status"))
    assert (parsed.kind, parsed.game_id) == ("show", 7)
    with pytest.raises(ids.BadCustomId):
        ids.show_id(7, "hand")
    assert not ids.is_ours("dsp:t:7:hand")


async def test_a_double_click_on_show_posts_the_look_once(tmp_path):
    """Found in review: two presses before the first removed the button (a double click,
    or two devices) each posted the look to the table."""
    with catch_errors() as errors_seen:
        async with table(tmp_path, "alice", "bob") as t:
            await t.start()
            game_id = await new_game(t, seed=5)
            look = await t.slash("alice", "game status")
            [answer] = look.messages
            before = len([m for m in t.emu.channel_messages(t.channel.id) if not m.ephemeral])
            user, cid = t.players["alice"], ids.show_id(game_id, "status")
            first = await t.emu.click(user, answer, cid)
            second = await t.emu.click(user, answer, cid)
            await first.response()
            await second.response()
            await t.settle()
            public = [m for m in t.emu.channel_messages(t.channel.id) if not m.ephemeral]
            assert len(public) == before + 1
            assert "already" in second.text.lower(), second.text
    assert errors_seen.all_errors() == []
