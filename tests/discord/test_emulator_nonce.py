"""Self-test of the emulator's message nonces (tests/emulator/nonces.py) with discord.py.

discord.py sends ``enforce_nonce: true`` with every ``send``; with ``nonce=`` given, a
repeat within Discord's window returns the first message and posts nothing.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest

from tests.emulator import Emulator
from tests.emulator.state import PATIENCE_S


@pytest.fixture
async def emu() -> AsyncIterator[Emulator]:
    async with Emulator() as emu:
        yield emu


@pytest.fixture
def world(emu: Emulator) -> dict[str, Any]:
    guild = emu.add_guild("Wargames")
    return {
        "table": emu.add_text_channel(guild, "table"),
        "other": emu.add_text_channel(guild, "other"),
        "alice": emu.add_member(guild, "alice"),
    }


def client() -> discord.Client:
    # Guild and DM message intents: the bot is told of its own posts (MESSAGE_CREATE).
    return discord.Client(intents=discord.Intents.default())


async def raw_create(emu: Emulator, channel_id: int, body: dict[str, Any]) -> tuple[int, Any]:
    async with aiohttp.ClientSession() as session:
        url = f"{emu.api_base}/channels/{channel_id}/messages"
        headers = {"Authorization": f"Bot {emu.token}"}
        async with session.post(url, json=body, headers=headers) as resp:
            return resp.status, await resp.json()


async def test_enforced_nonce_repeat_returns_the_first_message(emu, world) -> None:
    table = world["table"]
    async with emu.running(client()) as bot:
        channel = bot.get_partial_messageable(table.id)
        first = await channel.send("Round 1 begins.", nonce="dsp7.abc")
        again = await channel.send("Round 1 begins (resent).", nonce="dsp7.abc")
        other = await channel.send("Round 2 begins.", nonce="dsp8.abc")
    assert again.id == first.id and again.content == "Round 1 begins."
    assert [m.content for m in emu.channel_messages(table.id)] == [
        "Round 1 begins.",
        "Round 2 begins.",
    ]
    assert first.nonce == "dsp7.abc" and other.nonce == "dsp8.abc"
    creates = emu.message_creates
    assert [(c.nonce, c.enforce_nonce, c.repeat) for c in creates] == [
        ("dsp7.abc", True, False),
        ("dsp7.abc", True, True),
        ("dsp8.abc", True, False),
    ]
    assert creates[1].message_id == first.id


async def test_nonce_is_echoed_in_message_create(emu, world) -> None:
    table = world["table"]
    seen: list[discord.Message] = []
    bot = client()

    @bot.event
    async def on_message(message: discord.Message) -> None:
        seen.append(message)

    async with emu.running(bot):
        sent = await bot.get_partial_messageable(table.id).send("hello", nonce="n-1")
        await emu.world.wait_until(lambda: seen, PATIENCE_S, "MESSAGE_CREATE")
    assert [(m.id, m.nonce) for m in seen] == [(sent.id, "n-1")]


async def test_the_key_is_author_and_nonce_not_channel(emu, world) -> None:
    # Discord's docs name only the author: a nonce reused in another channel is a repeat.
    async with emu.running(client()) as bot:
        first = await bot.get_partial_messageable(world["table"].id).send("a", nonce="same")
        again = await bot.get_partial_messageable(world["other"].id).send("b", nonce="same")
    assert again.id == first.id
    assert emu.channel_messages(world["other"].id) == []


async def test_without_enforce_nonce_nothing_is_deduplicated(emu, world) -> None:
    table = world["table"]
    status1, one = await raw_create(emu, table.id, {"content": "x", "nonce": "free"})
    status2, two = await raw_create(
        emu, table.id, {"content": "y", "nonce": "free", "enforce_nonce": False}
    )
    assert (status1, status2) == (200, 200)
    assert one["id"] != two["id"] and one["nonce"] == two["nonce"] == "free"
    # Unenforced nonces are not remembered either: an enforced one after them posts.
    status3, three = await raw_create(
        emu, table.id, {"content": "z", "nonce": "free", "enforce_nonce": True}
    )
    assert status3 == 200 and three["id"] not in (one["id"], two["id"])
    assert len(emu.channel_messages(table.id)) == 3


async def test_integer_nonce_is_accepted_and_matches_its_string(emu, world) -> None:
    table = world["table"]
    _, one = await raw_create(emu, table.id, {"content": "x", "nonce": 42, "enforce_nonce": True})
    _, two = await raw_create(emu, table.id, {"content": "y", "nonce": "42", "enforce_nonce": True})
    assert one["nonce"] == 42 and two["id"] == one["id"]


async def test_the_window_expires() -> None:
    now = [0.0]
    async with Emulator(nonce_window_s=120.0) as emu:
        emu.world.nonces.clock = lambda: now[0]
        guild = emu.add_guild()
        table = emu.add_text_channel(guild, "table")
        async with emu.running(client()) as bot:
            channel = bot.get_partial_messageable(table.id)
            first = await channel.send("one", nonce="dsp1.x")
            now[0] = 119.0
            assert (await channel.send("one", nonce="dsp1.x")).id == first.id
            now[0] = 121.0  # forgotten: the same nonce posts again
            late = await channel.send("one", nonce="dsp1.x")
        assert late.id != first.id
        assert len(emu.channel_messages(table.id)) == 2


async def test_repeat_of_a_deleted_message_is_unknown_message(emu, world) -> None:
    table = world["table"]
    async with emu.running(client()) as bot:
        channel = bot.get_partial_messageable(table.id)
        first = await channel.send("gone soon", nonce="dsp3.x")
        emu.world.delete_message(emu.message(first.id))
        with pytest.raises(discord.NotFound) as caught:
            await channel.send("gone soon", nonce="dsp3.x")
    assert caught.value.code == 10008
    assert emu.channel_messages(table.id) == []


@pytest.mark.parametrize(
    "body",
    [
        {"nonce": "x" * 26, "enforce_nonce": True},
        {"nonce": 2**63},
        {"nonce": 1.5},
        {"nonce": "n", "enforce_nonce": "yes"},
    ],
)
async def test_malformed_nonce_is_refused(emu, world, body: dict[str, Any]) -> None:
    status, error = await raw_create(emu, world["table"].id, {"content": "x", **body})
    assert status == 400 and error["code"] == 50035
    assert emu.channel_messages(world["table"].id) == []


async def test_dm_repeat_is_deduplicated_too(emu, world) -> None:
    alice = world["alice"]
    async with emu.running(client()) as bot:
        dm = await bot.create_dm(discord.Object(id=alice.id))
        first = await dm.send("your hand", nonce="dsp9.x")
        again = await dm.send("your hand", nonce="dsp9.x")
    assert again.id == first.id
    assert [m.content for m in emu.dms(alice.id)] == ["your hand"]
