"""Drawing helpers every board renderer shares: fonts, colours, wrapped text, boxes, cards.

Fonts come from Pillow's built-in scalable font (``ImageFont.load_default(size=N)``), so
nothing is downloaded and every machine draws the same image.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

Colour = tuple[int, int, int]
Box = tuple[int, int, int, int]
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

#: A small shared palette; games add their own side colours.
COLOURS: dict[str, Colour] = {
    "paper": (239, 231, 212),
    "paper_dark": (222, 210, 184),
    "ink": (35, 31, 28),
    "muted": (110, 102, 92),
    "white": (255, 255, 255),
    "card": (250, 246, 236),
    "card_edge": (120, 108, 90),
    "gold": (196, 154, 58),
    "red": (160, 40, 40),
    "green": (46, 116, 64),
    "union": (40, 74, 140),
    "union_light": (214, 224, 243),
    "confederate": (104, 108, 116),
    "confederate_light": (226, 227, 230),
    "shadow": (196, 186, 164),
    "banner": (32, 30, 40),
}


@cache
def font(size: int) -> Font:
    """Pillow's built-in scalable font at ``size`` pixels."""
    return ImageFont.load_default(size=size)


@lru_cache(maxsize=16384)
def text_width(text: str, size: int) -> int:
    """Width in pixels (boards measure the same labels on every draw: kept)."""
    left, _, right, _ = font(size).getbbox(text)
    return int(right - left)


@lru_cache(maxsize=16384)
def _glyphs(content: str, size: int, anchor: str) -> tuple[Any, tuple[int, int]]:
    """The anti-aliased mask of one line of text and where it sits against its anchor,
    rendered once: a board draws the same few hundred labels every time, and rendering
    them was half of its drawing time."""
    face = font(size)
    assert isinstance(face, ImageFont.FreeTypeFont)
    mask, offset = face.getmask2(content, "L", anchor=anchor, start=(0.0, 0.0))
    return mask, (int(offset[0]), int(offset[1]))


