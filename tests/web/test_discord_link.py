"""``/game link`` in the emulated Discord: the bot serves the page in its own process
(``DISPATCH_WEB_PORT``), answers with the game's link, revokes it for a player, refuses a
stranger politely, and a moderator turns the server's pages off."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import aiohttp
import pytest
from discord_helpers import table
from web_helpers import SECRET

from bot.config import WebSettings

pytestmark = [pytest.mark.usefixtures("discord_guard")]

MANAGE_CHANNELS = 1 << 4
BASE = "http://spectators.test"


async def test_game_link_gives_revokes_and_is_refused_politely(
    tmp_path: Path, db_path: Path | str
) -> None:
    async with table(tmp_path, "alice", "bob", "carol", store=db_path) as t:
        mods = t.emu.add_role(t.guild, "mods", permissions=MANAGE_CHANNELS)
        t.players["mod"] = t.emu.add_member(t.guild, "mod", roles=[mods])
        plain = t.config()
        t.config = lambda: plain  # type: ignore[method-assign]
        await t.start()
        await t.slash("alice", "game new", game="skirmish", opponent=t.players["bob"])
        unset = await t.slash("carol", "game link")
        assert unset.ephemeral and "not set up on this bot" in unset.text
        await t.stop()

        web = WebSettings(port=0, url=BASE, secret=SECRET)
        t.config = lambda: dataclasses.replace(plain, web=web)  # type: ignore[method-assign]
        await t.start()
        served = f"http://127.0.0.1:{t.bot.web_server.port}"
        answer = await t.slash("carol", "game link")
        found = re.search(re.escape(BASE) + r"(/g/[^/\s]+/)", answer.text)
        assert answer.ephemeral and found, answer.text
        path = found[1]
        async with aiohttp.ClientSession() as http:
            assert (await http.get(served + path)).status == 200
            again = await t.slash("bob", "game link")
            assert path in again.text  # the same link until it is revoked

            refused = await t.slash("carol", "game link", revoke=True)
            assert "Only the game's players or a moderator" in refused.text
            assert (await http.get(served + path)).status == 200

            revoked = await t.slash("bob", "game link", revoke=True)
            assert "is revoked" in revoked.text
            assert (await http.get(served + path)).status == 404

            fresh = await t.slash("alice", "game link")
            new_path = re.search(re.escape(BASE) + r"(/g/[^/\s]+/)", fresh.text)
            assert new_path and new_path[1] != path

            not_mod = await t.slash("alice", "game link", page="off")
            assert "Only a moderator" in not_mod.text
            off = await t.slash("mod", "game link", page="off")
            assert "is off for this server's games" in off.text
            assert (await http.get(served + new_path[1])).status == 404
            closed = await t.slash("alice", "game link")
            assert "turned the spectator page off" in closed.text
