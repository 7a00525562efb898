"""The one custom-id codec: every kind round-trips, and the ids that messages already
sent carry (made by the versions before the codec was one table) still decode to the
same fields, byte for byte, and are made again the same."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.discord_app import components as c
from bot.discord_app import custom_ids as ids
from bot.discord_app import history_ui, league_lobby, seat_components, solo_message
from bot.discord_app.cogs import game as game_cog
from bot.discord_app.prompts import ActionSelect
from bot.discord_app.seat_components import OfferButton

#: Ids as the code before the one codec made them (its id functions and component
#: classes, run on these values), with what they stand for.
SENT_BEFORE: list[tuple[str, str, tuple[Any, ...]]] = [
    ("dsp:a:12:34:place:left:U48", "action", (12, 34, "place", "left:U48")),
    ("dsp:a:5:7:done:", "action", (5, 7, "done", None)),
    ("dsp:a:5:7:pick:'12", "action", (5, 7, "pick", "12")),
    ("dsp:a:5:7:pick:12", "action", (5, 7, "pick", 12)),
    ("dsp:a:5:7:pick:-3", "action", (5, 7, "pick", -3)),
    ("dsp:a:5:7:pick:'", "action", (5, 7, "pick", "")),
    ("dsp:a:5:7:pick:''quoted", "action", (5, 7, "pick", "'quoted")),
    ("dsp:a:5:7:space:texas", "action", (5, 7, "space", "texas")),
    ("dsp:s:5:11:space:2", "select", (5, 11, "space", 2)),
    ("dsp:j:5:confederate", "join", (5, "confederate")),
    ("dsp:d:5:union", "dispatch", (5, "union")),
    ("dsp:h:5", "prompt", (5,)),
    ("dsp:r:5:swap", "rematch", (5, "swap")),
    ("dsp:t:7:board", "show", (7, "board")),
    ("dsp:t:7:status", "show", (7, "status")),
    ("dsp:o:3:9:end:confirmed", "solo_action", (3, 9, "end", "confirmed")),
    ("dsp:o:3:9:stay:", "solo_action", (3, 9, "stay", None)),
    ("dsp:o:3:9:number:41", "solo_action", (3, 9, "number", 41)),
    ("dsp:q:3:9:card:1", "solo_select", (3, 9, "card", 1)),
    ("dsp:f:3:9", "facts", (3, 9)),
    ("dsp:x:4:17:accept", "offer", (4, 17, "accept")),
    ("dsp:x:4:17:decline", "offer", (4, 17, "decline")),
    (
        "dsp:y:mine:123456789012345678:o:1099511627776",
        "page",
        ("mine", "123456789012345678", True, 1 << 40),
    ),
    ("dsp:y:server:42:n:3", "page", ("server", "42", False, 3)),
    ("dsp:y:live:42:o:0", "page", ("live", "42", True, 0)),
    ("dsp:w:8", "claim", (8,)),  # made by the first Claim the win buttons
    ("dsp:l:12", "league_join", (12,)),  # a league lobby's Join
]


def fields_of(parsed: ids.Parsed) -> tuple[Any, ...]:
    names = [f.name for f in ids.KINDS[parsed.kind].fields]
    return tuple(getattr(parsed, name) for name in names)


@pytest.mark.parametrize(("custom_id", "kind", "values"), SENT_BEFORE)
def test_ids_sent_before_decode_and_are_made_again_the_same(
    custom_id: str, kind: str, values: tuple[Any, ...]
) -> None:
    parsed = ids.parse(custom_id)
    assert parsed.kind == kind
    assert fields_of(parsed) == values
    assert ids.encode(kind, *values) == custom_id


def test_every_kind_has_an_id_sent_before() -> None:
    assert {kind for _, kind, _ in SENT_BEFORE} == set(ids.KINDS)


def test_every_kind_round_trips() -> None:
    for custom_id, kind, values in SENT_BEFORE:
        assert fields_of(ids.parse(ids.encode(kind, *values))) == values
        again = ids.encode(kind, *fields_of(ids.parse(custom_id)))
        assert again == custom_id


def test_the_named_builders_make_the_same_ids() -> None:
    assert ids.action_id(12, 34, "place", "left:U48") == "dsp:a:12:34:place:left:U48"
    assert ids.solo_action_id(3, 9, "stay") == "dsp:o:3:9:stay:"
    assert ids.solo_select_id(3, 9, "card", 1) == "dsp:q:3:9:card:1"
    assert ids.rematch_id(5, "swap") == "dsp:r:5:swap"
    assert ids.facts_id(3, 9) == "dsp:f:3:9"
    assert ids.offer_id(4, 17, "decline") == "dsp:x:4:17:decline"
    assert ids.page_id("mine", "123456789012345678", True, 1 << 40) == SENT_BEFORE[22][0]
    assert ids.league_join_id(12) == "dsp:l:12"


@pytest.mark.parametrize(
    "forged",
    [
        "dsp:a:5:7:Place:x",  # a verb is lower case
        "dsp:s:5:7:space:123",  # three-digit part
        "dsp:r:5:never",
        "dsp:t:7:hand",
        "dsp:x:4:17:maybe",
        "dsp:y:everyone:1:o:1",
        "dsp:y:mine:1:x:1",
        "dsp:f:3",
        "dsp:z:1",
        "dsp:a:5:7:pick:a\nb",
        "dsp:h:" + "9" * 19,
        "dsp:a:1:1:v:" + "x" * 100,
    ],
)
def test_what_the_table_does_not_hold_is_not_ours(forged: str) -> None:
    with pytest.raises(ids.BadCustomId):
        ids.parse(forged)
    assert not ids.is_ours(forged)
    assert c.DispatchComponent.__discord_ui_compiled_template__.fullmatch(forged) is None or (
        len(forged) > ids.MAX_CUSTOM_ID
    )


def test_values_that_do_not_fit_are_refused_when_encoding() -> None:
    with pytest.raises(ids.BadCustomId):
        ids.encode("rematch", 5, "never")
    with pytest.raises(ids.BadCustomId):
        ids.encode("action", 5, 7, "v", "x" * 100)
    with pytest.raises(ids.BadCustomId):
        ids.encode("join", 5)  # a field short
    with pytest.raises(ids.BadCustomId):
        ids.encode("action", "five", 7, "v", None)


def test_the_one_template_matches_every_kind_and_only_them() -> None:
    template = c.DispatchComponent.__discord_ui_compiled_template__
    for custom_id, _, _ in SENT_BEFORE:
        assert template.fullmatch(custom_id), custom_id
    assert not template.fullmatch("join:7")  # another bot's id


def test_every_kind_has_a_handler() -> None:
    cogs = (
        game_cog.ITEMS,
        solo_message.ITEMS,
        history_ui.ITEMS,
        seat_components.ITEMS,
        league_lobby.ITEMS,
    )
    assert {item.kind for items in cogs for item in items} == set(ids.KINDS)


def test_a_component_is_read_back_from_its_id() -> None:
    button = OfferButton.button(ids.offer_id(4, 17, "accept"), "Accept")
    assert button.click == ids.Parsed(kind="offer", game_id=4, offer=17, answer="accept")
    assert button.values == []
    select = ActionSelect.select(
        ids.select_id(5, 11, "space", 0), [discord.SelectOption(label="a")], None, 3
    )
    assert select.click.kind == "select" and select.max_values == 1  # one option: one value
