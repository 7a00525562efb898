"""End-to-end: the real discord.py bot against the loopback emulator, on a small test game.

What the bot must withstand, one test each: restarts (old buttons still work), stale and
double clicks, races, forged ids, strangers, closed DMs, rate limits and outages, and
never leaking hidden information to the channel. The whole War game is played in
``test_discord_e2e_war.py``.
"""

from __future__ import annotations

import asyncio
import copy
import json
import random

import pytest

from bot.discord_app import custom_ids as ids
from tests.discord_helpers import (
    Table,
    action_components,
    choices_of,
    pick,
    poll,
    register_test_game,
    table,
    version_of,
)
from tests.emulator import CommandError
from tests.emulator.state import PATIENCE_S

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("discord_guard")]


def assert_all_answered(t: Table, limit: float = 3.0) -> None:
    for record in t.emu.interactions:
        assert record.callback_type is not None, f"unanswered: {record.payload.get('data')}"
        assert record.ack_latency is not None and record.ack_latency < limit


async def start_game(t: Table, seed: int = 3, rounds: int = 3) -> int:
    await t.start()
    result = await t.slash(
        "alice",
        "game new",
        game="skirmish",
        opponent=t.players["bob"],
        seed=seed,
        options=f"rounds={rounds}",
    )
    assert "the game is on" in result.text
    # A chosen seed reveals hidden cards to whoever knows it: it is announced to all.
    assert f"Seed {seed} was chosen" in result.text and not result.ephemeral
    [post] = await t.emu.wait_for_messages(t.channel, 1, responses=False)
    assert "begins" in post.content
    info = await t.bot.manager.game_in_channel(str(t.channel.id))
    return info.id


def last_prompt(t: Table, who: str):
    """The newest message carrying action buttons that ``who`` can see (DM or ephemeral)."""
    uid = t.players[who].id
    msgs = t.emu.dms(uid) + t.emu.ephemeral_replies(uid)
    msgs = [t.emu.message(m.id) for m in msgs]
    with_actions = [m for m in msgs if action_components(m)]
    return max(with_actions, key=lambda m: m.id) if with_actions else None


async def state_of(t: Table, game_id: int) -> dict:
    return await t.bot.manager.records.replay(game_id)


# ----------------------------------------------------------------------------------


async def test_lobby_join_button_starts_the_game(tmp_path):
    async with table(tmp_path, "alice", "bob") as t:
        await t.start()
        result = await t.slash("alice", "game new", game="skirmish", side="south")
        [lobby] = result.messages
        assert lobby.button_labels() == ["Join as North"]
        join = lobby.custom_ids()[0]
        await t.press("bob", lobby, join)
        lobby = t.emu.message(lobby.id)
        assert "the game is on" in lobby.content and lobby.custom_ids() == []
        posts = await t.emu.wait_for_messages(t.channel, 1, responses=False)
        assert "begins" in posts[0].content
        assert f"<@{t.players['alice'].id}>" in posts[0].content
        for who in ("alice", "bob"):
            assert last_prompt(t, who) is not None
        # A second game in the same channel is refused clearly.
        again = await t.slash("bob", "game new", game="skirmish")
        assert "already has a game" in again.text
        assert len(again.messages) == 1  # answered once, not by two error handlers
        assert again.ephemeral
        assert_all_answered(t)


async def test_two_players_race_for_the_last_seat(tmp_path, db_path):
    async with table(tmp_path, "alice", "bob", "carol", store=db_path) as t:
        await t.start()
        result = await t.slash("alice", "game new", game="skirmish")
        [lobby] = result.messages
        join = lobby.custom_ids()[0]
        clicks = await asyncio.gather(
            t.emu.click(t.players["bob"], lobby, join), t.emu.click(t.players["carol"], lobby, join)
        )
        for r in clicks:
            await r.response()
        await t.settle()
        info = await t.bot.manager.game_in_channel(str(t.channel.id))
        assert info.status == "active" and len(info.seats) == 2
        texts = " ".join(m.text() for r in clicks for m in r.messages)
        assert "already" in texts or "not started" in texts or "under way" in texts
        assert_all_answered(t)


async def test_old_button_works_after_restart(tmp_path):
    async with table(tmp_path, "alice", "bob") as t:
        game_id = await start_game(t)
        prompt = last_prompt(t, "alice")
        await t.restart()  # a NEW client on the same SQLite file and emulator
        cid, value = choices_of(prompt)[0]
        await t.press("alice", prompt, cid, value)
        state = await state_of(t, game_id)
        assert state["chosen"]["north"] == ids.parse(cid).arg
        edited = t.emu.message(prompt.id)
        assert "You chose" in edited.text()
        assert_all_answered(t)


