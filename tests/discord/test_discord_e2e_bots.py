"""End-to-end: ``/game new opponent: Dispatch`` seats the bot itself, which then plays
its side through the same manager as a person; a move it owed when the bot stopped is
made after the restart."""

from __future__ import annotations

import pytest

from bot.dispatch_players.bots import BotSeats
from bot.tables.bot_users import bot_user
from bot.tables.requests import Move
from tests.discord_helpers import catch_errors, poll, table, wait_until

pytestmark = pytest.mark.slow


async def _version_after(t, game_id: int, version: int) -> int:  # type: ignore[no-untyped-def]
    async def moved() -> int:
        info = await t.bot.manager.get_game_info(game_id)
        return int(info.version) if info.version > version else 0

    return int(await poll(moved, "Dispatch's move"))


async def test_a_game_against_dispatch_with_a_restart_while_it_owes_a_move(tmp_path):
    with catch_errors() as errors:
        async with table(tmp_path, "alice") as t:
            await t.start()
            alice = str(t.players["alice"].id)
            refused = await t.slash("alice", "game new", game="war", level="hard")
            assert "A level is for games against Dispatch" in refused.text
            result = await t.slash(
                "alice",
                "game new",
                game="fort_sumter",
                opponent=t.emu.bot_user,
                side="secessionist",
                level="easy",
            )
            assert "the game is on" in result.text, result.text
            info = await t.bot.manager.game_in_channel(str(t.channel.id))
            assert info is not None
            assert {s.role: s.user_id for s in info.seats} == {
                "secessionist": alice,
                "unionist": bot_user("easy"),
            }
            # Both keep an objective at once: Dispatch's comes by itself.
            await _version_after(t, info.id, info.version)
            pv = await t.bot.manager.view_for(info.id, alice)
            assert pv.view["active"] == ["secessionist"]
            # The bot process dies before it can answer alice's move...
            BotSeats.of(t.bot.manager).nudge = lambda game_id: None
            await t.bot.manager.act(
                info.id, alice, Move("keep", pv.view["actions"]["keep"][0], pv.version)
            )
            owed = await t.bot.manager.get_game_info(info.id)
            # Who moves first after the objectives follows the deal and Dispatch's own
            # (secret) choices: alice plays on until Dispatch owes a move.
            for _ in range(20):
                if "unionist" in owed.active_roles:
                    break
                assert owed.active_roles == ("secessionist",)
                pv = await t.bot.manager.view_for(info.id, alice)
                verb, args = next((v, a) for v, a in pv.view["actions"].items() if v != "undo")
                arg = args[0] if isinstance(args, list) else None
                await t.bot.manager.act(info.id, alice, Move(verb, arg, pv.version))
                owed = await t.bot.manager.get_game_info(info.id)
            assert "unionist" in owed.active_roles
            await t.restart()
            # ...and the restarted bot makes the move it owes.
            await _version_after(t, info.id, owed.version)
            text = t.public_text()
            assert "Dispatch (easy)" in text
    assert errors.discord_errors() == []


async def test_a_game_against_dispatch_run_by_the_fate_die(tmp_path):
    """``style: fate``: the Fate Die picks Dispatch's cards, and the table sees the die
    and the display (a band under the board) in the posts."""
    import io

    from PIL import Image

    with catch_errors() as errors:
        async with table(tmp_path, "alice") as t:
            await t.start()
            refused = await t.slash("alice", "game new", game="fort_sumter", style="fate")
            assert "A style is for games against Dispatch" in refused.text
            refused = await t.slash(
                "alice", "game new", game="war", opponent=t.emu.bot_user, style="fate"
            )
            assert "no Fate Die playsheet" in refused.text
            result = await t.slash(
                "alice",
                "game new",
                game="fort_sumter",
                opponent=t.emu.bot_user,
                side="secessionist",
                level="easy",
                style="fate",
            )
            assert "the game is on" in result.text, result.text
            assert "Fate Die picks which of Dispatch's cards" in result.text
            info = await t.bot.manager.game_in_channel(str(t.channel.id))
            assert info is not None
            state = await t.bot.manager.records.replay(info.id)
            assert state["options"]["fate"] == "unionist"
            # alice keeps an objective; Dispatch, first player on a tie, rolls and plays.
            await _version_after(t, info.id, info.version)
            pv = await t.bot.manager.view_for(info.id, str(t.players["alice"].id))
            await t.bot.manager.act(
                info.id,
                str(t.players["alice"].id),
                Move("keep", pv.view["actions"]["keep"][0], pv.version),
            )
            await wait_until(lambda: "Fate Die for Unionist" in t.public_text(), what="the roll")
            assert "Fate Die for Unionist" in t.public_text()
            channel = t.emu.channel_messages(t.channel.id)
            boards = [a for m in channel for a in m.attachments if a.filename == "board.png"]
            assert boards
            assert Image.open(io.BytesIO(boards[-1].data)).height == 812 + 128
    assert errors.all_errors() == []
