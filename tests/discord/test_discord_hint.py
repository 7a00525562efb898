"""End-to-end: ``/game hint`` on Discord. In a game against Dispatch
the asker alone sees the search's top three choices, in the view's words, and the same
ones when the opponent's hidden hand is swapped; in a rated game between two people it is
refused, politely and changing nothing."""

from __future__ import annotations

import json
import re

import pytest

from bot.dispatch_players.bots import BotSeats
from bot.storage.rows import dumps
from bot.tables import hints
from bot.tables.requests import Move
from tests.discord_helpers import catch_errors, table

pytestmark = pytest.mark.slow

#: A small budget keeps the test quick (the real one is the normal level's).
ITERATIONS = 60
CHOICE = re.compile(r"^(?:\d\.|1=) (.+) — [\d,]+ playouts, won \d+%$", re.M)


async def _alice_to_cards(t, game_id: int) -> None:  # type: ignore[no-untyped-def]
    """Both keep an objective (Dispatch's comes by itself); then alice holds her cards."""
    manager = t.bot.manager
    alice = str(t.players["alice"].id)
    pv = await manager.view_for(game_id, alice)
    await manager.act(game_id, alice, Move("keep", pv.view["actions"]["keep"][0], pv.version))

    async def alice_to_play() -> bool:
        await BotSeats.of(manager).idle()
        info = await manager.get_game_info(game_id)
        return "secessionist" in info.active_roles

    for _ in range(50):
        if await alice_to_play():
            return
    raise AssertionError("alice never had a card to play")


async def _swap_dispatchs_card(t, game_id: int) -> None:  # type: ignore[no-untyped-def]
    async with t.bot.manager.store.transaction() as db:
        [[text]] = await db.db.execute_fetchall("SELECT state FROM games WHERE id = ?", (game_id,))
        state = json.loads(text)
        hand, deck = state["hands"]["unionist"], state["strategy_deck"]
        hand[0], deck[0] = deck[0], hand[0]
        await db.db.execute_fetchall(
            "UPDATE games SET state = ? WHERE id = ?", (dumps(state), game_id)
        )


async def test_a_hint_against_dispatch_shows_three_choices_to_the_asker_alone(tmp_path):
    with catch_errors() as errors:
        async with table(tmp_path, "alice") as t:
            await t.start()
            BotSeats.of(t.bot.manager).iterations = ITERATIONS
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
            # A keyed game against Dispatch counts for ratings: the first hint comes
            # before alice's first decision (her objective), and makes it a practice game.
            first = await t.slash("alice", "game hint")
            assert first.ephemeral and "assisted" in first.text, first.text
            await _alice_to_cards(t, info.id)
            pv = await t.bot.manager.view_for(info.id, str(t.players["alice"].id))
            before = t.public_text()

            hint = await t.slash("alice", "game hint")
            assert hint.ephemeral, hint.text
            choices = CHOICE.findall(hint.text)
            assert len(choices) == hints.HINT_CHOICES, hint.text
            labels = {
                str(text)
                for table_ in pv.view["labels"].values()
                if isinstance(table_, dict)
                for text in table_.values()
            }
            assert set(choices) <= labels  # the view's words, never ids
            assert "assisted" in hint.text and len(hint.text) <= 2000
            # Nothing of it reached the channel (nor anyone's DMs: alice is alone here).
            assert t.public_text() == before
            assert "playouts" not in t.public_text()

            # What Dispatch really holds is swapped: the hint, from alice's view, is not.
            await _swap_dispatchs_card(t, info.id)
            again = await t.slash("alice", "game hint")
            assert again.ephemeral and again.text == hint.text
            async with t.bot.manager.store.read() as db:
                assert await db.hints.hints_used(info.id) == 3
    assert errors.discord_errors() == []


async def test_a_hint_in_a_rated_game_between_people_is_refused(tmp_path):
    with catch_errors() as errors:
        async with table(tmp_path, "alice", "bob") as t:
            await t.start()
            result = await t.slash(
                "alice", "game new", game="fort_sumter", opponent=t.players["bob"]
            )
            assert "the game is on" in result.text and "Seed" not in result.text
            info = await t.bot.manager.game_in_channel(str(t.channel.id))
            for who in ("alice", "bob"):
                refused = await t.slash(who, "game hint")
                assert refused.ephemeral
                assert "practice games only" in refused.text, refused.text
            async with t.bot.manager.store.read() as db:
                assert await db.hints.hints_used(info.id) == 0
            assert "practice" not in t.public_text()
    assert errors.discord_errors() == []


async def test_where_the_game_turned_is_shown_only_at_the_end(tmp_path):
    """A game against Dispatch (normal): no post or DM before the end carries its
    estimates; the end post has one line on where the game turned, ``/game log`` three."""
    from tests.tables.test_ratings import play_greedy

    with catch_errors() as errors:
        async with table(tmp_path, "alice") as t:
            await t.start()
            BotSeats.of(t.bot.manager).iterations = 12
            result = await t.slash(
                "alice",
                "game new",
                game="fort_sumter",
                opponent=t.emu.bot_user,
                side="secessionist",
                level="normal",
            )
            assert "the game is on" in result.text, result.text
            info = await t.bot.manager.game_in_channel(str(t.channel.id))
            early = await t.slash("alice", "game log", count=200)
            assert "estimate" not in early.text
            await play_greedy(t.bot.manager, info.id, str(t.players["alice"].id))
            await t.bot.manager.deliver_pending()
            posts = t.emu.channel_messages(t.channel.id)
            [end] = [m for m in posts if "Game over" in m.content]
            assert "Where it turned" in end.text() and "/game log" in end.text()
            before = [m for m in posts if m.id < end.id]
            dms = t.emu.dms(t.players["alice"].id)
            assert not any("estimate" in m.text() for m in before + dms)
            log = await t.slash("alice", "game log", count=200)
            assert log.ephemeral and "Where the game turned" in log.text, log.text
            assert log.text.count("Dispatch (normal)'s estimate") == 3
    assert errors.discord_errors() == []