async def test_stale_button_says_out_of_date_with_fresh_buttons(tmp_path):
    async with table(tmp_path, "alice", "bob") as t:
        game_id = await start_game(t, seed=5)
        # Play round 1 so the winner has a muster prompt (place, place, done).
        for who in ("alice", "bob"):
            p = last_prompt(t, who)
            await t.press(who, p, *choices_of(p)[0])
        state = await state_of(t, game_id)
        winner = {"north": "alice", "south": "bob"}[state["winner"]]
        prompt = last_prompt(t, winner)
        version = version_of(prompt)
        old_components = copy.deepcopy(prompt.components)
        place = next(ch for ch in choices_of(prompt) if ch[0].startswith("dsp:s:"))
        await t.press(winner, prompt, *place)  # place a token: edits the same message
        assert version_of(t.emu.message(prompt.id)) == version + 1
        assert "1 of 2 placed" in t.emu.message(prompt.id).text()
        # Now press the old component again, on a copy of the message as it was.
        stale_msg = t.emu.inject_message(
            t.emu.dm_channel(t.players[winner]), "old", components=old_components
        )
        result = await t.press(winner, stale_msg, *place)
        texts = [m.text() for m in result.messages]
        assert any("This prompt is out of date" in x for x in texts)
        fresh = [m for m in result.messages if action_components(m)]
        assert fresh and version_of(fresh[-1]) == version + 1
        assert (await state_of(t, game_id))["placed"] == 1
        assert_all_answered(t)


async def test_double_click_changes_state_once(tmp_path, db_path):
    async with table(tmp_path, "alice", "bob", store=db_path) as t:
        game_id = await start_game(t)
        prompt = last_prompt(t, "alice")
        cid, _ = choices_of(prompt)[0]
        before = (await t.bot.manager.get_game_info(game_id)).version
        first, second = await asyncio.gather(
            t.emu.click(t.players["alice"], prompt, cid),
            t.emu.click(t.players["alice"], prompt, cid),
        )
        await first.response()
        await second.response()
        await t.settle()
        after = (await t.bot.manager.get_game_info(game_id)).version
        assert after == before + 1
        exported = await t.bot.manager.records.export(game_id)
        assert len(exported["actions"]) == 1
        texts = " ".join(m.text() for r in (first, second) for m in r.messages)
        assert "out of date" in texts
        assert_all_answered(t)


async def test_forged_and_foreign_ids_are_answered_politely(tmp_path):
    async with table(tmp_path, "alice", "bob", "mallory") as t:
        game_id = await start_game(t)
        version = (await t.bot.manager.get_game_info(game_id)).version
        forged = {
            ids.action_id(game_id, version, "card", "K99"): "not possible",
            ids.action_id(game_id, version, "teleport"): "not possible",
            ids.action_id(9999, 0, "done"): "not found",
            "dsp:a:1:x:oops": "not recognised",
            "somebody-elses-button": "not recognised",
        }
        dm = t.emu.dm_channel(t.players["alice"])
        before = await state_of(t, game_id)
        for cid, expected in forged.items():
            button = {"type": 2, "style": 1, "label": "Go", "custom_id": cid}
            msg = t.emu.inject_message(
                dm, "forged", components=[{"type": 1, "components": [button]}]
            )
            result = await t.press("alice", msg, cid)
            assert expected in result.text.lower(), (cid, result.text)
        assert await state_of(t, game_id) == before
        # A stranger presses the table's "My prompt" button and a player's stale action.
        [post] = [m for m in t.emu.channel_messages(t.channel.id) if m.custom_ids()]
        result = await t.press("mallory", post, post.custom_ids()[0])
        assert "not playing" in result.text
        stranger = await t.slash("mallory", "game hand")
        assert "not playing" in stranger.text and stranger.ephemeral
        assert len(stranger.messages) == 1
        assert_all_answered(t)


async def test_a_player_not_to_act_is_told_so(tmp_path):
    async with table(tmp_path, "alice", "bob") as t:
        game_id = await start_game(t, seed=5)
        for who in ("alice", "bob"):
            p = last_prompt(t, who)
            await t.press(who, p, *choices_of(p)[0])
        state = await state_of(t, game_id)
        loser = {"north": "bob", "south": "alice"}[state["winner"]]
        version = (await t.bot.manager.get_game_info(game_id)).version
        cid = ids.action_id(game_id, version, "done")
        button = {"type": 2, "style": 1, "label": "Done", "custom_id": cid}
        msg = t.emu.inject_message(
            t.emu.dm_channel(t.players[loser]),
            "x",
            components=[{"type": 1, "components": [button]}],
        )
        result = await t.press(loser, msg, cid)
        assert "not your turn" in result.text.lower()
        assert (await t.bot.manager.get_game_info(game_id)).version == version
        assert_all_answered(t)


