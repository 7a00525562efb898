"""A renderer that fails costs its picture, never a card: the log names where it failed
and the kind of failure, not the message, which may quote the hand it was drawing."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

import render
from bot.delivery import images

#: A renderer's message quoting the hand it drew, planted (kept out of the line that raises
#: it, which a traceback quotes).
HAND_NAMED = "cannot draw S12, the secessionist's hidden card"
VIEW = {"hand": ["S12"], "actions": {"card": ["S12"]}}

Drawer = Callable[[str, dict[str, Any]], Awaitable[bytes | None]]


@pytest.mark.parametrize(
    ("renderer", "drawer"),
    [
        ("board_png", images.board_image),
        ("hand_png", images.hand_image),
        ("choices_png", images.choices_image),
        ("closeup_png", images.closeup_image),
    ],
)
async def test_a_failed_picture_is_logged_by_its_kind_never_its_message(
    renderer: str,
    drawer: Drawer,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    def broken(game_name: str, view: dict[str, Any]) -> bytes:
        raise ValueError(HAND_NAMED)

    monkeypatch.setattr(render, renderer, broken)
    with caplog.at_level("INFO", logger="dispatch.images"):
        assert await drawer("fort_sumter", VIEW) is None
    # The log as written, tracebacks included.
    assert "renderer failed for fort_sumter" in caplog.text and "ValueError" in caplog.text
    assert "S12" not in caplog.text and all(r.exc_info is None for r in caplog.records)
