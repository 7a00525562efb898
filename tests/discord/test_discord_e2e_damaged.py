"""End-to-end: a game whose record is damaged, seen through Discord.

Its players get a polite word, never "Something went wrong"; nothing is logged at ERROR
by discord.py; a moderator can export it and abandon it; another channel's game plays on.
"""

from __future__ import annotations

import json

import pytest

from tests.discord_helpers import table

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("discord_guard")]

MANAGE_CHANNELS = 1 << 4


async def test_a_damaged_game_is_explained_to_players_and_rescued_by_a_moderator(tmp_path):
    async with table(tmp_path, "alice", "bob") as t:
        mods = t.emu.add_role(t.guild, "mods", permissions=MANAGE_CHANNELS)
        t.players["mod"] = t.emu.add_member(t.guild, "mod", roles=[mods])
        other = t.emu.add_text_channel(t.guild, "other")
        await t.start()
        await t.slash("alice", "game new", game="skirmish", opponent=t.players["bob"])
        game = await t.bot.manager.game_in_channel(str(t.channel.id))
        healthy = await t.emu.slash(
            t.players["alice"], other, "game new", game="skirmish", opponent=t.players["bob"]
        )
        await healthy.response()
        async with t.bot.manager.store.write() as db:
            await db._run("UPDATE games SET state = '{}' WHERE id = ?", (game.id,))

        for command in ("game hand", "game status", "game log", "game board"):
            result = await t.slash("alice", command)
            assert "damaged" in result.text and "/game abandon" in result.text, command
            assert "Something went wrong" not in result.text
        refused = await t.slash("alice", "game export")
        assert refused.ephemeral and "once the game is over" in refused.text

        exported = await t.slash("mod", "game export")
        assert exported.ephemeral
        [attachment] = exported.messages[-1].attachments
        data = json.loads(attachment.data)
        assert data["id"] == game.id
        ended = await t.slash("mod", "game abandon")
        assert "abandoned" in ended.text
        assert (await t.bot.manager.get_game_info(game.id)).status == "abandoned"

        # the other channel's game was never touched
        [there] = await t.bot.manager.threads.games_living_in(str(other.id))  # in its thread
        assert there.status == "active" and not there.damaged
