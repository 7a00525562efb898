"""Fort Sumter: the board and a player's hand, drawn from a view.

The board (1200 x 812, and 128 px more for the Fate Die's Card Display when a side is run
by the die, ``render.fate``): the two Crisis Tracks on the left with the bonus boxes between
them, zone by zone as on the real board; the map in the middle, one panel per Crisis
Dimension with its three spaces; each side's score, pool and counts on the right, above
the last card played and the revealed objectives (or, during the Final Crisis, the
revealed pairs). Only public keys of the view are read, so any role's view draws the
same board. The hand image shows what the private view adds: hand, objective (or the two
offered), set-aside cards and the Final Crisis order.
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from render.closeup import closeup, fate_parts
from render.common import (
    COLOURS,
    HEADLINE_H,
    Box,
    Colour,
    blend,
    canvas,
    clock_band,
    fit,
    headline,
    offered_places,
    rounded_box,
    text,
    text_width,
)
from render.fate import band_height, draw_fate_band
from render.fort_sumter_parts import (
    NAMES,
    PC_EDGE,
    PC_FILL,
    ROLES,
    SIDE,
    SIDE_DARK,
    SIDE_LIGHT,
    ZONE_FILL,
    ZONE_INK,
    ZONE_NAMES,
    dimension_colour,
    disc,
    empty_slot,
    hand_image,
    icon,
    meeple,
    mini_card,
    tag,
    token_row,
    wrap,
)

WIDTH, HEIGHT = 1200, 812
HEADER_H = HEADLINE_H
FOOTER_H = 36
TOP = HEADER_H + 8
BOTTOM = HEIGHT - FOOTER_H - 8

# Crisis tracks (left).
TRACK_X = {"unionist": 14, "secessionist": 262}
TRACK_W = 52
MID_X0, MID_X1 = 74, 254
CELL_H = 36
CELLS_Y = TOP + 46

# Map (middle) and side panels (right).
MAP_X0, MAP_X1 = 326, 890
PANEL_GAP = 12
DIM_HEAD = 38
SPACE_GAP = 6
TOKEN_R = 10
TOKEN_BLOCK = 4 * (2 * TOKEN_R + 4) + 28
RIGHT_X0, RIGHT_X1 = 900, WIDTH - 12

Dims = dict[str, dict[str, Any]]


def _dims(view: dict[str, Any]) -> Dims:
    return {d["id"]: d for d in view.get("dimensions", [])}


def draw_board(view: dict[str, Any]) -> Image.Image:
    """The public board (only public keys are read: any role's view draws the same)."""
    image = canvas(WIDTH, HEIGHT + band_height(view))
    draw = ImageDraw.Draw(image)
    dims = _dims(view)
    _header(draw, view)
    _tracks(draw, view)
    _map(draw, view)
    y = TOP
    for role in ROLES:
        y = _side_panel(draw, view, role, y) + 8
    if view.get("final_crisis") is not None:
        y = _final_crisis(draw, view, dims, y)
    else:
        y = _last_play(draw, view, dims, y)
    if view.get("outcome"):
        y = _outcome(draw, view, y)
    _deck_counts(draw, view)
    _footer(draw, view)
    draw_fate_band(
        draw, HEIGHT, WIDTH, view, dict(NAMES), SIDE, lambda d, box, c: mini_card(d, box, c, dims)
    )
    return image


#: The mark around a space a prompt offers.
CHOICE: Colour = (236, 150, 0)


def choice_spaces(view: dict[str, Any]) -> list[str]:
    """The map spaces the role's prompt offers (an arg names a space, or "space:side")."""
    return offered_places(view, {s["id"] for s in view.get("spaces", [])})


def draw_choices(view: dict[str, Any]) -> Image.Image | None:
    """The board with every space the prompt offers ringed, for a prompt about places on
    the map (a placement, a removal, a move, the Peace Commissioner); None otherwise."""
    chosen = choice_spaces(view)
    if not chosen:
        return None
    image = draw_board(view)
    draw = ImageDraw.Draw(image)
    boxes = space_boxes(view)
    for space in chosen:
        x0, y0, x1, y1 = boxes[space]
        draw.rounded_rectangle((x0 - 3, y0 - 3, x1 + 3, y1 + 3), radius=8, outline=CHOICE, width=5)
    return image


#: The Crisis Tracks with the bonus boxes between them, as drawn by ``_tracks``.
TRACKS_BOX: Box = (6, TOP, 318, BOTTOM)


def closeup_parts(view: dict[str, Any]) -> list[Box]:
    """What a decision is about, as boxes on the board (``render.closeup``): the ringed
    spaces; else the Fate Die's display when a side is run by the die; else the Crisis
    Tracks (unreadable on a phone on the full board). The tracks are
    as tall as the board, so they do not share a close-up with the display."""
    boxes = space_boxes(view)
    spaces = [boxes[s] for s in choice_spaces(view)]
    if spaces:
        return [(x0 - 8, y0 - 8, x1 + 8, y1 + 8) for x0, y0, x1, y1 in spaces]
    return fate_parts(view, HEIGHT, WIDTH) or [TRACKS_BOX]


def draw_closeup(view: dict[str, Any]) -> Image.Image | None:
    """A phone-sized close-up of what the decision is about (``render.closeup``), to send
    beside the full board."""
    board = draw_choices(view) or draw_board(view)
    return closeup(board, closeup_parts(view))


# ------------------------------------------------------------------ header / footer


def _header(draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    """Round, score and whose turn, legible at Discord's inline preview (``headline``)."""
    phase = view.get("phase")
    if phase == "over" or view.get("outcome"):
        marker = "Game over"
    elif phase == "final_crisis":
        marker = "Final Crisis"
    else:
        marker = f"Round {int(view.get('round') or 1)} of 3"
    vp = view.get("score") or {}
    u, s = "unionist", "secessionist"
    score = [
        (f"{NAMES[u]} {vp.get(u, 0)}", SIDE_LIGHT[u]),
        ("-", COLOURS["shadow"]),
        (f"{vp.get(s, 0)} {NAMES[s]}", SIDE_LIGHT[s]),
        ("VP", COLOURS["shadow"]),
    ]
    status = str(view.get("status") or "")
    headline(draw, WIDTH, marker=marker, score=score, status=status, clock=clock_band(view))


def _footer(draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    y0 = HEIGHT - FOOTER_H
    draw.rectangle((0, y0, WIDTH, HEIGHT), fill=COLOURS["banner"])
    parts = []
    first = view.get("first_player")
    if first and not view.get("outcome"):
        parts.append(f"First player this round: {NAMES.get(first, first)}")
    event = view.get("current_event")
    if event and not view.get("outcome"):
        who = NAMES.get(event.get("role"), event.get("role") or "")
        parts.append(f"resolving {event.get('title', '')} ({who})")
    line = "   ·   ".join(parts) or str(view.get("title") or "Fort Sumter")
    text(draw, (16, y0 + FOOTER_H // 2), fit(line, 16, WIDTH - 32), 16, COLOURS["paper"], "lm")


# ------------------------------------------------------------------ crisis tracks


def _tracks(draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    tracks = view.get("crisis_tracks") or {}
    rounded_box(draw, (6, TOP, 318, BOTTOM), COLOURS["paper_dark"], None, radius=10)
    text(draw, (162, TOP + 12), "CRISIS TRACKS", 13, COLOURS["muted"], "mm")
    for role in ROLES:
        track = tracks.get(role)
        if not track:
            continue
        x = TRACK_X[role]
        cx = x + TRACK_W // 2
        text(draw, (cx, TOP + 32), NAMES[role], 11, SIDE[role], "mm")
        zone_of = {n: z for z in track["zones"] for n in z["spaces"]}
        occupied = track["occupied"]
        for row, number in enumerate(range(15, -1, -1)):
            zone = zone_of.get(number, {"zone": "starting"})
            y = CELLS_Y + row * CELL_H
            box = (x, y, x + TRACK_W, y + CELL_H)
            draw.rectangle(box, fill=ZONE_FILL[zone["zone"]], outline=COLOURS["card_edge"])
            left = role == "unionist"
            nx = x + 5 if left else x + TRACK_W - 5
            text(
                draw,
                (nx, y + CELL_H // 2),
                str(number),
                11,
                ZONE_INK[zone["zone"]],
                "lm" if left else "rm",
            )
            centre = (x + TRACK_W // 2 + (6 if left else -6), y + CELL_H // 2)
            if number < len(occupied) and occupied[number]:
                disc(draw, centre, 11, SIDE[role])
            else:
                empty_slot(draw, centre, 11, blend(ZONE_INK[zone["zone"]], COLOURS["white"], 0.4))
        for zone in track["zones"]:
            if zone["breached"]:
                top_row = 15 - max(zone["spaces"])
                y0 = CELLS_Y + top_row * CELL_H
                y1 = y0 + len(zone["spaces"]) * CELL_H
                edge = x - 5 if role == "unionist" else x + TRACK_W + 1
                draw.rectangle((edge, y0 + 1, edge + 3, y1 - 1), fill=COLOURS["red"])
        count = track.get("tokens", sum(occupied))
        text(draw, (cx, CELLS_Y + 16 * CELL_H + 12), f"{count} left", 12, COLOURS["ink"], "mm")
    _bonus_boxes(draw, view, tracks)


def _zone_rows(tracks: dict[str, Any], name: str) -> tuple[int, int]:
    for track in tracks.values():
        for zone in track["zones"]:
            if zone["zone"] == name:
                top_row = 15 - max(zone["spaces"])
                return CELLS_Y + top_row * CELL_H, CELLS_Y + (
                    top_row + len(zone["spaces"])
                ) * CELL_H
    return CELLS_Y, CELLS_Y


def _breached(tracks: dict[str, Any], role: str, name: str) -> bool:
    track = tracks.get(role) or {}
    return any(z["zone"] == name and z["breached"] for z in track.get("zones", []))


def _bonus_boxes(draw: ImageDraw.ImageDraw, view: dict[str, Any], tracks: dict[str, Any]) -> None:
    if not tracks:
        return
    boxes = view.get("bonus_boxes") or {}
    mid = (MID_X0 + MID_X1) // 2
    # Starting zone: a legend of what the tracks are.
    y0, y1 = _zone_rows(tracks, "starting")
    rounded_box(
        draw,
        (MID_X0 + 2, y0 + 2, MID_X1 - 2, y1 - 4),
        ZONE_FILL["starting"],
        COLOURS["card_edge"],
        8,
        1,
    )
    text(draw, (mid, y0 + 16), "Starting zone 15-11", 13, ZONE_INK["starting"], "mm")
    note = [
        "Tokens leave a track from the top",
        "when the pool is empty. The first",
        "token out of a zone breaches it.",
    ]
    y = y0 + 34
    for line in note:
        text(draw, (mid, y), line, 11, COLOURS["muted"], "mm")
        y += 14
    _peace_commissioner(draw, view, (MID_X0 + 8, y + 4, MID_X1 - 8, y1 - 10))
    # Escalation and Tension: one box per side.
    for zone, size in (("escalation", 2), ("tension", 3)):
        y0, y1 = _zone_rows(tracks, zone)
        text(draw, (mid, y0 + 11), f"{ZONE_NAMES[zone]} bonus", 12, ZONE_INK[zone], "mm")
        half = (MID_X1 - MID_X0) // 2
        for i, role in enumerate(ROLES):
            bx0 = MID_X0 + 2 + i * half
            box = (bx0, y0 + 20, bx0 + half - 4, y1 - 4)
            breached = _breached(tracks, role, zone)
            rounded_box(draw, box, ZONE_FILL[zone], SIDE[role], 6, 2)
            count = (boxes.get(zone) or {}).get(role, 0)
            cy = (box[1] + box[3]) // 2 - (6 if breached else 0)
            width = size * 18
            left = (box[0] + box[2]) // 2 - width // 2
            token_row(draw, (left, cy), count, role, r=7, slots=size, faint=ZONE_INK[zone])
            if breached:
                text(
                    draw, ((box[0] + box[2]) // 2, box[3] - 9), "breached", 11, COLOURS["red"], "mm"
                )
    # Final Crisis: the shared box.
    y0, y1 = _zone_rows(tracks, "final_crisis")
    text(draw, (mid, y0 + 11), "Final Crisis bonus (shared)", 12, ZONE_INK["final_crisis"], "mm")
    box = (MID_X0 + 2, y0 + 20, MID_X1 - 2, y1 - 4)
    rounded_box(draw, box, ZONE_FILL["final_crisis"], COLOURS["ink"], 8, 2)
    fc = boxes.get("final_crisis") or {}
    y = box[1] + 18
    for role in ROLES:
        token_row(
            draw, (box[0] + 12, y), fc.get(role, 0), role, r=9, slots=4, faint=(250, 210, 200)
        )
        label = "breached" if _breached(tracks, role, "final_crisis") else ""
        text(draw, (box[2] - 8, y), label, 11, COLOURS["white"], "rm")
        y += 26
    breaches = view.get("final_crisis_breaches", 0)
    rules = [
        "1st side to breach: takes 4,",
        "loses 1 VP. 2nd: takes 2.",
        f"Breaches so far: {breaches} of 2",
    ]
    y += 4
    for line in rules:
        text(draw, (box[0] + 10, y), line, 12, COLOURS["white"])
        y += 16


def _peace_commissioner(
    draw: ImageDraw.ImageDraw, view: dict[str, Any], box: tuple[int, int, int, int]
) -> None:
    """Where the Peace Commissioner stands (or that it waits off the map)."""
    x0, y0, x1, y1 = box
    rounded_box(draw, box, PC_FILL, PC_EDGE, 6, 1)
    meeple(draw, (x0 + 18, (y0 + y1) // 2 + 2), 26)
    where = view.get("peace_commissioner_name")
    if where:
        state = where
    elif view.get("phase") in ("final_crisis", "over"):
        state = "removed from the game"
    else:
        state = "off the map"
    room = x1 - x0 - 42
    y = y0 + 6
    for line in wrap("Peace Commissioner", 12, room):
        text(draw, (x0 + 36, y), line, 12, PC_EDGE)
        y += 15
    for line in wrap(state, 13, room, 2):
        text(draw, (x0 + 36, y), line, 13, COLOURS["ink"])
        y += 16
    if not view.get("tension_peace_commissioner_given") and view.get("phase") == "rounds":
        for line in wrap("enters on the first Tension breach", 10, room, 2):
            text(draw, (x0 + 36, y), line, 10, COLOURS["muted"])
            y += 12


# ------------------------------------------------------------------ map


def dimension_boxes(view: dict[str, Any]) -> dict[str, Box]:
    """Where each Crisis Dimension's panel is drawn, in the view's order (2 x 2)."""
    col_w = (MAP_X1 - MAP_X0 - PANEL_GAP) // 2
    row_h = (BOTTOM - TOP - PANEL_GAP) // 2
    boxes: dict[str, Box] = {}
    for i, dim in enumerate(view.get("dimensions", [])[:4]):
        x0 = MAP_X0 + (i % 2) * (col_w + PANEL_GAP)
        y0 = TOP + (i // 2) * (row_h + PANEL_GAP)
        boxes[dim["id"]] = (x0, y0, x0 + col_w, y0 + row_h)
    return boxes


def space_boxes(view: dict[str, Any]) -> dict[str, Box]:
    """Where each map space is drawn: its dimension's three spaces stacked in its panel."""
    boxes: dict[str, Box] = {}
    panels = dimension_boxes(view)
    for dim in view.get("dimensions", []):
        if dim["id"] not in panels:
            continue
        x0, y0, x1, y1 = panels[dim["id"]]
        count = max(len(dim["spaces"]), 1)
        top = y0 + DIM_HEAD + SPACE_GAP
        h = (y1 - top - SPACE_GAP) // count - SPACE_GAP
        for space_id in dim["spaces"]:
            boxes[space_id] = (x0 + 8, top, x1 - 8, top + h)
            top += h + SPACE_GAP
    return boxes


def token_centre(box: Box, role: str, index: int) -> tuple[int, int]:
    """The centre of a side's ``index``-th token slot (0-3) in a space drawn at ``box``."""
    x = box[0] + 18 + (0 if role == ROLES[0] else TOKEN_BLOCK)
    return (x + TOKEN_R + index * (2 * TOKEN_R + 4), box[3] - 24)


def _map(draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    spaces = {s["id"]: s for s in view.get("spaces", [])}
    where = space_boxes(view)
    for dim_id, box in dimension_boxes(view).items():
        dim = next(d for d in view["dimensions"] if d["id"] == dim_id)
        _dimension(draw, dim, box)
        for space_id in dim["spaces"]:
            if space_id in spaces:
                _space(draw, spaces[space_id], where[space_id])


def _dimension(draw: ImageDraw.ImageDraw, dim: dict[str, Any], box: Box) -> None:
    x0, y0, x1, _ = box
    colour = dimension_colour(dim.get("colour"))
    draw.rounded_rectangle(
        box, radius=10, fill=blend(colour, COLOURS["paper"], 0.78), outline=colour, width=2
    )
    head = DIM_HEAD
    draw.rounded_rectangle((x0, y0, x1, y0 + head), radius=10, fill=colour)
    draw.rectangle((x0, y0 + head - 10, x1, y0 + head), fill=colour)
    icon(draw, dim.get("icon", ""), (x0 + 22, y0 + head // 2), 12, COLOURS["white"])
    text(draw, (x0 + 42, y0 + head // 2), dim.get("name", ""), 18, COLOURS["white"], "lm")
    controller = dim.get("controller")
    if controller:
        tag(
            draw, (x1 - 8, y0 + head // 2), NAMES[controller], 12, SIDE_DARK[controller], anchor="r"
        )


def _space(draw: ImageDraw.ImageDraw, space: dict[str, Any], box: Box) -> None:
    x0, y0, x1, y1 = box
    controller = space.get("controller")
    fill = SIDE_LIGHT[controller] if controller else COLOURS["card"]
    draw.rounded_rectangle(box, radius=6, fill=fill, outline=COLOURS["card_edge"], width=1)
    if space.get("pivotal"):
        draw.rounded_rectangle(box, radius=6, outline=COLOURS["ink"], width=2)
        draw.rounded_rectangle(
            (x0 + 4, y0 + 4, x1 - 4, y1 - 4), radius=4, outline=COLOURS["ink"], width=1
        )
    if controller:
        draw.rectangle((x0 + 6, y0 + 8, x0 + 11, y1 - 8), fill=SIDE[controller])
    name = space.get("name", "")
    nx = x0 + 18
    text(draw, (nx, y0 + 10), name, 17, COLOURS["ink"])
    after = nx + text_width(name, 17) + 8
    if space.get("pivotal"):
        tag(draw, (after, y0 + 20), "PIVOTAL", 10, COLOURS["ink"], COLOURS["paper"])
    if space.get("reconstructed"):
        text(draw, (nx, y0 + 31), "(space reconstructed)", 10, COLOURS["muted"])
    elif space.get("id") == "fort_sumter":
        text(draw, (nx, y0 + 31), "+1 VP at final scoring", 10, COLOURS["red"])
    if space.get("peace_commissioner"):
        meeple(draw, (x1 - 22, y0 + 30), 32)
    tokens = space.get("tokens") or {}
    for role in ROLES:
        n = int(tokens.get(role, 0))
        x, cy = token_centre(box, role, 0)
        faint = blend(SIDE[role], COLOURS["white"], 0.5)
        end = token_row(draw, (x - TOKEN_R, cy), n, role, r=TOKEN_R, slots=4, faint=faint)
        ink = SIDE_DARK[role] if n else COLOURS["muted"]
        text(draw, (end + 2, cy), str(n), 20, ink, "lm")
    if controller:
        right = x1 - (44 if space.get("peace_commissioner") else 10)
        text(draw, (right, y0 + 34), NAMES[controller], 11, SIDE_DARK[controller], "ra")


# ------------------------------------------------------------------ right column


def _side_panel(draw: ImageDraw.ImageDraw, view: dict[str, Any], role: str, y: int) -> int:
    h = 150
    box = (RIGHT_X0, y, RIGHT_X1, y + h)
    draw.rounded_rectangle(box, radius=10, fill=SIDE_LIGHT[role], outline=SIDE[role], width=2)
    draw.rounded_rectangle((RIGHT_X0, y, RIGHT_X1, y + 32), radius=10, fill=SIDE[role])
    draw.rectangle((RIGHT_X0, y + 22, RIGHT_X1, y + 32), fill=SIDE[role])
    text(draw, (RIGHT_X0 + 12, y + 16), NAMES[role], 18, COLOURS["white"], "lm")
    x = RIGHT_X0 + 20 + text_width(NAMES[role], 18)
    if role in (view.get("active") or []) and not view.get("outcome"):
        x = tag(draw, (x, y + 16), "to play", 12, (226, 182, 40), COLOURS["ink"])[2] + 4
    if view.get("first_player") == role:
        tag(draw, (x, y + 16), "first", 12, COLOURS["white"], SIDE_DARK[role])
    vp = (view.get("vp") or {}).get(role, 0)
    text(draw, (RIGHT_X1 - 40, y + 16), str(vp), 26, COLOURS["white"], "rm")
    text(draw, (RIGHT_X1 - 10, y + 20), "VP", 13, COLOURS["white"], "rm")
    # Pool as discs.
    pool = (view.get("pools") or {}).get(role, 0)
    row = y + 48
    text(draw, (RIGHT_X0 + 12, row), "Pool", 13, COLOURS["muted"], "lm")
    shown = min(pool, 8)
    token_row(draw, (RIGHT_X0 + 56, row), shown, role, r=7, slots=shown)
    text(draw, (RIGHT_X0 + 60 + shown * 18, row), str(pool), 16, COLOURS["ink"], "lm")
    counts = [
        ("On map", (view.get("on_map") or {}).get(role, 0)),
        ("On track", ((view.get("crisis_tracks") or {}).get(role) or {}).get("tokens", 0)),
        ("Hand", (view.get("hand_counts") or {}).get(role, 0)),
        ("Set aside", (view.get("set_aside_counts") or {}).get(role, 0)),
        ("Played", f"{(view.get('cards_played') or {}).get(role, 0)}/3"),
    ]
    cx = RIGHT_X0 + 12
    col = [0, 1, 2, 0, 1]
    for i, (label, number) in enumerate(counts):
        rx = cx + col[i] * 92
        ry = y + 70 + (i // 3) * 36
        text(draw, (rx, ry), label, 11, COLOURS["muted"])
        text(draw, (rx, ry + 13), str(number), 17, COLOURS["ink"])
    chosen = (view.get("objective_chosen") or {}).get(role)
    revealed = (view.get("revealed_objectives") or {}).get(role)
    label = (
        "Objective: kept"
        if chosen
        else "Objective: choosing"
        if view.get("phase") == "rounds"
        else ""
    )
    if revealed is None and label and view.get("phase") == "rounds":
        text(draw, (cx + 2 * 92, y + 106), "Objective", 11, COLOURS["muted"])
        text(draw, (cx + 2 * 92, y + 119), "kept" if chosen else "choosing", 17, COLOURS["ink"])
    return y + h


def _section_title(draw: ImageDraw.ImageDraw, y: int, title: str) -> int:
    text(draw, (RIGHT_X0 + 4, y), title.upper(), 12, COLOURS["muted"])
    draw.line(
        (RIGHT_X0 + 8 + text_width(title.upper(), 12), y + 7, RIGHT_X1, y + 7),
        fill=COLOURS["shadow"],
    )
    return y + 18


HOW = {
    "event": "for its event",
    "value": "for its value",
    "claimed event": "claimed, for its event",
}


def _last_play(draw: ImageDraw.ImageDraw, view: dict[str, Any], dims: Dims, y: int) -> int:
    y = _section_title(draw, y, "Last card played")
    last = view.get("last_play")
    if last:
        card = last["card"]
        mini_card(draw, (RIGHT_X0, y, RIGHT_X1, y + 70), card, dims)
        who = NAMES.get(last["role"], last["role"])
        line = f"{who}, {HOW.get(last['how'], last['how'])} ({card.get('value')})"
        text(
            draw,
            (RIGHT_X0 + 2, y + 76),
            fit(line, 13, RIGHT_X1 - RIGHT_X0),
            13,
            SIDE_DARK.get(last["role"], COLOURS["ink"]),
        )
        y += 98
    else:
        text(draw, (RIGHT_X0 + 2, y + 4), "No card played yet this round.", 13, COLOURS["muted"])
        y += 26
    claim = view.get("claimable")
    if claim:
        who = NAMES.get(claim["role"], claim["role"])
        line = f"{who} may claim {claim['card'].get('title', '')} (Event Discard)"
        for row in wrap(line, 12, RIGHT_X1 - RIGHT_X0, 2):
            text(draw, (RIGHT_X0 + 2, y), row, 12, COLOURS["red"])
            y += 15
        y += 4
    revealed = view.get("revealed_objectives")
    if revealed:
        y = _section_title(draw, y, "Objectives revealed")
        spaces = {s["id"]: s for s in view.get("spaces", [])}
        h = min(62, (BOTTOM - y - 6) // 2 - 6)
        for role in ROLES:
            obj = revealed.get(role)
            if not obj:
                continue
            _revealed_objective(
                draw, obj, role, spaces.get(obj.get("space")), dims, (RIGHT_X0, y, RIGHT_X1, y + h)
            )
            y += h + 6
    return y


def _revealed_objective(
    draw: ImageDraw.ImageDraw,
    obj: dict[str, Any],
    role: str,
    space: dict[str, Any] | None,
    dims: Dims,
    box: tuple[int, int, int, int],
) -> None:
    x0, y0, x1, y1 = box
    dim = dims.get(obj.get("dimension") or "", {})
    colour = dimension_colour(dim.get("colour"))
    draw.rounded_rectangle(box, radius=6, fill=COLOURS["card"], outline=SIDE[role], width=2)
    draw.rounded_rectangle((x0, y0, x0 + 30, y1), radius=6, fill=colour)
    icon(draw, dim.get("icon", ""), (x0 + 15, (y0 + y1) // 2), 9, COLOURS["white"])
    text(
        draw, (x0 + 38, y0 + 6), f"{NAMES[role]}: {obj.get('space_name', '')}", 14, SIDE_DARK[role]
    )
    controller = (space or {}).get("controller")
    held = "held" if controller == role else "not held"
    text(
        draw,
        (x1 - 6, y0 + 8),
        held,
        11,
        COLOURS["green"] if controller == role else COLOURS["red"],
        "ra",
    )
    rows = wrap(obj.get("text", ""), 11, x1 - x0 - 46, max(1, (y1 - y0 - 26) // 13))
    ty = y0 + 25
    for row in rows:
        text(draw, (x0 + 38, ty), row, 11, COLOURS["muted"])
        ty += 13


def _final_crisis(draw: ImageDraw.ImageDraw, view: dict[str, Any], dims: Dims, y: int) -> int:
    fc = view["final_crisis"]
    y = _section_title(draw, y, "Final Crisis")
    col_w = (RIGHT_X1 - RIGHT_X0 - 44) // 2
    xs = {"unionist": RIGHT_X0 + 40, "secessionist": RIGHT_X0 + 44 + col_w}
    for role in ROLES:
        text(draw, (xs[role] + col_w // 2, y + 2), NAMES[role], 12, SIDE[role], "ma")
    y += 18
    pair = int(fc.get("pair") or 0)
    revealed = fc.get("revealed") or {}
    ordered = fc.get("ordered") or {}
    row_h = 64
    for i in range(3):
        ry = y + i * (row_h + 6)
        current = i + 1 == pair and view.get("phase") == "final_crisis"
        if current:
            rounded_box(
                draw,
                (RIGHT_X0 - 4, ry - 3, RIGHT_X1 + 2, ry + row_h + 3),
                (248, 236, 190),
                (226, 182, 40),
                6,
                2,
            )
        text(draw, (RIGHT_X0 + 16, ry + 16), str(i + 1), 22, COLOURS["ink"], "mm")
        shown = [revealed.get(r) or [] for r in ROLES]
        cards: list[dict[str, Any] | None] = [s[i] if len(s) > i else None for s in shown]
        first, second = cards
        same = False
        if first and second:
            same = first.get("fc_dimension") == second.get("fc_dimension")
            mark, ink = ("match", COLOURS["red"]) if same else ("differ", COLOURS["green"])
            text(draw, (RIGHT_X0 + 16, ry + 38), mark, 10, ink, "mm")
        for role, card in zip(ROLES, cards, strict=True):
            cbox = (xs[role], ry, xs[role] + col_w, ry + row_h - 18)
            if card:
                mini_card(draw, cbox, card, dims, band_only=True)
            else:
                fill = SIDE[role] if ordered.get(role) else blend(SIDE[role], COLOURS["paper"], 0.6)
                draw.rounded_rectangle(cbox, radius=6, fill=fill, outline=COLOURS["card_edge"])
                label = "face down" if ordered.get(role) else "ordering..."
                text(
                    draw,
                    ((cbox[0] + cbox[2]) // 2, (cbox[1] + cbox[3]) // 2),
                    label,
                    12,
                    COLOURS["white"],
                    "mm",
                )
        if first and second:
            mode = "Match: each must remove" if same else "Differ: each may move up to 2"
            text(draw, (RIGHT_X0 + 40, ry + row_h - 10), mode, 12, COLOURS["ink"], "lm")
    y += 3 * (row_h + 6) + 4
    if view.get("outcome"):
        return y
    lines = [
        "Final scoring: 1 VP per dimension,",
        "1 VP for Fort Sumter, 1 VP for 3+",
        "more tokens in pool than the other.",
    ]
    for line in lines:
        text(draw, (RIGHT_X0 + 4, y), line, 12, COLOURS["muted"])
        y += 15
    return y + 6


def _deck_counts(draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    """The decks' sizes, bottom right. The log is not drawn: its new lines are in the
    message beside the board, where they read at any size."""
    decks = view.get("decks") or {}
    line = f"Decks: strategy {decks.get('strategy', 0)} · objective {decks.get('objective', 0)}"
    text(draw, (RIGHT_X1, BOTTOM), line, 12, COLOURS["muted"], "rd")


# ------------------------------------------------------------------ outcome


def _outcome(draw: ImageDraw.ImageDraw, view: dict[str, Any], y: int) -> int:
    """The result, in the right column (the map stays visible under it)."""
    outcome = view["outcome"]
    winner = outcome.get("winner")
    title = f"{NAMES.get(winner, winner)} victory" if winner else "The game is drawn"
    score = outcome.get("score") or {}
    box = (RIGHT_X0, y, RIGHT_X1, y + 92)
    fill = SIDE_DARK.get(winner, COLOURS["banner"])
    rounded_box(draw, box, fill, (226, 182, 40), radius=12, width=4)
    cx = (RIGHT_X0 + RIGHT_X1) // 2
    text(draw, (cx, y + 24), title, 26, COLOURS["white"], "mm")
    reason = fit(outcome.get("reason", ""), 14, RIGHT_X1 - RIGHT_X0 - 20)
    text(draw, (cx, y + 50), reason, 14, COLOURS["paper"], "mm")
    if score:
        line = " - ".join(f"{NAMES.get(r, r)} {score.get(r, 0)}" for r in ROLES)
        text(draw, (cx, y + 72), line, 15, COLOURS["white"], "mm")
    return y + 100


# ------------------------------------------------------------------ hand


def draw_hand(view: dict[str, Any]) -> Image.Image | None:
    """The viewing player's private cards: hand, objective (or the two offered), set-aside
    cards and Final Crisis order. None for a view without a hand (the public view)."""
    if "hand" not in view:
        return None
    return hand_image(view)


__all__ = ["closeup_parts", "draw_board", "draw_choices", "draw_closeup", "draw_hand"]
