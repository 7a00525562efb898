"""End-to-end, for every built-in two-sided game (Lincoln included, the day it is
registered): a whole game through Discord by clicks only, each side choosing what its
automated player would. Bob's DMs are closed, so he plays through ``/game hand``; the bot
is restarted mid-game and the prompt that was showing is pressed afterwards. After every
click the channel is checked for anything either side is hiding, and at the end the game
must replay from its record.

War and Fort Sumter also have their own, game-specific whole-game tests; this one makes
sure no game reaches Discord without one.
"""

from __future__ import annotations

import time

import pytest

import rules
from tests.discord.test_discord_controls import press_for
from tests.discord.test_discord_e2e_war import best_prompt, hidden_words
from tests.discord_helpers import catch_errors, current_state, table, version_of

pytestmark = pytest.mark.slow


def strings_in(document: object) -> list[str]:
    """Every text in a view, unescaped (a card name with quotes reads as printed)."""
    if isinstance(document, str):
        return [document]
    if isinstance(document, dict):
        return [t for v in document.values() for t in strings_in(v)]
    if isinstance(document, list):
        return [t for v in document for t in strings_in(v)]
    return []


TWO_SIDED = [name for name in rules.BUILTIN_GAMES if len(rules.get_game(name).roles) == 2]


@pytest.mark.parametrize("name", TWO_SIDED)
async def test_a_whole_game_by_clicks_with_closed_dms_and_a_restart(tmp_path, name):
    game = rules.get_game(name)
    choose = game.automated_player()
    assert choose is not None, f"{name} has no automated player"
    catalogue = {str(c["id"]): str(c.get("name", "")) for c in game.catalogue()}
    seats = dict(zip(game.roles, ("alice", "bob"), strict=True))
    started = time.perf_counter()
    with catch_errors() as errors:
        async with table(tmp_path, "alice", "bob") as t:
            t.emu.fail_dm(t.players["bob"].id)
            await t.start()
            new = await t.slash(
                "alice",
                "game new",
                game=name,
                opponent=t.players["bob"],
                side=game.roles[0],
                seed=7,
            )
            assert "the game is on" in new.text, new.text
            info = await t.bot.manager.game_in_channel(str(t.channel.id))
            assert info is not None
            game_id = info.id
            clicks = 0
            restarted = False
            ever_public: set[str] = set()
            while clicks < 3000:
                info = await t.bot.manager.get_game_info(game_id)
                state = await current_state(t.bot.manager, game_id)
                public_view = "\n".join(strings_in(game.view(state, None)))
                ever_public |= {n for n in catalogue.values() if n and n in public_view}
                hidden = hidden_words(game, state, catalogue, ever_public)
                public = t.public_text()
                leaked = sorted(w for w in hidden if w in public)
                assert leaked == [], f"after {clicks} clicks, hidden in channel: {leaked}"
                if info.status != "active":
                    break
                role = info.active_roles[0]
                who = seats[role]
                prompt = best_prompt(t, who)
                if who == "bob" and (prompt is None or version_of(prompt) != info.version):
                    hand = await t.slash("bob", "game hand")
                    assert hand.ephemeral
                    prompt = best_prompt(t, "bob")
                assert prompt is not None, f"{who} has no prompt at version {info.version}"
                if not restarted and clicks >= 25 and who == "alice":
                    await t.restart()
                    restarted = True
                    assert version_of(t.emu.message(prompt.id)) == version_of(prompt)
                pv = await t.bot.manager.view_for(game_id, str(t.players[who].id), role=role)
                verb, arg = choose(game, pv.view)
                result = await t.press(who, prompt, *press_for(prompt, game_id, verb, arg))
                assert "out of date" not in result.text, (verb, arg)
                clicks += 1
            final = await t.bot.manager.get_game_info(game_id)
            assert final.status == "finished", f"{name} not finished after {clicks} clicks"
            assert restarted
            assert await t.bot.manager.records.verify_replay(game_id)
            channel = t.emu.channel_messages(t.channel.id)
            ends = [m for m in channel if m.content.startswith("Game over")]
            assert len(ends) == 1
            assert t.emu.dms(t.players["bob"].id) == []
            assert t.emu.world.invalid_bodies == []
    assert errors.all_errors() == []
    print(f"\n{name} e2e: {clicks} clicks, {time.perf_counter() - started:.1f}s")
