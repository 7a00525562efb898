"""``/league`` once a league runs, on Discord: the reads (``round``, ``games``,
``standings`` with its picture, ``export`` as two files) and the moderators' acts
(``decide``, ``replace``, ``disqualify``, ``cancel``), each refused politely to a member
who may not run leagues and for a league of another server, changing nothing."""

from __future__ import annotations

import csv
import io
import json

import pytest
from PIL import Image

from tests.discord_helpers import catch_errors, table

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("discord_guard")]

PEOPLE = ("alice", "bob", "carol", "dave")


async def _running(t) -> int:  # type: ignore[no-untyped-def]
    """A Swiss of two rounds between the four, started: round 1's two games open."""
    await t.slash(
        "owner", "league create", name="Spring", game="skirmish", format="swiss", rounds=2
    )
    [league] = await t.bot.manager.leagues.leagues_here(str(t.guild.id))
    for name in PEOPLE:
        await t.slash(name, "league join", league=league.id)
    started = await t.slash("owner", "league start", league=league.id)
    assert "has started" in started.text, started.text
    await t.settle()
    return int(league.id)


async def test_a_running_leagues_reads_and_a_moderators_decision(tmp_path):
    with catch_errors() as errors:
        async with table(tmp_path, *PEOPLE, "erin") as t:
            t.players["owner"] = t.emu.owner
            await t.start()
            await t.emu.wait_for_commands("league")
            league = await _running(t)
            desk, guild = t.bot.manager.leagues, str(t.guild.id)
            shown = await desk.round(league, guild)
            first = shown.games[0]

            said = await t.slash("erin", "league round", league=league)
            assert said.ephemeral and "**Spring**, round 1 (being played" in said.text
            assert f"Board 1: <@{first.first}> (North) v <@{first.second}> (South)" in said.text
            assert f"<#{first.channel_id}> · playing" in said.text
            assert not said.original.pinged

            refused = await t.slash(
                "erin", "league decide", league=league, round=1, board=1,
                outcome="first wins", reason="agreed",
            )  # fmt: skip
            assert refused.ephemeral and "Manage Server" in refused.text
            assert (await desk.round(league, guild)).games[0].outcome is None
            decided = await t.slash(
                "owner", "league decide", league=league, round=1, board=1,
                outcome="first wins", reason="agreed by both",
            )  # fmt: skip
            assert "Round 1, board 1: first wins." in decided.text
            mine = await t.slash("erin", "league games", league=league, player=t.players["alice"])
            alice = str(t.players["alice"].id)
            [line] = [x for x in mine.text.splitlines() if x.startswith("Round 1")]
            assert f"<@{alice}>" in line
            board_1 = await t.slash("erin", "league round", league=league, number=1)
            assert "· 1-0, decided by a moderator" in board_1.text

            table_shown = await t.slash("erin", "league standings", league=league)
            [message] = table_shown.messages
            [embed] = message.embeds
            assert table_shown.ephemeral and embed["title"] == "Spring: standings"
            assert embed["fields"][0]["value"].startswith(f"**1.** <@{first.first}>: **1**")
            [picture] = message.attachments
            assert Image.open(io.BytesIO(picture.data)).size[0] == 820
            members = [r for r in t.emu.world.requests if "/members/" in r.path]
            await t.slash("erin", "league standings", league=league)
            again = [r for r in t.emu.world.requests if "/members/" in r.path]
            assert members and again == members  # names are kept: Discord is not asked again

            exported = await t.slash("erin", "league export", league=league)
            files = {a.filename: a.data for m in exported.messages for a in m.attachments}
            assert set(files) == {f"league-{league}.json", f"league-{league}.csv"}
            record = json.loads(files[f"league-{league}.json"])
            assert "audit" in json.dumps(record)
            rows = list(csv.reader(io.StringIO(files[f"league-{league}.csv"].decode())))
            assert len(rows) > 2

            unknown = await t.slash("erin", "league standings", league=99)
            assert "There is no league #99 on this server." in unknown.text
    assert errors.discord_errors() == []


async def test_replace_disqualify_and_cancel_are_for_moderators_and_change_the_league(tmp_path):
    with catch_errors() as errors:
        async with table(tmp_path, *PEOPLE, "erin") as t:
            t.players["owner"] = t.emu.owner
            await t.start()
            await t.emu.wait_for_commands("league")
            league = await _running(t)
            desk, guild = t.bot.manager.leagues, str(t.guild.id)
            ids = {name: str(t.players[name].id) for name in (*PEOPLE, "erin")}

            refused = await t.slash(
                "alice", "league replace", league=league,
                player=t.players["dave"], new_player=t.players["erin"],
            )  # fmt: skip
            assert refused.ephemeral and "Manage Server" in refused.text
            assert {e.player for e in (await desk.info(league, guild)).entrants} == {
                ids[n] for n in PEOPLE
            }
            replaced = await t.slash(
                "owner", "league replace", league=league,
                player=t.players["dave"], new_player=t.players["erin"],
            )  # fmt: skip
            assert "plays on for" in replaced.text and not replaced.original.pinged
            players = {e.player for e in (await desk.info(league, guild)).entrants}
            assert ids["erin"] in players and ids["dave"] not in players

            out = await t.slash(
                "owner", "league disqualify", league=league, player=t.players["bob"],
                reason="never played",
            )  # fmt: skip
            assert "is disqualified" in out.text
            status = {e.player: e.status for e in (await desk.info(league, guild)).entrants}
            assert status[ids["bob"]] == "disqualified"

            assert (await t.slash("alice", "league cancel", league=league)).ephemeral
            assert (await desk.info(league, guild)).status == "running"
            cancelled = await t.slash("owner", "league cancel", league=league)
            assert "is cancelled" in cancelled.text
            await t.settle()
            assert (await desk.info(league, guild)).status == "cancelled"
            lobby = [
                m for m in t.emu.channel_messages(t.channel.id) if m.content.startswith("**League")
            ]
            assert lobby and "This league was cancelled." in lobby[0].text()
            assert not lobby[0].components
    assert errors.discord_errors() == []
