"""End-to-end: the words players read. A Fort Sumter game played to the
end through the bot, read as the channel sees it: headings as headings, repeated lines
counted once, counts in words, side names as names, and the score in the posts, in
``/game status`` and beside the board of ``/game board``."""

from __future__ import annotations

import itertools
import re

import pytest

import rules
from bot.tables.requests import Move
from tests.discord.test_discord_e2e_fort_sumter import SEATS, new_game
from tests.discord_helpers import table

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("discord_guard")]


async def test_posts_read_as_words_with_the_score_everywhere(tmp_path):
    game = rules.get_game("fort_sumter")
    choose = game.automated_player()
    assert choose is not None
    async with table(tmp_path, "alice", "bob") as t:
        await t.start()
        game_id = await new_game(t, seed=7)
        manager = t.bot.manager
        middle_checked = False
        for _ in range(400):
            info = await manager.get_game_info(game_id)
            if info.status != "active":
                break
            role = info.active_roles[0]
            user = str(t.players[SEATS[role]].id)
            pv = await manager.view_for(game_id, user, role=role)
            verb, arg = choose(game, pv.view)
            await manager.act(game_id, user, Move(verb, arg, pv.version, role=role))
            if not middle_checked and pv.version > 20:
                middle_checked = True
                status = await t.slash("alice", "game status")
                assert re.search(r"Unionist \d+ · Secessionist \d+", status.text), status.text
                board = await t.slash("bob", "game board")
                assert board.messages[-1].attachments, "the board image is still there"
                assert "Score:" in board.text and "Unionist" in board.text
                assert board.messages[-1].content.strip(), "not a bare image"
        assert (await manager.get_game_info(game_id)).status == "finished"

        posts = [m for m in t.emu.channel_messages(t.channel.id) if not m.ephemeral]
        text = "\n".join(m.text() for m in posts)
        assert "**Round 1**" in text and "\\#" not in text and "# Round" not in text
        assert "(s)" not in text
        assert "(×" in text  # some placements repeat a line: counted once
        for message in posts:
            lines = [x for x in message.text().split("\n") if x.strip()]
            repeats = [a for a, b in itertools.pairwise(lines) if a == b]
            assert repeats == [], repeats
        turn_posts = [m for m in posts if "to act" in m.content]
        assert turn_posts and all("Score:" in m.text() for m in turn_posts)
        end = posts[-1].text()
        assert re.search(r"Unionist \d+ · Secessionist \d+", end), end
        assert "unionist " not in end and "secessionist " not in end


async def test_one_notification_per_hand_over_where_each_player_chose(tmp_path):
    game = rules.get_game("fort_sumter")
    choose = game.automated_player()
    assert choose is not None
    async with table(tmp_path, "alice", "bob") as t:
        await t.start()
        answer = await t.slash("alice", "game settings", notify="channel")
        assert "mention in the game's channel" in answer.text
        game_id = await new_game(t, seed=7)
        manager = t.bot.manager
        alice, bob = t.players["alice"].id, t.players["bob"].id
        handovers = 0
        for _ in range(400):
            info = await manager.get_game_info(game_id)
            if info.status != "active":
                break
            role = info.active_roles[0]
            actor = t.players[SEATS[role]].id
            before_posts = len(t.emu.channel_messages(t.channel.id))
            before_dms = {u: len(t.emu.dms(u)) for u in (alice, bob)}
            pv = await manager.view_for(game_id, str(actor), role=role)
            await manager.act(
                game_id, str(actor), Move(*choose(game, pv.view), pv.version, role=role)
            )
            after = await manager.get_game_info(game_id)
            new_posts = t.emu.channel_messages(t.channel.id)[before_posts:]
            pinged = [u for m in new_posts for u in m.pinged]
            turn_dms = {
                u: [m for m in t.emu.dms(u)[before_dms[u] :] if "Your turn" in m.text()]
                for u in (alice, bob)
            }
            if after.status == "active":  # (the end pings everyone: it concerns them all)
                assert actor not in pinged, "the player who just acted was pinged"
                assert bob not in pinged, "bob chose DMs"
            waited = {t.players[SEATS[r]].id for r in info.active_roles}
            newly = {t.players[SEATS[r]].id for r in after.active_roles} - waited - {actor}
            if after.status == "active" and newly:
                handovers += 1
                for user in newly:
                    told = pinged.count(user) + len(turn_dms[user])
                    assert told == 1, f"{user} told {told} times"
                    assert (user in pinged) == (user == alice)
        assert handovers > 10
