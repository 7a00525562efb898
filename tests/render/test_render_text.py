"""The renderers' text comes from cached glyphs (rendering labels was
half of a board's drawing time); it must be the very pixels Pillow's ``draw.text`` makes,
at every anchor, size and colour the boards use, and on a second draw from the cache."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from render import common
from render.common import COLOURS, canvas, font, text

SAMPLES = ["Fort Sumter", "Round 2 of 3", "Unionist 3", "–", "Washington (2nd)", "0", "W"]
ANCHORS = ["la", "lm", "mm", "rm", "ra", "ms", "ls"]


@pytest.mark.parametrize("anchor", ANCHORS)
@pytest.mark.parametrize("size", [10, 16, 36])
def test_cached_text_is_pixel_identical_to_pillow(anchor: str, size: int) -> None:
    for content in SAMPLES:
        for colour in (COLOURS["ink"], COLOURS["gold"], (38, 72, 150)):
            ours = canvas(260, 80)
            text(ImageDraw.Draw(ours), (130, 40), content, size, colour, anchor)
            text(ImageDraw.Draw(ours), (131, 41), content, size, colour, anchor)  # cached
            pillow = canvas(260, 80)
            draw = ImageDraw.Draw(pillow)
            draw.text((130, 40), content, font=font(size), fill=colour, anchor=anchor)
            draw.text((131, 41), content, font=font(size), fill=colour, anchor=anchor)
            assert ours.tobytes() == pillow.tobytes(), (content, size, anchor, colour)


def test_text_on_other_image_modes_matches_too() -> None:
    for mode in ("RGBA", "L"):
        colour = (200, 30, 30, 255) if mode == "RGBA" else 90
        ours = Image.new(mode, (200, 40), 255 if mode == "L" else (255, 255, 255, 0))
        pillow = ours.copy()
        text(ImageDraw.Draw(ours), (5, 5), "Final Crisis", 18, colour)  # type: ignore[arg-type]
        ImageDraw.Draw(pillow).text((5, 5), "Final Crisis", font=font(18), fill=colour)
        assert ours.tobytes() == pillow.tobytes(), mode


def test_a_long_status_steps_down_a_size_before_it_is_cut(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Found by a newcomer: Fort Sumter's board read "Waiting for Unionist and Sece…"
    while both sides chose their objectives."""
    drawn: list[tuple[str, int]] = []
    real = common.text

    def spy(
        draw: ImageDraw.ImageDraw, xy: tuple[int, int], content: str, size: int, *rest: object
    ) -> None:
        drawn.append((content, size))
        real(draw, xy, content, size, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(common, "text", spy)
    status = "Waiting for Unionist and Secessionist."
    score = [
        ("Unionist 0", COLOURS["paper"]),
        ("-", COLOURS["paper"]),
        ("0 Secessionist", COLOURS["paper"]),
    ]
    image = canvas(1200, common.HEADLINE_H)
    common.headline(ImageDraw.Draw(image), 1200, marker="Round 1 of 3", score=score, status=status)
    [(shown, size)] = [(c, s) for c, s in drawn if c.startswith("Waiting")]
    assert shown == status  # whole, at a smaller size than the first (it did not fit)
    assert size in common.STATUS_SIZES[1:]
