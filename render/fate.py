"""The Fate Die opponent's Card Display, as a band under a game's board.

When a side is run by the Fate Die (``view["fate"]``, see ``rules.fate_die.opponent``) the
table sees its display: slots A-E with face-up cards by name and face-down ones as
identical backs, the last face rolled, and the cards that roll allows ringed. Only the
public ``fate`` key is read, so a face-down card never changes a pixel.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PIL import ImageDraw

from render.common import COLOURS, Box, CardFace, Colour, draw_card, draw_card_back, fit, text

BAND_H = 128
SLOT_W = 150
SLOT_GAP = 12
CARD_H = 78
#: The ring around a card the roll allows (the colour of a prompt's choices).
ALLOWED: Colour = (236, 150, 0)

CardDrawer = Callable[[ImageDraw.ImageDraw, Box, dict[str, Any]], None]


def plain_card(draw: ImageDraw.ImageDraw, box: Box, card: dict[str, Any]) -> None:
    """A face-up card as its value and title, for games without their own small card."""
    draw_card(
        draw,
        box,
        CardFace(
            title=str(card.get("title") or card.get("name") or card.get("id") or "?"),
            value=str(card.get("value", "")),
            accent=COLOURS["muted"],
            shadow=False,
        ),
    )


def band_height(view: dict[str, Any]) -> int:
    """How much taller a board is for the display band (0 when no side is run by the die)."""
    return BAND_H if view.get("fate") else 0


def draw_fate_band(
    draw: ImageDraw.ImageDraw,
    y0: int,
    width: int,
    view: dict[str, Any],
    side_names: dict[str, str],
    side_colours: dict[str, Colour],
    card: CardDrawer = plain_card,
) -> None:
    """The display band from ``y0`` down (``band_height`` tall); nothing when no side is
    run by the Fate Die. The board makes its canvas that much taller."""
    fate = view.get("fate")
    if not fate:
        return
    draw.rectangle((0, y0, width, y0 + BAND_H), fill=COLOURS["paper_dark"])
    role = str(fate.get("role") or "")
    colour = side_colours.get(role, COLOURS["muted"])
    name = side_names.get(role, role)
    text(draw, (16, y0 + 12), f"{name}: the Fate Die picks its cards", 18, colour)
    face = fate.get("face_title")
    rolled = f"Last roll: {face}" if face else "No roll yet"
    text(draw, (16, y0 + 40), fit(rolled, 15, 300), 15, COLOURS["ink"])
    allowed = {str(c.get("id")) for c in fate.get("allowed") or []}
    if allowed:
        text(draw, (16, y0 + 62), "Ringed: the cards it allows", 13, COLOURS["muted"])
    sheet = f"{fate.get('playsheet', '')} playsheet, designed by {fate.get('designed_by', '')}"
    text(draw, (16, y0 + BAND_H - 24), fit(sheet, 12, 320), 12, COLOURS["muted"])
    x = width - 5 * SLOT_W - 4 * SLOT_GAP - 16
    top = y0 + 36
    for slot in fate.get("slots", []):
        text(draw, (x + SLOT_W // 2, y0 + 18), str(slot.get("slot", "")), 16, COLOURS["ink"], "mm")
        cards = slot.get("cards") or []
        if not cards:
            draw.rounded_rectangle(
                (x, top, x + SLOT_W, top + CARD_H), radius=8, outline=COLOURS["shadow"], width=2
            )
        for depth, entry in enumerate(cards[:2]):
            box: Box = (x + 8 * depth, top + 6 * depth, x + SLOT_W, top + CARD_H)
            if entry.get("up"):
                card(draw, box, entry)
                if str(entry.get("id")) in allowed:
                    draw.rounded_rectangle(
                        (box[0] - 4, box[1] - 4, box[2] + 4, box[3] + 4),
                        radius=10,
                        outline=ALLOWED,
                        width=4,
                    )
            else:
                draw_card_back(draw, box, colour, pattern=False)
                centre = ((box[0] + box[2]) // 2, (box[1] + box[3]) // 2)
                text(draw, centre, "face down", 13, COLOURS["white"], "mm")
        x += SLOT_W + SLOT_GAP
