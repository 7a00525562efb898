"""A game number reaches only the games of the server it was typed or clicked in; in a
DM, only the games the asker plays (``bot.tables.reach``; docs/discord.md).

Game numbers count up, so every game could be named. ``/game move game:<n>`` looked the
number up across all servers: a moderator of her own server could move another server's
live game into a thread of hers, then ``/game reseat`` herself into it and ``/game
abandon`` it. Every command, button, select and autocomplete that takes a game number is
tried here from a second server (and from a DM): each is refused with the very words of
a number no game has, and changes nothing.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.discord_app import custom_ids as ids
from bot.tables.requests import NewGame
from tests.discord_helpers import Table, catch_errors, table

pytestmark = pytest.mark.slow

MANAGE_CHANNELS = 1 << 4
#: A number no game has.
UNKNOWN = 999_999


async def _game_elsewhere(t: Table) -> Any:
    """A running game of another server, played by alice and bob (members of both)."""
    elsewhere = t.emu.add_guild("Elsewhere")
    far = t.emu.add_text_channel(elsewhere, "far")
    for name in ("alice", "bob"):
        t.emu.add_member(elsewhere, t.players[name])
    await t.start()
    return await t.bot.manager.create_game(
        str(elsewhere.id),
        str(far.id),
        str(t.players["alice"].id),
        NewGame("skirmish", seed=3, options={"rounds": 3}, opponent_id=str(t.players["bob"].id)),
    )


def _not_found(number: int) -> str:
    return f"Game #{number} was not found."


def _moderator(t: Table) -> None:
    mods = t.emu.add_role(t.guild, "mods", permissions=MANAGE_CHANNELS)
    t.players["mod"] = t.emu.add_member(t.guild, "mod", roles=[mods])


async def test_a_moderator_here_cannot_move_another_servers_game(tmp_path, db_path):
    with catch_errors() as errors_seen:
        async with table(tmp_path, "alice", "bob", store=db_path) as t:
            _moderator(t)
            theirs = await _game_elsewhere(t)
            manager = t.bot.manager
            before = await manager.get_game_info(theirs.id)
            for who in ("mod", "alice"):  # a moderator here; a player of it, typing here
                taken = await t.slash(who, "game move", channel=t.channel, game=theirs.id)
                unknown = await t.slash(who, "game move", channel=t.channel, game=UNKNOWN)
                assert taken.ephemeral and taken.text == _not_found(theirs.id), taken.text
                assert unknown.text == _not_found(UNKNOWN), unknown.text
            after = await manager.get_game_info(theirs.id)
            assert after.channel_id == before.channel_id and after.seats == before.seats
            assert after.status == "active" and after.version == before.version
            # Nothing was posted here about it, and no thread was opened for it.
            assert str(theirs.id) not in t.public_text()
            assert [c for c in t.emu.world.channels.values() if c.parent_id == t.channel.id] == []
    assert errors_seen.all_errors() == []


async def test_game_move_offers_only_this_servers_games(tmp_path):
    async with table(tmp_path, "alice", "bob") as t:
        theirs = await _game_elsewhere(t)
        here = await t.slash("alice", "game new", game="skirmish", opponent=t.players["bob"])
        assert "the game is on" in here.text, here.text
        mine = await t.bot.manager.game_in_channel(str(t.channel.id))
        offered = await t.emu.autocomplete(
            t.players["alice"], t.channel, "game move", channel=t.channel, game=""
        )
        assert [c["value"] for c in offered] == [mine.id], (offered, theirs.id)


#: One forged control of each kind naming game ``n`` (version 0), with the values a
#: select is sent with (None: a button).
def _forgeries(n: int) -> list[tuple[str, list[str] | None]]:
    return [
        (ids.action_id(n, 0, "done"), None),
        (ids.select_id(n, 0, "pick", 0), ["1"]),
        (ids.join_id(n, "south"), None),
        (ids.dispatch_id(n, "south"), ["easy"]),
        (ids.prompt_id(n), None),
        (ids.rematch_id(n, "same"), None),
        (ids.show_id(n, "status"), None),
        (ids.solo_action_id(n, 0, "done"), None),
        (ids.solo_select_id(n, 0, "pick", 0), ["1"]),
        (ids.facts_id(n, 0), None),
        (ids.offer_id(n, 1, "accept"), None),
        (ids.claim_id(n), None),
    ]


async def _press_forged(t: Table, who: str, where: Any, cid: str, values: list[str] | None):
    if values is None:
        component = {"type": 2, "style": 1, "label": "Press", "custom_id": cid}
    else:
        options = [{"label": v, "value": v} for v in values]
        component = {"type": 3, "custom_id": cid, "options": options}
    msg = t.emu.inject_message(where, "forged", components=[{"type": 1, "components": [component]}])
    user = t.players[who]
    if values is None:
        result = await t.emu.click(user, msg, cid)
    else:
        result = await t.emu.select(user, msg, cid, values)
    await result.response()
    await t.settle()
    return result


def _told(result: Any) -> str:
    """What the presser alone was told."""
    return "\n".join(m.text() for m in result.messages if m.ephemeral)


async def _refused_as_unknown(t: Table, who: str, where: Any, game_id: int) -> None:
    """Every kind of control naming ``game_id``, pressed by ``who`` in ``where``, gets the
    words a number no game has gets, and the game is unchanged."""
    before = await t.bot.manager.get_game_info(game_id)
    answered: dict[str, str] = {}
    forged = zip(_forgeries(game_id), _forgeries(UNKNOWN), strict=True)
    for (cid, values), (unknown_cid, _) in forged:
        result = await _press_forged(t, who, where, cid, values)
        answered[cid] = _told(result)
        unknown = await _press_forged(t, who, where, unknown_cid, values)
        answered[unknown_cid] = _told(unknown)
    wrong = {
        cid: text for cid, text in answered.items() if text != _not_found(ids.parse(cid).game_id)
    }
    assert wrong == {}, who
    after = await t.bot.manager.get_game_info(game_id)
    unchanged = (before.version, before.status, before.seats, before.channel_id)
    assert (after.version, after.status, after.seats, after.channel_id) == unchanged


async def test_every_control_naming_another_servers_game_is_refused_as_unknown(tmp_path):
    # Every kind of id that names a game is tried (a /games page names its owner, checked
    # against the clicker or the server, and a game number only as its place in the list;
    # a league's Join names a league, and test_league_commands.py forges it from another
    # server).
    names_no_game = {"page", "league_join"}
    assert {ids.parse(cid).kind for cid, _ in _forgeries(1)} == set(ids.KINDS) - names_no_game
    with catch_errors() as errors_seen:
        async with table(tmp_path, "alice", "bob") as t:
            _moderator(t)
            theirs = await _game_elsewhere(t)
            for who in ("mod", "alice"):  # a moderator here; a player of it, clicking here
                await _refused_as_unknown(t, who, t.channel, theirs.id)
    assert errors_seen.all_errors() == []


async def test_in_a_dm_a_number_reaches_only_the_askers_own_games(tmp_path):
    with catch_errors() as errors_seen:
        async with table(tmp_path, "alice", "bob", "carol") as t:
            theirs = await _game_elsewhere(t)
            carol = t.players["carol"]
            await _refused_as_unknown(t, "carol", t.emu.dm_channel(carol), theirs.id)
            # Its player's own DM prompt still plays it.
            alice = t.players["alice"]
            mine = await _press_forged(
                t, "alice", t.emu.dm_channel(alice), ids.prompt_id(theirs.id), None
            )
            assert "was not found" not in mine.text and _told(mine), mine.text
    assert errors_seen.all_errors() == []


async def test_a_game_whose_home_is_dms_is_reached_by_its_players_alone(tmp_path):
    with catch_errors() as errors_seen:
        async with table(tmp_path, "alice", "bob", "carol") as t:
            _moderator(t)
            await t.start()
            alice = t.players["alice"]
            home = t.emu.dm_channel(alice)
            ours = await t.bot.manager.create_game(
                None,
                str(home.id),
                str(alice.id),
                NewGame(
                    "skirmish", seed=3, options={"rounds": 3}, opponent_id=str(t.players["bob"].id)
                ),
            )
            # From a server: nobody, its own player included; from a DM: a stranger neither.
            for who in ("mod", "alice"):
                await _refused_as_unknown(t, who, t.channel, ours.id)
            await _refused_as_unknown(t, "carol", t.emu.dm_channel(t.players["carol"]), ours.id)
            mine = await _press_forged(t, "alice", home, ids.prompt_id(ours.id), None)
            assert "was not found" not in mine.text and _told(mine), mine.text
    assert errors_seen.all_errors() == []
