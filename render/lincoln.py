"""Lincoln: the board and a player's hand, drawn from a view (see docs in the module's
functions; the view's shape is the shared Lincoln view contract).

The board (1200 x 1032):

- the shared headline band (``render.common.headline``) with what must read at Discord's
  inline preview (about a third of full size): the turn number, the Union's VP, whose
  turn it is with the actions left and who must act now (or the result once the game
  is over), with a stripe in the turn player's colour under it;
- the map (left): every location with both halves, its armies (with strength) and forts
  in the half they stand in, who controls it (the colour of its name strip), control
  flags, VP hexes, ports with their naval defence, supply sources (a star), the three
  Union locations Confederates may never enter (a no-entry sign), contested locations
  ringed in red with crossed swords, the battle being fought ringed in gold; rail links
  in their colours (Union blue, Confederate grey, neutral brown), each joining the halves
  it joins, with its modifier in a white disc;
- the right column: each side's deck, discard, removed and hand counts, reshuffles, its I
  and II cards (waiting or added), its counters in stock; the battle being fought (the
  attacking force, each side's card face down, face up or not yet played); the last
  battle's result; a legend;
- the two tracks across the foot, every space with what it means (Blockade: Confederate
  hand size and Union VP; Europe: from the Union end to intervention), the marker on its
  space;
- a footer with the view's status line.

``draw_choices`` is the same board with the locations the viewing player's prompt offers
ringed in orange (deploy where, move from or to, attack, retreat), for the message that
asks; None when the prompt is not about places on the map.

Images are returned in RGB; ``render`` maps them to the game's one palette.
Only public keys are read, and a battle card the viewing player owns is drawn face down
until the opponent's card is face up too, so every role's view of a position draws the
same board as an observer's (the face-down card shows in its owner's hand image).
"""

from __future__ import annotations

import math
from typing import Any

from PIL import Image, ImageDraw

from render.closeup import closeup, fate_parts
from render.common import (
    COLOURS,
    HEADLINE_H,
    Box,
    CardFace,
    Colour,
    blend,
    canvas,
    clock_band,
    draw_card,
    fit,
    headline,
    offered_places,
    text,
    text_width,
)
from render.fate import band_height, draw_fate_band
from render.lincoln_parts import (
    CONTESTED,
    COUNTER,
    GOLD,
    LAND,
    MAP_H,
    MAP_W,
    NAME_H,
    NAMES,
    NEUTRAL_RAIL,
    RIVER,
    ROLES,
    SEA,
    SEA_INK,
    SEA_OUTLINE,
    SIDE,
    SIDE_DARK,
    SIDE_LIGHT,
    Piece,
    anchor,
    army,
    card_back,
    card_face,
    flag,
    fort,
    half_boxes,
    hexagon,
    location_box,
    no_entry,
    pieces,
    place,
    side_by_side,
    star,
    swords,
    tag,
    unit,
    vp_hex,
    wrap,
)

WIDTH, HEIGHT = 1200, 1032
HEADER_H = HEADLINE_H
MAP_X0, MAP_Y0 = 8, HEADER_H + 8
RIGHT_X0, RIGHT_X1 = MAP_X0 + MAP_W + 10, WIDTH - 8
TRACKS_Y = MAP_Y0 + MAP_H + 6
FOOTER_H = 34
HALF_LABEL_W = 12

Centres = dict[str, tuple[int, int]]


def _name(role: str | None) -> str:
    return NAMES.get(role or "", (role or "").title())


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


# ------------------------------------------------------------------ geometry


def location_centres(view: dict[str, Any]) -> Centres:
    """Where each of the view's locations is drawn (centre of its box), by id."""
    return {
        loc_id: place(loc_id, loc, i, (MAP_X0, MAP_Y0))
        for i, (loc_id, loc) in enumerate((view.get("locations") or {}).items())
    }


def location_boxes(view: dict[str, Any]) -> dict[str, Box]:
    return {loc_id: location_box(c) for loc_id, c in location_centres(view).items()}


def half_box(view: dict[str, Any], loc_id: str, half: int) -> Box:
    """The box of one half of a location on the board."""
    loc = view["locations"][loc_id]
    return half_boxes(location_boxes(view)[loc_id], list(loc.get("halves") or []))[half]


def half_pieces(view: dict[str, Any], loc_id: str, half: int) -> list[Piece]:
    """The counters drawn in one half: (centre, counter, how many), in the view's order."""
    units = view["locations"][loc_id]["units"][half]
    return pieces(half_box(view, loc_id, half), list(units), HALF_LABEL_W)


def link_ends(
    view: dict[str, Any], link: dict[str, Any], boxes: dict[str, Box] | None = None
) -> tuple[tuple[int, int], tuple[int, int]]:
    """Where a rail link meets the two halves it joins: on each half's outer edge,
    facing the other end (``boxes``: the location boxes, when already known)."""
    if boxes is None:
        boxes = location_boxes(view)
    locs = view["locations"]
    a, b = link["a"], link["b"]
    ca = _half_centre(boxes[a], locs[a], int(link["a_half"]))
    cb = _half_centre(boxes[b], locs[b], int(link["b_half"]))
    return (
        _attach(boxes[a], locs[a], int(link["a_half"]), cb),
        _attach(boxes[b], locs[b], int(link["b_half"]), ca),
    )


