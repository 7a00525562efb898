"""Board and hand images, drawn with Pillow from a game's *view* (never its raw state).

Each game names its module here (``Game.renderer``), which exposes
``draw_board(view) -> PIL.Image.Image`` and ``draw_hand(view) -> PIL.Image.Image | None``,
and may expose ``draw_choices(view) -> PIL.Image.Image | None`` (the board with the places
the role's prompt offers marked; None when the prompt is not about the board); this
package turns those into PNG bytes.
Because only views come in, an image can show nothing a view would not.
"""

from __future__ import annotations

import importlib
import io
from typing import Any


class NoRenderer(LookupError):
    """The game has no board renderer."""


def _module(game_name: str) -> Any:
    """The module that draws ``game_name``, as its rules name it (``Game.renderer``)."""
    import rules

    try:
        # Any object with the rules contract may be registered; only ``Game`` subclasses
        # are sure to name a renderer.
        path = getattr(rules.get_game(game_name), "renderer", None)
    except LookupError:
        path = None
    if path is None:
        raise NoRenderer(f"No board renderer for {game_name!r}.")
    return importlib.import_module(path)


#: Colours kept when a board is saved: boards are flat drawings with anti-aliased text,
#: so a small adaptive palette is indistinguishable and makes the PNG several times smaller.
PALETTE_COLOURS = 128


def _png(image: Any) -> bytes:
    if getattr(image, "mode", "") == "RGB":
        image = image.quantize(colors=PALETTE_COLOURS, method=2, dither=0)  # 2 = FASTOCTREE
    buffer = io.BytesIO()
    # No optimize=True: on these palette images it costs 3-4x the encode time (about
    # 40 ms a board) to save about a tenth of the bytes, and boards are drawn every turn.
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def board_png(game_name: str, view: dict[str, Any]) -> bytes:
    """The board as everyone (or the viewing role) sees it, as PNG bytes."""
    return _png(_module(game_name).draw_board(view))


def hand_png(game_name: str, view: dict[str, Any]) -> bytes | None:
    """A role's private hand as PNG bytes, or None when there is nothing private to draw."""
    image = _module(game_name).draw_hand(view)
    return None if image is None else _png(image)


def choices_png(game_name: str, view: dict[str, Any]) -> bytes | None:
    """The board with the role's choices marked, when its prompt is about places on the
    board; None otherwise (or when the game's renderer draws no such board)."""
    draw = getattr(_module(game_name), "draw_choices", None)
    image = draw(view) if draw is not None else None
    return None if image is None else _png(image)
