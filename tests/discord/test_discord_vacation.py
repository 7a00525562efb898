"""End to end through the emulator: ``/game vacation days:`` pauses
the player's clock, the table is told in one line, ``/game status`` shows the vacation's
end to everyone, the deadline passes without a loss on time, ``/game vacation`` ends it
early and gives the unused days back; a server may set the days or turn vacations off.
Time moves by the clock offset; no test sleeps for it."""

from __future__ import annotations

import re

import pytest

from bot.tables.clocks import DAY
from tests.discord.test_discord_e2e import last_prompt
from tests.discord_helpers import table, wait_until

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("discord_guard")]


async def test_a_vacation_pauses_the_clock_and_the_table_sees_it(tmp_path, db_path):
    async with table(tmp_path, "alice", "bob", store=db_path) as t:
        await t.start()
        manager = t.bot.manager
        await t.slash("alice", "game new", game="skirmish", opponent=t.players["bob"], clock="fast")
        await wait_until(lambda: last_prompt(t, "alice"), what="alice's first prompt")
        prompt = await wait_until(lambda: last_prompt(t, "bob"), what="bob's first prompt")
        await t.press("bob", t.emu.message(prompt.id), prompt.custom_ids()[0])
        info = await manager.game_in_channel(str(t.channel.id))
        assert info.active_roles == ("north",)  # alice's clock runs

        too_many = await t.slash("alice", "game vacation", days=15)
        assert too_many.ephemeral and "14 vacation days left" in too_many.text, too_many.text
        away = await t.slash("alice", "game vacation", days=3)
        assert away.ephemeral and "You are on vacation until <t:" in away.text, away.text
        assert "11 vacation days left" in away.text
        await wait_until(lambda: "is on vacation until" in t.public_text(), what="the table told")
        told = [m for m in t.emu.channel_messages(t.channel.id) if "on vacation" in m.text()]
        assert len(told) == 1 and re.search(r"North is on vacation until <t:\d+:f>", told[0].text())

        status = await t.slash("bob", "game status")  # the opponent sees it
        assert re.search(r"on vacation until <t:\d+:R>", status.messages[0].text())

        t.clock_offset += DAY + 60  # past the deadline the clock had before the vacation
        assert await manager.clocks.expire() == 0
        assert (await manager.get_game_info(info.id)).status == "active"

        back = await t.slash("alice", "game vacation")
        assert "Welcome back" in back.text and "counted 2 days" in back.text, back.text
        assert "12 left this year" in back.text
        await wait_until(lambda: "back from vacation" in t.public_text(), what="the return told")
        lines = "\n".join(await manager.clocks.lines(info.id))
        assert "runs out <t:" in lines and "vacation" not in lines
        t.clock_offset += DAY + 60  # now the clock runs: the loss on time comes
        await wait_until(lambda: "ran out of time" in t.public_text(), what="the loss on time")


async def test_a_server_sets_the_vacation_days(tmp_path):
    async with table(tmp_path, "alice", "bob") as t:
        await t.start()
        t.players["owner"] = t.emu.owner
        refused = await t.slash("alice", "game settings", vacation_days=0)
        assert "Manage Channels" in refused.text
        shown = await t.slash("alice", "game settings")
        assert "the player loses" in shown.text and "a year: 14" in shown.text, shown.text
        done = await t.slash("owner", "game settings", vacation_days=0)
        assert "a year: now none" in done.text, done.text
        off = await t.slash("alice", "game vacation", days=1)
        assert off.ephemeral and "turned off" in off.text, off.text
        await t.slash("owner", "game settings", vacation_days=5)
        capped = await t.slash("alice", "game vacation", days=6)
        assert "5 vacation days left" in capped.text, capped.text
