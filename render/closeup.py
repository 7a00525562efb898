"""A phone-sized close-up of what a decision is about, cut from the full board.

On a phone a board is shown about 400 px wide, a third of its size, and its names and
army strengths come out 3-4 px tall: unreadable. The full board stays
what it is (the whole position at a glance on a desktop); beside it a front end may send
this close-up: the parts of the board the decision is about (a battle, the ringed
choices, a crisis track, the Fate Die's display) cut out at their drawn size or larger
and packed into one image ``CLOSEUP_W`` wide and at most ``CLOSEUP_MAX_H`` tall (a phone
screen's proportions), so every name in it is at least ``MIN_CAP_PX`` tall on the phone.

Each game's renderer chooses the parts (``closeup_parts(view)``: boxes on its board,
most important first) and draws the close-up with ``closeup`` here; ``layout`` is where
each part goes, exposed so a test can measure the text in it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from render import fate
from render.common import COLOURS, Box

#: The width a phone shows an image at, and the tallest close-up that still fits its screen
#: (9:16) when opened.
CLOSEUP_W = 400
CLOSEUP_MAX_H = 720
#: The least cap height (px, on the phone) a name in a close-up may have.
MIN_CAP_PX = 7.5
#: Parts are never blown up more than this (beyond it, more zoom only blurs).
MAX_SCALE = 1.5
PAD = 6
#: Row widths (in board pixels) tried when packing parts side by side; the packing that
#: draws them largest wins.
ROW_WIDTHS = (300, 400, 520, 640, 800, 1200)


@dataclass(frozen=True)
class Placement:
    """One part: ``source`` on the board, ``dest`` in the close-up."""

    source: Box
    dest: Box

    @property
    def scale(self) -> float:
        return (self.dest[2] - self.dest[0]) / max(1, self.source[2] - self.source[0])


def _clip(box: Box, size: tuple[int, int]) -> Box:
    x0, y0, x1, y1 = box
    return (max(0, x0), max(0, y0), min(size[0], x1), min(size[1], y1))


def _rows(parts: Sequence[Box], row_width: int) -> list[list[Box]]:
    """Parts in order, side by side while a row stays within ``row_width``."""
    rows: list[list[Box]] = []
    width = 0
    for part in parts:
        w = part[2] - part[0] + PAD
        if rows and width + w <= row_width:
            rows[-1].append(part)
            width += w
        else:
            rows.append([part])
            width = w
    return rows


def _scale(rows: list[list[Box]]) -> float:
    wide = max(sum(p[2] - p[0] + PAD for p in row) + PAD for row in rows)
    tall = sum(max(p[3] - p[1] for p in row) + PAD for row in rows) + PAD
    return min(MAX_SCALE, CLOSEUP_W / wide, CLOSEUP_MAX_H / tall)


def layout(parts: Sequence[Box], size: tuple[int, int]) -> list[Placement]:
    """Where each part (clipped to a board of ``size``) goes in the close-up: rows of
    parts, the packing that draws them at the largest scale, centred across the width."""
    clipped = [c for c in (_clip(p, size) for p in parts) if c[2] > c[0] and c[3] > c[1]]
    if not clipped:
        return []
    rows = max((_rows(clipped, w) for w in ROW_WIDTHS), key=_scale)
    scale = _scale(rows)
    placements: list[Placement] = []
    y = PAD * scale
    for row in rows:
        used = sum((p[2] - p[0] + PAD) * scale for p in row) - PAD * scale
        x = (CLOSEUP_W - used) / 2
        for part in row:
            w, h = (part[2] - part[0]) * scale, (part[3] - part[1]) * scale
            dest = (round(x), round(y), round(x + w), round(y + h))
            placements.append(Placement(part, dest))
            x += w + PAD * scale
        y += (max(p[3] - p[1] for p in row) + PAD) * scale
    return placements


def closeup(board: Image.Image, parts: Sequence[Box]) -> Image.Image | None:
    """The close-up of ``parts`` of ``board`` (None when there is no part to show)."""
    placements = layout(parts, board.size)
    if not placements:
        return None
    height = max(p.dest[3] for p in placements) + PAD
    image = Image.new("RGB", (CLOSEUP_W, min(height, CLOSEUP_MAX_H)), COLOURS["banner"])
    draw = ImageDraw.Draw(image)
    for p in placements:
        crop = board.crop(p.source)
        size = (p.dest[2] - p.dest[0], p.dest[3] - p.dest[1])
        if size != crop.size:
            crop = crop.resize(size, Image.Resampling.LANCZOS)
        image.paste(crop, p.dest[:2])
        draw.rectangle(
            (p.dest[0] - 1, p.dest[1] - 1, p.dest[2], p.dest[3]), outline=COLOURS["gold"]
        )
    return image


def fate_parts(view: dict[str, Any], top: int, width: int) -> list[Box]:
    """The Fate Die's display band drawn from ``top`` on a board ``width`` wide
    (``render.fate``), in three parts a phone can read: what was rolled, slots A-C and
    slots D-E. None when no side is run by the die."""
    if not view.get("fate"):
        return []
    bottom = top + fate.BAND_H
    slots = width - 5 * fate.SLOT_W - 4 * fate.SLOT_GAP - 16
    step = fate.SLOT_W + fate.SLOT_GAP
    return [
        (0, top, min(slots - 8, 360), bottom),
        (slots - 8, top, slots + 3 * step - fate.SLOT_GAP + 8, bottom),
        (slots + 3 * step - 8, top, width, bottom),
    ]
