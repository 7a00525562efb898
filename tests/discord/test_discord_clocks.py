"""End-to-end through the emulator: a game on a ``fast`` clock shows
its clocks in the prompt and in /game status as Discord timestamps, times out when the
clock is moved past the deadline, says so in the end post (with the Rematch offer), and
refuses the loser's late click politely."""

from __future__ import annotations

import re

import pytest

from bot.tables.clocks import DAY
from tests.discord.test_discord_e2e import last_prompt
from tests.discord_helpers import table, wait_until

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("discord_guard")]


async def test_a_fast_game_times_out_and_the_late_click_is_refused(tmp_path, db_path):
    async with table(tmp_path, "alice", "bob", store=db_path) as t:
        await t.start()
        result = await t.slash(
            "alice", "game new", game="skirmish", opponent=t.players["bob"], clock="fast"
        )
        assert "Clock: 1d+12h/3d" in result.text
        info = await t.bot.manager.game_in_channel(str(t.channel.id))
        await t.emu.wait_for_messages(t.channel, 1, responses=False)
        who = {"north": "alice", "south": "bob"}[info.active_roles[0]]
        prompt = await wait_until(lambda: last_prompt(t, who), what="the first prompt")
        assert re.search(r"runs out <t:\d+:R>", prompt.text()), prompt.text()

        status = await t.slash(who, "game status")
        assert re.search(r"<t:\d+:R>", status.messages[0].text()), status.messages[0].text()

        t.clock_offset += DAY + 60  # the whole day passes without a decision
        late = prompt.custom_ids()[0]
        answer = await t.press(who, t.emu.message(prompt.id), late)
        assert "your time ran out" in answer.text, answer.text

        await wait_until(lambda: "ran out of time" in t.public_text(), what="the end post on time")
        end = [m for m in t.emu.channel_messages(t.channel.id) if "ran out of time" in m.text()]
        assert len(end) == 1  # announced once
        assert any(i.startswith(f"dsp:r:{info.id}:") for i in end[0].custom_ids())
        async with t.bot.manager.store.read() as db:
            assert (await db.records.result(info.id)).code == "timeout"
        assert (await t.bot.manager.get_game_info(info.id)).version == info.version


async def test_the_clock_option_suggests_presets_and_refuses_nonsense(tmp_path):
    async with table(tmp_path, "alice", "bob") as t:
        await t.start()
        alice = t.players["alice"]
        offered = await t.emu.autocomplete(alice, t.channel, "game new", game="skirmish", clock="")
        assert [c["value"] for c in offered] == ["none", "relaxed", "standard", "fast"]
        assert "3d+1d/7d" in offered[2]["name"]
        typed = await t.emu.autocomplete(
            alice, t.channel, "game new", game="skirmish", clock="2h+1h/4h"
        )
        assert typed[0]["value"] == "2h+1h/4h"
        refused = await t.slash(
            "alice", "game new", game="skirmish", opponent=t.players["bob"], clock="soon"
        )
        assert refused.ephemeral and "A clock is none, relaxed" in refused.text
        assert await t.bot.manager.game_in_channel(str(t.channel.id)) is None


async def test_a_server_default_clock_is_a_moderators_setting(tmp_path):
    async with table(tmp_path, "alice", "bob") as t:
        await t.start()
        t.players["owner"] = t.emu.owner
        refused = await t.slash("alice", "game settings", clock_default="fast")
        assert "Manage Channels" in refused.text
        nonsense = await t.slash("owner", "game settings", clock_default="soon")
        assert "A clock is none, relaxed" in nonsense.text
        shown = await t.slash("alice", "game settings")
        assert "new games on this server is none" in shown.text
        done = await t.slash("owner", "game settings", clock_default="standard")
        assert "new games on this server is now 3d+1d/7d" in done.text
        await t.slash("alice", "game new", game="skirmish", opponent=t.players["bob"])
        info = await t.bot.manager.game_in_channel(str(t.channel.id))
        assert any("runs out <t:" in line for line in await t.bot.manager.clocks.lines(info.id))