def _half_centre(box: Box, loc: dict[str, Any], half: int) -> tuple[int, int]:
    h = half_boxes(box, list(loc.get("halves") or []))[half]
    return ((h[0] + h[2]) // 2, (h[1] + h[3]) // 2)


def _attach(box: Box, loc: dict[str, Any], half: int, towards: tuple[int, int]) -> tuple[int, int]:
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    dx, dy = towards[0] - cx, towards[1] - cy
    if dx == 0 and dy == 0:
        dx = 1
    # Where the ray from the centre towards the other end leaves the box.
    tx = (x1 - cx) / abs(dx) if dx else float("inf")
    ty = (y1 - cy) / abs(dy) if dy else float("inf")
    t = min(tx, ty)
    px, py = cx + dx * t, cy + dy * t
    h0, h1 = half_boxes(box, list(loc.get("halves") or []))
    own = (h0, h1)[half]
    if side_by_side(list(loc.get("halves") or [])):
        mid = h0[2]
        if (half == 0 and px > mid) or (half == 1 and px < mid):
            # The other end lies across the other half: meet this half at its top or
            # bottom edge, near the middle line.
            px = mid - 8 if half == 0 else mid + 8
            py = y0 if dy < 0 else y1
        px = min(max(px, own[0] + 4), own[2] - 4)
    else:
        mid = h0[3]
        if (half == 0 and py > mid) or (half == 1 and py < mid):
            py = mid - 6 if half == 0 else mid + 6
            px = x0 if dx < 0 else x1
        py = min(max(py, own[1] + 3), own[3] - 3)
    return int(px), int(py)


# ------------------------------------------------------------------ board


def draw_board(view: dict[str, Any]) -> Image.Image:
    """The public board (see the module docstring for what is where)."""
    return _board(view)[0]


def _board(view: dict[str, Any]) -> tuple[Image.Image, tuple[int, int] | None]:
    """The board, and where (top, bottom) the current battle's panel was drawn."""
    image = canvas(WIDTH, HEIGHT + band_height(view))
    draw = ImageDraw.Draw(image)
    _header(draw, view)
    _map(draw, view)
    y = MAP_Y0
    for role in ROLES:
        y = _side_panel(draw, view, role, y) + 8
    y = _flags_line(draw, view, y)
    if view.get("outcome"):
        y = _outcome(draw, view, y)
    panel = None
    if view.get("battle"):
        top, y = y, _battle(draw, view, y)
        panel = (top, y)
    if view.get("at_sea"):
        y = _at_sea(draw, view, y)
    if view.get("last_battle"):
        y = _last_battle(draw, view, y)
    _legend(draw, MAP_Y0 + MAP_H)
    _tracks(draw, view)
    _footer(draw, view)
    draw_fate_band(draw, HEIGHT, WIDTH, view, NAMES, SIDE, _display_card)
    return image, panel


def _display_card(draw: ImageDraw.ImageDraw, box: Box, card: dict[str, Any]) -> None:
    """A face-up card of the Fate Die's display: leadership and name, its top item."""
    top = card.get("top") or {}
    kind = str(top.get("kind", "none"))
    item = "" if kind == "none" else f"{kind} {top.get('strength') or ''}".strip()
    draw_card(
        draw,
        box,
        CardFace(
            title=str(card.get("name", "?")),
            value=str((card.get("icons") or {}).get("leadership", "")),
            accent=SIDE.get(str(card.get("side", "")), COLOURS["muted"]),
            kind=f"{item}, cost {top.get('cost', 0)}" if item else str(card.get("timing", "")),
            shadow=False,
        ),
    )


def headline_parts(view: dict[str, Any]) -> tuple[str, list[tuple[str, Colour]], str]:
    """What the top band says: the turn; the Union's VP (gold); whose turn it is with the
    actions left (in that side's colour, as large as the score); and who must act now
    when that is the other player (a battle). Once the game is over: the result."""
    turn = view.get("turn") or {}
    vp = int((view.get("vp") or {}).get("union", 0))
    score: list[tuple[str, Colour]] = [(f"Union {vp} VP", GOLD)]
    outcome = view.get("outcome")
    if outcome:
        winner = outcome.get("winner")
        result = f"{_name(winner)} wins" if winner else "Drawn"
        score.append((result, SIDE_LIGHT.get(str(winner), COLOURS["paper"])))
        return "Game over", score, ""
    player = str(turn.get("player") or "")
    left = int(turn.get("actions_left", 0))
    score.append(
        (
            f"{_name(player)}: {_plural(left, 'action')} left",
            SIDE_LIGHT.get(player, COLOURS["paper"]),
        )
    )
    acting = [r for r in view.get("active") or [] if r != player]
    status = " and ".join(_name(r) for r in acting) + " to act" if acting else ""
    return f"Turn {int(turn.get('number', 1))}", score, status


#: The ring around a location a prompt offers (the colour Fort Sumter's choices use).
CHOICE: Colour = (236, 150, 0)


def choice_locations(view: dict[str, Any]) -> list[str]:
    """The locations the role's prompt offers: every action argument that names one
    (a deployment, a move's start or end, an attack, a retreat), in the prompt's order."""
    return offered_places(view, view.get("locations") or {})


def draw_choices(view: dict[str, Any]) -> Image.Image | None:
    """The board with every location the prompt offers ringed, for a prompt about places
    on the map; None otherwise (then the message shows the hand, not the board)."""
    chosen = choice_locations(view)
    if not chosen:
        return None
    image = draw_board(view)
    _ring(ImageDraw.Draw(image), view, chosen)
    return image


def _ring(draw: ImageDraw.ImageDraw, view: dict[str, Any], chosen: list[str]) -> None:
    boxes = location_boxes(view)
    for loc in chosen:
        x0, y0, x1, y1 = boxes[loc]
        draw.rounded_rectangle((x0 - 6, y0 - 6, x1 + 6, y1 + 6), radius=8, outline=CHOICE, width=5)


#: How many ringed locations a close-up shows (the first in the prompt's order): more
#: would be drawn too small to read on a phone; the full board beside it has them all.
CLOSEUP_CHOICES = 8


def closeup_parts(view: dict[str, Any]) -> list[Box]:
    """What a decision is about, as boxes on the board (``render.closeup``): the battle
    (its location and its panel), else the ringed choices; and the Fate Die's display."""
    return _parts(view, _board(view)[1] if view.get("battle") else None)


def _parts(view: dict[str, Any], panel: tuple[int, int] | None) -> list[Box]:
    boxes = location_boxes(view)
    parts: list[Box] = []
    battle = view.get("battle") or {}
    if battle.get("location") in boxes:
        x0, y0, x1, y1 = boxes[battle["location"]]
        parts.append((x0 - 12, y0 - 12, x1 + 12, y1 + 12))
        if panel is not None:
            parts.append((RIGHT_X0 - 4, panel[0] - 4, RIGHT_X1 + 4, panel[1]))
    else:
        for loc in choice_locations(view)[:CLOSEUP_CHOICES]:
            x0, y0, x1, y1 = boxes[loc]
            parts.append((x0 - 12, y0 - 12, x1 + 12, y1 + 12))
    return parts + fate_parts(view, HEIGHT, WIDTH)


def draw_closeup(view: dict[str, Any]) -> Image.Image | None:
    """A phone-sized close-up of what the decision is about (``render.closeup``), to send
    beside the full board; None when the decision is about nothing on the board."""
    image, panel = _board(view)
    parts = _parts(view, panel)
    if not parts:
        return None
    _ring(ImageDraw.Draw(image), view, choice_locations(view))
    return closeup(image, parts)


def _header(draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    """Turn, VP and whose turn, legible at Discord's inline preview (``headline``)."""
    marker, score, status = headline_parts(view)
    headline(draw, WIDTH, marker=marker, score=score, status=status, clock=clock_band(view))
    player = (view.get("turn") or {}).get("player")
    if not view.get("outcome") and player in SIDE:
        # The turn player's colour under the band, so the side reads even unread.
        draw.rectangle((0, HEADER_H - 5, WIDTH, HEADER_H), fill=SIDE[str(player)])


def _footer(draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    y0 = HEIGHT - FOOTER_H
    draw.rectangle((0, y0, WIDTH, HEIGHT), fill=COLOURS["banner"])
    status = str(view.get("status") or "")
    text(draw, (16, y0 + FOOTER_H // 2), fit(status, 18, WIDTH - 32), 18, COLOURS["paper"], "lm")


# ------------------------------------------------------------------ map


def _offset(points: list[tuple[int, int]]) -> list[tuple[int, int]]:
    return [(MAP_X0 + x, MAP_Y0 + y) for x, y in points]


def _map(draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    frame = (MAP_X0, MAP_Y0, MAP_X0 + MAP_W, MAP_Y0 + MAP_H)
    draw.rectangle(frame, fill=LAND)
    draw.polygon(_offset(SEA_OUTLINE), fill=SEA)
    draw.line(_offset(RIVER), fill=SEA_INK, width=5, joint="curve")
    text(draw, (MAP_X0 + 700, MAP_Y0 + 760), "GULF OF MEXICO · ATLANTIC", 13, SEA_INK, "mm")
    text(draw, (MAP_X0 + 118, MAP_Y0 + 8), "Mississippi", 12, SEA_INK, "la")
    locs = view.get("locations") or {}
    boxes = location_boxes(view)
    links = [lk for lk in view.get("links") or [] if lk.get("a") in boxes and lk.get("b") in boxes]
    ends = [link_ends(view, lk, boxes) for lk in links]
    for link, (pa, pb) in zip(links, ends, strict=True):
        colour = _rail_colour(link.get("colour"))
        draw.line((pa, pb), fill=COLOURS["white"], width=8)
        draw.line((pa, pb), fill=colour, width=4)
    battle = view.get("battle") or {}
    for loc_id, loc in locs.items():
        _location(draw, loc_id, loc, boxes[loc_id], battle)
    for link, (pa, pb) in zip(links, ends, strict=True):
        colour = _rail_colour(link.get("colour"))
        for p in (pa, pb):
            draw.ellipse(
                (p[0] - 4, p[1] - 4, p[0] + 4, p[1] + 4), fill=colour, outline=COLOURS["white"]
            )
        modifier = int(link.get("modifier") or 0)
        if modifier:
            mx, my = (pa[0] + pb[0]) // 2, (pa[1] + pb[1]) // 2
            draw.ellipse(
                (mx - 12, my - 12, mx + 12, my + 12),
                fill=COLOURS["white"],
                outline=COLOURS["red"],
                width=2,
            )
            text(draw, (mx, my + 1), f"{modifier:+d}", 13, COLOURS["red"], "mm")
    pa_moving = view.get("moving") or {}
    if pa_moving.get("from") in boxes:
        box = boxes[pa_moving["from"]]
        draw.rectangle((box[0] - 3, box[1] - 3, box[2] + 3, box[3] + 3), outline=GOLD, width=2)


def _rail_colour(colour: Any) -> Colour:
    if colour in SIDE:
        return SIDE[str(colour)]
    return NEUTRAL_RAIL


def _location(
    draw: ImageDraw.ImageDraw, loc_id: str, loc: dict[str, Any], box: Box, battle: dict[str, Any]
) -> None:
    halves = list(loc.get("halves") or ["", ""])
    hb = half_boxes(box, halves)
    _location_frame(draw, loc, box, hb, battle if battle.get("location") == loc_id else None)
    _name_strip(draw, loc_id, loc, box)
    # Halves: initial, then the units standing there.
    units = loc.get("units") or [[], []]
    for i, h in enumerate(hb):
        initial = halves[i][:1] if i < len(halves) else ""
        text(draw, (h[0] + 3, h[1] + 2), initial, 10, COLOURS["muted"])
        here = list(units[i]) if i < len(units) else []
        for centre, piece, count in pieces(h, here, HALF_LABEL_W):
            unit(draw, centre, piece, count)
    _location_marks(draw, loc, box)


def _location_frame(
    draw: ImageDraw.ImageDraw,
    loc: dict[str, Any],
    box: Box,
    hb: tuple[Box, Box],
    battle: dict[str, Any] | None,
) -> None:
    """The location's box in its printed colour, ringed when contested and gold where the
    battle (``battle``, None elsewhere) is fought, with the line between its halves."""
    x0, y0, x1, y1 = box
    printed = str(loc.get("colour", ""))
    if battle is not None:
        draw.rounded_rectangle((x0 - 8, y0 - 8, x1 + 8, y1 + 8), radius=10, fill=GOLD)
    if loc.get("contested"):
        draw.rectangle((x0 - 4, y0 - 4, x1 + 4, y1 + 4), fill=CONTESTED)
    draw.rectangle(
        box,
        fill=SIDE_LIGHT.get(printed, COLOURS["card"]),
        outline=SIDE_DARK.get(printed, COLOURS["ink"]),
        width=2,
    )
    if battle is not None:
        h = hb[int(battle.get("half", 0))]
        draw.rectangle((h[0] + 2, h[1] + 1, h[2] - 2, h[3] - 2), fill=(250, 232, 160))
    line = SIDE_DARK.get(printed, COLOURS["ink"])
    if side_by_side(list(loc.get("halves") or ["", ""])):
        draw.line((hb[0][2], hb[0][1], hb[0][2], y1), fill=line, width=1)
    else:
        draw.line((x0, hb[0][3], x1, hb[0][3]), fill=line, width=1)


def _name_strip(draw: ImageDraw.ImageDraw, loc_id: str, loc: dict[str, Any], box: Box) -> None:
    """The name strip, in the colour of who controls the location, with its flag, the
    contested swords and the supply star at its right."""
    x0, y0, x1, _y1 = box
    printed = str(loc.get("colour", ""))
    contested = bool(loc.get("contested"))
    control = loc.get("control")
    strip_fill = SIDE.get(str(control), COLOURS["paper_dark"])
    draw.rectangle(
        (x0, y0, x1, y0 + NAME_H),
        fill=strip_fill,
        outline=SIDE_DARK.get(printed, COLOURS["ink"]),
        width=1,
    )
    ink = COLOURS["white"] if control in SIDE else COLOURS["ink"]
    left = x0 + (16 if int(loc.get("vp") or 0) else 5)
    right = x1 - 4 - (22 if loc.get("flag") else 0) - (18 if contested else 0)
    right -= 14 if loc.get("supply_source") else 0
    name = str(loc.get("name", loc_id))
    size = next((s for s in (13, 12, 11) if text_width(name, s) <= right - left), 11)
    text(draw, (left, y0 + NAME_H // 2 + 1), fit(name, size, right - left), size, ink, "lm")
    mark = x1 - 4
    if loc.get("flag"):
        side = str(loc.get("flag_side") or control or "")
        flag(draw, (mark - 20, y0 + NAME_H - 1), side)
        mark -= 22
    if contested:
        draw.ellipse((mark - 16, y0 + 1, mark, y0 + 17), fill=COLOURS["white"])
        swords(draw, (mark - 8, y0 + 9), 5, CONTESTED)
        mark -= 18
    if loc.get("supply_source"):
        star(draw, (mark - 6, y0 + NAME_H // 2), 7, GOLD if control in SIDE else COLOURS["ink"])


def _location_marks(draw: ImageDraw.ImageDraw, loc: dict[str, Any], box: Box) -> None:
    """Its VP hexagon, the no-entry mark of the top three, and a port's anchor with its
    naval defence."""
    x0, y0, x1, y1 = box
    vp = int(loc.get("vp") or 0)
    if vp:
        vp_hex(draw, (x0 + 2, y0 + 2), vp)
    if loc.get("top_three"):
        no_entry(draw, (x0 + 2, y1 - 2), 8)
    if loc.get("port"):
        draw.ellipse((x1 - 12, y1 - 12, x1 + 10, y1 + 10), fill=SEA, outline=SEA_INK, width=2)
        anchor(draw, (x1 - 1, y1 - 1), 8, SEA_INK)
        defence = int(loc.get("naval_defense") or 0)
        if defence:
            tag(draw, (x1 - 12, y1 + 9), f"+{defence}", 11, SEA_INK, COLOURS["white"], "r")


# ------------------------------------------------------------------ right column


def _side_panel(draw: ImageDraw.ImageDraw, view: dict[str, Any], role: str, y: int) -> int:
    h = 132
    box = (RIGHT_X0, y, RIGHT_X1, y + h)
    draw.rounded_rectangle(box, radius=10, fill=SIDE_LIGHT[role], outline=SIDE[role], width=2)
    draw.rounded_rectangle((RIGHT_X0, y, RIGHT_X1, y + 30), radius=10, fill=SIDE[role])
    draw.rectangle((RIGHT_X0, y + 20, RIGHT_X1, y + 30), fill=SIDE[role])
    text(draw, (RIGHT_X0 + 12, y + 15), NAMES[role], 18, COLOURS["white"], "lm")
    turn = view.get("turn") or {}
    x = RIGHT_X0 + 22 + text_width(NAMES[role], 18)
    if turn.get("player") == role and not view.get("outcome"):
        x = tag(draw, (x, y + 15), "to play", 12, GOLD, COLOURS["ink"])[2] + 4
    if (
        role in (view.get("active") or [])
        and turn.get("player") != role
        and not view.get("outcome")
    ):
        tag(draw, (x, y + 15), "acting", 12, COLOURS["white"], SIDE_DARK[role])
    if role == "union":
        vp = int((view.get("vp") or {}).get("union", 0))
        text(draw, (RIGHT_X1 - 12, y + 15), f"{vp} VP", 18, COLOURS["white"], "rm")
    pile = (view.get("piles") or {}).get(role) or {}
    cols = [("Deck", "deck"), ("Discard", "discard"), ("Removed", "removed"), ("Hand", "hand")]
    for i, (label, key) in enumerate(cols):
        cx = RIGHT_X0 + 12 + i * 90
        text(draw, (cx, y + 36), label, 11, COLOURS["muted"])
        text(draw, (cx, y + 49), str(pile.get(key, 0)), 20, COLOURS["ink"])
    ry = y + 84
    text(
        draw,
        (RIGHT_X0 + 12, ry),
        f"Reshuffles {pile.get('reshuffles', 0)}",
        13,
        COLOURS["ink"],
        "lm",
    )
    waves = pile.get("waves") or {}
    wx = RIGHT_X0 + 130
    for wave in ("I", "II"):
        state = str(waves.get(wave, "waiting"))
        added = state == "added"
        label = f"{wave}: {'added' if added else 'waiting'}"
        fill = COLOURS["green"] if added else blend(SIDE[role], COLOURS["white"], 0.55)
        wx = (
            tag(draw, (wx, ry), label, 12, fill, COLOURS["white"] if added else COLOURS["ink"])[2]
            + 6
        )
    stock = ((view.get("stock") or {}).get(role)) or {}
    by = stock.get("by_strength")
    if isinstance(by, dict) and by:
        armies = ", ".join(f"{n} of {s}" for s, n in sorted(by.items()))
        armies = f"armies {armies}"
    else:
        armies = _plural(int(stock.get("armies", 0)), "army")
    line = f"In stock: {armies} · {_plural(int(stock.get('forts', 0)), 'fort')}"
    text(
        draw,
        (RIGHT_X0 + 12, y + 110),
        fit(line, 13, RIGHT_X1 - RIGHT_X0 - 24),
        13,
        COLOURS["ink"],
        "lm",
    )
    return y + h


def _flags_line(draw: ImageDraw.ImageDraw, view: dict[str, Any], y: int) -> int:
    flags = (view.get("stock") or {}).get("flags")
    if flags is None:
        return y
    flag(draw, (RIGHT_X0 + 8, y + 20), "union")
    text(
        draw, (RIGHT_X0 + 32, y + 12), f"Control flags in stock: {flags}", 14, COLOURS["ink"], "lm"
    )
    return y + 28


def _section(
    draw: ImageDraw.ImageDraw, y: int, title: str, colour: Colour = COLOURS["muted"]
) -> int:
    text(draw, (RIGHT_X0 + 2, y), title.upper(), 13, colour)
    w = text_width(title.upper(), 13)
    draw.line((RIGHT_X0 + 8 + w, y + 7, RIGHT_X1, y + 7), fill=COLOURS["shadow"])
    return y + 18


def _loc_name(view: dict[str, Any], loc_id: Any) -> str:
    loc = (view.get("locations") or {}).get(loc_id) or {}
    return str(loc.get("name", loc_id))


def board_card(view: dict[str, Any], battle: dict[str, Any], owner: str) -> Any:
    """A battle card as the board shows it: None (not played), "hidden" or the card. A
    card the viewing player owns stays face down until the opponent's is face up, or the
    view gives the battle's totals (only known once the cards are revealed: a defender
    may have had no card to play)."""
    attacker = battle.get("attacker")
    mine = "attacker_card" if owner == attacker else "defender_card"
    theirs = "defender_card" if owner == attacker else "attacker_card"
    card = battle.get(mine)
    if card is None or card == "hidden":
        return card
    revealed = isinstance(battle.get(theirs), dict) or bool(battle.get("totals"))
    if view.get("role") == owner and not revealed:
        return "hidden"
    return card


def _battle(draw: ImageDraw.ImageDraw, view: dict[str, Any], y: int) -> int:
    battle = view["battle"]
    attacker = str(battle.get("attacker"))
    defender = next((r for r in ROLES if r != attacker), "")
    loc = (view.get("locations") or {}).get(battle.get("location")) or {}
    halves = list(loc.get("halves") or ["", ""])
    half = int(battle.get("half", 0))
    totals = battle.get("totals") if isinstance(battle.get("totals"), dict) else None
    h = 148 + (20 if totals else 0)
    box = (RIGHT_X0, y, RIGHT_X1, y + h)
    draw.rounded_rectangle(box, radius=10, fill=(250, 240, 204), outline=GOLD, width=3)
    swords(draw, (RIGHT_X0 + 20, y + 18), 8, CONTESTED)
    where = halves[half] if half < len(halves) else str(half)
    title = f"Battle: {_loc_name(view, battle.get('location'))} ({where})"
    text(
        draw,
        (RIGHT_X0 + 36, y + 18),
        fit(title, 17, RIGHT_X1 - RIGHT_X0 - 46),
        17,
        COLOURS["ink"],
        "lm",
    )
    stage = str(battle.get("stage") or "").replace("_", " ")
    line = f"{_name(attacker)} attacks by {battle.get('by', '')} · {stage}"
    text(
        draw,
        (RIGHT_X0 + 12, y + 40),
        fit(line, 13, RIGHT_X1 - RIGHT_X0 - 24),
        13,
        COLOURS["ink"],
        "lm",
    )
    # The two forces.
    attackers = list(battle.get("attackers") or [])
    units = loc.get("units") or [[], []]
    defenders = [u for u in (units[half] if half < len(units) else []) if u.get("side") == defender]
    fy = y + 64
    for role, force in ((attacker, attackers), (defender, defenders)):
        text(draw, (RIGHT_X0 + 12, fy), _name(role), 12, SIDE_DARK.get(role, COLOURS["ink"]), "lm")
        fx = RIGHT_X0 + 100
        for piece in force[:8]:
            unit(draw, (fx, fy), piece)
            fx += COUNTER + 3
        if len(force) > 8:
            text(draw, (fx, fy), f"+{len(force) - 8}", 12, COLOURS["ink"], "lm")
        if not force and "attackers" in battle:
            text(draw, (fx - 10, fy), "none", 12, COLOURS["muted"], "lm")
        fy += 25
    # The cards: face down, face up or not played yet.
    cy = y + 112
    half_w = (RIGHT_X1 - RIGHT_X0 - 24) // 2
    for i, role in enumerate((attacker, defender)):
        cx = RIGHT_X0 + 12 + i * (half_w + 8)
        card = board_card(view, battle, role)
        slot = (cx, cy - 12, cx + 40, cy + 26)
        if card == "hidden":
            card_back(draw, slot, role)
            label = "face down"
        elif isinstance(card, dict):
            draw.rounded_rectangle(
                slot,
                radius=5,
                fill=COLOURS["card"],
                outline=SIDE.get(role, COLOURS["ink"]),
                width=2,
            )
            lead = int((card.get("icons") or {}).get("leadership", 0))
            text(draw, ((slot[0] + slot[2]) // 2, cy + 7), str(lead), 18, COLOURS["ink"], "mm")
            label = str(card.get("name", ""))
        else:
            draw.rounded_rectangle(slot, radius=5, outline=COLOURS["muted"], width=1)
            label = "no card yet"
        text(
            draw,
            (cx + 46, cy),
            fit(f"{_name(role)} card", 11, half_w - 48),
            11,
            COLOURS["muted"],
            "lm",
        )
        text(draw, (cx + 46, cy + 14), fit(label, 12, half_w - 48), 12, COLOURS["ink"], "lm")
    if totals:
        # Extra keys an engine may give once the cards are revealed.
        line = "Totals: " + " - ".join(f"{_name(r)} {totals.get(r, 0)}" for r in ROLES)
        winner = battle.get("winner")
        if winner:
            line += f" · {_name(winner)} wins"
        text(draw, (RIGHT_X0 + 12, y + h - 14), line, 13, COLOURS["ink"], "lm")
    return y + h + 8


def at_sea_lines(view: dict[str, Any]) -> list[str]:
    """One line per port that armies of a naval movement are still sailing to (while an
    earlier landing is fought), e.g. "Union 2-strength army, at sea, bound for Savannah"."""
    lines = []
    for group in view.get("at_sea") or []:
        units = group.get("units") or []
        side = _name(units[0].get("side")) if units else ""
        armies = " and ".join(f"{u.get('strength')}-strength army" for u in units)
        lines.append(f"{side} {armies}, at sea, bound for {_loc_name(view, group.get('port'))}")
    return lines


def _at_sea(draw: ImageDraw.ImageDraw, view: dict[str, Any], y: int) -> int:
    y = _section(draw, y, "At sea")
    for row in at_sea_lines(view):
        text(draw, (RIGHT_X0 + 6, y), fit(row, 13, RIGHT_X1 - RIGHT_X0 - 8), 13, COLOURS["ink"])
        y += 17
    return y + 6


def _last_battle(draw: ImageDraw.ImageDraw, view: dict[str, Any], y: int) -> int:
    last = view["last_battle"]
    y = _section(draw, y, f"Last battle: {_loc_name(view, last.get('location'))}")
    winner = last.get("winner")
    attacker = last.get("attacker")
    totals = last.get("totals") or {}
    losses = last.get("losses") or {}
    fill = SIDE.get(str(winner), COLOURS["muted"])
    fought = _was_fought(last)
    result = f"{_name(winner)} won" if fought else f"{_name(winner)} took it"
    bx = tag(draw, (RIGHT_X0 + 4, y + 12), result, 15, fill)[2] + 8
    score = " - ".join(f"{_name(r)} {totals.get(r, 0)}" for r in ROLES if r in totals)
    if not fought:
        score = f"no battle: {_name(_other(attacker))} withdrew"
    text(draw, (bx, y + 12), fit(score, 14, RIGHT_X1 - bx), 14, COLOURS["ink"], "lm")
    y += 28
    lost = ", ".join(f"{_name(r)} {losses.get(r, 0)}" for r in ROLES if r in losses)
    if not fought:
        lost = "none"
    europe = int(last.get("europe") or 0)
    moved = (
        f"Europe {abs(europe)} toward {'the Confederacy' if europe > 0 else 'the Union'}"
        if europe
        else "Europe unmoved"
    )
    rows = [f"{_name(attacker)} attacked · strength lost: {lost or 'none'}", moved]
    cards = last.get("cards") or {}
    named = [f"{_name(r)}: {cards[r]}" for r in ROLES if cards.get(r)]
    if named:
        rows.append("Cards: " + "; ".join(named))
    extra = str(last.get("text") or "")
    for row in rows:
        text(draw, (RIGHT_X0 + 6, y), fit(row, 13, RIGHT_X1 - RIGHT_X0 - 8), 13, COLOURS["ink"])
        y += 17
    if extra and not named:
        for row in wrap(extra, 12, RIGHT_X1 - RIGHT_X0 - 8, 2):
            text(draw, (RIGHT_X0 + 6, y), row, 12, COLOURS["muted"])
            y += 15
    return y + 6


def _was_fought(last: dict[str, Any]) -> bool:
    """Whether the last battle was fought: not when the defender withdrew, which has no
    totals or losses to show ("Union won · Union 0 - Confederate 0" said nothing
    true). A state saved before ``fought`` was kept says so in its text."""
    if "fought" in last:
        return bool(last["fought"])
    return "withdrew" not in str(last.get("text") or "")


def _other(role: Any) -> str:
    return next((r for r in ROLES if r != role), "")


def _outcome(draw: ImageDraw.ImageDraw, view: dict[str, Any], y: int) -> int:
    outcome = view["outcome"]
    winner = outcome.get("winner")
    box = (RIGHT_X0, y, RIGHT_X1, y + 86)
    draw.rounded_rectangle(
        box, radius=10, fill=SIDE_DARK.get(str(winner), COLOURS["banner"]), outline=GOLD, width=4
    )
    title = f"{_name(winner)} victory" if winner else "The game is drawn"
    text(draw, ((RIGHT_X0 + RIGHT_X1) // 2, y + 22), title, 24, COLOURS["white"], "mm")
    ry = y + 42
    for row in wrap(str(outcome.get("reason", "")), 13, RIGHT_X1 - RIGHT_X0 - 20, 2):
        text(draw, ((RIGHT_X0 + RIGHT_X1) // 2, ry + 8), row, 13, COLOURS["paper"], "mm")
        ry += 16
    return y + 94


def _legend(draw: ImageDraw.ImageDraw, bottom: int) -> None:
    top = bottom - 124
    draw.rounded_rectangle((RIGHT_X0, top, RIGHT_X1, bottom), radius=8, fill=COLOURS["paper_dark"])
    x, y = RIGHT_X0 + 12, top + 16
    col = (RIGHT_X1 - RIGHT_X0 - 12) // 2
    ink = COLOURS["ink"]
    army(draw, (x + 8, y), "union", 2)
    fort(draw, (x + 32, y), "confederate")
    text(draw, (x + 48, y), "army (strength), fort", 12, ink, "lm")
    flag(draw, (x + col + 2, y + 10), "union")
    text(draw, (x + col + 26, y), "control flag", 12, ink, "lm")
    y += 24
    hexagon(draw, (x + 8, y), 9, GOLD, ink)
    text(draw, (x + 24, y), "VP (Union holds it)", 12, ink, "lm")
    anchor(draw, (x + col + 8, y), 8, SEA_INK)
    text(draw, (x + col + 24, y), "port, +naval defence", 12, ink, "lm")
    y += 24
    draw.rectangle((x, y - 7, x + 16, y + 7), outline=CONTESTED, width=3)
    text(draw, (x + 24, y), "contested", 12, ink, "lm")
    star(draw, (x + col + 8, y), 7, ink)
    text(draw, (x + col + 24, y), "supply source", 12, ink, "lm")
    y += 24
    rx = x
    for colour in (SIDE["union"], SIDE["confederate"], NEUTRAL_RAIL):
        draw.line((rx, y, rx + 12, y), fill=colour, width=4)
        rx += 16
    text(draw, (rx + 4, y), "rail links", 12, ink, "lm")
    draw.rectangle((x + col, y - 6, x + col + 16, y + 6), fill=SIDE["union"])
    text(draw, (x + col + 24, y), "name strip: holder", 12, ink, "lm")
    y += 24
    no_entry(draw, (x + 8, y), 8)
    text(draw, (x + 24, y), "no Confederate entry", 12, ink, "lm")
    draw.rectangle(
        (x + col, y - 7, x + col + 16, y + 7), fill=(250, 232, 160), outline=GOLD, width=2
    )
    text(draw, (x + col + 24, y), "battle here", 12, ink, "lm")


# ------------------------------------------------------------------ tracks


def track_boxes(view: dict[str, Any], track: str) -> list[Box]:
    """The boxes of a track's spaces, in order (index 0 first)."""
    spaces = ((view.get("tracks") or {}).get(track) or {}).get("spaces") or []
    row = 0 if track == "blockade" else 1
    y0 = TRACKS_Y + row * 68
    x0, x1 = 150, WIDTH - 8
    n = max(1, len(spaces))
    w = (x1 - x0) / n
    return [
        (int(x0 + i * w) + 2, y0, int(x0 + (i + 1) * w) - 2, y0 + 62) for i in range(len(spaces))
    ]


def _tracks(draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    tracks = view.get("tracks") or {}
    blockade = tracks.get("blockade") or {}
    europe = tracks.get("europe") or {}
    y = TRACKS_Y
    draw.rounded_rectangle((8, y, 142, y + 62), radius=8, fill=COLOURS["banner"])
    text(draw, (16, y + 14), "BLOCKADE", 15, COLOURS["paper"], "lm")
    text(draw, (16, y + 33), "Confederate hand", 11, COLOURS["shadow"], "lm")
    text(draw, (16, y + 48), "size · Union VP", 11, COLOURS["shadow"], "lm")
    at = int(blockade.get("position", 0))
    for i, (space, box) in enumerate(
        zip(blockade.get("spaces") or [], track_boxes(view, "blockade"), strict=True)
    ):
        here = i == at
        fill = GOLD if here else blend(SIDE_LIGHT["union"], COLOURS["white"], 0.3)
        draw.rounded_rectangle(
            box,
            radius=6,
            fill=fill,
            outline=COLOURS["ink"] if here else SIDE["union"],
            width=3 if here else 1,
        )
        x0, y0, x1, _ = box
        text(draw, (x0 + 8, y0 + 16), str(space.get("label", i)), 20, COLOURS["ink"], "lm")
        text(
            draw, (x0 + 8, y0 + 44), f"hand {space.get('hand_size', '')}", 13, COLOURS["ink"], "lm"
        )
        vp = int(space.get("union_vp", 0))
        text(draw, (x1 - 8, y0 + 44), f"+{vp} VP" if vp else "0 VP", 13, SIDE_DARK["union"], "rm")
        if here:
            _marker(draw, (x1 - 18, y0 + 18))
    y += 68
    draw.rounded_rectangle((8, y, 142, y + 62), radius=8, fill=COLOURS["banner"])
    text(draw, (16, y + 14), "EUROPE", 15, COLOURS["paper"], "lm")
    text(draw, (16, y + 33), "left: Union end", 11, COLOURS["shadow"], "lm")
    text(draw, (16, y + 48), "right: intervenes", 11, COLOURS["shadow"], "lm")
    spaces = list(europe.get("spaces") or [])
    at = int(europe.get("position", 0))
    start = europe.get("start")
    n = max(1, len(spaces) - 1)
    for i, (label, box) in enumerate(zip(spaces, track_boxes(view, "europe"), strict=True)):
        here = i == at
        tint = blend(SIDE_LIGHT["union"], SIDE_LIGHT["confederate"], i / n)
        if i == len(spaces) - 1:
            tint = (238, 196, 188)
        fill = GOLD if here else tint
        draw.rounded_rectangle(
            box,
            radius=6,
            fill=fill,
            outline=COLOURS["ink"] if here else COLOURS["card_edge"],
            width=3 if here else 1,
        )
        x0, y0, x1, y1 = box
        cx = (x0 + x1) // 2
        rows = wrap(str(label), 12, x1 - x0 - 6, 2) if len(str(label)) > 3 else [str(label)]
        size = 12 if len(rows) > 1 or len(str(label)) > 3 else 20
        ty = y0 + 20 - (len(rows) - 1) * 7
        for row in rows:
            text(draw, (cx, ty), row, size, COLOURS["ink"], "mm")
            ty += 15
        if i == start:
            text(draw, (cx, y1 - 10), "start", 10, COLOURS["muted"], "mm")
        elif i == len(spaces) - 1:
            text(draw, (cx, y1 - 10), "Conf. wins", 10, COLOURS["red"], "mm")
        if here:
            _marker(draw, (cx, y1 - 14))


def _marker(draw: ImageDraw.ImageDraw, centre: tuple[int, int]) -> None:
    x, y = centre
    draw.ellipse(
        (x - 9, y - 9, x + 9, y + 9), fill=COLOURS["ink"], outline=COLOURS["white"], width=2
    )


# ------------------------------------------------------------------ hand

CARD_W, CARD_H = 210, 232
GAP = 14
MARGIN = 20
PER_ROW = 5
HAND_TOP = 56
HAND_ROW_H = 24 + CARD_H + 14


def _own_battle_card(view: dict[str, Any], role: str) -> dict[str, Any] | None:
    battle = view.get("battle") or {}
    key = "attacker_card" if battle.get("attacker") == role else "defender_card"
    card = battle.get(key)
    return card if isinstance(card, dict) else None


def hand_rows(view: dict[str, Any]) -> list[tuple[str, list[dict[str, Any]]]]:
    """The hand image's rows: (label, cards), at most ``PER_ROW`` cards a row, as even as
    they can be; the hand
    first (one empty row when it is empty), then the player's own battle card if any."""
    role = str(view.get("role") or "union")
    groups: list[tuple[str, list[dict[str, Any]]]] = [("In hand", list(view.get("hand") or []))]
    own = _own_battle_card(view, role)
    if own is not None:
        groups.append(("Your battle card (face down until both are revealed)", [own]))
    rows: list[tuple[str, list[dict[str, Any]]]] = []
    for label, cards in groups:
        # Rows as even as they can be (7 cards: 4 and 3), so the image stays narrow.
        per = math.ceil(len(cards) / math.ceil(len(cards) / PER_ROW)) if cards else PER_ROW
        chunks = [cards[i : i + per] for i in range(0, len(cards), per)] or [[]]
        for j, chunk in enumerate(chunks):
            rows.append((label if j == 0 else "", chunk))
    return rows


def hand_boxes(view: dict[str, Any]) -> list[tuple[dict[str, Any], Box]]:
    """Every card the hand image shows, with where it is drawn."""
    placed: list[tuple[dict[str, Any], Box]] = []
    y = HAND_TOP
    for _, cards in hand_rows(view):
        cy = y + 22
        for i, card in enumerate(cards):
            x = MARGIN + i * (CARD_W + GAP)
            placed.append((card, (x, cy, x + CARD_W, cy + CARD_H)))
        y += HAND_ROW_H
    return placed


def draw_hand(view: dict[str, Any]) -> Image.Image | None:
    """The viewing player's cards: the hand and, in a battle, their own face-down card.
    None for a view without a hand (an observer's)."""
    if "hand" not in view:
        return None
    role = str(view.get("role") or "union")
    hand = list(view.get("hand") or [])
    rows = hand_rows(view)
    widest = max(max(1, len(cards)) for _, cards in rows)
    width = max(640, 2 * MARGIN + widest * (CARD_W + GAP) - GAP)
    height = HAND_TOP + len(rows) * HAND_ROW_H + 6
    image = canvas(width, height, SIDE_LIGHT.get(role, COLOURS["paper"]))
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, width, 44), fill=SIDE.get(role, COLOURS["banner"]))
    title = f"{_name(role)} hand · {_plural(len(hand), 'card')}"
    text(draw, (MARGIN, 22), title, 20, COLOURS["white"], "lm")
    size = view.get("hand_size")
    if size is not None:
        text(draw, (width - MARGIN, 22), f"draws up to {size}", 16, COLOURS["white"], "rm")
    y = HAND_TOP
    for label, cards in rows:
        if label:
            text(draw, (MARGIN, y), label, 14, SIDE_DARK.get(role, COLOURS["ink"]))
        if not cards:
            cy = y + 22
            box = (MARGIN, cy, MARGIN + CARD_W, cy + CARD_H)
            edge = blend(SIDE.get(role, COLOURS["ink"]), COLOURS["paper"], 0.4)
            draw.rounded_rectangle(box, radius=8, outline=edge, width=2)
            centre = (MARGIN + CARD_W // 2, cy + CARD_H // 2)
            text(draw, centre, "no cards", 14, COLOURS["muted"], "mm")
        y += HAND_ROW_H
    for card, box in hand_boxes(view):
        card_face(draw, box, card)
    return image


__all__ = ["closeup_parts", "draw_board", "draw_choices", "draw_closeup", "draw_hand"]
