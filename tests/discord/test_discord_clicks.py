"""End-to-end: few clicks. A decision of several small parts is one
interaction: a multi-choice select sends every token of a value play at once, the manager
applies them as separate small actions in one transaction (all or nothing; undo still takes
back one), and the formal Done after the last token is sent for the player.

The whole-game test plays Fort Sumter by its automated player through Discord, choosing as
many spaces in one select as the player would have chosen one after another, and prints
the clicks per game next to the actions the game recorded: before this change every
action was a click of its own.
"""

from __future__ import annotations

import copy
import re

import pytest

import rules
from bot import errors
from bot.tables.requests import Move
from rules.fort_sumter.cards import STRATEGY
from tests.discord.test_discord_controls import press_for
from tests.discord.test_discord_e2e_fort_sumter import SEATS, new_game
from tests.discord.test_discord_e2e_war import best_prompt
from tests.discord_helpers import action_components, current_state, table, version_of

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("strict_guard")]

GAME = rules.get_game("fort_sumter")


def planned_batch(state: dict, role: str, verb: str, arg, limit: int) -> list:
    """The args of ``verb`` the automated player would choose one after another, starting
    with ``arg``: at most ``limit``, no repeats (a select offers each option once)."""
    choose = GAME.automated_player()
    assert choose is not None
    plan = [arg]
    most = {str(arg): GAME.view(state, role)["repeats"].get(verb, {}).get(str(arg), 1)}
    sim = copy.deepcopy(state)
    sim = GAME.act(sim, role, verb, arg, record_undo=False)
    while len(plan) < limit and role in GAME.active_roles(sim):
        view = GAME.view(sim, role)
        if view["done_implied"]:
            break
        next_verb, next_arg = choose(GAME, view)
        key = str(next_arg)
        most.setdefault(key, view["repeats"].get(verb, {}).get(key, 1))
        if next_verb != verb or list(map(str, plan)).count(key) >= most[key]:
            break
        plan.append(next_arg)
        sim = GAME.act(sim, role, verb, next_arg, record_undo=False)
    return plan


def option_values(plan: list) -> list[str]:
    """The option values that pick ``plan``: a 2nd pick of "texas" is "texas|2"."""
    seen: dict[str, int] = {}
    values = []
    for arg in map(str, plan):
        seen[arg] = seen.get(arg, 0) + 1
        values.append(arg if seen[arg] == 1 else f"{arg}|{seen[arg]}")
    return values


def multi_select_for(message, game_id: int, verb: str, values: list[str]) -> str:
    version = version_of(message)
    for item in action_components(message):
        if item["type"] == 3 and item["custom_id"].startswith(f"dsp:s:{game_id}:{version}:{verb}:"):
            offered = {o["value"] for o in item["options"]}
            if set(values) <= offered:
                assert item["max_values"] >= len(values), item
                return item["custom_id"]
    raise AssertionError(f"no select offers {verb} {values}")


async def to_card_play(manager, game_id: int, t) -> None:
    """Both objectives kept by their first choice, through the manager."""
    for _ in range(10):
        state = await manager.records.replay(game_id)
        if state["step"] == "play_cards":
            return
        for role in GAME.active_roles(state):
            verb, args = next(iter(GAME.view(state, role)["actions"].items()))
            arg = args[0] if isinstance(args, list) else None
            await manager.act(game_id, str(t.players[SEATS[role]].id), Move(verb, arg, role=role))
    raise AssertionError("never reached card play")


async def test_a_value_play_of_three_takes_two_clicks(tmp_path):
    async with table(tmp_path, "alice", "bob") as t:
        await t.start()
        game_id = await new_game(t, seed=5)
        manager = t.bot.manager
        await to_card_play(manager, game_id, t)
        state = await manager.records.replay(game_id)
        role = state["turn"]
        who = SEATS[role]
        card = next(c for c in state["hands"][role] if STRATEGY[c].value >= 3)
        before = await manager.get_game_info(game_id)
        prompt = best_prompt(t, who)
        await t.press(who, prompt, *press_for(prompt, game_id, "value", card))  # click 1
        prompt = t.emu.message(prompt.id)  # edited in place with the placement prompt
        # A prompt about places shows the board, its choices ringed.
        # Beside it, the ringed spaces close up for a phone.
        board, closeup = sorted(a.filename for a in prompt.attachments)
        assert re.fullmatch(r"board-[0-9a-f]{12}\.png", board), board
        assert re.fullmatch(r"closeup-[0-9a-f]{12}\.png", closeup), closeup
        assert prompt.embeds[0]["image"]["url"] == f"attachment://{board}"
        spaces = GAME.view(await manager.records.replay(game_id), role)["actions"]["place"][:3]
        select = multi_select_for(prompt, game_id, "place", option_values(spaces))
        await t.press_many(who, prompt, select, option_values(spaces))  # click 2
        after = await manager.records.replay(game_id)
        assert GAME.active_roles(after) == (GAME.opponent(role),)
        for space in set(spaces):
            assert after["spaces"][space][role] == state["spaces"][space][role] + 1
        info = await manager.get_game_info(game_id)
        # value, place x3, and the Done sent for the player: five small actions, 2 clicks
        assert info.version == before.version + 5
        async with manager.store.read() as db:
            verbs = [a.verb for a in await db.actions(game_id)][-5:]
        assert verbs == ["value", "place", "place", "place", "done"]
        assert await manager.records.verify_replay(game_id)
        edited = t.emu.message(prompt.id)
        assert not action_components(edited), "the finished prompt still shows controls"