async def test_closed_dms_play_through_game_hand_and_channel_told_once(tmp_path):
    async with table(tmp_path, "alice", "bob") as t:
        t.emu.fail_dm(t.players["bob"].id)
        game_id = await start_game(t, seed=11)
        rng = random.Random(1)
        for _ in range(200):
            info = await t.bot.manager.get_game_info(game_id)
            if info.status != "active":
                break
            for role in info.active_roles:
                who = {"north": "alice", "south": "bob"}[role]
                if who == "bob":
                    hand = await t.slash("bob", "game hand")
                    assert hand.ephemeral
                    prompt = [m for m in hand.messages if action_components(m)][-1]
                else:
                    prompt = last_prompt(t, who)
                await t.press(who, prompt, *pick(choices_of(prompt), rng))
                break
        assert (await t.bot.manager.get_game_info(game_id)).status == "finished"
        notices = [m for m in t.emu.channel_messages(t.channel.id) if "/game hand" in m.content]
        assert len(notices) == 1
        assert f"<@{t.players['bob'].id}>" in notices[0].content
        assert t.emu.dms(t.players["bob"].id) == []
        # One refused DM, then no more attempts (not retried each turn).
        dm_channel = t.emu.world.dm_channels[t.players["bob"].id].id
        refused = [r for r in t.emu.requests if f"/channels/{dm_channel}/messages" in r.path]
        assert len(refused) == 1 and refused[0].status == 403
        assert_all_answered(t)


async def test_rate_limits_and_outages_on_channel_posts_are_retried(tmp_path):
    async with table(tmp_path, "alice", "bob") as t:
        game_id = await start_game(t)
        posts_before = len(t.emu.channel_messages(t.channel.id))
        t.emu.rate_limit_next("POST /channels/*/messages", retry_after=0.05, count=2)
        t.emu.fail_next("POST /channels/*/messages", status=503, count=2)
        for who in ("alice", "bob"):
            p = last_prompt(t, who)
            await t.press(who, p, *choices_of(p)[0])
        state = await state_of(t, game_id)
        winner = {"north": "alice", "south": "bob"}[state["winner"]]

        def muster_prompt():
            # The winner's DM may itself be waiting out the injected 503s: wait for it.
            p = last_prompt(t, winner)
            return p if p and any(":done:" in ch[0] for ch in choices_of(p)) else None

        await t.emu.world.wait_until(muster_prompt, PATIENCE_S, "the winner's muster prompt")
        p = muster_prompt()
        await t.press(winner, p, next(ch for ch in choices_of(p) if ":done:" in ch[0])[0])

        # The round ended: its table post went through after the 429s and the 503s.
        def round_post() -> list:
            new = t.emu.channel_messages(t.channel.id)[posts_before:]
            return [m for m in new if "Round 1:" in m.text()]

        await t.emu.world.wait_until(round_post, PATIENCE_S, "the retried post")
        assert len(round_post()) == 1
        assert any(r.status == 503 for r in t.emu.requests)
        assert any(r.status == 429 for r in t.emu.requests)

        async def all_delivered() -> bool:  # everything queued is delivered, nothing lost
            async with t.bot.manager.store.read() as db:
                return not await db.outbox.undelivered(game_id)

        await poll(all_delivered, "every outbox row delivered")
        assert len(round_post()) == 1
        assert_all_answered(t)


async def test_nothing_hidden_reaches_the_channel_in_a_whole_game(tmp_path, db_path):
    game = register_test_game()
    async with table(tmp_path, "alice", "bob", store=db_path) as t:
        game_id = await start_game(t, seed=21, rounds=4)
        rng = random.Random(7)
        seats = {"north": "alice", "south": "bob"}
        steps = 0
        while steps < 200:
            state = await state_of(t, game_id)
            hidden = set().union(*(game.secrets(state, r) for r in game.roles))
            public = t.public_text()
            leaked = [s for s in hidden if s in public]
            assert leaked == [], f"hidden cards in the channel: {leaked}"
            info = await t.bot.manager.get_game_info(game_id)
            if info.status != "active":
                break
            role = info.active_roles[0]
            prompt = last_prompt(t, seats[role])
            await t.press(seats[role], prompt, *pick(choices_of(prompt), rng))
            steps += 1
        assert (await t.bot.manager.get_game_info(game_id)).status == "finished"
        end = t.emu.channel_messages(t.channel.id)[-1]
        assert "Game over" in end.content and "Result" in end.text()
        assert await t.bot.manager.records.verify_replay(game_id)
        assert_all_answered(t)


