"""End-to-end: the controls a player clicks. A whole Fort Sumter game
played by clicks, the policy choosing: every button label shows whole (about 38
characters, never cut with "…"), every select option shows its whole text (label, then
description), and Done and Undo always sit alone in the last row, Done first."""

from __future__ import annotations

import pytest

import rules
from bot.discord_app import components as c
from bot.discord_app import custom_ids as ids
from tests.discord.test_discord_e2e_fort_sumter import SEATS, new_game
from tests.discord.test_discord_e2e_war import best_prompt
from tests.discord_helpers import action_components, table, version_of

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("discord_guard")]


def check_controls(message) -> int:
    """Assert the rules above on one prompt message; how many labels were checked."""
    rows = [row for row in message.components if row.get("type") == 1]
    checked = 0
    for row in rows:
        for item in row.get("components", []):
            if item.get("type") == 2:
                label = item.get("label", "")
                assert len(label) <= c.BUTTON_LABEL_MAX and not label.endswith("…"), label
                checked += 1
            elif item.get("type") == 3:
                for option in item.get("options", []):
                    assert not option["label"].endswith("…"), option
                    checked += 1
    verbs = [
        [ids.parse(i["custom_id"]).verb for i in row.get("components", []) if "custom_id" in i]
        for row in rows
    ]
    for number, row in enumerate(verbs):
        controls = [v for v in row if v in c.CONTROLS]
        if controls:
            assert number == len(verbs) - 1, f"Done/Undo not in the last row: {verbs}"
            assert row == sorted(row, key=c.CONTROLS.index) and set(row) <= set(c.CONTROLS)
    return checked


def press_for(message, game_id: int, verb: str, arg):
    """The custom id (and select value) that takes ``verb arg`` on this prompt."""
    version = version_of(message)
    for item in action_components(message):
        if item["type"] == 2 and item["custom_id"] == ids.action_id(game_id, version, verb, arg):
            return item["custom_id"], None
        if item["type"] == 3 and item["custom_id"].startswith(f"dsp:s:{game_id}:{version}:{verb}:"):
            for option in item["options"]:
                if option["value"] == str(arg):
                    return item["custom_id"], option["value"]
    raise AssertionError(f"{verb} {arg} is not on the prompt")


async def click_policy_move(t, game_id: int, adjust=None) -> bool:
    """Whoever must act in this Fort Sumter game clicks what its automated player picks
    (``adjust(view, verb, arg)`` may change it) on their best prompt; False once the game
    is over, with nothing clicked."""
    game = rules.get_game("fort_sumter")
    choose = game.automated_player()
    assert choose is not None
    manager = t.bot.manager
    info = await manager.get_game_info(game_id)
    if info.status != "active":
        return False
    role = info.active_roles[0]
    who = SEATS[role]
    prompt = best_prompt(t, who)
    pv = await manager.view_for(game_id, str(t.players[who].id), role=role)
    verb, arg = choose(game, pv.view)
    if adjust is not None:
        verb, arg = adjust(pv.view, verb, arg)
    await t.press(who, prompt, *press_for(prompt, game_id, verb, arg))
    return True


async def test_labels_show_whole_and_done_undo_stay_last_through_a_whole_game(tmp_path):
    game = rules.get_game("fort_sumter")
    choose = game.automated_player()
    assert choose is not None
    async with table(tmp_path, "alice", "bob") as t:
        await t.start()
        game_id = await new_game(t, seed=11)
        manager = t.bot.manager
        labels = prompts = 0
        for _ in range(400):
            info = await manager.get_game_info(game_id)
            if info.status != "active":
                break
            role = info.active_roles[0]
            who = SEATS[role]
            prompt = best_prompt(t, who)
            assert prompt is not None
            labels += check_controls(prompt)
            prompts += 1
            pv = await manager.view_for(game_id, str(t.players[who].id), role=role)
            verb, arg = choose(game, pv.view)
            await t.press(who, prompt, *press_for(prompt, game_id, verb, arg))
        assert (await manager.get_game_info(game_id)).status == "finished"
        assert prompts > 50 and labels > 300


async def test_the_hand_image_is_uploaded_only_when_the_hand_changed(tmp_path, monkeypatch):
    """A click that leaves the hand as it was keeps the
    picture already on the message; a DM repeats no picture the previous DM showed."""
    from tests.emulator import messages

    uploads: list[bytes] = []
    real = messages.build_attachments

    def counting(world, spec, new_uploads, existing):
        uploads.extend(d for name, d, _ in new_uploads.values() if name.startswith("hand"))
        return real(world, spec, new_uploads, existing)

    monkeypatch.setattr(messages, "build_attachments", counting)
    async with table(tmp_path, "alice", "bob") as t:
        await t.start()
        game_id = await new_game(t, seed=11)
        manager = t.bot.manager
        clicks = 0
        for _ in range(400):
            if not await click_policy_move(t, game_id):
                break
            clicks += 1
        assert (await manager.get_game_info(game_id)).status == "finished"
    distinct = len(set(uploads))
    print(
        f"\nFort Sumter by clicks: {clicks} clicks, {len(uploads)} hand uploads "
        f"({sum(map(len, uploads)) / 1e6:.2f} MB), {distinct} distinct hands"
    )
    assert clicks > 50
    # Before: a hand upload with every click and every DM (145 for these 110 clicks,
    # 1.98 MB). Now only a hand the player was not already shown, on that message or in
    # the previous DM, is uploaded (the game is seeded and played by its policy, so the
    # count is the same on every run: 71).
    assert len(uploads) < 0.7 * clicks
    assert len(uploads) < 2 * distinct
