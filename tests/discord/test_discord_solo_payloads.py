"""What a solo session sends to Discord conforms to Discord's OpenAPI description: the
session message (embed, buttons and selects, the display attachment) at every step of a
simulated session of each playsheet, and the facts form (modal)."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.delivery.port import GameInfo
from bot.discord_app.solo_message import solo_payload
from bot.discord_app.solo_modals import CardFactsModal
from rules.solo import GAME
from rules.solo.sheets import SHEETS, sheet
from tests.openapi_check import SPEC, check

assert SPEC.exists(), f"Discord's OpenAPI description is missing: {SPEC}"

INFO = GameInfo(
    id=7,
    guild_id=None,
    channel_id="1",
    game_name="solo",
    title="CDG Solo System",
    status="active",
    version=0,
    creator_id="1",
    seats=(),
)


def body(payload: dict[str, Any]) -> dict[str, Any]:
    """The JSON part of the message discord.py sends for a solo payload."""
    out: dict[str, Any] = {"embeds": [payload["embed"].to_dict()]}
    if payload.get("view") is not None:
        out["components"] = payload["view"].to_components()
    out["attachments"] = [
        {"id": str(i), "filename": f.filename} for i, f in enumerate(payload["files"])
    ]
    return out


@pytest.mark.parametrize("playsheet", SHEETS)
async def test_every_session_message_of_a_simulated_session_conforms(playsheet: str) -> None:
    choose = GAME.automated_player()
    assert choose is not None
    state = GAME.setup(seed=2, options={"playsheet": playsheet})
    steps: set[str] = set()
    for number in range(60):
        view = GAME.view(state, "solo")
        payload = await solo_payload(INFO, number, view, log_lines=view["log"][-20:])
        assert check(body(payload), "MessageCreateRequest") == [], (playsheet, view["step"])
        steps.add(view["step"])
        if GAME.outcome(state) is not None:
            break
        state = GAME.act(state, "solo", *choose(GAME, view))
    assert {"table", "choose"} <= steps


@pytest.mark.parametrize("playsheet", [s for s in SHEETS if s != "paths_of_glory"])
def test_the_facts_form_conforms(playsheet: str) -> None:
    modal = CardFactsModal(7, 3, playsheet, "A card is face up in slot A: which number?" * 4)
    data = modal.to_dict()
    assert check({"type": 9, "data": data}, "ModalInteractionCallbackRequest") == []
    asked = [c["components"][0]["custom_id"] for c in data["components"]]
    assert asked == [q for q in sheet(playsheet)["questions"]]


def test_the_checker_catches_what_discord_refuses() -> None:
    ui = discord.ui.View()
    ui.add_item(discord.ui.Button(label="x" * 81, custom_id="a"))
    assert check({"components": ui.to_components()}, "MessageCreateRequest")
    modal = discord.ui.Modal(title="t" * 46)
    modal.add_item(discord.ui.TextInput(label="l", custom_id="c"))
    assert check({"type": 9, "data": modal.to_dict()}, "ModalInteractionCallbackRequest")
