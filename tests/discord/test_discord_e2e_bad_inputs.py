"""End-to-end: slash commands carrying bad values get a polite ephemeral answer, nothing else.

Discord's client checks option ranges, but an interaction payload can carry any value
(a modified client, a forged request, a user typing into a free-text option). The bot
must answer each with a clear message only the sender sees, change nothing, and log no
ERROR: an ERROR would mean the value reached code that did not expect it.
"""

from __future__ import annotations

import math
import random

import pytest

from tests.discord_helpers import Table, table

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("strict_guard")]


async def start(t: Table) -> int:
    await t.start()
    result = await t.slash("alice", "game new", game="skirmish", opponent=t.players["bob"])
    assert "the game is on" in result.text
    await t.emu.wait_for_messages(t.channel, 1, responses=False)
    info = await t.bot.manager.game_in_channel(str(t.channel.id))
    return info.id


async def stored(t: Table, game_id: int) -> tuple[object, ...]:
    """What a refused command must leave alone: state, version, action log, outbox."""
    m = t.bot.manager
    info = await m.get_game_info(game_id)
    exported = await m.records.export(game_id)
    async with m.store.read() as db:
        outbox = await db._all("SELECT id FROM outbox ORDER BY id")
    return (await m.records.replay(game_id), info.version, exported["actions"], len(outbox))


def assert_polite(result: object, *expected: str) -> None:
    text = result.text  # type: ignore[attr-defined]
    assert result.ephemeral, text  # type: ignore[attr-defined]
    assert not expected or any(e in text for e in expected), text
    assert "went wrong" not in text and "Traceback" not in text
    record = result.record  # type: ignore[attr-defined]
    assert record.ack_latency is not None and record.ack_latency < 3.0


async def test_play_with_a_superscript_digit_is_refused_politely(tmp_path):
    # "²".isdigit() is True but int("²") fails: this used to end in "Something went wrong".
    async with table(tmp_path, "alice", "bob") as t:
        game_id = await start(t)
        before = await stored(t, game_id)
        for who in ("alice", "bob"):
            result = await t.slash(who, "game play", action="²:place:x")
            assert_polite(result, "“²” is not a prompt number")
            assert "Pick one of the offered actions" in result.text
        assert await stored(t, game_id) == before


async def test_other_malformed_play_texts_are_refused_politely(tmp_path):
    async with table(tmp_path, "alice", "bob") as t:
        game_id = await start(t)
        before = await stored(t, game_id)
        version = (await t.bot.manager.get_game_info(game_id)).version
        cases = {
            "٣:card:K01": "is not a prompt number",
            f"{version}:card:" + "9" * 40: "too large",
            f"{version}:card:" + "9" * 5000: "Pick one of the offered actions",  # too long
            f"{version}:Card!:K01": "is not an action",
            f"{version}::": "Pick one of the offered actions",
            "card": "Pick one of the offered actions",
            f"{version}:card:" + "K" * 250: "not one of the choices",
            f"{version}:card:" + "1" * 19: "not possible",  # fits, but no game lists it
            f"{version}:card:" + "9" * 19: "too large for any action",  # over 2**63 - 1
            f"{version}:card:K99": "not possible",
        }
        for text, expected in cases.items():
            result = await t.slash("alice", "game play", action=text)
            assert_polite(result, expected)
        assert await stored(t, game_id) == before


async def test_fuzzed_play_texts_are_all_refused_politely(tmp_path):
    # No "K" in the alphabet, so no text can name a card in hand: the only legal actions
    # in the first step. Every answer must be a polite refusal that changed nothing.
    rng = random.Random(7)
    alphabet = "0123456789:²٣-' cardonexyz"
    texts = ["".join(rng.choices(alphabet, k=rng.randint(0, 24))) for _ in range(40)]
    texts += [f"0:card:{t}" for t in texts[:10]] + [f"0:{t}:" for t in texts[10:20]]
    async with table(tmp_path, "alice", "bob") as t:
        game_id = await start(t)
        before = await stored(t, game_id)
        for text in texts:
            result = await t.slash("alice", "game play", action=text)
            assert_polite(result)  # the rules' own words, or the parser's
        assert await stored(t, game_id) == before


async def test_new_game_with_an_impossible_seed_or_options_is_refused_politely(tmp_path):
    async with table(tmp_path, "alice", "bob") as t:
        await t.start()
        for seed in (2**63, 2**53, -1):
            result = await t.slash("alice", "game new", game="skirmish", seed=seed)
            assert_polite(result, "The seed must be a whole number from 0 to")
        for options in ("rounds=" + "9" * 400, "rounds=nan", '{"rounds": [1]}'):
            result = await t.slash("alice", "game new", game="skirmish", options=options)
            assert_polite(result, "options were not accepted")
        result = await t.slash("alice", "game new", game="skirmish", side="east" * 30)
        assert_polite(result, "is not a side in this game")
        assert await t.bot.manager.game_in_channel(str(t.channel.id)) is None


async def test_settings_with_impossible_reminder_hours_is_refused_politely(tmp_path):
    async with table(tmp_path, "alice") as t:
        await t.start()
        t.players["owner"] = t.emu.owner
        for hours in (math.nan, math.inf, -1.0, 1e12, 0.0):
            result = await t.slash("owner", "game settings", reminder_hours=hours)
            assert_polite(result, "Reminders can be set between")
        shown = await t.slash("owner", "game settings")
        assert "24 hours" in shown.text
