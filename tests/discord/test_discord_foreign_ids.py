"""A lobby's buttons answer only in the lobby's own channel (found by a hostile review).

A component's custom id names its game, and the manager acts on that game whatever
channel the click came from. A forged Join button or "let Dispatch play" select posted
in another server let a stranger take a seat in a lobby they cannot even see, and let
someone who moderates *their own* server hand a seat of another server's lobby to
Dispatch (the moderator check read the permissions of the channel clicked in). The Show
button was already refused so; these are now too, politely, and change nothing. A copy
forged in another server is refused in the words of a number no game has (a game number
reaches only its own server's games: ``bot.tables.reach``); one in another channel of the
game's own server says the button belongs to another channel.
"""

from __future__ import annotations

import pytest

from bot.discord_app import custom_ids as ids
from tests.discord_helpers import catch_errors, table

pytestmark = pytest.mark.slow


async def test_a_lobbys_buttons_forged_in_another_server_are_refused(tmp_path):
    with catch_errors() as errors_seen:
        async with table(tmp_path, "alice", "mallory") as t:
            elsewhere = t.emu.add_guild("Mallory's", owner=t.players["mallory"])
            t.emu.add_member(elsewhere, t.players["mallory"])
            theirs = t.emu.add_text_channel(elsewhere, "mine")
            aside = t.emu.add_text_channel(t.guild, "aside")
            await t.start()
            opened = await t.slash("alice", "game new", game="fort_sumter", side="unionist")
            assert "new game" in opened.text, opened.text
            lobby = await t.bot.manager.game_in_channel(str(t.channel.id))
            assert lobby is not None

            def forged(custom_id: str, component: dict, where: object) -> object:
                row = {"type": 1, "components": [dict(component, custom_id=custom_id)]}
                return t.emu.inject_message(where, "forged", components=[row])

            refusals = {theirs: f"Game #{lobby.id} was not found.", aside: "another channel"}
            for where, refusal in refusals.items():
                pick = ids.dispatch_id(lobby.id, "secessionist")
                select = {"type": 3, "options": [{"label": "Easy", "value": "easy"}]}
                user = t.players["mallory"]
                result = await t.emu.select(user, forged(pick, select, where), pick, ["easy"])
                await result.response()
                await t.settle()
                assert refusal in result.text, result.text

                join = ids.join_id(lobby.id, "secessionist")
                button = {"type": 2, "style": 1, "label": "Join"}
                result = await t.emu.click(user, forged(join, button, where), join)
                await result.response()
                await t.settle()
                assert refusal in result.text, result.text

            info = await t.bot.manager.get_game_info(lobby.id)
            assert info.status == "lobby" and [s.user_id for s in info.seats] == [
                str(t.players["alice"].id)
            ]
    assert errors_seen.all_errors() == []
