"""The main end-to-end test: a whole game of War Between the States through Discord.

Two members play by slash commands and component clicks only (a seeded random pick among
the offered components). Bob's DMs are closed, so he plays through ``/game hand``; the bot
is restarted mid-game and an old button from before the restart is pressed. At every step
the channel's whole public text is checked for the cards either side is hiding.
"""

from __future__ import annotations

import json
import random
import re
import time

import pytest

import rules
from tests.discord_helpers import (
    Table,
    action_components,
    catch_errors,
    choices_of,
    current_state,
    pick,
    table,
    version_of,
)

pytestmark = pytest.mark.slow

SEATS = {"union": "alice", "confederate": "bob"}


def best_prompt(t: Table, who: str):
    """The freshest message with action components that ``who`` can see."""
    uid = t.players[who].id
    msgs = [t.emu.message(m.id) for m in t.emu.dms(uid) + t.emu.ephemeral_replies(uid)]
    msgs = [m for m in msgs if action_components(m)]
    return max(msgs, key=lambda m: (version_of(m), m.id)) if msgs else None


def hidden_words(
    game: rules.Game, state: dict, catalogue: dict[str, str], ever_public: set[str]
) -> set[str]:
    """Ids of every card some side is hiding now, and the names of those never yet seen.

    A name is only evidence of a leak while its card has never been public: a card that
    fought in an earlier battle is named in that battle's log, and may be back in a hand
    by now without anything having leaked.
    """
    ids = set().union(*(game.secrets(state, r) for r in game.roles))
    words = set(ids)
    names_of_secret = {catalogue[i] for i in ids if i in catalogue}
    names_elsewhere = {n for i, n in catalogue.items() if i not in ids}
    words |= {n for n in names_of_secret - names_elsewhere - ever_public if len(n) > 3}
    return words


async def test_whole_war_game_by_clicks_with_closed_dms_and_a_restart(tmp_path, db_path):
    game = rules.get_game("war")
    catalogue = {str(c["id"]): str(c.get("name", "")) for c in game.catalogue()}
    rng = random.Random(1861)
    started = time.perf_counter()
    with catch_errors() as errors:
        async with table(tmp_path, "alice", "bob", store=db_path) as t:
            t.emu.fail_dm(t.players["bob"].id)
            await t.start()
            new = await t.slash(
                "alice", "game new", game="war", opponent=t.players["bob"], side="union", seed=7
            )
            assert "the game is on" in new.text
            info = await t.bot.manager.game_in_channel(str(t.channel.id))
            game_id = info.id
            actions = 0
            restarted = False
            stale_answers = 0
            ever_public: set[str] = set()
            while actions < 1000:
                info = await t.bot.manager.get_game_info(game_id)
                state = await current_state(t.bot.manager, game_id)
                public = t.public_text()
                public_view = json.dumps(game.view(state, None))
                # A name as JSON writes it: 'Thomas J. "Stonewall" Jackson' has escaped
                # quotes there, and was never counted public however often it was.
                ever_public |= {n for n in catalogue.values() if json.dumps(n)[1:-1] in public_view}
                hidden = hidden_words(game, state, catalogue, ever_public)
                leaked = sorted(w for w in hidden if w in public)
                assert leaked == [], f"after {actions} actions, hidden in channel: {leaked}"
                if info.status != "active":
                    break
                role = rng.choice(info.active_roles)
                who = SEATS[role]
                prompt = best_prompt(t, who)
                if who == "bob" and (prompt is None or version_of(prompt) != info.version):
                    hand = await t.slash("bob", "game hand")
                    assert hand.ephemeral
                    prompt = best_prompt(t, "bob")
                assert prompt is not None, f"{who} has no prompt at version {info.version}"

                if not restarted and actions >= 40 and who == "alice":
                    # Restart with this (current) prompt unpressed, then press it.
                    await t.restart()
                    restarted = True
                    assert version_of(t.emu.message(prompt.id)) == version_of(prompt)

                choice = pick(choices_of(prompt), rng)
                result = await t.press(who, prompt, *choice)
                if "out of date" in result.text:
                    stale_answers += 1
                    continue
                actions += 1

            final = await t.bot.manager.get_game_info(game_id)
            assert final.status == "finished", f"not finished after {actions} actions"
            assert restarted
            assert await t.bot.manager.records.verify_replay(game_id)
            channel = t.emu.channel_messages(t.channel.id)
            ends = [m for m in channel if m.content.startswith("Game over")]
            assert len(ends) == 1 and "Result" in ends[0].text()
            notices = [m for m in channel if "/game hand" in m.content]
            assert len(notices) == 1 and f"<@{t.players['bob'].id}>" in notices[0].content
            assert t.emu.dms(t.players["bob"].id) == []
            assert t.emu.dms(t.players["alice"].id)
            # Turn posts carry the board as attachment://board.png; prompts carry the hand.
            boards = [m for m in channel if [a.filename for a in m.attachments] == ["board.png"]]
            assert len(boards) >= 10
            assert all(m.embeds[0]["image"]["url"] == "attachment://board.png" for m in boards)
            hands = [
                m
                for m in t.emu.dms(t.players["alice"].id)
                + t.emu.ephemeral_replies(t.players["bob"].id)
                if any(re.fullmatch(r"hand-[0-9a-f]{12}\.png", a.filename) for a in m.attachments)
            ]
            assert hands
            for record in t.emu.interactions:
                assert record.callback_type is not None
                assert record.ack_latency is not None and record.ack_latency < 3.0
    assert errors.discord_errors() == []
    elapsed = time.perf_counter() - started
    print(f"war e2e: {actions} actions, {stale_answers} stale answers, {elapsed:.1f}s")
