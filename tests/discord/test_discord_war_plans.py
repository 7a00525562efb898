"""A War battle placed in one menu: the first placement prompt offers every whole
placement (the view's ``plans``) as one select, each applied as its three small
placements in order; undo still takes back one card."""

from __future__ import annotations

import pytest

import rules
from bot.discord_app import components as c
from bot.discord_app import custom_ids as ids
from bot.discord_app import prompts
from tests.discord.test_discord_e2e_war import best_prompt
from tests.discord_helpers import action_components, catch_errors, table

GAME = rules.get_game("war")


def test_the_rules_list_every_whole_placement_before_the_first_card_only() -> None:
    state = GAME.setup(seed=7, options={})
    view = GAME.view(state, "union")
    plans = view["plans"]["place"]
    assert len(plans) == 6 and len({tuple(p) for p in plans}) == 6
    assert all([arg.split(":")[0] for arg in p] == ["left", "centre", "right"] for p in plans)
    assert all(set(p) <= set(view["actions"]["place"]) for p in plans)
    assert "plans" not in GAME.view(state, None)  # the hand is the side's own
    state = GAME.act(state, "union", "place", plans[0][0])
    assert GAME.view(state, "union")["plans"] == {}


def test_plans_become_one_select_whose_options_carry_their_args() -> None:
    view = {
        "actions": {"place": ["left:A", "centre:A", "left:B", "centre:B"]},
        "labels": {"place": {"left:A": "A → Left", "centre:B": "B → Centre"}},
        "plans": {"place": [["left:A", "centre:B"], ["left:B", "centre:A"]]},
    }
    rows = prompts.build_prompt_view(4, 2, view).view.to_components()
    items = [item for row in rows for item in row["components"]]
    [plan] = [item for item in items if item["type"] == 3]
    assert ids.parse(plan["custom_id"]).part == c.PLAN_PART
    assert len(items) == 5  # the four placements one by one are still there
    assert [o["value"] for o in plan["options"]] == ["left:A+centre:B", "left:B+centre:A"]
    assert plan["options"][0]["label"] == "A → Left · B → Centre"
    assert c.plan_args("left:A+centre:B") == ["left:A", "centre:B"]


@pytest.mark.slow
async def test_a_battle_is_placed_in_one_menu(tmp_path) -> None:
    with catch_errors() as errors:
        async with table(tmp_path, "alice", "bob") as t:
            await t.start()
            await t.slash(
                "alice", "game new", game="war", opponent=t.players["bob"], side="union", seed=7
            )
            info = await t.bot.manager.game_in_channel(str(t.channel.id))
            prompt = best_prompt(t, "alice")
            assert prompt is not None
            [plan] = [
                item
                for item in action_components(prompt)
                if item["type"] == 3 and ids.parse(item["custom_id"]).part == c.PLAN_PART
            ]
            chosen = plan["options"][0]["value"]
            await t.press("alice", prompt, plan["custom_id"], chosen)
            async with t.bot.manager.store.read() as db:
                played = await db.actions(info.id)
            assert [(a.verb, a.arg) for a in played] == [("place", a) for a in c.plan_args(chosen)]
            after = t.emu.message(prompt.id)
            verbs = {ids.parse(i["custom_id"]).verb for i in action_components(after)}
            assert verbs == {"done", "undo"}  # Commit next, or take back one card
    assert errors.discord_errors() == []
