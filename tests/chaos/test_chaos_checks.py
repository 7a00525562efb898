"""The chaos run's checks (tests/chaos.py) catch what they are there to catch: an outbox
row delivered twice, a post that is no outbox row's, an acknowledged click missing from
the record, a move of Dispatch without its job or a job done without its move. Without
processes: the records are made up here."""

from __future__ import annotations

from bot.delivery.outbox import delivery_nonce
from bot.discord_app.custom_ids import action_id
from bot.storage.rows import ActionRow
from bot.tables.bot_users import bot_user
from tests.chaos import (
    duplicate_posts,
    lost_clicks,
    moves_beyond_clicks,
    moves_not_once_by_status,
)
from tests.emulator import Emulator
from tests.emulator.state import Interaction

DISPATCH = bot_user("easy")


async def test_two_posts_for_one_outbox_row_or_a_post_of_no_row_are_flagged() -> None:
    async with Emulator() as emu:
        channel = emu.add_text_channel(emu.add_guild(), "games")
        outbox = {delivery_nonce(1, 1000.0): 1, delivery_nonce(2, 1000.5): 2}
        for nonce in outbox:
            emu.inject_message(channel, "a post").nonce = nonce
        assert duplicate_posts(emu, outbox) == (2, [])
        emu.inject_message(channel, "the same again").nonce = delivery_nonce(2, 1000.5)
        emu.inject_message(channel, "no nonce")
        emu.inject_message(channel, "a stranger").nonce = "dsp99.zz"
        posts, problems = duplicate_posts(emu, outbox)
        assert posts == 5
        assert "outbox row 2: 2 messages" in problems
        assert sum("has no outbox row's nonce" in p for p in problems) == 2


def click(emu: Emulator, game: int, version: int, verb: str, *, edits: int) -> Interaction:
    user = emu.add_user("alice")
    channel = emu.dm_channel(user)
    return Interaction(
        id=1,
        token="t",
        type=3,
        user=user,
        channel=channel,
        guild=None,
        payload={"data": {"custom_id": action_id(game, version, verb, "A1")}},
        callback_type=6,
        edits=edits,
    )


def row(seq: int, user: str, verb: str, at: float | None = None) -> ActionRow:
    """An action row, written at ``at`` (default: a moment of its own, ``seq``): the rows
    of one transaction share their moment."""
    moment = float(seq) if at is None else at
    return ActionRow(game_id=7, seq=seq, role="r", user_id=user, verb=verb, arg=None, at=moment)


async def test_an_acknowledged_click_missing_from_the_record_is_lost() -> None:
    async with Emulator() as emu:
        acked = click(emu, 7, 3, "place", edits=1)
        alice = str(acked.user.id)
        recorded = {7: [row(4, alice, "place")]}
        assert lost_clicks(emu, [acked], recorded) == []
        assert lost_clicks(emu, [acked], {7: [row(4, DISPATCH, "place")]}) != []
        assert lost_clicks(emu, [acked], {7: [row(3, alice, "place")]}) != []  # before it
        # Deferred but never edited: not an acknowledgement, so nothing is owed.
        deferred = click(emu, 7, 3, "place", edits=0)
        assert lost_clicks(emu, [deferred], {7: []}) == []


def test_a_bot_move_without_its_job_or_a_job_without_its_move_is_flagged() -> None:
    human, bot = row(1, "alice", "keep"), row(2, DISPATCH, "keep")
    assert moves_not_once_by_status([human, bot], {1: "done"}) == []
    assert moves_not_once_by_status([human, bot], {1: "stale"}) != []
    assert moves_not_once_by_status([human, bot], {}) != []
    assert moves_not_once_by_status([human], {1: "done"}) != []


async def test_a_human_move_recorded_more_often_than_clicked_is_applied_twice() -> None:
    async with Emulator() as emu:
        acked = click(emu, 7, 3, "place", edits=1)
        alice = str(acked.user.id)
        once = {7: [row(4, alice, "place"), row(5, DISPATCH, "place")]}
        assert moves_beyond_clicks([acked], once) == []
        # The done a move implies is recorded with it, under the same player: not a move.
        implied = {7: [row(4, alice, "place"), row(5, alice, "done", at=4.0)]}
        assert moves_beyond_clicks([acked], implied) == []
        # A forced choice taken for her after it is recorded in its transaction too.
        forced = {7: [row(4, alice, "place"), row(5, alice, "place", at=4.0)]}
        assert moves_beyond_clicks([acked], forced) == []
        twice = {7: [row(4, alice, "place"), row(5, DISPATCH, "place"), row(6, alice, "place")]}
        assert moves_beyond_clicks([acked], twice) == ["game 7: 2 moves recorded for 1 clicks"]
