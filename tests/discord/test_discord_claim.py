"""End to end through the emulator: on a server whose clocks are
claimed, a clock at zero does not end the game; the opponent gets a **Claim the win**
button, once, by DM and at the table; strangers and the late player are refused; the
claim ends the game on time like any end (the Rematch offer); a claim racing the late
player's last-second move ends the game at most once. Time moves by the clock offset."""

from __future__ import annotations

import asyncio

import pytest

from bot.tables.clocks import DAY
from tests.discord.test_discord_e2e import last_prompt
from tests.discord_helpers import table, wait_until

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("discord_guard")]


def _claim_buttons(t, channel_id):
    messages = t.emu.channel_messages(channel_id)
    return [m for m in messages if any(i.startswith("dsp:w:") for i in m.custom_ids())]


def _dm_claims(t, who):
    return [
        m
        for m in t.emu.dms(t.players[who].id)
        if any(i.startswith("dsp:w:") for i in m.custom_ids())
    ]


async def _run_out(t):
    """A fast game on a claim server whose first player's clock has run out and been
    flagged; returns (game info, late player, opponent)."""
    t.players["owner"] = t.emu.owner
    done = await t.slash("owner", "game settings", on_time="claim")
    assert "the opponent may claim the win" in done.text, done.text
    await t.slash("alice", "game new", game="skirmish", opponent=t.players["bob"], clock="fast")
    late, other = "alice", "bob"  # both choose a card at once; bob does, alice does not
    await wait_until(lambda: last_prompt(t, late), what="alice's first prompt")
    prompt = await wait_until(lambda: last_prompt(t, other), what="bob's first prompt")
    await t.press(other, t.emu.message(prompt.id), prompt.custom_ids()[0])
    info = await t.bot.manager.game_in_channel(str(t.channel.id))
    assert info.active_roles == ("north",)
    t.clock_offset += DAY + 60  # the whole day passes without alice's decision
    await wait_until(lambda: _claim_buttons(t, t.channel.id), what="the claim offer")
    return info, late, other


async def test_a_claim_ends_the_game_on_time(tmp_path, db_path):
    async with table(tmp_path, "alice", "bob", "carol", store=db_path) as t:
        await t.start()
        info, late, other = await _run_out(t)
        assert (await t.bot.manager.get_game_info(info.id)).status == "active"
        offer = _claim_buttons(t, t.channel.id)
        assert len(offer) == 1 and "may claim the win" in offer[0].text()
        dm_offer = await wait_until(lambda: _dm_claims(t, other), what="the DM offer")
        assert _dm_claims(t, late) == []  # the late player is offered nothing
        claim_id = f"dsp:w:{info.id}"
        stranger = await t.press("carol", t.emu.message(offer[0].id), claim_id)
        assert "not seated" in stranger.text.lower() or "not playing" in stranger.text.lower(), (
            stranger.text
        )
        own = await t.press(late, t.emu.message(offer[0].id), claim_id)
        assert "nothing to claim" in own.text, own.text
        assert (await t.bot.manager.get_game_info(info.id)).status == "active"

        claimed = await t.press(other, t.emu.message(dm_offer[0].id), claim_id)
        assert "You claimed the win" in claimed.text, claimed.text
        await wait_until(lambda: "the win was claimed" in t.public_text(), what="the end post")
        end = [m for m in t.emu.channel_messages(t.channel.id) if "win was claimed" in m.text()]
        assert len(end) == 1
        assert any(i.startswith(f"dsp:r:{info.id}:") for i in end[0].custom_ids())  # rematch
        async with t.bot.manager.store.read() as db:
            assert (await db.records.result(info.id)).code == "timeout"
        again = await t.press(other, t.emu.message(offer[0].id), claim_id)
        assert "over" in again.text.lower(), again.text  # nothing ends twice
        assert len(_claim_buttons(t, t.channel.id)) == 1  # offered once


async def test_a_claim_racing_the_last_second_move_ends_the_game_at_most_once(tmp_path, db_path):
    async with table(tmp_path, "alice", "bob", store=db_path) as t:
        await t.start()
        info, late, other = await _run_out(t)
        prompt = last_prompt(t, late)
        offer = _claim_buttons(t, t.channel.id)[0]
        clicks = await asyncio.gather(
            t.emu.click(t.players[late], t.emu.message(prompt.id), prompt.custom_ids()[0]),
            t.emu.click(t.players[other], t.emu.message(offer.id), f"dsp:w:{info.id}"),
        )
        for click in clicks:
            await click.response()
        await t.settle()
        await t.bot.manager.deliver_due()
        game = await t.bot.manager.get_game_info(info.id)
        ends = [m for m in t.emu.channel_messages(t.channel.id) if "win was claimed" in m.text()]
        async with t.bot.manager.store.read() as db:
            result = await db.records.result(info.id)
        if game.status == "finished":  # the claim stood (the move came after, or kept the turn)
            assert len(ends) == 1 and result.code == "timeout"
        else:  # the move came first and handed over: the claim was refused
            assert ends == [] and result is None
            assert game.version > info.version
        # Whichever came first, each click was answered and the game ended at most once.
        assert (
            len(
                [
                    m
                    for m in t.emu.channel_messages(t.channel.id)
                    if "ran out of time" in m.text()
                    and m.custom_ids()
                    and any(i.startswith("dsp:r:") for i in m.custom_ids())
                ]
            )
            <= 1
        )
