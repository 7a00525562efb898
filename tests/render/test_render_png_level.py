"""Boards are saved at the zlib level chosen by measure (``render.PNG_LEVEL``, from
bench/bench_png_level.py): a fast level, for images that stay well within their budget."""

from __future__ import annotations

import io
import struct

import pytest
from PIL import Image

import render
import rules

#: What a post's board may weigh: the budget the level was chosen against.
BOARD_BUDGET = 200 * 2**10


def zlib_header(png: bytes) -> bytes:
    """The first two bytes of the image data's zlib stream (its first IDAT chunk)."""
    at = 8  # past the PNG signature
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        kind = png[at + 4 : at + 8]
        if kind == b"IDAT":
            return png[at + 8 : at + 10]
        at += 12 + length
    raise AssertionError("no image data")


@pytest.mark.parametrize("name", ["fort_sumter", "lincoln", "war"])
def test_a_board_is_saved_fast_within_its_budget_and_unchanged(name: str) -> None:
    game = rules.get_game(name)
    view = game.view(game.setup(seed=5), None)
    png = render.board_png(name, view)
    # zlib's header names the level class: 0x5E is "fast" (levels 2 to 5), where Pillow's
    # default (6) writes 0x9C.
    assert zlib_header(png) == b"\x78\x5e"
    assert len(png) < BOARD_BUDGET
    decoded = Image.open(io.BytesIO(png))
    assert decoded.tobytes() == render.board_image(name, view).tobytes()