async def test_a_batch_is_all_or_nothing_and_undo_takes_back_one_token(tmp_path):
    async with table(tmp_path, "alice", "bob") as t:
        await t.start()
        game_id = await new_game(t, seed=5)
        manager = t.bot.manager
        await to_card_play(manager, game_id, t)
        state = await manager.records.replay(game_id)
        role = state["turn"]
        uid = str(t.players[SEATS[role]].id)
        card = next(c for c in state["hands"][role] if STRATEGY[c].value >= 3)
        await manager.act(game_id, uid, Move("value", card))
        spaces = GAME.view(await manager.records.replay(game_id), role)["actions"]["place"]
        version = (await manager.get_game_info(game_id)).version
        with pytest.raises(errors.IllegalMove, match="nothing changed"):
            await manager.act(
                game_id, uid, Move("place", spaces[0], version, more=[spaces[1], "mars"])
            )
        assert (await manager.get_game_info(game_id)).version == version
        assert (await manager.records.replay(game_id))["value_play"]["left"] >= 3
        await manager.act(game_id, uid, Move("place", spaces[0], version, more=[spaces[1]]))
        assert (await manager.get_game_info(game_id)).version == version + 2
        await manager.undo(game_id, uid)
        after = await manager.records.replay(game_id)
        assert after["spaces"][spaces[0]][role] == state["spaces"][spaces[0]][role] + 1
        assert after["spaces"][spaces[1]][role] == state["spaces"][spaces[1]][role]
        assert after["value_play"]["left"] == STRATEGY[card].value - 1


async def test_whole_game_clicks_before_and_after(tmp_path):
    choose = GAME.automated_player()
    assert choose is not None
    async with table(tmp_path, "alice", "bob") as t:
        await t.start()
        game_id = await new_game(t, seed=11)
        manager = t.bot.manager
        clicks = value_plays = batched = card_plays = 0
        most_clicks_for_a_value_play = 0
        for _ in range(400):
            info = await manager.get_game_info(game_id)
            if info.status != "active":
                break
            state = await manager.records.replay(game_id)
            role = info.active_roles[0]
            who = SEATS[role]
            prompt = best_prompt(t, who)
            assert prompt is not None
            view = GAME.view(state, role)
            verb, arg = choose(GAME, view)
            if verb == "event" and "value" in view["actions"] and card_plays % 2:
                # every other card for its value, the highest value in hand
                arg = max(view["actions"]["value"], key=lambda c: (STRATEGY[c].value, c))
                verb = "value"
            card_plays += verb in ("event", "value")
            limit = view["batch"].get(verb, 1)
            plan = planned_batch(state, role, verb, arg, limit) if limit > 1 else [arg]
            if len(plan) > 1:
                values = option_values(plan)
                select = multi_select_for(prompt, game_id, verb, values)
                await t.press_many(who, prompt, select, values)
                batched += 1
            else:
                await t.press(who, prompt, *press_for(prompt, game_id, verb, arg))
            clicks += 1
            if verb == "value":
                value_plays += 1
                started, left = clicks, True
                while left:
                    now = await current_state(manager, game_id)
                    left = now["step"] == "value_play" and role in GAME.active_roles(now)
                    if not left:
                        break
                    prompt = best_prompt(t, who)
                    view = GAME.view(now, role)
                    verb2, arg2 = choose(GAME, view)
                    plan = planned_batch(now, role, verb2, arg2, view["batch"].get(verb2, 1))
                    if len(plan) > 1:
                        values = option_values(plan)
                        select = multi_select_for(prompt, game_id, verb2, values)
                        await t.press_many(who, prompt, select, values)
                        batched += 1
                    else:
                        await t.press(who, prompt, *press_for(prompt, game_id, verb2, arg2))
                    clicks += 1
                most_clicks_for_a_value_play = max(
                    most_clicks_for_a_value_play, clicks - started + 1
                )
        final = await manager.get_game_info(game_id)
        assert final.status == "finished"
        assert await manager.records.verify_replay(game_id)
    # Before this change every recorded action was a click (Done included).
    print(
        f"\nFort Sumter (seed 11, automated players): {final.version} actions; "
        f"clicks per game before {final.version}, after {clicks}; "
        f"{batched} multi-choice selects; {value_plays} value plays, "
        f"at most {most_clicks_for_a_value_play} clicks each"
    )
    assert batched >= 10 and value_plays >= 5
    assert most_clicks_for_a_value_play <= 2
    assert clicks < 0.8 * final.version
