"""End-to-end: ``/games show:finished`` pages with Previous/Next buttons,
a finished game's row with its link, ``/game export game:<number>`` for a player or a game
of this server (refused for a stranger's game elsewhere), and ``/stats`` with a bot game."""

from __future__ import annotations

import json

from bot.discord_app.custom_ids import page_id
from bot.tables.requests import NewGame
from tests.discord_helpers import Table, catch_errors, table


async def finished_games(
    t: Table, count: int, winner: str = "alice", loser: str = "bob"
) -> list[int]:
    """``count`` games of skirmish in the table's channel, each resigned by ``loser``."""
    manager = t.bot.manager
    ids = []
    for seed in range(count):
        info = await manager.create_game(
            str(t.guild.id),
            str(t.channel.id),
            str(t.players[winner].id),
            NewGame("skirmish", seed=seed, opponent_id=str(t.players[loser].id)),
        )
        await manager.resign(info.id, str(t.players[loser].id))
        ids.append(info.id)
    return ids


async def test_finished_games_page_by_buttons_each_row_with_its_link(tmp_path, db_path):
    with catch_errors() as errors:
        async with table(tmp_path, "alice", "bob", store=db_path) as t:
            await t.start()
            ids = await finished_games(t, 12)
            first = await t.slash("alice", "games", show="finished")
            page = first.original
            assert first.ephemeral and page is not None
            link = f"https://discord.com/channels/{t.guild.id}/{t.channel.id}"
            newest = next(line for line in page.text().splitlines() if f"#{ids[-1]} " in line)
            assert link in newest and "**won**" in newest and "resigned" in newest.lower()
            assert "Skirmish" in newest and "<t:" in newest
            assert f"#{ids[1]} " not in page.text() and len(page.embeds[0]["description"]) <= 4096
            assert page.component(label="Previous (newer)").get("disabled")
            await t.press("alice", page, label_id(page, "Next (older)"))
            page = t.emu.message(page.id)
            assert f"#{ids[0]} " in page.text() and f"#{ids[-1]} " not in page.text()
            assert page.component(label="Next (older)").get("disabled")
            await t.press("alice", page, label_id(page, "Previous (newer)"))
            assert f"#{ids[-1]} " in t.emu.message(page.id).text()
            server = await t.slash("bob", "games", show="server")
            assert f"#{ids[-1]} " in server.text and "**North won**" in server.text
            live = await t.slash("bob", "games")
            assert "show:finished" in live.text
            assert not errors.records


def label_id(message, label):  # type: ignore[no-untyped-def]
    return message.component(label=label)["custom_id"]


async def test_forged_and_stale_page_buttons_are_refused_politely(tmp_path):
    async with table(tmp_path, "alice", "bob") as t:
        await t.start()
        await finished_games(t, 2)
        alice, bob = (str(t.players[n].id) for n in ("alice", "bob"))
        forged = {
            page_id("mine", bob, True, 1 << 40): "someone else's",
            page_id("server", "123", True, 1 << 40): "someone else's",
            page_id("mine", alice, True, 1): "no longer holds any game",
            page_id("server", str(t.guild.id), True, 1): "no longer holds any game",
            "dsp:y:mine:1:x:5": "not recognised",
        }
        for cid, expected in forged.items():
            button = {"type": 2, "style": 2, "label": "Next", "custom_id": cid}
            msg = t.emu.inject_message(
                t.channel, "pages", components=[{"type": 1, "components": [button]}]
            )
            result = await t.press("alice", msg, cid)
            assert expected in result.text, (cid, result.text)
            assert t.emu.message(msg.id).text() == "pages"


async def test_export_by_number_for_a_player_or_this_server_not_a_stranger_elsewhere(tmp_path):
    async with table(tmp_path, "alice", "bob", "carol") as t:
        elsewhere = t.emu.add_guild("Elsewhere")
        far = t.emu.add_text_channel(elsewhere, "far")
        for name in ("dan", "erin"):
            t.players[name] = t.emu.add_member(elsewhere, name)
        t.emu.add_member(elsewhere, t.players["alice"])
        await t.start()
        [mine] = await finished_games(t, 1)
        manager = t.bot.manager
        info = await manager.create_game(
            str(elsewhere.id),
            str(far.id),
            str(t.players["dan"].id),
            NewGame("skirmish", seed=1, opponent_id=str(t.players["erin"].id)),
        )
        await manager.resign(info.id, str(t.players["erin"].id))
        for who in ("bob", "carol"):  # a player; a member of the server where it was played
            got = await t.slash(who, "game export", game=mine)
            [file] = [a for m in got.messages for a in m.attachments]
            assert "actions" in json.loads(file.data) and file.filename.endswith(f"-{mine}.json")
        refused = await t.slash("alice", "game export", game=info.id)
        assert f"Game #{info.id} was neither played by you nor on this server" in refused.text
        assert not [a for m in refused.messages for a in m.attachments]
        unknown = await t.slash("alice", "game export", game=99999)
        assert "Game #99999 was neither" in unknown.text


async def test_stats_of_a_user_with_a_game_against_dispatch(tmp_path, db_path):
    async with table(tmp_path, "alice", "bob", store=db_path) as t:
        await t.start()
        await finished_games(t, 2)
        await finished_games(t, 1, winner="bob", loser="alice")
        manager = t.bot.manager
        from bot.tables.bot_users import bot_user

        info = await manager.create_game(
            str(t.guild.id),
            str(t.channel.id),
            str(t.players["alice"].id),
            NewGame("skirmish", seed=9, opponent_id=bot_user("easy")),
        )
        await manager.resign(info.id, str(t.players["alice"].id))
        mine = await t.slash("alice", "stats")
        assert mine.ephemeral and "4 finished games" in mine.text
        assert "Against Dispatch (easy): 0 won, 1 lost" in mine.text
        assert "On time: 0 won, 0 lost" in mine.text
        theirs = await t.slash("alice", "stats", user=t.players["bob"], game="skirmish")
        assert "3 finished games of Skirmish" in theirs.text
        assert "Median time per turn" not in theirs.text  # no move was made


async def test_games_being_played_page_by_buttons_past_ten(tmp_path, db_path):
    async with table(tmp_path, "alice", "bob", store=db_path) as t:
        channels = [t.emu.add_text_channel(t.guild, f"table-{n}") for n in range(11)]
        await t.start()
        ids = []
        for n, channel in enumerate(channels):
            info = await t.bot.manager.create_game(
                str(t.guild.id),
                str(channel.id),
                str(t.players["alice"].id),
                NewGame("skirmish", seed=n, opponent_id=str(t.players["bob"].id)),
            )
            ids.append(info.id)
        first = await t.slash("bob", "games")
        page = first.original
        assert first.ephemeral and page.text().count("/channels/") == 10
        assert f"/channels/{t.guild.id}/{channels[-1].id}" in page.text()
        assert f"#{ids[0]} " not in page.text()
        await t.press("bob", page, label_id(page, "Next (older)"))
        page = t.emu.message(page.id)
        assert f"#{ids[0]} " in page.text() and page.text().count("/channels/") == 1
