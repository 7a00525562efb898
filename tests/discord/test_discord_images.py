"""Pictures are uploaded once: a played Fort Sumter game through the
emulator, counting uploads of a picture the same channel (the table, a player's DMs)
already has; and a table post whose board did not change links to the one that shows it."""

from __future__ import annotations

import pytest

import rules
from bot.delivery.port import TablePost
from tests.discord.test_discord_controls import click_policy_move
from tests.discord.test_discord_e2e_fort_sumter import new_game
from tests.discord_helpers import catch_errors, table

pytestmark = pytest.mark.slow

GAME = rules.get_game("fort_sumter")


def repeated_uploads(t, channel_ids: set[int]) -> tuple[int, int]:
    """(uploads to these channels, uploads of a picture already uploaded to that channel).

    Phone close-ups (``closeup-*``) are counted apart, by ``repeated_closeups``: one goes
    beside the decision it shows, so the same close-up may come back many messages later,
    but never twice running."""
    total = repeats = 0
    seen: set[tuple[int, str]] = set()
    for channel_id, name, digest in t.emu.world.uploads:
        if channel_id not in channel_ids or name.startswith("closeup-"):
            continue
        total += 1
        repeats += (channel_id, digest) in seen
        seen.add((channel_id, digest))
    return total, repeats


def repeated_closeups(t, channel_ids: set[int]) -> tuple[int, int]:
    """(close-ups uploaded to these channels, uploads of the close-up that channel got
    last)."""
    total = repeats = 0
    last: dict[int, str] = {}
    for channel_id, name, digest in t.emu.world.uploads:
        if channel_id not in channel_ids or not name.startswith("closeup-"):
            continue
        total += 1
        repeats += last.get(channel_id) == digest
        last[channel_id] = digest
    return total, repeats


def keep_the_board(view, verb, arg):
    """A Final Crisis move left untouched is a Done: the board stays as it was, so no new
    picture."""
    untouched = "move up to 2" in str(view.get("prompt"))
    if view.get("step") == "final_crisis_move" and untouched:
        return "done", None
    return verb, arg


async def test_a_played_game_uploads_each_board_picture_once(tmp_path):
    with catch_errors() as errors_seen:
        async with table(tmp_path, "alice", "bob") as t:
            await t.start()
            game_id = await new_game(t, seed=11)
            manager = t.bot.manager
            for _click in range(400):
                if not await click_policy_move(t, game_id, adjust=keep_the_board):
                    break
            info = await manager.get_game_info(game_id)
            assert info.status == "finished"
            table_uploads, table_repeats = repeated_uploads(t, {t.channel.id})
            dms = {t.emu.world.dm_channels[p.id].id for p in t.players.values()}
            dm_uploads, dm_repeats = repeated_uploads(t, dms)
            print(f"table: {table_uploads} uploads, DMs: {dm_uploads} uploads")
            # Before: the next DM uploaded again the hand its player's answered DM showed
            # (17 repeats in this game).
            assert (table_repeats, dm_repeats) == (0, 0)
            closeups, closeup_repeats = repeated_closeups(t, dms | {t.channel.id})
            # The ringed choices close up, in DMs only.
            assert closeups > 0 and closeup_repeats == 0
            # The front end's memory of what each table and DM shows ends with the game.
            front = t.bot.frontend
            remembered = [*front._last_hand, *front._last_closeup]
            assert game_id not in front._last_board
            assert [key for key in remembered if key[0] == game_id] == []
    assert errors_seen.all_errors() == []


async def test_a_table_post_with_an_unchanged_board_links_to_the_previous_one(tmp_path):
    with catch_errors() as errors_seen:
        async with table(tmp_path, "alice", "bob") as t:
            await t.start()
            game_id = await new_game(t, seed=11)
            manager = t.bot.manager
            info = await manager.get_game_info(game_id)
            pv = await manager.view_for(game_id, None)
            post = TablePost(kind="turn", version=info.version, headline="Again.", view=pv.view)
            # The start post showed this board; two more posts of it upload nothing.
            [shown] = [m for m in t.emu.channel_messages(t.channel.id) if m.attachments]
            link = f"https://discord.com/channels/{t.guild.id}/{t.channel.id}/{shown.id}"
            before = len(t.emu.world.uploads)
            for _ in range(2):
                await t.bot.frontend.post_table(info, post)
                again = t.emu.message(t.emu.channel_messages(t.channel.id)[-1].id)
                assert again.attachments == [] and "image" not in again.embeds[0]
                [field] = [f for f in again.embeds[0]["fields"] if f["name"] == "Board"]
                assert link in field["value"]
            assert len(t.emu.world.uploads) == before, "the same board was uploaded again"
    assert errors_seen.all_errors() == []


class Shown:
    """An attachment already on a message (only its name matters here)."""

    def __init__(self, filename: str) -> None:
        self.filename = filename


def prompt(picture: str, data: bytes = b"") -> dict:
    import discord

    from bot.discord_app.frontend import png_file

    return {"embed": discord.Embed(), "hand": picture, "files": [png_file(data, picture, "alt")]}


async def test_an_edited_prompt_keeps_the_pictures_it_has(monkeypatch):
    """Lincoln's placements: hand, board with choices, hand again. The hand stays on the
    message (as the thumbnail while the board shows) and is never uploaded twice."""
    import discord

    from bot.discord_app import prompts as frontend

    async def same_hand(game_name, view):
        return b"hand"

    monkeypatch.setattr(frontend, "hand_image", same_hand)
    hand = frontend.hand_name(b"hand")
    game = type("G", (), {"game_name": "lincoln"})()
    on_message = [Shown(hand)]

    choosing = prompt("board-1.png")
    kept = await frontend.edited_pictures(game, {}, choosing, on_message)
    assert kept is not None and kept[1] is on_message[0]
    assert isinstance(kept[0], discord.File) and kept[0].filename == "board-1.png"
    assert choosing["embed"].thumbnail.url == f"attachment://{hand}"

    back = prompt(hand)
    kept = await frontend.edited_pictures(game, {}, back, [on_message[0], Shown("board-1.png")])
    assert kept == [on_message[0]], "the hand was uploaded again"

    same = prompt(hand)
    assert await frontend.edited_pictures(game, {}, same, [Shown(hand)]) is None

    above = prompt(hand)  # a DM that said its hand is as in the one above
    assert await frontend.edited_pictures(game, {}, above, [], above=hand) is None
    assert above["embed"].image.url is None
    assert [f.value for f in above["embed"].fields] == [frontend.SAME_AS_ABOVE]
