"""The "cannot post" notice names the cause Discord returned, and what fixes that cause,
instead of every possible cause: the channel deleted (10003 Unknown Channel), no View
Channel (50001 Missing Access), a permission missing (50013 Missing Permissions, with the
permission the bot's cache shows lacking), the thread locked or archived (50083)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from bot import errors
from bot.delivery.courier import unreachable_notice
from bot.delivery.port import GameInfo, SeatInfo
from bot.tables.requests import Move
from tests.discord.test_discord_e2e_fort_sumter import SEATS, new_game
from tests.discord.test_discord_unreachable import manager_choice, notices
from tests.discord_helpers import catch_errors, table
from tests.emulator.state import ATTACH_FILES, SEND_MESSAGES_IN_THREADS, VIEW_CHANNEL

#: Words of the causes a notice must not list when Discord named another.
OTHER_CAUSES = ("deleted", "View Channel", "Send Messages", "locked", "archived")


def duel() -> GameInfo:
    seats = (SeatInfo(role="union", user_id="u0"), SeatInfo(role="confederate", user_id="u1"))
    roles = ("union", "confederate")
    return GameInfo(1, "g", "c", "war", "War", "active", 3, "u0", seats, roles, roles)


@pytest.mark.parametrize(
    ("cause", "missing", "says", "fix"),
    [
        (errors.CHANNEL_DELETED, (), "no longer exists (it was deleted)", "/game move"),
        (errors.NO_ACCESS, (), "I lack View Channel there", "gives me View Channel"),
        (errors.NO_PERMISSION, ("Attach Files",), "lack a permission there: Attach Files", ""),
        (errors.THREAD_LOCKED, (), "a moderator locked its thread", "unlocks the thread"),
        (errors.THREAD_ARCHIVED, (), "its thread is archived", "reopens the thread"),
    ],
)
def test_the_notice_names_the_one_cause_and_its_fix(
    cause: str, missing: tuple[str, ...], says: str, fix: str
) -> None:
    text = unreachable_notice(duel(), "union", cause, missing).headline
    assert says in text and fix in text and "/game move game:1" in text
    named = says + " " + " ".join(missing)
    assert [w for w in OTHER_CAUSES if w in text and w not in named] == []
    # A deleted channel cannot be fixed, only left: /game status there is not offered.
    assert ("/game status" in text) is (cause != errors.CHANNEL_DELETED)


Break = Callable[[Any], None]


def deleted(t: Any) -> None:
    t.emu.delete_channel(t.channel)


def unseen(t: Any) -> None:
    t.emu.deny_bot(t.parent, VIEW_CHANNEL)


def silenced(t: Any) -> None:
    t.emu.deny_bot(t.parent, SEND_MESSAGES_IN_THREADS)


def no_files(t: Any) -> None:
    t.emu.deny_bot(t.parent, ATTACH_FILES)


def locked(t: Any) -> None:
    t.emu.lock_thread(t.channel)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("breaks", "says"),
    [
        (deleted, "no longer exists (it was deleted)"),
        (unseen, "I lack View Channel there"),
        (silenced, "I lack a permission there: Send Messages in Threads."),
        (no_files, "I lack a permission there: Attach Files."),
        (locked, "a moderator locked its thread"),
    ],
    ids=["deleted", "missing access", "missing permission", "missing files", "locked thread"],
)
async def test_each_player_is_told_the_cause_discord_returned(
    tmp_path: Any, breaks: Break, says: str
) -> None:
    with catch_errors() as errors_seen:
        async with table(tmp_path, "alice", "bob") as t:
            await t.start()
            game_id = await new_game(t, seed=5)
            assert t.parent is not None, "the game is played in its thread"
            breaks(t)
            manager = t.bot.manager
            info = await manager.get_game_info(game_id)
            for role in info.active_roles:  # both keep an objective: a table post is due
                user = str(t.players[SEATS[role]].id)
                pv = await manager.view_for(game_id, user, role=role)
                verb, arg = manager_choice(pv.view)
                await manager.act(game_id, user, Move(verb, arg, pv.version))
            for who in ("alice", "bob"):
                [notice] = notices(t, who)
                text = t.emu.message(notice.id).text()
                assert says in text, text
                assert [w for w in OTHER_CAUSES if w in text and w not in says] == [], text
    assert errors_seen.all_errors() == []