def wrap(text: str, size: int, width: int, max_lines: int | None = None) -> list[str]:
    """``text`` broken into lines no wider than ``width`` pixels (words kept whole; a
    last line that does not fit ``max_lines`` ends with three dots)."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        trial = f"{current} {word}".strip()
        if text_width(trial, size) <= width or not current:
            current = trial
        else:
            lines.append(current)
            current = word
    if current:
        lines.append(current)
    if max_lines is not None and len(lines) > max_lines:
        lines = lines[:max_lines]
        last = lines[-1]
        while last and text_width(last + "...", size) > width:
            last = last[:-1]
        lines[-1] = last.rstrip() + "..."
    return lines


def fit(text: str, size: int, width: int) -> str:
    """``text`` cut (with an ellipsis) to fit in ``width`` pixels on one line."""
    if text_width(text, size) <= width:
        return text
    while text and text_width(text + "...", size) > width:
        text = text[:-1]
    return text.rstrip() + "..."


def canvas(width: int, height: int, colour: Colour = COLOURS["paper"]) -> Image.Image:
    return Image.new("RGB", (width, height), colour)


def rounded_box(
    draw: ImageDraw.ImageDraw,
    box: Box,
    fill: Colour | None,
    outline: Colour | None = None,
    radius: int = 10,
    width: int = 2,
) -> None:
    draw.rounded_rectangle(box, radius=radius, fill=fill, outline=outline, width=width)


def text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[int, int],
    content: str,
    size: int,
    colour: Colour = COLOURS["ink"],
    anchor: str = "la",
) -> None:
    """One line of text, pixel for pixel as ``draw.text`` draws it, from cached glyphs."""
    if "\n" in content or not isinstance(font(size), ImageFont.FreeTypeFont) or not content:
        draw.text(xy, content, font=font(size), fill=colour, anchor=anchor)
        return
    mask, (dx, dy) = _glyphs(content, size, anchor)
    ink, fill_ink = draw._getink(colour)
    draw.draw.draw_bitmap(
        (int(xy[0]) + dx, int(xy[1]) + dy), mask, ink if ink is not None else fill_ink
    )


def lines(
    draw: ImageDraw.ImageDraw,
    xy: tuple[int, int],
    rows: Sequence[str],
    size: int,
    colour: Colour = COLOURS["ink"],
    spacing: int = 3,
) -> int:
    """Draw ``rows`` one under another; returns the y below the last one."""
    x, y = xy
    for row in rows:
        draw.text((x, y), row, font=font(size), fill=colour)
        y += size + spacing
    return y


def badge(
    draw: ImageDraw.ImageDraw,
    centre: tuple[int, int],
    label: str,
    size: int,
    fill: Colour,
    colour: Colour = COLOURS["white"],
    pad: int = 8,
) -> Box:
    """A pill with ``label`` centred on ``centre``; returns its box."""
    w = text_width(label, size) + 2 * pad
    h = size + pad
    x, y = centre
    box = (x - w // 2, y - h // 2, x + w // 2, y + h // 2)
    draw.rounded_rectangle(box, radius=h // 2, fill=fill)
    draw.text((x, y), label, font=font(size), fill=colour, anchor="mm")
    return box


@dataclass(frozen=True)
class CardFace:
    """What a face-up card shows: ``value`` and ``title`` on a strip of ``accent`` (what
    shows when cards overlap), then its ``kind`` and ``body`` text; ``note`` goes bottom
    right (e.g. "counts 0"); ``dimmed`` rings it; ``shadow`` lifts it off the table."""

    title: str
    value: str
    accent: Colour
    kind: str = ""
    body: str = ""
    face: Colour = COLOURS["card"]
    strip: int = 30
    note: str = ""
    dimmed: bool = False
    shadow: bool = True


def draw_card(draw: ImageDraw.ImageDraw, box: Box, card: CardFace) -> None:
    """A face-up card (:class:`CardFace`) in ``box``."""
    title, value, accent, kind, body = card.title, card.value, card.accent, card.kind, card.body
    face, strip, note = card.face, card.strip, card.note
    x0, y0, x1, y1 = box
    edge = COLOURS["card_edge"]
    if card.shadow:
        draw.rounded_rectangle((x0 + 2, y0 + 3, x1 + 2, y1 + 3), radius=8, fill=COLOURS["shadow"])
    draw.rounded_rectangle(box, radius=8, fill=face, outline=edge, width=1)
    draw.rounded_rectangle((x0, y0, x1, y0 + strip), radius=8, fill=accent)
    if y1 - y0 > strip + 8:
        draw.rectangle((x0 + 1, y0 + strip - 8, x1 - 1, y0 + strip), fill=accent)
    value_size = strip - 10
    draw.text(
        (x0 + 8, y0 + strip // 2), value, font=font(value_size), fill=COLOURS["white"], anchor="lm"
    )
    left = x0 + 14 + text_width(value, value_size)
    draw.text(
        (left, y0 + strip // 2),
        fit(title, 14, x1 - left - 6),
        font=font(14),
        fill=COLOURS["white"],
        anchor="lm",
    )
    inner = x1 - x0 - 16
    y = y0 + strip + 5
    if kind and y1 - y > 16:
        draw.text((x0 + 8, y), kind.upper(), font=font(11), fill=COLOURS["muted"])
        y += 15
    room = (y1 - y - (16 if note else 4)) // 15
    if body and room > 0:
        lines(draw, (x0 + 8, y), wrap(body, 12, inner, room), 12, COLOURS["ink"], spacing=3)
    if note:
        draw.text((x1 - 6, y1 - 4), note, font=font(12), fill=COLOURS["red"], anchor="rd")
    if card.dimmed:
        draw.rounded_rectangle(box, radius=8, outline=COLOURS["muted"], width=2)


def draw_card_back(
    draw: ImageDraw.ImageDraw, box: Box, accent: Colour, label: str = "", pattern: bool = True
) -> None:
    """A face-down card: the side's colour, a frame and an optional label (never a name)."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle((x0 + 2, y0 + 3, x1 + 2, y1 + 3), radius=8, fill=COLOURS["shadow"])
    draw.rounded_rectangle(box, radius=8, fill=accent, outline=COLOURS["card_edge"], width=1)
    draw.rounded_rectangle(
        (x0 + 6, y0 + 6, x1 - 6, y1 - 6), radius=6, outline=COLOURS["gold"], width=1
    )
    if pattern:
        cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
        for r in (18, 12):
            draw.ellipse(
                (cx - r, cy - r, cx + r, cy + r), outline=_blend(accent, COLOURS["white"], 0.3)
            )
    if label:
        w = text_width(label, 13) + 12
        cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
        draw.rounded_rectangle((cx - w // 2, cy - 11, cx + w // 2, cy + 11), radius=8, fill=accent)
        draw.text((cx, cy), label, font=font(13), fill=COLOURS["white"], anchor="mm")


def _blend(a: Colour, b: Colour, t: float) -> Colour:
    return (
        int(a[0] + (b[0] - a[0]) * t),
        int(a[1] + (b[1] - a[1]) * t),
        int(a[2] + (b[2] - a[2]) * t),
    )


def blend(a: Colour, b: Colour, t: float) -> Colour:
    """The colour ``t`` of the way from ``a`` to ``b``."""
    return _blend(a, b, t)


#: The headline band's type size: at Discord's inline preview (about 400 px wide, a
#: third of a board) it is still about 12 px, enough to read the score and whose turn.
HEADLINE_SIZE = 36
HEADLINE_H = 64


def clock_band(view: dict[str, Any]) -> str:
    """The clocks a table post's view carries for the headline (``""``: none)."""
    band = view.get("clock_band")
    return band if isinstance(band, str) else ""


#: The headline's status line: the first of these sizes at which it fits.
STATUS_SIZES = (HEADLINE_SIZE - 8, HEADLINE_SIZE - 12, HEADLINE_SIZE - 16)


def headline(
    draw: ImageDraw.ImageDraw,
    width: int,
    *,
    marker: str,
    score: list[tuple[str, Colour]],
    status: str,
    clock: str = "",
) -> None:
    """The band across the top of a board with what a glance must catch: where the game
    is (``marker``: "Round 2 of 3"), the score (parts drawn in their colours, side by
    side) and who must act (``status``), in type that stays legible when Discord shows
    the image a third of its size. ``clock``: the running clocks at the time of drawing
    (``bot.tables.clock_pass.band``), after the status."""
    if clock:
        status = f"{status} · {clock}" if status else clock
    size, h = HEADLINE_SIZE, HEADLINE_H
    draw.rectangle((0, 0, width, h), fill=COLOURS["banner"])
    pill = (14, 6, 14 + text_width(marker, size) + 24, h - 6)
    draw.rounded_rectangle(pill, radius=(h - 12) // 2, fill=COLOURS["gold"])
    text(draw, ((pill[0] + pill[2]) // 2, h // 2), marker, size, COLOURS["ink"], "mm")
    x = pill[2] + 24
    for part, colour in score:
        text(draw, (x, h // 2), part, size, colour, "lm")
        x += text_width(part, size) + 12
    room = width - 16 - (x + 16)
    if status and room > 60:
        small, rows = status_lines(status, room)
        top = h // 2 - (len(rows) - 1) * (small + 2) // 2
        for number, row in enumerate(rows):
            text(draw, (width - 16, top + number * (small + 2)), row, small, COLOURS["paper"], "rm")


#: The sizes a status too long for one line is tried at on two lines (the band is 64 px).
STATUS_TWO_LINE_SIZES = (24, 22, 20)


def status_lines(status: str, room: int) -> tuple[int, list[str]]:
    """The headline's status as (size, lines) in ``room`` pixels: one line at the first
    of ``STATUS_SIZES`` it fits; else two lines, so that a game-over status ("Unionist
    won: tied on VP; controls Fort Sumter") is read whole instead of cut; only
    a status too long even for two lines is cut short, on its second line."""
    for size in STATUS_SIZES:
        if text_width(status, size) <= room:
            return size, [status]
    for size in STATUS_TWO_LINE_SIZES:
        rows = wrap(status, size, room)
        if len(rows) <= 2 and all(text_width(r, size) <= room for r in rows):
            return size, rows
    size = STATUS_TWO_LINE_SIZES[-1]
    return size, [fit(r, size, room) for r in wrap(status, size, room, 2)]


def offered_places(view: dict[str, Any], known: Any) -> list[str]:
    """The places (ids in ``known``) the role's prompt offers, in the prompt's order: every
    action argument that names one, or names one before a colon ("space:side")."""
    found: list[str] = []
    for verb, args in (view.get("actions") or {}).items():
        if verb == "undo" or not isinstance(args, list):
            continue
        for arg in args:
            place = str(arg).split(":", 1)[0]
            if place in known and place not in found:
                found.append(place)
    return found
