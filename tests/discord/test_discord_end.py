"""End-to-end: the end of a game. Both players are pinged by the last
post, which carries the board, the score and the reason; each player's prompt is closed
by a DM with their result; Rematch makes one new game however many times it is pressed."""

from __future__ import annotations

import random
import re

import pytest

from tests.discord.test_discord_e2e import last_prompt, start_game
from tests.discord_helpers import choices_of, pick, table

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("discord_guard")]


async def play_to_the_end(t, game_id: int) -> None:
    rng = random.Random(4)
    seats = {"north": "alice", "south": "bob"}
    for _ in range(100):
        info = await t.bot.manager.get_game_info(game_id)
        if info.status != "active":
            return
        who = seats[info.active_roles[0]]
        prompt = last_prompt(t, who)
        await t.press(who, prompt, *pick(choices_of(prompt), rng))
    raise AssertionError("the game did not end")


async def test_the_end_pings_both_closes_each_prompt_and_offers_one_rematch(tmp_path):
    async with table(tmp_path, "alice", "bob") as t:
        game_id = await start_game(t, seed=3, rounds=1)
        await play_to_the_end(t, game_id)
        alice, bob = t.players["alice"].id, t.players["bob"].id
        end = t.emu.channel_messages(t.channel.id)[-1]
        assert "Game over" in end.content
        assert sorted(end.pinged) == sorted([alice, bob])
        result = end.text()  # the test game draws no board; War and Fort Sumter's e2e do
        assert "more tokens" in result  # the reason
        assert re.search(r"North \d+ · South \d+", result), result  # the score, by side
        info = await t.bot.manager.get_game_info(game_id)
        for uid in (alice, bob):
            last = t.emu.dms(uid)[-1]
            assert "Game over: you" in last.text(), last.text()
            assert not last.custom_ids()  # nothing live left in the DM
        assert info.status == "finished"

        rematch = [i for i in end.custom_ids() if i.startswith("dsp:r:")]
        assert sorted(rematch) == sorted(f"dsp:r:{game_id}:{s}" for s in ("same", "swap", "random"))
        first = await t.press("bob", end, f"dsp:r:{game_id}:same")
        second = await t.press("alice", end, f"dsp:r:{game_id}:swap")
        again = await t.press("bob", end, f"dsp:r:{game_id}:same")
        new = await t.bot.manager.game_in_channel(str(t.channel.id))
        assert new is not None and new.id != game_id and new.status == "active"
        for answer in (first, second, again):
            assert f"game #{new.id}" in answer.text
        async with t.bot.manager.store.read() as db:
            rows = await db._all("SELECT id FROM games WHERE rematch_of = ?", (game_id,))
        assert len(rows) == 1  # one new game, however many presses
        seats = {s.role: s.user_id for s in new.seats}
        assert seats == {"north": str(alice), "south": str(bob)}  # same sides
