"""The per-game palette cache is small and bounded: it held the
quantized sheet of a whole sample game per game kind (4-14 MB each) for the life of the
process. Boards mapped to the palette from sampled pixels look as they did."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops

import render
import rules


def board(name: str) -> Image.Image:
    game = rules.get_game(name)
    png = render.board_png(name, game.view(game.setup(seed=5), None))
    return Image.open(io.BytesIO(png)).convert("RGB")


def test_the_palette_cache_keeps_a_palette_not_a_sheet() -> None:
    render._palette.cache_clear()
    palette = render._palette("war")
    assert palette is not None and palette.width * palette.height <= 16, palette.size
    assert len(palette.getpalette() or []) >= 3 * 64
    assert render._palette.cache_info().maxsize is not None  # bounded


def test_boards_on_the_sampled_palette_look_as_on_the_full_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    render._palette.cache_clear()
    sampled = board("war")
    render._palette.cache_clear()
    monkeypatch.setattr(render, "SAMPLE_STEP", 1)  # every pixel, as before
    full = board("war")
    render._palette.cache_clear()
    histogram = ImageChops.difference(sampled, full).convert("L").histogram()
    pixels = sum(histogram)
    assert sum(level * count for level, count in enumerate(histogram)) / pixels < 2.0
    assert sum(histogram[33:]) / pixels < 0.001
