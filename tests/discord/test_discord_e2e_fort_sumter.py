"""End-to-end: Fort Sumter through Discord, the way two members would play it.

The main test plays a whole game (three rounds, the Final Crisis, final scoring) by slash
commands and component clicks only, picking among the offered components with a seeded
random generator. Bob's DMs are closed, so he plays through ``/game hand``; the bot is
restarted during the first round's card play and a button from before the restart is
pressed. After every action the channel's whole public text is checked for what either
side is hiding: hands, kept objectives (and the offered pair), set-aside cards and the
Final Crisis orders.

Two focused tests: the simultaneous objective choice from each player's own prompt in
either order (the table post after it names no objective), and the optional Event Discard
rule chosen at ``/game new``.
"""

from __future__ import annotations

import json
import random
import re
import time

import pytest

import rules
from rules.fort_sumter.cards import OBJECTIVES
from tests.discord.test_discord_e2e_war import best_prompt, hidden_words
from tests.discord_helpers import (
    Table,
    catch_errors,
    choices_of,
    current_state,
    pick,
    table,
    version_of,
    wait_until,
)
from tests.emulator.state import PATIENCE_S

pytestmark = pytest.mark.slow

SEATS = {"unionist": "alice", "secessionist": "bob"}
ROLE_OF = {who: role for role, who in SEATS.items()}


async def new_game(t: Table, *, seed: int, options: str | None = None) -> int:
    """Alice opens a Fort Sumter game as the Unionist with Bob seated; the game id."""
    extra = {"options": options} if options is not None else {}
    result = await t.slash(
        "alice",
        "game new",
        game="fort_sumter",
        opponent=t.players["bob"],
        side="unionist",
        seed=seed,
        **extra,
    )
    assert "the game is on" in result.text, result.text
    info = await t.bot.manager.game_in_channel(str(t.channel.id))
    assert info is not None
    return info.id


def assert_nothing_hidden(
    game: rules.Game,
    state: dict,
    catalogue: dict[str, str],
    ever_public: set[str],
    public: str,
    when: str,
) -> None:
    hidden = hidden_words(game, state, catalogue, ever_public)
    leaked = sorted(w for w in hidden if w in public)
    assert leaked == [], f"{when}, hidden in channel: {leaked}"


# ------------------------------------------------------------------ the whole game


