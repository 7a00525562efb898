"""Fort Sumter drawing pieces: side and dimension colours, the four dimension icons, the
Peace Commissioner meeple, token discs, and strategy / objective cards.

Everything here draws onto an ``ImageDraw`` at given coordinates and knows nothing about
the layout of the board; ``render.fort_sumter`` composes the pieces.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render.common import (
    COLOURS,
    Box,
    Colour,
    blend,
    canvas,
    fit,
    font,
    rounded_box,
    text,
    text_width,
)
from render.common import wrap as _wrap
from rules import get_game

ROLES = ("unionist", "secessionist")
#: The sides' names, as the game's rules give them.
NAMES = get_game("fort_sumter").role_names

SIDE: dict[str, Colour] = {"unionist": (38, 72, 150), "secessionist": (112, 116, 124)}
SIDE_LIGHT: dict[str, Colour] = {"unionist": (214, 224, 244), "secessionist": (226, 227, 230)}
SIDE_DARK: dict[str, Colour] = {"unionist": (22, 42, 96), "secessionist": (62, 64, 70)}

#: The board's dimension colours by the names the view gives (``dimensions[].colour``).
DIMENSION_COLOURS: dict[str, Colour] = {
    "blue": (62, 126, 196),
    "yellow": (222, 176, 38),
    "red": (186, 56, 46),
    "green": (56, 136, 74),
}

#: Crisis Track zones: background, and a stronger edge / label colour.
ZONE_FILL: dict[str, Colour] = {
    "starting": (236, 228, 208),
    "escalation": (246, 222, 120),
    "tension": (240, 164, 82),
    "final_crisis": (214, 92, 78),
}
ZONE_INK: dict[str, Colour] = {
    "starting": (110, 102, 92),
    "escalation": (150, 112, 10),
    "tension": (170, 84, 14),
    "final_crisis": (150, 30, 24),
}
ZONE_NAMES = {
    "starting": "Starting",
    "escalation": "Escalation",
    "tension": "Tension",
    "final_crisis": "Final Crisis",
}

PC_FILL: Colour = (250, 236, 170)
PC_EDGE: Colour = (120, 88, 20)


@lru_cache(maxsize=4096)
def _wrapped(content: str, size: int, width: int, max_lines: int | None) -> tuple[str, ...]:
    return tuple(_wrap(content, size, width, max_lines))


def wrap(content: str, size: int, width: int, max_lines: int | None = None) -> list[str]:
    """``render.common.wrap``, remembered: card texts and log lines recur turn after turn,
    and measuring text is most of the drawing time."""
    return list(_wrapped(content, size, width, max_lines))


def dimension_colour(name: str | None) -> Colour:
    return DIMENSION_COLOURS.get(name or "", COLOURS["muted"])


def side_colour(role: str | None) -> Colour:
    return SIDE.get(role or "", COLOURS["muted"])


# ------------------------------------------------------------------ small pieces


def disc(draw: ImageDraw.ImageDraw, centre: tuple[int, int], r: int, fill: Colour) -> None:
    """One wooden token seen from above."""
    x, y = centre
    draw.ellipse((x - r, y - r + 1, x + r, y + r + 1), fill=blend(fill, COLOURS["ink"], 0.45))
    draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=COLOURS["white"], width=1)


def empty_slot(draw: ImageDraw.ImageDraw, centre: tuple[int, int], r: int, colour: Colour) -> None:
    x, y = centre
    draw.ellipse((x - r, y - r, x + r, y + r), outline=colour, width=1)


def token_row(
    draw: ImageDraw.ImageDraw,
    start: tuple[int, int],
    count: int,
    role: str,
    r: int = 9,
    slots: int = 4,
    faint: Colour | None = None,
) -> int:
    """``count`` discs (at most ``slots`` drawn, the rest as empty slots) from ``start``
    (the row's left edge and its centre line); returns the x after the row."""
    x, cy = start
    step = 2 * r + 4
    for i in range(slots):
        centre = (x + r + i * step, cy)
        if i < count:
            disc(draw, centre, r, SIDE[role])
        elif faint is not None:
            empty_slot(draw, centre, r, faint)
    return x + slots * step


def icon(
    draw: ImageDraw.ImageDraw, kind: str, centre: tuple[int, int], r: int, colour: Colour
) -> None:
    """A dimension icon (star, bell, cannon, person) of radius ``r``."""
    x, y = centre
    if kind == "star":
        points = []
        for i in range(10):
            radius = r if i % 2 == 0 else r * 0.42
            angle = -90 + i * 36
            points.append(_polar(x, y, radius, angle))
        draw.polygon(points, fill=colour)
    elif kind == "bell":
        draw.polygon(
            [
                (x - r * 0.9, y + r * 0.55),
                (x - r * 0.6, y + r * 0.25),
                (x - r * 0.55, y - r * 0.35),
                (x + r * 0.55, y - r * 0.35),
                (x + r * 0.6, y + r * 0.25),
                (x + r * 0.9, y + r * 0.55),
            ],
            fill=colour,
        )
        draw.pieslice((x - r * 0.55, y - r * 0.9, x + r * 0.55, y + r * 0.2), 180, 360, fill=colour)
        draw.ellipse((x - r * 0.2, y + r * 0.5, x + r * 0.2, y + r * 0.9), fill=colour)
    elif kind == "cannon":
        barrel = [
            (x - r * 0.85, y + r * 0.05),
            (x + r * 0.75, y - r * 0.65),
            (x + r * 0.9, y - r * 0.35),
            (x - r * 0.65, y + r * 0.45),
        ]
        draw.polygon(barrel, fill=colour)
        wr = r * 0.42
        draw.ellipse(
            (x - wr - r * 0.1, y + r * 0.1, x + wr - r * 0.1, y + r * 0.1 + 2 * wr), fill=colour
        )
        draw.ellipse(
            (x - r * 0.22, y + r * 0.42, x + r * 0.02, y + r * 0.66), fill=COLOURS["white"]
        )
    elif kind == "person":
        hr = r * 0.36
        draw.ellipse((x - hr, y - r, x + hr, y - r + 2 * hr), fill=colour)
        draw.rounded_rectangle(
            (x - r * 0.7, y - r * 0.2, x + r * 0.7, y + r), radius=int(r * 0.5), fill=colour
        )
    else:
        draw.ellipse((x - r * 0.6, y - r * 0.6, x + r * 0.6, y + r * 0.6), fill=colour)


def _polar(x: float, y: float, radius: float, degrees: float) -> tuple[float, float]:
    import math

    a = math.radians(degrees)
    return (x + radius * math.cos(a), y + radius * math.sin(a))


def meeple(draw: ImageDraw.ImageDraw, centre: tuple[int, int], h: int) -> None:
    """The Peace Commissioner: a meeple ``h`` pixels tall, cream with a dark edge."""
    x, y = centre
    s = h / 24
    points = [
        (-3, -7), (-8, -5), (-11, -1), (-10, 1), (-5, 0), (-7, 11), (-2, 11), (0, 6),
        (2, 11), (7, 11), (5, 0), (10, 1), (11, -1), (8, -5), (3, -7),
    ]  # fmt: skip
    body = [(x + px * s, y + py * s) for px, py in points]
    draw.polygon([(px + 1, py + 2) for px, py in body], fill=COLOURS["shadow"])
    draw.polygon(body, fill=PC_FILL, outline=PC_EDGE, width=2)
    hr = 5 * s
    draw.ellipse(
        (x - hr, y - 12 * s - hr, x + hr, y - 12 * s + hr), fill=PC_FILL, outline=PC_EDGE, width=2
    )


# ------------------------------------------------------------------ cards


def value_box(draw: ImageDraw.ImageDraw, box: Box, value: Any, colour: str, size: int) -> None:
    """The strategy card's value box: blue, gray, or split diagonally for both."""
    x0, y0, x1, y1 = box
    if colour == "both":
        draw.polygon([(x0, y0), (x1, y0), (x0, y1)], fill=SIDE["unionist"])
        draw.polygon([(x1, y0), (x1, y1), (x0, y1)], fill=SIDE["secessionist"])
    else:
        role = "unionist" if colour == "blue" else "secessionist"
        draw.rectangle(box, fill=SIDE[role])
    draw.rectangle(box, outline=COLOURS["white"], width=1)
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
    draw.text((cx + 1, cy + 1), str(value), font=font(size), fill=COLOURS["ink"], anchor="mm")
    draw.text((cx, cy), str(value), font=font(size), fill=COLOURS["white"], anchor="mm")


def event_for_label(card: dict[str, Any]) -> str:
    roles = card.get("event_for") or []
    if len(roles) >= 2:
        return "Event: either side"
    if roles:
        return f"Event: {NAMES.get(roles[0], roles[0])}"
    return "Event"


def dimension_band(
    draw: ImageDraw.ImageDraw,
    box: Box,
    name: str,
    colour: Colour,
    icon_kind: str,
    size: int = 13,
) -> None:
    """A Final Crisis dimension band: the dimension's colour, icon and name."""
    x0, y0, x1, y1 = box
    draw.rectangle(box, fill=colour)
    h = y1 - y0
    icon(draw, icon_kind, (x0 + h // 2 + 2, (y0 + y1) // 2), max(4, h // 2 - 4), COLOURS["white"])
    label = fit(name, size, x1 - x0 - h - 10)
    text(draw, (x0 + h + 6, (y0 + y1) // 2), label, size, COLOURS["white"], "lm")


def strategy_card(
    draw: ImageDraw.ImageDraw,
    box: Box,
    card: dict[str, Any],
    dims: dict[str, dict[str, Any]],
    note: str = "",
) -> None:
    """A full strategy card: value box, title, event text, Final Crisis band at the foot."""
    x0, y0, x1, y1 = box
    w = x1 - x0
    draw.rounded_rectangle((x0 + 2, y0 + 3, x1 + 2, y1 + 3), radius=8, fill=COLOURS["shadow"])
    draw.rounded_rectangle(box, radius=8, fill=COLOURS["card"], outline=COLOURS["card_edge"])
    vb = 40
    value_box(
        draw,
        (x0 + 8, y0 + 8, x0 + 8 + vb, y0 + 8 + vb),
        card.get("value", "?"),
        card.get("colour", ""),
        26,
    )
    title_x = x0 + vb + 16
    title_lines = wrap(card.get("title", ""), 15, x1 - title_x - 8, 2)
    ty = y0 + 10 if len(title_lines) > 1 else y0 + 18
    for line in title_lines:
        text(draw, (title_x, ty), line, 15, COLOURS["ink"])
        ty += 19
    y = y0 + vb + 16
    text(draw, (x0 + 10, y), event_for_label(card).upper(), 11, COLOURS["muted"])
    y += 16
    band_h = 26
    room = (y1 - band_h - 8 - y - (16 if note else 0)) // 16
    for line in wrap(card.get("text", ""), 13, w - 20, max(room, 1)):
        text(draw, (x0 + 10, y), line, 13, COLOURS["ink"])
        y += 16
    if note:
        text(draw, (x1 - 8, y1 - band_h - 6), note, 12, COLOURS["red"], "rd")
    dim = dims.get(card.get("fc_dimension") or "", {})
    band = (x0 + 1, y1 - band_h, x1 - 1, y1 - 1)
    draw.rounded_rectangle(band, radius=7, fill=dimension_colour(dim.get("colour")))
    draw.rectangle(
        (band[0], band[1], band[2], band[1] + 8), fill=dimension_colour(dim.get("colour"))
    )
    dimension_band(
        draw,
        (band[0] + 4, band[1], band[2] - 4, band[3]),
        f"Final Crisis: {card.get('fc_dimension_name', '')}",
        dimension_colour(dim.get("colour")),
        dim.get("icon", ""),
        12,
    )


def objective_card(
    draw: ImageDraw.ImageDraw,
    box: Box,
    objective: dict[str, Any],
    dims: dict[str, dict[str, Any]],
    heading: str = "Objective",
    highlight: Colour | None = None,
) -> None:
    """An objective card: its space (in the dimension's colour) and its event."""
    x0, y0, x1, y1 = box
    dim = dims.get(objective.get("dimension") or "", {})
    colour = dimension_colour(dim.get("colour"))
    draw.rounded_rectangle((x0 + 2, y0 + 3, x1 + 2, y1 + 3), radius=8, fill=COLOURS["shadow"])
    draw.rounded_rectangle(
        box,
        radius=8,
        fill=blend(colour, COLOURS["card"], 0.85),
        outline=highlight or COLOURS["card_edge"],
        width=3 if highlight else 1,
    )
    strip = 34
    draw.rounded_rectangle((x0, y0, x1, y0 + strip), radius=8, fill=colour)
    draw.rectangle((x0, y0 + strip - 8, x1, y0 + strip), fill=colour)
    icon(draw, dim.get("icon", ""), (x0 + 18, y0 + strip // 2), 10, COLOURS["white"])
    name = fit(objective.get("space_name", objective.get("title", "")), 16, x1 - x0 - 40)
    text(draw, (x0 + 34, y0 + strip // 2), name, 16, COLOURS["white"], "lm")
    y = y0 + strip + 6
    text(draw, (x0 + 10, y), heading.upper(), 11, COLOURS["muted"])
    y += 15
    score = f"1 VP if you control {objective.get('space_name', '')} at round end; then:"
    room = (y1 - y - 6) // 16
    rows = wrap(score, 12, x1 - x0 - 20) + wrap(objective.get("text", ""), 13, x1 - x0 - 20)
    for i, line in enumerate(rows[: max(room, 1)]):
        is_score = i < len(wrap(score, 12, x1 - x0 - 20))
        text(
            draw,
            (x0 + 10, y),
            line,
            12 if is_score else 13,
            COLOURS["muted"] if is_score else COLOURS["ink"],
        )
        y += 16


def mini_card(
    draw: ImageDraw.ImageDraw,
    box: Box,
    card: dict[str, Any],
    dims: dict[str, dict[str, Any]],
    band_only: bool = False,
) -> None:
    """A compact face-up strategy card for the board: value box and title over its Final
    Crisis band; with ``band_only`` the dimension band is the card (as in the Final Crisis)."""
    x0, y0, x1, y1 = box
    dim = dims.get(card.get("fc_dimension") or "", {})
    colour = dimension_colour(dim.get("colour"))
    draw.rounded_rectangle(box, radius=6, fill=COLOURS["card"], outline=COLOURS["card_edge"])
    if band_only:
        band = (x0 + 1, y0 + 1, x1 - 1, y0 + 24)
        name = card.get("fc_dimension_name", "")
        dimension_band(draw, band, name, colour, dim.get("icon", ""), 13)
        text(
            draw,
            (x0 + 6, y0 + 28),
            fit(card.get("title", ""), 12, x1 - x0 - 10),
            12,
            COLOURS["muted"],
        )
        return
    vb = min(34, y1 - y0 - 26)
    value_box(
        draw,
        (x0 + 5, y0 + 5, x0 + 5 + vb, y0 + 5 + vb),
        card.get("value", "?"),
        card.get("colour", ""),
        20,
    )
    tx = x0 + vb + 11
    rows = wrap(card.get("title", ""), 14, x1 - tx - 6, 2)
    ty = y0 + 6 if len(rows) > 1 else y0 + 14
    for row in rows:
        text(draw, (tx, ty), row, 14, COLOURS["ink"])
        ty += 17
    band = (x0 + 1, y1 - 20, x1 - 1, y1 - 1)
    dimension_band(
        draw,
        band,
        f"FC: {card.get('fc_dimension_name', '')}",
        colour,
        dim.get("icon", ""),
        12,
    )


def tag(
    draw: ImageDraw.ImageDraw,
    xy: tuple[int, int],
    label: str,
    size: int,
    fill: Colour,
    colour: Colour = COLOURS["white"],
    anchor: str = "l",
) -> Box:
    """A small rounded label with its left (``anchor="l"``) or right edge at ``xy``."""
    w = text_width(label, size) + 10
    h = size + 6
    x, y = xy
    if anchor == "r":
        x -= w
    box = (x, y - h // 2, x + w, y + h // 2)
    draw.rounded_rectangle(box, radius=h // 2, fill=fill)
    draw.text((x + w // 2, y), label, font=font(size), fill=colour, anchor="mm")
    return box


# ------------------------------------------------------------------ hand

CARD_W, CARD_H = 200, 210
OBJ_H = 170
GAP = 16
MARGIN = 20


def hand_image(view: dict[str, Any]) -> Image.Image:
    """A private view's cards, grouped and flowed into rows."""
    dims = {d["id"]: d for d in view.get("dimensions", [])}
    role = view.get("role") or "unionist"
    groups: list[tuple[str, str, list[dict[str, Any]]]] = []
    if view.get("hand") or not any(
        view.get(k) for k in ("objective", "objective_offer", "set_aside", "final_crisis_order")
    ):
        groups.append(("In hand", "strategy", list(view.get("hand") or [])))
    if view.get("objective"):
        groups.append(("Objective kept", "objective", [view["objective"]]))
    elif view.get("objective_offer"):
        groups.append(("Objectives offered: keep one", "objective", list(view["objective_offer"])))
    if view.get("set_aside"):
        groups.append(("Set aside for the Final Crisis", "strategy", list(view["set_aside"])))
    if view.get("final_crisis_order"):
        groups.append(
            ("Final Crisis order (first on top)", "order", list(view["final_crisis_order"]))
        )
    # Flow the groups into rows no wider than the widest reasonable image.
    max_w = 1100
    rows: list[list[tuple[str, str, list[dict[str, Any]]]]] = [[]]
    used = MARGIN
    for group in groups:
        w = max(1, len(group[2])) * (CARD_W + GAP) + 12
        if rows[-1] and used + w > max_w:
            rows.append([])
            used = MARGIN
        rows[-1].append(group)
        used += w
    width = max(
        640,
        max(
            MARGIN + sum(max(1, len(g[2])) * (CARD_W + GAP) + 12 for g in row) - 12 - GAP + MARGIN
            for row in rows
        ),
    )
    # No prompt here: it is in the message beside the image, and a hand picture that only
    # changes with the hand is uploaded once, not on every click.
    top = 52

    def row_h(row: list[tuple[str, str, list[dict[str, Any]]]]) -> int:
        tallest = max(OBJ_H if kind == "objective" else CARD_H for _, kind, _ in row)
        return 22 + tallest + 18

    height = top + sum(row_h(row) for row in rows) + 4
    image = canvas(width, height, SIDE_LIGHT.get(role, COLOURS["paper"]))
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, width, 42), fill=SIDE.get(role, COLOURS["banner"]))
    phase = str(view.get("phase"))
    when = {"final_crisis": "Final Crisis", "over": "Game over"}.get(
        phase, f"Round {view.get('round', 1)}"
    )
    text(draw, (MARGIN, 21), f"{NAMES.get(role, role)} hand · {when}", 19, COLOURS["white"], "lm")
    vp = (view.get("vp") or {}).get(role)
    if vp is not None:
        text(draw, (width - MARGIN, 21), f"{vp} VP", 18, COLOURS["white"], "rm")
    y = top
    for row in rows:
        x = MARGIN
        for label, kind, cards in row:
            text(draw, (x, y), label, 14, SIDE_DARK.get(role, COLOURS["ink"]))
            cy = y + 22
            if not cards:
                box = (x, cy, x + CARD_W, cy + CARD_H)
                rounded_box(draw, box, None, blend(SIDE[role], COLOURS["paper"], 0.4), 8, 2)
                text(
                    draw,
                    (x + CARD_W // 2, cy + CARD_H // 2),
                    "no cards",
                    14,
                    COLOURS["muted"],
                    "mm",
                )
                x += CARD_W + GAP
            for i, card in enumerate(cards):
                box = (x, cy, x + CARD_W, cy + (OBJ_H if kind == "objective" else CARD_H))
                if kind == "objective":
                    objective_card(draw, box, card, dims)
                else:
                    note = f"#{i + 1} to reveal" if kind == "order" else ""
                    strategy_card(draw, box, card, dims, note=note)
                x += CARD_W + GAP
            x += 12
        y += row_h(row)
    return image