async def test_commands_status_log_export_settings_undo_resign(tmp_path):
    async with table(tmp_path, "alice", "bob") as t:
        game_id = await start_game(t, seed=5)
        for who in ("alice", "bob"):
            p = last_prompt(t, who)
            await t.press(who, p, *choices_of(p)[0])
        state = await state_of(t, game_id)
        winner = {"north": "alice", "south": "bob"}[state["winner"]]
        p = last_prompt(t, winner)
        place = next(ch for ch in choices_of(p) if ch[0].startswith("dsp:s:"))
        await t.press(winner, p, *place)  # place one token
        undo = await t.slash(winner, "game undo")
        assert "Undone" in undo.text and (await state_of(t, game_id))["placed"] == 0

        status = await t.slash("alice", "game status")
        assert "Waiting for" in status.text
        log = await t.slash("alice", "game log", count=5)
        assert "Round 1" in log.text
        early = await t.slash("bob", "game export")
        # Mid-game the seed and face-down choices would reveal hidden cards.
        assert "once the game is over" in early.text and early.ephemeral
        assert not [a for m in early.messages for a in m.attachments]
        refused = await t.slash("bob", "game settings", reminder_hours=2.0)
        assert "Manage Channels" in refused.text
        shown = await t.slash("bob", "game settings")
        assert "24 hours" in shown.text
        mine = await t.slash("alice", "games")
        assert f"/channels/{t.guild.id}/{t.channel.id}" in mine.text

        resign = await t.slash("bob", "game resign")
        assert "resigned" in resign.text
        [end] = await t.emu.world.wait_until(
            lambda: [m for m in t.emu.channel_messages(t.channel.id) if "Game over" in m.content],
            PATIENCE_S,
            "the result post",
        )
        assert "resigned" in end.content
        export = await t.slash("bob", "game export")
        [attachment] = export.messages[-1].attachments
        data = json.loads(attachment.data)
        assert data["seed"] == 5 and data["game"] == "skirmish" and len(data["actions"]) == 4
        assert_all_answered(t)


async def test_rules_card_and_autocomplete(tmp_path):
    async with table(tmp_path, "alice") as t:
        await t.start()
        games = await t.emu.autocomplete(t.players["alice"], t.channel, "rules", game="skirm")
        assert {"name": "Skirmish (test game)", "value": "skirmish"} in games
        # A game played alone has rules, but no leaderboard and no league: not offered there.
        alice = t.players["alice"]
        every = await t.emu.autocomplete(alice, t.channel, "rules", game="")
        rated = await t.emu.autocomplete(alice, t.channel, "leaderboard", game="")
        leagues = await t.emu.autocomplete(alice, t.channel, "league create", game="")
        assert "solo" in {c["value"] for c in every}
        assert "solo" not in {c["value"] for c in rated} | {c["value"] for c in leagues}
        assert {"war", "fort_sumter", "lincoln"} <= {c["value"] for c in rated}
        rules_reply = await t.slash("alice", "rules", game="skirmish")
        assert "face down" in rules_reply.text
        cards = await t.emu.autocomplete(t.players["alice"], t.channel, "card", name="Skirmisher 1")
        assert cards and len(cards) <= 25
        card = await t.slash("alice", "card", name=cards[0]["value"])
        assert "Skirmisher 1" in card.text
        missing = await t.slash("alice", "card", name="no such card")
        assert "No card" in missing.text
        assert_all_answered(t)


async def test_lobby_leave_cancel_and_abandon(tmp_path):
    async with table(tmp_path, "alice", "bob") as t:
        await t.start()
        await t.slash("alice", "game new", game="skirmish")
        not_creator = await t.slash("bob", "game cancel")
        assert "Only the player who created" in not_creator.text
        cancelled = await t.slash("alice", "game cancel")
        assert "cancelled" in cancelled.text
        game_id = None
        await t.slash("alice", "game new", game="skirmish", opponent=t.players["bob"])
        info = await t.bot.manager.game_in_channel(str(t.channel.id))
        game_id = info.id
        first = await t.slash("alice", "game abandon")
        assert "waiting for" in first.text
        second = await t.slash("bob", "game abandon")
        assert "abandoned" in second.text
        assert (await t.bot.manager.get_game_info(game_id)).status == "abandoned"
        assert_all_answered(t)


