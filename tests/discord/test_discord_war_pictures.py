"""War's hand picture is uploaded when the hand changes, not on every click; and every
picture the bot posts carries alt text made from the turn's words (the attachment's
description), for players who use a screen reader."""

from __future__ import annotations

import random

import pytest

from tests.discord.test_discord_e2e_war import SEATS, best_prompt
from tests.discord_helpers import catch_errors, choices_of, pick, table

pytestmark = pytest.mark.slow


async def play_war(t, seed: int, clicks: int) -> int:
    """Alice and Bob play ``clicks`` seeded random clicks of a War game from their DMs."""
    await t.slash(
        "alice", "game new", game="war", opponent=t.players["bob"], side="union", seed=seed
    )
    info = await t.bot.manager.game_in_channel(str(t.channel.id))
    rng = random.Random(seed)
    for _click in range(clicks):
        info = await t.bot.manager.get_game_info(info.id)
        if info.status != "active":
            break
        who = SEATS[rng.choice(info.active_roles)]
        prompt = best_prompt(t, who)
        assert prompt is not None
        await t.press(who, prompt, *pick(choices_of(prompt), rng))
    return info.id


async def test_a_war_hand_is_uploaded_once_a_battle(tmp_path):
    with catch_errors() as errors_seen:
        async with table(tmp_path, "alice", "bob") as t:
            await t.start()
            game_id = await play_war(t, seed=7, clicks=60)
            dms = {t.emu.world.dm_channels[p.id].id for p in t.players.values()}
            hands = [u for u in t.emu.world.uploads if u[0] in dms and u[1].startswith("hand-")]
            state = await t.bot.manager.view_for(game_id, None)
            battles = int(state.view.get("battle", 0))
            print(f"{len(hands)} hand uploads over {battles} battles")
            # One hand a battle for each side (its three reinforcements), and the first.
            assert len(hands) <= 2 * (battles + 1)
    assert errors_seen.all_errors() == []


async def test_every_picture_carries_alt_text_from_the_turns_words(tmp_path):
    with catch_errors() as errors_seen:
        async with table(tmp_path, "alice", "bob") as t:
            await t.start()
            await play_war(t, seed=5, clicks=12)
            await t.slash("alice", "game board")
            posts = t.emu.channel_messages(t.channel.id, include_ephemeral=True)
            dms = [m for p in t.players.values() for m in t.emu.dms(p.id)]
            pictures = [(m, a) for m in posts + dms for a in m.attachments]
            assert len(pictures) > 5
            for _message, picture in pictures:
                assert picture.description, f"{picture.filename} has no alt text"
                assert len(picture.description) <= 1024
            boards = [(m, a) for m, a in pictures if a.filename == "board.png"]
            for _message, board in boards:
                assert board.description.startswith("Board of War Between the States (#1): ")
            # A turn's board reads out the turn's news, as its post shows it.
            news = [(m, a) for m, a in boards if "commits 3 reinforcements" in m.text()]
            assert news and all("commits 3 reinforcements" in a.description for _m, a in news)
            hands = [a for _m, a in pictures if a.filename.startswith("hand-")]
            assert hands and all(a.description.startswith("Your hand in War") for a in hands)
            assert all("Cards: " in a.description for a in hands)
    assert errors_seen.all_errors() == []