async def test_whole_fort_sumter_game_by_clicks_with_closed_dms_and_a_restart(tmp_path, db_path):
    game = rules.get_game("fort_sumter")
    catalogue = {str(c["id"]): str(c.get("name", "")) for c in game.catalogue()}
    rng = random.Random(1860)
    started = time.perf_counter()
    with catch_errors() as errors:
        async with table(tmp_path, "alice", "bob", store=db_path) as t:
            t.emu.fail_dm(t.players["bob"].id)
            await t.start()
            game_id = await new_game(t, seed=1861)
            actions = 0
            stale_answers = 0
            hand_commands = 0
            restarted = False
            pressed_after_restart = None
            steps_seen: set[str] = set()
            ever_public: set[str] = set()
            most_hidden_names = 0
            while actions < 1500:
                info = await t.bot.manager.get_game_info(game_id)
                state = await current_state(t.bot.manager, game_id)
                steps_seen.add(str(state.get("step")))
                public_view = json.dumps(game.view(state, None))
                ever_public |= {n for n in catalogue.values() if n in public_view}
                names = hidden_words(game, state, catalogue, ever_public) - set(catalogue)
                most_hidden_names = max(most_hidden_names, len(names))
                assert_nothing_hidden(
                    game,
                    state,
                    catalogue,
                    ever_public,
                    t.public_text(),
                    f"after {actions} actions (step {state.get('step')})",
                )
                if info.status != "active":
                    break
                role = rng.choice(info.active_roles)
                who = SEATS[role]
                prompt = best_prompt(t, who)
                if who == "bob" and (prompt is None or version_of(prompt) != info.version):
                    hand = await t.slash("bob", "game hand")
                    assert hand.ephemeral, "/game hand must answer privately"
                    hand_commands += 1
                    prompt = best_prompt(t, "bob")
                assert prompt is not None, f"{who} has no prompt at version {info.version}"

                if (
                    not restarted
                    and who == "alice"
                    and state["round"] == 1
                    and state["step"] == "play_cards"
                    and state["played"]["unionist"] + state["played"]["secessionist"] >= 1
                ):
                    # Objectives kept, card play under way: restart with Alice's current
                    # DM prompt unpressed, then press a button from before the restart.
                    before = version_of(prompt)
                    await t.restart()
                    restarted = True
                    assert version_of(t.emu.message(prompt.id)) == before
                    pressed_after_restart = (actions, info.version)

                choice = pick(choices_of(prompt), rng)
                result = await t.press(who, prompt, *choice)
                if "out of date" in result.text:
                    stale_answers += 1
                    assert pressed_after_restart is None or pressed_after_restart[0] != actions, (
                        "the button pressed after the restart was refused as out of date"
                    )
                    continue
                if pressed_after_restart is not None and pressed_after_restart[0] == actions:
                    moved = await t.bot.manager.get_game_info(game_id)
                    assert moved.version > pressed_after_restart[1], (
                        "the button from before the restart did nothing"
                    )
                actions += 1

            final = await t.bot.manager.get_game_info(game_id)
            assert final.status == "finished", f"not finished after {actions} actions"
            assert restarted and pressed_after_restart is not None
            assert most_hidden_names >= 8, "the leak check never looked for hidden card names"
            state = await t.bot.manager.records.replay(game_id)
            outcome = game.outcome(state)
            assert outcome is not None and state["phase"] == "over"
            assert state["round"] == 3
            assert {"choose_objective", "play_cards", "final_crisis_order"} <= steps_seen
            assert await t.bot.manager.records.verify_replay(game_id)

            channel = t.emu.channel_messages(t.channel.id)
            last = channel[-1]
            assert last.content.startswith("Game over"), last.content
            winner = game.role_name(outcome["winner"])
            assert f"{winner} wins" in last.content
            assert outcome["reason"] in last.content
            assert "Result" in last.text() and outcome["reason"] in last.text()
            assert f"<@{t.players[SEATS[outcome['winner']]].id}>" in last.text()
            assert [a.filename for a in last.attachments] == ["board.png"]
            assert last.embeds[0]["image"]["url"] == "attachment://board.png"
            ends = [m for m in channel if m.content.startswith("Game over")]
            assert len(ends) == 1
            # Bob was told once, in the channel, to use /game hand; nothing was DMed to him.
            notices = [m for m in channel if "/game hand" in m.content]
            assert len(notices) == 1 and f"<@{t.players['bob'].id}>" in notices[0].content
            assert t.emu.dms(t.players["bob"].id) == []
            assert t.emu.dms(t.players["alice"].id)
            bob_hands = [
                m
                for m in t.emu.ephemeral_replies(t.players["bob"].id)
                if any(re.fullmatch(r"hand-[0-9a-f]{12}\.png", a.filename) for a in m.attachments)
            ]
            assert bob_hands, "Bob's /game hand answers carry no hand image"
            for record in t.emu.interactions:
                assert record.callback_type is not None
                assert record.ack_latency is not None and record.ack_latency < 3.0
    assert errors.discord_errors() == []
    elapsed = time.perf_counter() - started
    print(
        f"fort sumter e2e: {actions} actions, {stale_answers} stale answers, "
        f"{hand_commands} /game hand, {elapsed:.1f}s"
    )


# ------------------------------------------------------- the simultaneous objective


def objective_prompt(t: Table, who: str):
    """``who``'s own DM prompt offering ``keep`` (the first one they were sent)."""
    for message in t.emu.dms(t.players[who].id):
        message = t.emu.message(message.id)
        if any(":keep:" in cid for cid, _ in choices_of(message)):
            return message
    return None