async def test_reminders_fire_from_the_delivery_loop(tmp_path):
    async with table(tmp_path, "alice", "bob") as t:
        await start_game(t)
        posts = len(t.emu.channel_messages(t.channel.id))
        dms = len(t.emu.dms(t.players["alice"].id))
        t.clock_offset = 25 * 3600  # a day and an hour later, nobody has moved
        await t.emu.world.wait_until(
            lambda: len(t.emu.channel_messages(t.channel.id)) > posts, PATIENCE_S, "a reminder post"
        )
        reminder = t.emu.channel_messages(t.channel.id)[-1]
        assert "Reminder" in reminder.content
        # Alice is reminded by DM (her default notify); the table names
        # her but does not ping her.
        assert t.players["alice"].mention in reminder.content
        assert t.emu.message(reminder.id).pinged == []
        await t.emu.world.wait_until(
            lambda: len(t.emu.dms(t.players["alice"].id)) > dms, PATIENCE_S, "a reminder DM"
        )
        assert "Reminder" in t.emu.dms(t.players["alice"].id)[-1].text()


async def test_owner_syncs_globally_then_my_games_works_in_a_dm(tmp_path):
    async with table(tmp_path, "alice", "bob") as t:
        await start_game(t)
        assert t.emu.world.global_commands == []  # no global sync on start with a dev guild
        t.players["owner"] = t.emu.owner
        with pytest.raises(CommandError):  # hidden from members without Administrator
            await t.slash("alice", "dispatch sync", scope="global")
        synced = await t.slash("owner", "dispatch sync", scope="global")
        assert "Synced" in synced.text
        result = await t.emu.slash(t.players["alice"], None, "games")
        await result.response()
        assert "your turn" in result.text and str(t.channel.id) in result.text


async def test_a_game_without_a_chosen_seed_never_shows_its_key_until_the_end(tmp_path):
    async with table(tmp_path, "alice", "bob") as t:
        await t.start()
        result = await t.slash("alice", "game new", game="skirmish", opponent=t.players["bob"])
        assert "the game is on" in result.text and "Seed" not in result.text
        info = await t.bot.manager.game_in_channel(str(t.channel.id))
        async with t.bot.manager.store.read() as db:
            key = json.loads((await db.game(info.id)).state_json)["rng"]["key"]
        assert len(key) == 64

        def everything_sent() -> str:
            # Every message anywhere (channel, DMs, ephemeral answers), every version of
            # it, its components and attachment contents.
            parts = []
            for message in t.emu.world.messages.values():
                parts.append(message.text())
                parts.append(json.dumps(message.components))
                parts.extend(repr(a.data) for a in message.attachments)
            return "\n".join(parts)

        rng = random.Random(3)
        seats = {"north": "alice", "south": "bob"}
        for _ in range(6):
            state = await state_of(t, info.id)
            role = (await t.bot.manager.get_game_info(info.id)).active_roles[0]
            prompt = last_prompt(t, seats[role])
            await t.press(seats[role], prompt, *pick(choices_of(prompt), rng))
        refused = await t.slash("alice", "game export")
        assert refused.ephemeral and "once the game is over" in refused.text
        assert key not in everything_sent()

        await t.slash("bob", "game resign")
        export = await t.slash("alice", "game export")
        [attachment] = export.messages[-1].attachments
        data = json.loads(attachment.data)
        assert data["seed"] == key  # after the end, the key replays the game exactly
        assert state is not None and await t.bot.manager.records.verify_replay(info.id)
        assert_all_answered(t)


async def test_checks_as_decorators_refuse_politely(tmp_path):
    from discord import app_commands

    from bot.discord_app import checks

    async with table(tmp_path, "alice") as t:
        admins = t.emu.add_role(t.guild, "admins", permissions=1 << 3)  # Administrator
        t.players["admin"] = t.emu.add_member(t.guild, "admin", roles=[admins])
        await t.start()
        # An administrator who is not the bot's owner sees the command but may not run it.
        refused = await t.slash("admin", "dispatch sync", scope="global")
        assert refused.ephemeral and "Only the bot's owner" in refused.text
        assert t.emu.world.global_commands == []
        # /game is a server command: once published, Discord does not offer it in direct
        # messages at all (guild_only), while /games is offered there.
        t.players["owner"] = t.emu.owner
        assert "Synced" in (await t.slash("owner", "dispatch sync", scope="global")).text
        with pytest.raises(CommandError, match="not available in DMs"):
            await t.emu.slash(t.players["alice"], None, "game new", game="skirmish")
        assert_all_answered(t)
    # and if a forged one arrived anyway, the player would read a sentence, not an error
    assert "server channel" in checks.refusal(app_commands.NoPrivateMessage())
