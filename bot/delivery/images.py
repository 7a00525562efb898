"""Board and hand images for front ends: the game's renderer, off the event loop.

Rendering is optional per game: a front end keeps working, text only, when a game has no
renderer or its renderer fails.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

import render
from bot import errors
from bot.delivery.port import View

log = logging.getLogger("dispatch.images")


#: One of ``render``'s drawings to PNG: a game's name and a view in, the bytes out.
Draw = Callable[[str, View], bytes | None]


def _render(draw: Draw, game_name: str, view: View) -> bytes | None:
    # Rendering is optional per game: a front end keeps working (text only) when a game
    # has no renderer.
    try:
        return draw(game_name, view)
    except (LookupError, NotImplementedError):
        return None


def _log_failure(what: str, game_name: str, exc: Exception) -> None:
    """Where the renderer failed and the kind of failure, not its message: the view it drew
    may hold a player's hand, and whoever reads the server log may be a player."""
    log.error("%s renderer failed for %s\n%s", what, game_name, errors.withheld(exc))


async def board_image(game_name: str, view: View) -> bytes | None:
    """The public board PNG for a view, or None when the game has no renderer.

    Rendering is CPU work, so it runs in a worker thread. A renderer crash is logged and
    gives no image rather than losing the message it belongs to.
    """
    try:
        return await asyncio.to_thread(_render, render.board_png, game_name, view)
    except Exception as exc:
        _log_failure("board", game_name, exc)
        return None


async def hand_image(game_name: str, view: View) -> bytes | None:
    """A player's private hand PNG (from their role's view), or None."""
    try:
        return await asyncio.to_thread(_render, render.hand_png, game_name, view)
    except Exception as exc:
        _log_failure("hand", game_name, exc)
        return None


async def choices_image(game_name: str, view: View) -> bytes | None:
    """The board with a prompt's choices marked (from the role's view), or None when the
    prompt is not about places on the board."""
    if not view.get("actions"):
        return None
    try:
        return await asyncio.to_thread(_render, render.choices_png, game_name, view)
    except Exception as exc:
        _log_failure("choices", game_name, exc)
        return None


async def closeup_image(game_name: str, view: View) -> bytes | None:
    """A phone-sized close-up (400 px wide) of what the view's decision is about, sent
    beside the full board whose names a phone shows too small to read; None when the game
    draws none."""
    try:
        return await asyncio.to_thread(_render, render.closeup_png, game_name, view)
    except Exception as exc:
        _log_failure("close-up", game_name, exc)
        return None
