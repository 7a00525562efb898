"""The emulator's threads are Discord's: a thread started without ``type`` is private, a
public one started without a message is announced in its channel by a "started a
thread" system message, and members are added to a thread one by one."""

from __future__ import annotations

from typing import Any

import aiohttp

from tests.emulator import Emulator
from tests.emulator.state import PRIVATE_THREAD, PUBLIC_THREAD, THREAD_CREATED


async def _request(emu: Emulator, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    headers = {"Authorization": f"Bot {emu.token}"}
    async with (
        aiohttp.ClientSession() as session,
        session.request(method, emu.api_base + path, json=body, headers=headers) as response,
    ):
        data = await response.json() if response.status != 204 else None
        return response.status, data


async def test_a_thread_started_without_a_type_is_private_and_unannounced():
    async with Emulator() as emu:
        channel = emu.add_text_channel(emu.add_guild(), "games")
        status, thread = await _request(
            emu, "POST", f"/channels/{channel.id}/threads", {"name": "q"}
        )
        assert status == 201 and thread["type"] == PRIVATE_THREAD
        assert emu.channel_messages(channel.id) == []


async def test_a_public_thread_without_a_message_is_announced_in_its_channel():
    async with Emulator() as emu:
        channel = emu.add_text_channel(emu.add_guild(), "games")
        body = {"name": "Skirmish · alice", "type": PUBLIC_THREAD}
        status, thread = await _request(emu, "POST", f"/channels/{channel.id}/threads", body)
        assert status == 201 and thread["type"] == PUBLIC_THREAD
        [started] = emu.channel_messages(channel.id)
        assert started.type == THREAD_CREATED and started.content == "Skirmish · alice"
        assert started.message_reference == {
            "channel_id": thread["id"],
            "guild_id": str(channel.guild_id),
        }
        _, [listed] = await _request(emu, "GET", f"/channels/{channel.id}/messages")
        assert listed["type"] == THREAD_CREATED


async def test_members_are_added_to_a_thread_and_only_members_of_its_server():
    async with Emulator() as emu:
        guild = emu.add_guild()
        channel = emu.add_text_channel(guild, "games")
        alice = emu.add_member(guild, "alice")
        stranger = emu.add_user("stranger")
        thread = emu.add_thread(channel, "game")
        base = f"/channels/{thread.id}/thread-members"
        assert (await _request(emu, "PUT", f"{base}/{alice.id}"))[0] == 204
        assert alice.id in thread.members
        status, error = await _request(emu, "PUT", f"{base}/{stranger.id}")
        assert (status, error["code"]) == (404, 10007)
        assert stranger.id not in thread.members