@pytest.mark.parametrize("order", [("alice", "bob"), ("bob", "alice")])
async def test_both_keep_an_objective_from_their_own_prompts_in_either_order(tmp_path, order):
    with catch_errors() as errors:
        async with table(tmp_path, "alice", "bob") as t:
            await t.start()
            game_id = await new_game(t, seed=5)
            await t.settle()
            state = await t.bot.manager.records.replay(game_id)
            assert state["step"] == "choose_objective"
            offers = {r: list(state["objective_offer"][r]) for r in SEATS}
            prompts = {}
            for who in order:
                prompts[who] = await _wait_for(lambda w=who: objective_prompt(t, w), who)
            [start_post] = [
                m for m in t.emu.channel_messages(t.channel.id) if "begins" in m.content
            ]

            kept = {}
            for n, who in enumerate(order):
                keeps = [c for c in choices_of(prompts[who]) if ":keep:" in c[0]]
                assert len(keeps) == 2, f"{who} should be offered two objectives: {keeps}"
                custom_id, value = keeps[n % 2]
                result = await t.press(who, prompts[who], custom_id, value)
                assert "out of date" not in result.text, (
                    f"{who}'s own objective prompt was refused after the other side chose"
                )
                state = await current_state(t.bot.manager, game_id)
                role = ROLE_OF[who]
                assert state["objective"][role] in offers[role]
                kept[role] = state["objective"][role]
            assert state["step"] == "play_cards", state["step"]

            first = state["turn"]
            first_user = t.players[SEATS[first]]
            after = [
                m
                for m in t.emu.channel_messages(t.channel.id)
                if m.id > start_post.id and not m.interaction_id
            ]
            assert after, "no table post after both kept an objective"
            post = after[-1]
            assert f"<@{first_user.id}>" in post.content, (
                f"the table post does not mention the first player: {post.content!r}"
            )
            other_user = t.players[SEATS["secessionist" if first == "unionist" else "unionist"]]
            assert f"<@{other_user.id}>" not in post.content
            text = post.text()
            assert [a.filename for a in post.attachments] == ["board.png"]
            # Neither the kept objectives nor the ones sent back may be named (their titles
            # are also space names, but this post has no reason to name a space).
            for card in {c for r in SEATS for c in offers[r]}:
                title, body = OBJECTIVES[card].title, OBJECTIVES[card].text
                assert title not in text, f"table post names objective {title!r}: {text!r}"
                assert body not in text, f"table post shows objective text {body!r}"
            # The whole channel, too: nothing either side hides.
            game = rules.get_game("fort_sumter")
            catalogue = {str(c["id"]): str(c.get("name", "")) for c in game.catalogue()}
            public_view = json.dumps(game.view(state, None))
            ever = {n for n in catalogue.values() if n in public_view}
            assert_nothing_hidden(game, state, catalogue, ever, t.public_text(), "after keep")
    assert errors.discord_errors() == []


async def _wait_for(predicate, who: str):
    return await wait_until(predicate, PATIENCE_S, f"{who}'s objective prompt")


# ------------------------------------------------------------------ Event Discard


async def test_event_discard_option_chosen_at_game_new(tmp_path):
    with catch_errors() as errors:
        async with table(tmp_path, "alice", "bob") as t:
            await t.start()
            choices = await t.emu.autocomplete(
                t.players["alice"], t.channel, "game new", game="fort_sumter", options=""
            )
            assert any(c["value"] == "event_discard=false" for c in choices), choices
            game_id = await new_game(t, seed=9, options="event_discard=true")
            state = await t.bot.manager.records.replay(game_id)
            assert state["options"]["event_discard"] is True
            assert rules.get_game("fort_sumter").view(state, None)["options"] == {
                "event_discard": True,
                "fate": "",
            }
            assert await t.bot.manager.records.verify_replay(game_id)
    assert errors.discord_errors() == []


async def test_event_discard_is_off_by_default(tmp_path):
    async with table(tmp_path, "alice", "bob") as t:
        await t.start()
        game_id = await new_game(t, seed=9)
        state = await t.bot.manager.records.replay(game_id)
        assert state["options"]["event_discard"] is False
