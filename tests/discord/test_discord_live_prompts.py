"""End-to-end: no live-looking stale button anywhere.

Whenever a player's prompt is superseded (a newer DM, an answer given by command or from
an ephemeral prompt, an undo, the end, an abandon), the message holding it is edited: its
buttons removed and a line saying why, or replaced by the current prompt. Checked after
every click of a whole Fort Sumter game with a restart in the middle: each player has at
most one DM with buttons, its buttons are for their current decision, and none once the
game is over.
"""

from __future__ import annotations

import pytest

import rules
from tests.discord.test_discord_controls import click_policy_move, press_for
from tests.discord.test_discord_e2e_fort_sumter import SEATS, new_game
from tests.discord.test_discord_e2e_war import best_prompt
from tests.discord_helpers import (
    action_components,
    choices_of,
    current_state,
    table,
    version_of,
    wait_until,
)

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("strict_guard")]

GAME = rules.get_game("fort_sumter")


def dm_prompts(t, who: str) -> list:
    """Every DM of ``who`` that still shows action buttons or selects."""
    uid = t.players[who].id
    return [m for m in (t.emu.message(d.id) for d in t.emu.dms(uid)) if action_components(m)]


async def check_live(t, game_id: int) -> None:
    manager = t.bot.manager
    state = await current_state(manager, game_id)
    info = await manager.get_game_info(game_id)
    for role, who in SEATS.items():
        live = dm_prompts(t, who)
        assert len(live) <= 1, f"{who} has {len(live)} DMs with buttons"
        actions = GAME.view(state, role)["actions"] if info.status == "active" else {}
        if not actions:
            assert live == [], f"{who} has nothing to decide but a DM still shows buttons"
            continue
        for message in live:
            # The buttons are for the decision the player faces now: pressing one works.
            pv = await manager.view_for(game_id, str(t.players[who].id), role=role)
            assert version_of(message) is not None
            shown = {c.get("custom_id") for c in action_components(message)}
            assert any(f":{v}:" in cid for cid in shown for v in pv.view["actions"]), shown


async def test_no_stale_button_looks_live_through_a_whole_game(tmp_path):
    choose = GAME.automated_player()
    assert choose is not None
    async with table(tmp_path, "alice", "bob") as t:
        await t.start()
        game_id = await new_game(t, seed=11)
        manager = t.bot.manager
        closed_seen = False
        for click in range(400):
            info = await manager.get_game_info(game_id)
            if info.status != "active":
                break
            if click == 20:
                await t.restart()
                manager = t.bot.manager
            role = info.active_roles[0]
            who = SEATS[role]
            if click in (10, 31):
                # Answered from /game hand's ephemeral prompt: the DM prompt is closed.
                await t.slash(who, "game hand")
            prompt = best_prompt(t, who)
            pv = await manager.view_for(game_id, str(t.players[who].id), role=role)
            verb, arg = choose(GAME, pv.view)
            await t.press(who, prompt, *press_for(prompt, game_id, verb, arg))
            await check_live(t, game_id)
            closed_seen |= any(
                (t.emu.message(d.id).content or "").startswith("Closed:")
                for d in t.emu.dms(t.players[who].id)
            )
        assert (await manager.get_game_info(game_id)).status == "finished"
        await check_live(t, game_id)
        assert closed_seen, "no prompt was ever closed"
        for who in SEATS.values():
            assert dm_prompts(t, who) == []
        async with manager.store.read() as db:
            assert await db.prompts.live_prompts(game_id) == {}


async def test_undo_by_command_replaces_the_dm_prompt(tmp_path):
    async with table(tmp_path, "alice", "bob") as t:
        await t.start()
        game_id = await new_game(t, seed=5)
        manager = t.bot.manager
        # Both keep an objective, through their DMs.
        for who in ("alice", "bob"):
            prompt = best_prompt(t, who)
            custom_id, value = choices_of(prompt)[0]
            await t.press(who, prompt, custom_id, value)
        state = await current_state(manager, game_id)
        role = state["turn"]
        who = SEATS[role]
        prompt = best_prompt(t, who)
        card = state["hands"][role][0]
        await t.press(who, prompt, *press_for(prompt, game_id, "value", card))
        undone = await t.slash(who, "game undo")
        assert undone.ephemeral and "Undone" in undone.text
        info = await manager.get_game_info(game_id)
        await wait_until(
            lambda: version_of(t.emu.message(prompt.id)) == info.version,
            what="the DM prompt to show the current decision",
        )
        (live,) = dm_prompts(t, who)
        assert live.id == prompt.id
        assert version_of(live) == info.version, "the DM still shows the buttons from before"
        assert any(":value:" in c["custom_id"] for c in action_components(live))
        await check_live(t, game_id)


async def test_abandon_closes_every_prompt(tmp_path):
    async with table(tmp_path, "alice", "bob") as t:
        await t.start()
        game_id = await new_game(t, seed=5)
        assert dm_prompts(t, "alice") and dm_prompts(t, "bob")
        await t.slash("alice", "game abandon")
        await t.slash("bob", "game abandon")
        await t.settle()
        assert (await t.bot.manager.get_game_info(game_id)).status == "abandoned"
        for who in ("alice", "bob"):
            assert dm_prompts(t, who) == []
            closed = [t.emu.message(d.id) for d in t.emu.dms(t.players[who].id)]
            note = "Closed: this game was abandoned"
            assert any((m.content or "").startswith(note) for m in closed)


def closed_with_nothing_below(t, who: str) -> list[int]:
    """DMs of ``who`` that say a newer message below has the prompt while none follows."""
    dms = [t.emu.message(d.id) for d in t.emu.dms(t.players[who].id)]
    return [
        m.id
        for i, m in enumerate(dms)
        if (m.content or "").startswith("Closed: a newer message below") and i == len(dms) - 1
    ]


async def test_an_answered_dm_is_not_closed_as_superseded(tmp_path):
    """The DM a player just answered, with nothing left to decide, says
    "Done", not "a newer message below has your current prompt" with nothing below."""
    async with table(tmp_path, "alice", "bob") as t:
        await t.start()
        game_id = await new_game(t, seed=11)
        for _click in range(30):
            if not await click_policy_move(t, game_id):
                break
            for name in SEATS.values():
                assert closed_with_nothing_below(t, name) == [], f"{name}'s last DM says so"
