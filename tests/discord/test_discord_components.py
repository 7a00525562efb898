"""Unit tests of the custom_id codec and the view -> components builder (no network)."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.discord_app import components as c
from bot.discord_app import custom_ids as ids
from bot.discord_app import lobby, prompts
from bot.discord_app.cogs.game import parse_options


@pytest.mark.parametrize(
    "arg", [None, 0, 7, -3, 123456, "K17", "abc:def", "12", "'quoted", "", "x y", "Ü-ñ"]
)
def test_action_id_round_trip_keeps_arg_and_type(arg: Any) -> None:
    cid = ids.action_id(42, 9, "card", arg)
    parsed = ids.parse(cid)
    assert (parsed.kind, parsed.game_id, parsed.version, parsed.verb) == ("action", 42, 9, "card")
    assert parsed.arg == arg and type(parsed.arg) is type(arg)
    assert len(cid) <= ids.MAX_CUSTOM_ID


def test_other_ids_round_trip() -> None:
    s = ids.parse(ids.select_id(5, 11, "space", 2))
    assert (s.kind, s.game_id, s.version, s.verb, s.part) == ("select", 5, 11, "space", 2)
    j = ids.parse(ids.join_id(5, "confederate"))
    assert (j.kind, j.game_id, j.role) == ("join", 5, "confederate")
    p = ids.parse(ids.prompt_id(5))
    assert (p.kind, p.game_id) == ("prompt", 5)


def test_brief_format() -> None:
    assert ids.action_id(3, 14, "place", 2) == "dsp:a:3:14:place:2"
    assert ids.action_id(3, 14, "done") == "dsp:a:3:14:done:"
    assert ids.select_id(3, 14, "space") == "dsp:s:3:14:space:0"


@pytest.mark.parametrize(
    "forged",
    [
        "",
        "dsp",
        "dsp:a",
        "dsp:a:x:1:card:1",
        "dsp:a:1:-1:card:1",
        "dsp:a:1:1:CARD:1",
        "dsp:a:1:1:card",
        "dsp:s:1:1:card:x",
        "dsp:z:1:1:card:1",
        "dsp:j:1:",
        "dsp:j:1:bad role",
        "dsp:h:one",
        "other:a:1:1:card:1",
        "dsp:a:1:1:card:" + "x" * 100,
        "dsp:a:1:1:card:line\nbreak",
        "dsp:a:99999999999999999999:1:card:1",
    ],
)
def test_forged_or_malformed_ids_are_refused(forged: str) -> None:
    with pytest.raises(ids.BadCustomId):
        ids.parse(forged)
    assert not ids.is_ours(forged)


def test_too_long_arg_cannot_be_encoded() -> None:
    with pytest.raises(ids.BadCustomId):
        ids.action_id(1, 1, "card", "x" * 100)
    with pytest.raises(ids.BadCustomId):
        ids.action_id(1, 1, "Bad Verb", 1)


def _rows(ui: discord.ui.View) -> list[list[dict[str, Any]]]:
    payload = ui.to_components()
    return [row["components"] for row in payload]


def test_true_verbs_and_short_lists_become_buttons_with_labels() -> None:
    view = {
        "actions": {"card": ["U01", "U02"], "done": True, "undo": True},
        "labels": {"card": {"U01": "Grant (3)", "U02": "Sherman (2)"}, "done": "Finish"},
    }
    built = prompts.build_prompt_view(4, 2, view)
    rows = _rows(built.view)
    buttons = [b for row in rows for b in row]
    labels = [b["label"] for b in buttons]
    assert labels == ["Grant (3)", "Sherman (2)", "Finish", "Undo"]
    assert [ids.parse(b["custom_id"]).arg for b in buttons] == ["U01", "U02", None, None]
    assert all(ids.parse(b["custom_id"]).version == 2 for b in buttons)
    assert not built.overflow


def test_only_listed_actions_get_components() -> None:
    view = {"actions": {"pass": True}, "labels": {"pass": "Pass", "card": {"U01": "Grant"}}}
    rows = _rows(prompts.build_prompt_view(1, 1, view).view)
    assert [b["label"] for row in rows for b in row] == ["Pass"]
    assert prompts.build_prompt_view(1, 1, {"actions": {}}).view.children == []


def test_more_than_25_options_split_into_several_selects() -> None:
    args = list(range(1, 61))
    view = {
        "actions": {"space": args, "done": True},
        "labels": {"space": {str(a): f"Space {a}" for a in args}, "done": "Done"},
    }
    built = prompts.build_prompt_view(8, 3, view)
    rows = _rows(built.view)
    assert len(rows) <= c.MAX_ROWS
    selects = [comp for row in rows for comp in row if comp["type"] == 3]
    assert [len(s["options"]) for s in selects] == [25, 25, 10]
    values = [int(o["value"]) for s in selects for o in s["options"]]
    assert values == args
    assert selects[0]["options"][0]["label"] == "Space 1"
    assert len({s["custom_id"] for s in selects}) == 3
    assert all(ids.parse(s["custom_id"]).verb == "space" for s in selects)
    assert not built.overflow


def test_five_row_limit_is_kept_and_overflow_reported() -> None:
    actions: dict[str, Any] = {f"v{i}": list(range(30)) for i in range(4)}
    actions["done"] = True
    built = prompts.build_prompt_view(1, 1, {"actions": actions, "labels": {}})
    rows = _rows(built.view)
    assert len(rows) == c.MAX_ROWS
    assert all(len(row) <= c.BUTTONS_PER_ROW for row in rows)
    assert built.overflow


def test_long_labels_are_clipped() -> None:
    view = {"actions": {"go": True}, "labels": {"go": "x" * 200}}
    [[button]] = _rows(prompts.build_prompt_view(1, 1, view).view)
    assert len(button["label"]) <= c.LABEL_MAX


def test_lobby_view_has_a_join_button_per_open_seat() -> None:
    rows = _rows(lobby.build_lobby_view(7, [("union", "Union"), ("confederate", "Confederacy")]))
    custom_ids = [b["custom_id"] for row in rows for b in row]
    assert [ids.parse(i).role for i in custom_ids] == ["union", "confederate"]


def test_parse_options() -> None:
    assert parse_options("rounds=2, fast=true, name=x, rate=0.5") == {
        "rounds": 2,
        "fast": True,
        "name": "x",
        "rate": 0.5,
    }
    assert parse_options('{"rounds": 1}') == {"rounds": 1}
    assert parse_options(None) == {}


def test_bot_uses_only_non_privileged_intents(tmp_path) -> None:
    from bot.config import Config
    from bot.discord_app import create_bot, run

    assert callable(run)
    bot = create_bot(
        Config(token=None, db_path=tmp_path / "x.sqlite3", dev_guild_id=None, log_level="INFO")
    )
    assert not bot.intents.message_content
    assert not bot.intents.members
    assert not bot.intents.presences
    assert bot.intents.guilds


def test_two_long_objectives_are_buttons_with_the_whole_text_in_the_message() -> None:
    # Fort Sumter's objectives: two choices whose texts run past a button's width were
    # a menu (two taps, its labels cut at 100 characters); now a button each.
    keep = {
        "O1": "Keep Federal Arsenal: Place up to 2 tokens in Armaments spaces.",
        "O2": "Keep Ship to Sumter: Remove 1 Secessionist token from a space of your choice.",
    }
    view = {"actions": {"keep": ["O1", "O2"]}, "labels": {"keep": keep}}
    built = prompts.build_prompt_view(3, 5, view)
    [row] = _rows(built.view)
    assert [b["type"] for b in row] == [2, 2]
    assert [b["label"] for b in row] == ["Keep Federal Arsenal", "Keep Ship to Sumter"]
    assert [ids.parse(b["custom_id"]).arg for b in row] == ["O1", "O2"]
    assert built.notes == list(keep.values())


def test_five_choices_alike_when_shortened_are_numbered() -> None:
    texts = [f"Play Virginia Convention for its event ({n})" for n in range(1, 6)]
    view = {
        "actions": {"event": list(range(5))},
        "labels": {"event": {str(n): t for n, t in enumerate(texts)}},
    }
    built = prompts.build_prompt_view(3, 5, view)
    [row] = _rows(built.view)
    labels = [b["label"] for b in row]
    assert all(b["type"] == 2 for b in row) and len(set(labels)) == 5
    assert all(len(label) <= c.BUTTON_LABEL_MAX for label in labels)
    assert labels[0].startswith("(1) ") and built.notes[0] == f"(1) {texts[0]}"


def test_six_choices_are_still_a_menu() -> None:
    view = {"actions": {"space": list(range(6))}, "labels": {}}
    [[menu]] = _rows(prompts.build_prompt_view(3, 5, view).view)
    assert menu["type"] == 3 and len(menu["options"]) == 6
