"""End-to-end: seats that change hands on Discord. An offer
accepted (the new player gets the hand by DM; the old player's prompt is closed and
its buttons refused), declined, pressed by a stranger; a moderator's reseat; a hand-over
to Dispatch, which then moves; and bad input of every kind, each refused politely."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from bot.discord_app import custom_ids as ids
from bot.discord_app.custom_ids import offer_id
from bot.tables.bot_users import bot_user
from tests.discord_helpers import (
    Table,
    action_components,
    choices_of,
    poll,
    table,
    wait_until,
)
from tests.emulator import CommandError

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("discord_guard")]

MANAGE_CHANNELS = 1 << 4


async def _start(t: Table, game: str = "skirmish") -> int:
    await t.start()
    options = {"options": "rounds=3"} if game == "skirmish" else {}
    result = await t.slash(
        "alice", "game new", game=game, opponent=t.players["bob"], seed=3, **options
    )
    assert "the game is on" in result.text, result.text
    await t.emu.wait_for_messages(t.channel, 1, responses=False)
    info = await t.bot.manager.game_in_channel(str(t.channel.id))
    return int(info.id)


def _prompt(t: Table, who: str) -> Any:
    uid = t.players[who].id
    msgs = [t.emu.message(m.id) for m in t.emu.dms(uid)]
    with_actions = [m for m in msgs if action_components(m)]
    return max(with_actions, key=lambda m: m.id) if with_actions else None


async def _offer(t: Table, by: str, to: str) -> Any:
    result = await t.slash(by, "game offer", user=t.players[to])
    assert not result.ephemeral, result.text
    [posted] = result.messages
    assert [b for b in posted.button_labels()] == ["Accept", "Decline"]
    return posted


async def _holder(t: Table, game_id: int, role: str) -> str:
    info = await t.bot.manager.get_game_info(game_id)
    return str(info.seat_of(role).user_id)


async def test_an_accepted_offer_gives_the_seat_and_refuses_the_old_prompt(tmp_path, db_path):
    async with table(tmp_path, "alice", "bob", "carol", store=db_path) as t:
        game_id = await _start(t)
        old = _prompt(t, "alice")
        assert old is not None
        old_components = copy.deepcopy(old.components)
        posted = await _offer(t, "alice", "carol")
        assert f"<@{t.players['carol'].id}>" in posted.content and "lapses" in posted.content
        accept = next(i for i in posted.custom_ids() if i.endswith(":accept"))
        await t.press("carol", posted, accept)
        assert await _holder(t, game_id, "north") == str(t.players["carol"].id)
        edited = t.emu.message(posted.id)
        assert "accepted the offer" in edited.content and edited.custom_ids() == []
        # The table is told once; carol has the seat's hand and prompt by DM.
        text = t.public_text()
        assert text.count("now plays the North, in place of") == 1
        new = await _wait_prompt(t, "carol")
        assert "You now play the North" in new.text()
        # alice's old prompt is closed, and a click on (a copy of) it changes nothing.
        assert "no longer yours" in t.emu.message(old.id).text()
        stale = t.emu.inject_message(
            t.emu.dm_channel(t.players["alice"]), "old", components=old_components
        )
        before = await t.bot.manager.get_game_info(game_id)
        result = await t.press("alice", stale, *choices_of(stale)[0])
        [refusal] = [m for m in result.messages if m.ephemeral]
        assert "no longer yours" in refusal.text()
        assert (await t.bot.manager.get_game_info(game_id)).version == before.version
        for command in ("game hand", "game undo"):
            refused = await t.slash("alice", command)
            assert "no longer yours" in refused.text and refused.ephemeral
        was = ids.parse(choices_of(stale)[0][0])
        typed = ids.play_value(was.version or 0, str(was.verb), was.arg)
        refused = await t.slash("alice", "game play", action=typed)
        assert "no longer yours" in refused.text and refused.ephemeral
        assert (await t.bot.manager.get_game_info(game_id)).version == before.version
        # carol plays on from her DM.
        await t.press("carol", new, *choices_of(new)[0])
        assert (await t.bot.manager.get_game_info(game_id)).version == before.version + 1
        assert await t.bot.manager.records.verify_replay(game_id)


async def _wait_prompt(t: Table, who: str) -> Any:
    return await wait_until(lambda: _prompt(t, who), what=f"{who}'s prompt")


async def test_a_declined_offer_and_strangers_pressing_it_change_nothing(tmp_path):
    async with table(tmp_path, "alice", "bob", "carol", "mallory") as t:
        game_id = await _start(t)
        posted = await _offer(t, "alice", "carol")
        accept, decline = sorted(posted.custom_ids())
        as_posted = copy.deepcopy(posted.components)
        for stranger in ("mallory", "bob", "alice"):
            result = await t.press(stranger, posted, accept)
            [refusal] = [m for m in result.messages if m.ephemeral]
            assert "is for" in refusal.text() and "not you" in refusal.text()
        assert await _holder(t, game_id, "north") == str(t.players["alice"].id)
        await t.press("carol", posted, decline)
        assert "declined" in t.emu.message(posted.id).content
        assert await _holder(t, game_id, "north") == str(t.players["alice"].id)
        # The buttons are gone; a copy of them is refused: the offer is answered.
        again = t.emu.inject_message(t.channel, "old", components=as_posted)
        result = await t.press("carol", again, accept)
        assert "already declined" in result.text
        assert "now plays" not in t.public_text()


async def test_an_offer_lapses_when_the_game_moves_on(tmp_path):
    async with table(tmp_path, "alice", "bob", "carol") as t:
        game_id = await _start(t)
        posted = await _offer(t, "alice", "carol")
        prompt = _prompt(t, "bob")
        await t.press("bob", prompt, *choices_of(prompt)[0])
        accept = next(i for i in posted.custom_ids() if i.endswith(":accept"))
        result = await t.press("carol", posted, accept)
        assert "moved on" in result.text
        assert t.emu.message(posted.id).custom_ids() == []  # the lapsed offer's buttons go
        assert await _holder(t, game_id, "north") == str(t.players["alice"].id)


async def test_a_moderator_reseats_and_a_player_may_not(tmp_path):
    async with table(tmp_path, "alice", "bob", "carol", "mod") as t:
        mods = t.emu.add_role(t.guild, "mods", permissions=MANAGE_CHANNELS)
        t.guild.members[t.players["mod"].id].roles.append(mods.id)
        game_id = await _start(t)
        refused = await t.slash("bob", "game reseat", side="north", user=t.players["carol"])
        assert "moderator" in refused.text and refused.ephemeral
        for side, user, why in (
            ("west", "carol", "not a side"),
            ("north", "bob", "one player, one seat"),
            ("north", "alice", "already plays"),
        ):
            bad = await t.slash("mod", "game reseat", side=side, user=t.players[user])
            assert why in bad.text, bad.text
        done = await t.slash("mod", "game reseat", side="north", user=t.players["carol"])
        assert "now plays the North" in done.text and done.ephemeral
        assert await _holder(t, game_id, "north") == str(t.players["carol"].id)
        await _wait_prompt(t, "carol")


async def test_a_hand_over_to_dispatch_and_the_bot_moves(tmp_path, db_path):
    async with table(tmp_path, "alice", "bob", store=db_path) as t:
        game_id = await _start(t, "fort_sumter")
        info = await t.bot.manager.get_game_info(game_id)
        with pytest.raises(CommandError):  # a level is a choice: Discord's menu refuses it
            await t.slash("bob", "game hand-over", level="grandmaster")
        done = await t.slash("bob", "game hand-over", level="easy")
        assert "Dispatch (easy) now plays" in done.text, done.text
        bob_role = next(s.role for s in info.seats if s.user_id == str(t.players["bob"].id))
        assert await _holder(t, game_id, bob_role) == bot_user("easy")

        async def moved() -> Any:
            now = await t.bot.manager.get_game_info(game_id)
            return now if now.version > info.version else None

        now = await poll(moved, "Dispatch's move")
        assert now.version > info.version  # Dispatch took its move
        assert "in place of" in t.public_text()
        again = await t.slash("bob", "game hand-over")
        assert "not playing" in again.text or "no longer yours" in again.text


async def test_a_hand_over_says_when_its_level_is_not_shown_stronger(tmp_path, db_path):
    # War's hard level is not shown stronger than normal: the hand-over's answer says so,
    # as the lobby's level list does, and a level that is stronger says nothing of it.
    async with table(tmp_path, "alice", "bob", store=db_path) as t:
        await _start(t, "war")
        done = await t.slash("bob", "game hand-over", level="hard")
        assert "Dispatch (hard) now plays" in done.text, done.text
        assert "not shown stronger than normal: War is mostly luck" in done.text, done.text
    (tmp_path / "normal").mkdir()
    async with table(tmp_path / "normal", "alice", "bob") as t:
        await _start(t, "war")
        done = await t.slash("bob", "game hand-over", level="normal")
        assert "Dispatch (normal) now plays" in done.text, done.text
        assert "not shown stronger" not in done.text, done.text


async def test_bad_offers_of_every_kind_are_refused(tmp_path):
    async with table(tmp_path, "alice", "bob", "carol") as t:
        helper = t.emu.add_user("helperbot", bot=True)
        t.emu.add_member(t.guild, helper)
        t.players["helperbot"] = helper
        await t.start()
        none_yet = await t.slash("alice", "game offer", user=t.players["carol"])
        assert "not found" in none_yet.text.lower() or "no game" in none_yet.text.lower()
        game_id = await _start_again(t)
        cases = {
            "alice": "already yours",
            "bob": "one player, one seat",
            "helperbot": "Bots cannot be seated",
        }
        for to, why in cases.items():
            result = await t.slash("alice", "game offer", user=t.players[to])
            assert why in result.text and result.ephemeral, (to, result.text)
        to_dispatch = await t.slash("alice", "game offer", user=t.emu.bot_user)
        assert "hand-over" in to_dispatch.text
        stranger = await t.slash("carol", "game offer", user=t.players["alice"])
        assert "not playing" in stranger.text
        stranger = await t.slash("carol", "game hand-over")
        assert "not playing" in stranger.text
        # Forged Accept buttons: another number, another game, a malformed id.
        forged = {
            offer_id(game_id, 999, "accept"): "does not exist",
            offer_id(9999, 1, "accept"): "not found",
            "dsp:x:1:x:accept": "not recognised",
        }
        for cid, expected in forged.items():
            button = {"type": 2, "style": 1, "label": "Accept", "custom_id": cid}
            msg = t.emu.inject_message(
                t.channel, "forged", components=[{"type": 1, "components": [button]}]
            )
            result = await t.press("carol", msg, cid)
            assert expected in result.text.lower(), (cid, result.text)
        info = await t.bot.manager.get_game_info(game_id)
        assert {s.user_id for s in info.seats} == {
            str(t.players["alice"].id),
            str(t.players["bob"].id),
        }
        # A finished game's seats stay where they were.
        await t.slash("bob", "game resign")
        over = await t.slash("alice", "game offer", user=t.players["carol"])
        assert "over" in over.text
        assert ids.is_ours(ids.action_id(game_id, 0, "done"))


async def _start_again(t: Table) -> int:
    result = await t.slash("alice", "game new", game="skirmish", opponent=t.players["bob"], seed=3)
    assert "the game is on" in result.text, result.text
    info = await t.bot.manager.game_in_channel(str(t.channel.id))
    return int(info.id)
