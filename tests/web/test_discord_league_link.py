"""``/league link`` in the emulated Discord: the bot answers with the league's page, which
names the players as the server does, revokes it for the league's creator or a moderator
only, and refuses politely where the page is not set up or is off on the server."""

from __future__ import annotations

import dataclasses
import html
import re
from pathlib import Path

import aiohttp
import pytest
from discord_helpers import table
from web_helpers import SECRET

from bot.config import WebSettings
from bot.tables.leagues.records import LeagueSpec

pytestmark = [pytest.mark.usefixtures("discord_guard")]

BASE = "http://spectators.test"


async def test_league_link_gives_revokes_and_is_refused_politely(
    tmp_path: Path, db_path: Path | str
) -> None:
    async with table(tmp_path, "alice", "bob", "carol", store=db_path) as t:
        t.players["owner"] = t.emu.owner
        plain = t.config()
        t.config = lambda: plain  # type: ignore[method-assign]
        await t.start()
        guild, owner = str(t.guild.id), str(t.emu.owner.id)
        desk = t.bot.manager.leagues
        spec = LeagueSpec("Spring Cup", "skirmish", "round_robin")
        league = await desk.create(guild, str(t.channel.id), owner, spec, may_run=True)
        for name in ("alice", "bob"):
            await desk.join(league.id, guild, str(t.players[name].id))
        unset = await t.slash("carol", "league link", league=league.id)
        assert unset.ephemeral and "not set up on this bot" in unset.text
        await t.stop()

        web = WebSettings(port=0, url=BASE, secret=SECRET)
        t.config = lambda: dataclasses.replace(plain, web=web)  # type: ignore[method-assign]
        await t.start()
        served = f"http://127.0.0.1:{t.bot.web_server.port}"
        answer = await t.slash("carol", "league link", league=league.id)
        found = re.search(re.escape(BASE) + r"(/l/[^/\s]+/)", answer.text)
        assert answer.ephemeral and found, answer.text
        path = found[1]
        async with aiohttp.ClientSession() as http:
            page = html.unescape(await (await http.get(served + path)).text())
            assert "Spring Cup" in page
            for name in ("alice", "bob"):
                assert t.players[name].name in page
                assert str(t.players[name].id) not in page

            refused = await t.slash("alice", "league link", league=league.id, revoke=True)
            assert "Only the league's creator or a moderator" in refused.text
            assert (await http.get(served + path)).status == 200
            revoked = await t.slash("owner", "league link", league=league.id, revoke=True)
            assert "is revoked" in revoked.text
            assert (await http.get(served + path)).status == 404

            await t.slash("owner", "game link", page="off")
            closed = await t.slash("alice", "league link", league=league.id)
            assert "turned the spectator page off" in closed.text
