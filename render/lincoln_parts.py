"""Lincoln drawing pieces: where each location sits on the map, the sides' colours, unit
counters, forts, control flags, VP hexes, port anchors, card icons and whole cards.

The engine knows nothing of coordinates: ``LAYOUT`` places the 27 locations by id on a
schematic map of the eastern United States (Pennsylvania at the top, the Gulf of Mexico
at the bottom, the Mississippi on the left, the Atlantic on the right). Geography is kept
in order (north above south, west left of east) but spread out where real distances are
too small to draw, as in northern Virginia. A location the layout does not know (should
the engine add one) is placed from the view's ``xy`` (longitude, latitude) if it has one,
else in a free column, so nothing is ever dropped.

Everything here draws onto an ``ImageDraw`` at given coordinates; ``render.lincoln``
composes the board.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from PIL import ImageDraw

from render.common import COLOURS, Box, Colour, blend, fit, text, text_width
from render.common import wrap as _wrap

ROLES = ("union", "confederate")
#: The sides' names as players read them (the same words the rules use).
NAMES = {"union": "Union", "confederate": "Confederate"}

SIDE: dict[str, Colour] = {"union": (36, 70, 146), "confederate": (98, 102, 112)}
SIDE_DARK: dict[str, Colour] = {"union": (20, 40, 92), "confederate": (54, 56, 64)}
SIDE_LIGHT: dict[str, Colour] = {"union": (212, 222, 244), "confederate": (228, 228, 230)}
NEUTRAL_RAIL: Colour = (150, 104, 44)
CONTESTED: Colour = (200, 30, 30)
GOLD: Colour = (226, 182, 40)
SEA: Colour = (178, 208, 228)
SEA_INK: Colour = (70, 110, 150)
LAND: Colour = (236, 228, 206)

#: The map's drawing area on the board (the layout below is relative to its top left).
MAP_W, MAP_H = 800, 780
LOC_W, LOC_H = 128, 82
NAME_H = 18

#: Centre of each location's box on the map, by id.
LAYOUT: dict[str, tuple[int, int]] = {
    # Pennsylvania and the north-east.
    "pittsburgh": (420, 56),
    "harrisburg": (575, 56),
    "philadelphia": (725, 56),
    "cincinnati": (245, 118),
    "st_louis": (82, 150),
    "harpers_ferry": (480, 162),
    "washington": (670, 162),
    # Kentucky and Virginia.
    "kentucky": (262, 238),
    "cairo": (90, 270),
    "front_royal": (445, 268),
    "manassas": (585, 268),
    "fredericksburg": (724, 290),
    "richmond": (600, 378),
    "fort_monroe": (730, 420),
    "petersburg": (592, 486),
    # Tennessee and the Mississippi valley.
    "fort_henry_donelson": (150, 386),
    "nashville": (300, 352),
    "chattanooga": (382, 462),
    "memphis": (72, 492),
    "corinth": (212, 520),
    "vicksburg": (82, 610),
    # The Carolinas, Georgia and the Gulf.
    "wilmington": (720, 562),
    "atlanta": (402, 590),
    "charleston": (640, 652),
    "savannah": (494, 718),
    "mobile": (262, 700),
    "new_orleans": (92, 718),
}

#: The sea, drawn under the locations: the Atlantic on the right, the Gulf at the bottom.
SEA_OUTLINE: list[tuple[int, int]] = [
    (800, 96), (772, 150), (800, 214), (790, 330), (800, 380), (784, 470), (800, 500),
    (778, 610), (712, 700), (610, 738), (548, 770), (420, 770), (350, 748), (300, 752),
    (200, 762), (140, 770), (0, 770), (0, 780), (800, 780),
]  # fmt: skip
#: The Mississippi, top to bottom, through the river towns.
RIVER: list[tuple[int, int]] = [
    (118, 0), (96, 110), (82, 150), (96, 230), (90, 270), (70, 420), (72, 492),
    (92, 560), (82, 610), (100, 670), (92, 718), (110, 780),
]  # fmt: skip


def place(
    loc_id: str, loc: dict[str, Any], order: int, origin: tuple[int, int] = (0, 0)
) -> tuple[int, int]:
    """The centre of ``loc_id`` on the board (``origin`` = the map's top left)."""
    ox, oy = origin
    if loc_id in LAYOUT:
        x, y = LAYOUT[loc_id]
        return ox + x, oy + y
    xy = loc.get("xy")
    if isinstance(xy, list | tuple) and len(xy) == 2:
        lon, lat = float(xy[0]), float(xy[1])
        fx = (lon + 92.0) / 17.0 * (MAP_W - LOC_W) + LOC_W // 2
        fy = (41.0 - lat) / 11.5 * (MAP_H - LOC_H) + LOC_H // 2
        fx = min(max(fx, LOC_W // 2), MAP_W - LOC_W // 2)
        fy = min(max(fy, LOC_H // 2), MAP_H - LOC_H // 2)
        return ox + int(fx), oy + int(fy)
    return ox + MAP_W - LOC_W // 2, oy + LOC_H // 2 + (order % 8) * (LOC_H + 6)


def location_box(centre: tuple[int, int]) -> Box:
    x, y = centre
    return (x - LOC_W // 2, y - LOC_H // 2, x + LOC_W // 2, y + LOC_H // 2)


def side_by_side(halves: list[str]) -> bool:
    """West/East halves are drawn left and right; any other pair top and bottom."""
    first = (halves[0] if halves else "").lower()
    return first.startswith(("west", "east"))


def half_boxes(box: Box, halves: list[str]) -> tuple[Box, Box]:
    """The two halves of a location drawn at ``box`` (under its name strip)."""
    x0, y0, x1, y1 = box
    top = y0 + NAME_H
    if side_by_side(halves):
        mid = (x0 + x1) // 2
        return (x0, top, mid, y1), (mid, top, x1, y1)
    mid = (top + y1) // 2
    return (x0, top, x1, mid), (x0, mid, x1, y1)


def anchor_point(box: Box) -> tuple[int, int]:
    return ((box[0] + box[2]) // 2, (box[1] + box[3]) // 2)


COUNTER = 20


def unit_centres(half: Box, count: int, label_w: int) -> list[tuple[int, int]]:
    """Where ``count`` counters go in a half: in rows after its label, overlapping when
    there are more than fit."""
    x0, y0, x1, y1 = half
    left = x0 + label_w + 2
    width = x1 - 4 - left
    height = y1 - y0
    rows = max(1, (height - 4) // (COUNTER + 2))
    per_row = max(1, math.ceil(count / rows)) if count else 1
    step = COUNTER + 2
    if per_row * step > width:
        step = max(6, (width - COUNTER) // max(1, per_row - 1))
    used_rows = max(1, math.ceil(count / per_row)) if count else 1
    top = y0 + (height - used_rows * (COUNTER + 2)) // 2 + (COUNTER + 2) // 2
    centres = []
    for i in range(count):
        r, c = divmod(i, per_row)
        centres.append((left + COUNTER // 2 + c * step, top + r * (COUNTER + 2)))
    return centres


GROUP_W = COUNTER + 16
Piece = tuple[tuple[int, int], dict[str, Any], int]


def pieces(half: Box, units: list[dict[str, Any]], label_w: int) -> list[Piece]:
    """What is drawn in a half, as (centre, counter, how many): one counter per unit when
    they fit side by side; otherwise one counter per kind (side, army or fort, strength;
    in that order) with its number beside it, so a big stack still reads."""
    x0, y0, x1, y1 = half
    width = x1 - 4 - (x0 + label_w + 2)
    rows = max(1, (y1 - y0 - 4) // (COUNTER + 2))
    if len(units) <= rows * max(1, width // (COUNTER + 2)):
        centres = unit_centres(half, len(units), label_w)
        return [(c, u, 1) for c, u in zip(centres, units, strict=True)]
    groups: dict[tuple[str, str, int], list[Any]] = {}
    for u in units:
        key = (str(u.get("side")), str(u.get("kind")), int(u.get("strength", 0)))
        groups.setdefault(key, [u, 0])[1] += 1
    kinds = [groups[k] for k in sorted(groups)]
    per_row = max(1, math.ceil(len(kinds) / rows))
    step = GROUP_W
    if per_row * GROUP_W > width:
        step = max(COUNTER + 2, (width - GROUP_W) // max(1, per_row - 1))
    used_rows = math.ceil(len(kinds) / per_row)
    top = y0 + (y1 - y0 - used_rows * (COUNTER + 2)) // 2 + (COUNTER + 2) // 2
    left = x0 + label_w + 2 + COUNTER // 2
    placed: list[Piece] = []
    for i, (u, n) in enumerate(kinds):
        r, c = divmod(i, per_row)
        placed.append(((left + c * step, top + r * (COUNTER + 2)), u, int(n)))
    return placed


# ------------------------------------------------------------------ small pieces


def army(draw: ImageDraw.ImageDraw, centre: tuple[int, int], side: str, strength: int) -> None:
    """An army counter: a square in its side's colour with its strength."""
    x, y = centre
    h = COUNTER // 2
    colour = SIDE.get(side, COLOURS["muted"])
    draw.rectangle((x - h + 1, y - h + 2, x + h + 1, y + h + 2), fill=SIDE_DARK.get(side, colour))
    draw.rectangle((x - h, y - h, x + h, y + h), fill=colour, outline=COLOURS["white"])
    text(draw, (x, y + 1), str(strength), 15, COLOURS["white"], "mm")


def fort(draw: ImageDraw.ImageDraw, centre: tuple[int, int], side: str) -> None:
    """A fort counter: a gold tile with a castle tower in its side's colour."""
    x, y = centre
    h = COUNTER // 2
    colour = SIDE_DARK.get(side, COLOURS["ink"])
    draw.rectangle((x - h + 1, y - h + 2, x + h + 1, y + h + 2), fill=colour)
    draw.rectangle((x - h, y - h, x + h, y + h), fill=GOLD, outline=colour, width=1)
    draw.rectangle((x - 6, y - 3, x + 6, y + 7), fill=colour)
    for bx in (x - 6, x - 1, x + 4):
        draw.rectangle((bx, y - 7, bx + 2, y - 3), fill=colour)
    draw.rectangle((x - 1, y + 2, x + 1, y + 7), fill=GOLD)


def unit(
    draw: ImageDraw.ImageDraw, centre: tuple[int, int], data: dict[str, Any], count: int = 1
) -> None:
    """One counter (an army or a fort); with ``count`` > 1, "xN" beside it."""
    if data.get("kind") == "fort":
        fort(draw, centre, str(data.get("side")))
    else:
        army(draw, centre, str(data.get("side")), int(data.get("strength", 0)))
    if count > 1:
        at = (centre[0] + COUNTER // 2 + 2, centre[1] + 1)
        text(draw, at, f"x{count}", 12, COLOURS["ink"], "lm")


def hexagon(
    draw: ImageDraw.ImageDraw, centre: tuple[int, int], r: int, fill: Colour, outline: Colour
) -> None:
    x, y = centre
    points = [
        (x + r * math.cos(math.radians(a)), y + r * math.sin(math.radians(a)))
        for a in range(0, 360, 60)
    ]
    draw.polygon(points, fill=fill, outline=outline, width=2)


def vp_hex(draw: ImageDraw.ImageDraw, centre: tuple[int, int], vp: int) -> None:
    """The location's VP in a gold hex."""
    hexagon(draw, centre, 13, GOLD, COLOURS["ink"])
    text(draw, centre, str(vp), 15, COLOURS["ink"], "mm")


def anchor(draw: ImageDraw.ImageDraw, centre: tuple[int, int], r: int, colour: Colour) -> None:
    """A ship's anchor (ports, naval icons)."""
    x, y = centre
    w = max(1, r // 4)
    draw.line((x, y - r + 3, x, y + r - 2), fill=colour, width=w + 1)
    draw.ellipse((x - 3, y - r, x + 3, y - r + 6), outline=colour, width=w)
    draw.line((x - r * 0.55, y - r * 0.35, x + r * 0.55, y - r * 0.35), fill=colour, width=w)
    draw.arc((x - r + 1, y - r * 0.3, x + r - 1, y + r), 20, 160, fill=colour, width=w + 1)


def flag(draw: ImageDraw.ImageDraw, base: tuple[int, int], side: str) -> None:
    """A control flag on a pole standing at ``base``."""
    x, y = base
    colour = SIDE.get(side, COLOURS["muted"])
    draw.line((x, y, x, y - 24), fill=COLOURS["ink"], width=2)
    draw.polygon([(x + 1, y - 24), (x + 20, y - 19), (x + 1, y - 13)], fill=colour)
    draw.line([(x + 1, y - 24), (x + 20, y - 19), (x + 1, y - 13)], fill=COLOURS["white"])


def no_entry(draw: ImageDraw.ImageDraw, centre: tuple[int, int], r: int) -> None:
    """A no-entry sign (the Union locations Confederates may never enter)."""
    x, y = centre
    draw.ellipse((x - r, y - r, x + r, y + r), fill=CONTESTED, outline=COLOURS["white"])
    draw.rectangle((x - r + 3, y - 1, x + r - 3, y + 1), fill=COLOURS["white"])


def star(draw: ImageDraw.ImageDraw, centre: tuple[int, int], r: float, colour: Colour) -> None:
    x, y = centre
    points = []
    for i in range(10):
        radius = r if i % 2 == 0 else r * 0.42
        a = math.radians(-90 + i * 36)
        points.append((x + radius * math.cos(a), y + radius * math.sin(a)))
    draw.polygon(points, fill=colour)


def train(draw: ImageDraw.ImageDraw, centre: tuple[int, int], r: int, colour: Colour) -> None:
    """A locomotive (the rail icon)."""
    x, y = centre
    draw.rectangle((x - r, y - r * 0.3, x + r * 0.4, y + r * 0.35), fill=colour)
    draw.rectangle((x + r * 0.2, y - r * 0.8, x + r, y + r * 0.35), fill=colour)
    draw.rectangle((x - r * 0.8, y - r * 0.8, x - r * 0.45, y - r * 0.3), fill=colour)
    wr = r * 0.32
    for wx in (x - r * 0.6, x + r * 0.6):
        draw.ellipse((wx - wr, y + r * 0.3, wx + wr, y + r * 0.3 + 2 * wr), fill=colour)


def swords(draw: ImageDraw.ImageDraw, centre: tuple[int, int], r: int, colour: Colour) -> None:
    """Crossed swords: a contested location, a battle."""
    x, y = centre
    draw.line((x - r, y - r, x + r, y + r), fill=colour, width=3)
    draw.line((x + r, y - r, x - r, y + r), fill=colour, width=3)
    g = r * 0.45
    draw.line((x + r - g - 2, y + r - 2 * g, x + r - 2 * g, y + r - g - 2), fill=colour, width=3)
    draw.line((x - r + g + 2, y + r - 2 * g, x - r + 2 * g, y + r - g - 2), fill=colour, width=3)


def tag(
    draw: ImageDraw.ImageDraw,
    xy: tuple[int, int],
    label: str,
    size: int,
    fill: Colour,
    colour: Colour = COLOURS["white"],
    anchor_at: str = "l",
) -> Box:
    """A rounded label with its left (``"l"``), centre (``"m"``) or right (``"r"``) at ``xy``."""
    w = text_width(label, size) + 12
    h = size + 8
    x, y = xy
    if anchor_at == "r":
        x -= w
    elif anchor_at == "m":
        x -= w // 2
    box = (x, y - h // 2, x + w, y + h // 2)
    draw.rounded_rectangle(box, radius=h // 2, fill=fill)
    text(draw, (x + w // 2, y), label, size, colour, "mm")
    return box


@lru_cache(maxsize=4096)
def _wrapped(content: str, size: int, width: int, max_lines: int | None) -> tuple[str, ...]:
    return tuple(_wrap(content, size, width, max_lines))


def wrap(content: str, size: int, width: int, max_lines: int | None = None) -> list[str]:
    """``render.common.wrap``, remembered (card texts recur turn after turn)."""
    return list(_wrapped(content, size, width, max_lines))


# ------------------------------------------------------------------ cards

KIND_NAMES = {
    "army": "Army",
    "ship": "Ship",
    "fort": "Fort",
    "politician": "Politician",
    "none": "No top item",
}
TIMING_NAMES = {
    "action": "Action",
    "free": "Free action",
    "benefit": "Benefit (as battle card)",
}


def top_icon(
    draw: ImageDraw.ImageDraw, box: Box, side: str, top: dict[str, Any], size: int = 1
) -> None:
    """The card's top item in ``box``: an army counter, a ship, a fort or a politician."""
    kind = str(top.get("kind", "none"))
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
    colour = SIDE.get(side, COLOURS["muted"])
    r = min(x1 - x0, y1 - y0) // 2 - 2
    if kind == "army":
        draw.rectangle((cx - r, cy - r, cx + r, cy + r), fill=colour, outline=COLOURS["white"])
        strength = str(top.get("strength", ""))
        text(draw, (cx, cy + 1), strength, r + 8, COLOURS["white"], "mm")
    elif kind == "ship":
        hull = [
            (cx - r, cy + 2),
            (cx + r, cy + 2),
            (cx + r * 0.6, cy + r * 0.7),
            (cx - r * 0.7, cy + r * 0.7),
        ]
        draw.polygon(hull, fill=colour)
        draw.rectangle((cx - r * 0.35, cy - r * 0.45, cx + r * 0.3, cy + 2), fill=colour)
        draw.rectangle((cx - r * 0.15, cy - r, cx + r * 0.05, cy - r * 0.45), fill=colour)
        draw.line((cx - r, cy + r * 0.85, cx + r, cy + r * 0.85), fill=SEA_INK, width=2)
    elif kind == "fort":
        draw.rectangle((cx - r, cy - r * 0.3, cx + r, cy + r), fill=colour)
        step = (2 * r) / 5
        for i in range(0, 5, 2):
            bx = cx - r + i * step
            draw.rectangle((bx, cy - r * 0.75, bx + step, cy - r * 0.3), fill=colour)
        draw.rectangle((cx - r * 0.22, cy + r * 0.3, cx + r * 0.22, cy + r), fill=COLOURS["card"])
    elif kind == "politician":
        hat = (cx - r * 0.45, cy - r, cx + r * 0.45, cy - r * 0.45)
        draw.rectangle(hat, fill=colour)
        draw.rectangle((cx - r * 0.7, cy - r * 0.5, cx + r * 0.7, cy - r * 0.38), fill=colour)
        draw.ellipse((cx - r * 0.35, cy - r * 0.42, cx + r * 0.35, cy + r * 0.2), fill=colour)
        draw.rounded_rectangle(
            (cx - r * 0.75, cy + r * 0.22, cx + r * 0.75, cy + r), radius=int(r * 0.4), fill=colour
        )
    else:
        draw.line((cx - r * 0.6, cy, cx + r * 0.6, cy), fill=COLOURS["muted"], width=3)


def card_face(draw: ImageDraw.ImageDraw, box: Box, card: dict[str, Any], note: str = "") -> None:
    """A whole card: name, top item with strength and cost, icons, timing and text."""
    x0, y0, x1, y1 = box
    side = str(card.get("side", ""))
    colour = SIDE.get(side, COLOURS["muted"])
    draw.rounded_rectangle((x0 + 2, y0 + 3, x1 + 2, y1 + 3), radius=8, fill=COLOURS["shadow"])
    draw.rounded_rectangle(box, radius=8, fill=COLOURS["card"], outline=COLOURS["card_edge"])
    # Name strip.
    strip = 42
    draw.rounded_rectangle((x0, y0, x1, y0 + strip), radius=8, fill=colour)
    draw.rectangle((x0, y0 + strip - 8, x1, y0 + strip), fill=colour)
    rows = wrap(str(card.get("name", "")), 15, x1 - x0 - 16, 2)
    ty = y0 + strip // 2 - (len(rows) * 18) // 2 + 9
    for row in rows:
        text(draw, (x0 + 8, ty), row, 15, COLOURS["white"], "lm")
        ty += 18
    # Top item, strength and cost.
    top = card.get("top") or {}
    kind = str(top.get("kind", "none"))
    y = y0 + strip + 8
    icon_box = (x0 + 10, y, x0 + 56, y + 46)
    draw.rounded_rectangle(icon_box, radius=6, fill=SIDE_LIGHT.get(side, COLOURS["paper"]))
    top_icon(draw, (icon_box[0] + 3, icon_box[1] + 3, icon_box[2] - 3, icon_box[3] - 3), side, top)
    label = KIND_NAMES.get(kind, kind.title())
    if kind == "army":
        label = f"Army {top.get('strength', 0)}"
    text(draw, (x0 + 64, y + 4), label, 16, COLOURS["ink"])
    if kind != "none":
        cost = int(top.get("cost", 0))
        text(draw, (x0 + 64, y + 36), "Cost", 13, COLOURS["muted"], "lm")
        cx = x0 + 64 + text_width("Cost", 13) + 16
        draw.ellipse((cx - 11, y + 25, cx + 11, y + 47), fill=COLOURS["ink"])
        text(draw, (cx, y + 36), str(cost), 14, COLOURS["white"], "mm")
    # Icons: leadership, rail, naval.
    y += 56
    icons = card.get("icons") or {}
    lead = int(icons.get("leadership", 0))
    ix = x0 + 10
    draw.rounded_rectangle((ix, y, ix + 74, y + 24), radius=12, fill=COLOURS["paper_dark"])
    star(draw, (ix + 13, y + 12), 9, COLOURS["ink"])
    text(draw, (ix + 26, y + 12), f"Lead {lead}", 13, COLOURS["ink"], "lm")
    ix += 80
    if icons.get("train"):
        draw.rounded_rectangle((ix, y, ix + 50, y + 24), radius=12, fill=COLOURS["paper_dark"])
        train(draw, (ix + 13, y + 11), 8, COLOURS["ink"])
        text(draw, (ix + 25, y + 12), "Rail", 12, COLOURS["ink"], "lm")
        ix += 56
    if icons.get("naval"):
        draw.rounded_rectangle((ix, y, ix + 58, y + 24), radius=12, fill=COLOURS["paper_dark"])
        anchor(draw, (ix + 12, y + 12), 8, SEA_INK)
        text(draw, (ix + 24, y + 12), "Naval", 12, COLOURS["ink"], "lm")
    y += 32
    # Timing and text.
    timing = TIMING_NAMES.get(str(card.get("timing", "none")), "")
    if timing:
        text(draw, (x0 + 10, y), timing.upper(), 11, COLOURS["red"])
        y += 16
    room = (y1 - 22 - y) // 16
    if room > 0:
        for row in wrap(str(card.get("text", "")), 13, x1 - x0 - 20, room):
            text(draw, (x0 + 10, y), row, 13, COLOURS["ink"])
            y += 16
    # Foot: wave and note.
    wave = str(card.get("wave", "base"))
    if wave in ("I", "II"):
        tag(draw, (x1 - 8, y1 - 12), f"Wave {wave}", 11, GOLD, COLOURS["ink"], "r")
    if note:
        text(draw, (x0 + 10, y1 - 6), fit(note, 12, x1 - x0 - 80), 12, COLOURS["red"], "ld")


def card_back(draw: ImageDraw.ImageDraw, box: Box, side: str, label: str = "") -> None:
    """A face-down card: its side's colour and a frame, never a name."""
    x0, y0, x1, y1 = box
    colour = SIDE.get(side, COLOURS["muted"])
    draw.rounded_rectangle((x0 + 2, y0 + 3, x1 + 2, y1 + 3), radius=6, fill=COLOURS["shadow"])
    draw.rounded_rectangle(box, radius=6, fill=colour, outline=COLOURS["card_edge"])
    draw.rounded_rectangle((x0 + 4, y0 + 4, x1 - 4, y1 - 4), radius=4, outline=GOLD)
    star(draw, ((x0 + x1) // 2, (y0 + y1) // 2 - (6 if label else 0)), 9, blend(colour, GOLD, 0.6))
    if label:
        text(draw, ((x0 + x1) // 2, y1 - 10), label, 11, COLOURS["white"], "mm")
