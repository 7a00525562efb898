"""War Between the States: the battlefield and a player's hand, drawn from a view.

The board: the Confederacy across the top, the Union across the bottom, three columns
between them. Stacked cards overlap so that only the value strip of the cards underneath
shows, as on a real table. Face-down reinforcements are drawn as card backs, counted per
side only: the public view does not say which card went where, and neither do we.
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from render.common import (
    COLOURS,
    HEADLINE_H,
    CardFace,
    Colour,
    badge,
    blend,
    canvas,
    clock_band,
    draw_card,
    draw_card_back,
    fit,
    font,
    headline,
    rounded_box,
    text,
    text_width,
    wrap,
)
from rules import get_game

WIDTH = 1120
MARGIN = 20
COLUMN_W = 340
GAP = 30
CARD_W = 250
CARD_H = 112
STRIP = 30
HEADER_H = HEADLINE_H
SIDE_H = 92
BAND_H = 64
FOOTER_H = 78
TOP_SIDE = "confederate"
BOTTOM_SIDE = "union"

ACCENT: dict[str, Colour] = {"union": COLOURS["union"], "confederate": COLOURS["confederate"]}
LIGHT: dict[str, Colour] = {
    "union": COLOURS["union_light"],
    "confederate": COLOURS["confederate_light"],
}
#: The sides' names, as the game's rules give them.
NAMES = get_game("war").role_names
KIND_GLYPH = {"infantry": "Inf", "cavalry": "Cav", "artillery": "Art", "commander": "Cmdr"}


def _value_label(card: dict[str, Any]) -> str:
    return "E" if card["kind"] == "event" else str(card["value"])


def _note(card: dict[str, Any]) -> str:
    points = card.get("points")
    if points is None:
        return ""
    if card["kind"] == "event":
        return "counts 0"
    if points != card["value"]:
        return f"counts {points}"
    return ""


def _column_x(index: int) -> int:
    return MARGIN + index * (COLUMN_W + GAP)


def _stack_height(count: int) -> int:
    return STRIP * (max(count, 1) - 1) + CARD_H


def draw_board(view: dict[str, Any]) -> Image.Image:
    """The public battlefield (any role's view draws the same board)."""
    columns = view["columns"]
    deepest = {
        role: max([len(column[role]["cards"]) for column in columns] + [1])
        for role in (TOP_SIDE, BOTTOM_SIDE)
    }
    top_half = _stack_height(deepest[TOP_SIDE]) + 12
    bottom_half = _stack_height(deepest[BOTTOM_SIDE]) + 12
    field_top = HEADER_H + SIDE_H
    field_h = top_half + bottom_half + BAND_H + 16
    height = field_top + field_h + SIDE_H + FOOTER_H
    image = canvas(WIDTH, height)
    draw = ImageDraw.Draw(image)

    _header(draw, view)
    _side_strip(draw, view, TOP_SIDE, HEADER_H)
    draw.rectangle((0, field_top, WIDTH, field_top + field_h), fill=COLOURS["paper_dark"])
    band_y = field_top + 8 + top_half
    for index, column in enumerate(columns):
        _column(draw, column, _column_x(index), field_top + 8, band_y)
    _side_strip(draw, view, BOTTOM_SIDE, field_top + field_h)
    _footer(draw, view, field_top + field_h + SIDE_H)
    if view.get("outcome"):
        _outcome_banner(draw, view, field_top + field_h // 2)
    return image


def _header(draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    """Battle, forces alive and whose turn, legible at Discord's inline preview."""
    status = view.get("status") or ""
    choice = view.get("choice")
    if choice and not view.get("outcome"):
        status = f"{NAMES[choice['role']]} chooses a column for {choice['event']['name']}."
    marker = "Game over" if view.get("outcome") else f"Battle {view.get('battle', 0)}"
    alive = view.get("score") or {}
    score = [
        (f"{NAMES[BOTTOM_SIDE]} {alive.get(BOTTOM_SIDE, 0)}", LIGHT[BOTTOM_SIDE]),
        ("-", COLOURS["shadow"]),
        (f"{alive.get(TOP_SIDE, 0)} {NAMES[TOP_SIDE]}", LIGHT[TOP_SIDE]),
    ]
    headline(draw, WIDTH, marker=marker, score=score, status=str(status), clock=clock_band(view))


def _side_strip(draw: ImageDraw.ImageDraw, view: dict[str, Any], role: str, y: int) -> None:
    side = view["sides"][role]
    accent = ACCENT[role]
    draw.rectangle((0, y, WIDTH, y + SIDE_H), fill=LIGHT[role])
    draw.rectangle((0, y, 8, y + SIDE_H), fill=accent)
    active = role in (view.get("active") or [])
    name_box = badge(draw, (MARGIN + 80, y + 22), side["name"], 18, accent)
    if active:
        text(draw, (name_box[2] + 8, y + 22), "to decide", 13, COLOURS["red"], "lm")
    counts = [
        ("Deck", side["deck"]),
        ("Survivors", side["survivors"]),
        ("Graveyard", side["graveyard"]),
    ]
    cx = MARGIN + 6
    for label, number in counts:
        text(draw, (cx, y + 46), label, 12, COLOURS["muted"])
        text(draw, (cx, y + 60), str(number), 20, COLOURS["ink"])
        cx += 64 if label == "Deck" else 84
    text(draw, (cx + 6, y + 46), "Alive", 12, COLOURS["muted"])
    text(draw, (cx + 6, y + 60), f"{side['alive']}/72", 20, accent)
    # Events beside the battlefield.
    bx = 330
    text(draw, (bx, y + 6), "Beside the battlefield", 12, COLOURS["muted"])
    beside = side.get("beside") or []
    if not beside:
        text(draw, (bx, y + 30), "none", 14, COLOURS["muted"])
    for i, card in enumerate(beside[:3]):
        box = (bx + i * 196, y + 22, bx + i * 196 + 188, y + SIDE_H - 6)
        draw_card(
            draw,
            box,
            CardFace(
                title=card["name"],
                value="E",
                accent=blend(accent, COLOURS["gold"], 0.45),
                body=card["text"],
                strip=22,
            ),
        )
    if len(beside) > 3:
        text(draw, (bx + 3 * 196 - 4, y + 50), f"+{len(beside) - 3}", 16, COLOURS["ink"])
    # Face-down reinforcements: how many, never which or where.
    rx = WIDTH - MARGIN - 3 * 44 - 8
    placed = side.get("placed", 0)
    waiting = side.get("hand", 0)
    label = "Reinforcements"
    if side.get("committed"):
        label += ": committed"
    text(draw, (WIDTH - MARGIN, y + 6), label, 12, COLOURS["muted"], anchor="ra")
    for i in range(3):
        box = (rx + i * 46, y + 24, rx + i * 46 + 38, y + 80)
        if i < placed:
            draw_card_back(draw, box, accent, pattern=False)
        elif i < placed + waiting:
            rounded_box(draw, box, None, accent, radius=6, width=2)
            text(draw, ((box[0] + box[2]) // 2, y + 52), "?", 16, accent, anchor="mm")
        else:
            rounded_box(draw, box, None, blend(LIGHT[role], COLOURS["muted"], 0.3), 6, 1)


def _column(
    draw: ImageDraw.ImageDraw,
    column: dict[str, Any],
    x: int,
    top: int,
    band_y: int,
) -> None:
    cx = x + COLUMN_W // 2
    card_x = cx - CARD_W // 2
    # Confederate stack, from the top down; the Union stack below the band.
    _stack(draw, column[TOP_SIDE]["cards"], TOP_SIDE, card_x, top + 4)
    _stack(draw, column[BOTTOM_SIDE]["cards"], BOTTOM_SIDE, card_x, band_y + BAND_H)
    # The band: the column's name and both totals.
    top_total = column[TOP_SIDE]["total"]
    bottom_total = column[BOTTOM_SIDE]["total"]
    band = (x, band_y + 4, x + COLUMN_W, band_y + BAND_H - 4)
    rounded_box(draw, band, COLOURS["paper"], COLOURS["card_edge"], radius=10, width=1)
    text(draw, (cx, band_y + BAND_H // 2), column["label"].upper(), 16, COLOURS["muted"], "mm")
    for role, total, bx in (
        (TOP_SIDE, top_total, x + 44),
        (BOTTOM_SIDE, bottom_total, x + COLUMN_W - 44),
    ):
        has_cards = bool(column[role]["cards"])
        fill = ACCENT[role] if has_cards else blend(ACCENT[role], COLOURS["paper"], 0.6)
        badge(draw, (bx, band_y + BAND_H // 2), f"{total}", 24, fill, pad=12)
    leader = None
    if top_total != bottom_total and (column[TOP_SIDE]["cards"] or column[BOTTOM_SIDE]["cards"]):
        leader = TOP_SIDE if top_total > bottom_total else BOTTOM_SIDE
    if leader is not None:
        text(draw, (cx, band_y + BAND_H - 14), f"{NAMES[leader]} ahead", 11, ACCENT[leader], "mm")


def _stack(
    draw: ImageDraw.ImageDraw, cards: list[dict[str, Any]], role: str, x: int, y: int
) -> None:
    if not cards:
        box = (x, y, x + CARD_W, y + CARD_H)
        rounded_box(draw, box, None, blend(ACCENT[role], COLOURS["paper_dark"], 0.55), 8, 2)
        text(draw, ((x + x + CARD_W) // 2, y + CARD_H // 2), "no cards", 14, COLOURS["muted"], "mm")
        return
    for index, card in enumerate(cards):
        top = y + index * STRIP
        is_event = card["kind"] == "event"
        accent = blend(ACCENT[role], COLOURS["gold"], 0.45) if is_event else ACCENT[role]
        kind = KIND_GLYPH.get(card["kind"], card["kind"])
        if card.get("another"):
            kind += " · play another"
        draw_card(
            draw,
            (x, top, x + CARD_W, top + CARD_H),
            CardFace(
                title=card["name"],
                value=_value_label(card),
                accent=accent,
                kind=kind,
                body=card["text"],
                note=_note(card),
                strip=STRIP,
                shadow=index == len(cards) - 1,
            ),
        )


def _footer(draw: ImageDraw.ImageDraw, view: dict[str, Any], y: int) -> None:
    draw.rectangle((0, y, WIDTH, y + FOOTER_H), fill=COLOURS["paper"])
    draw.line((0, y, WIDTH, y), fill=COLOURS["card_edge"], width=1)
    last = view.get("last_battle")
    row = y + 10
    if last:
        parts = []
        for column in last["columns"]:
            label = column["label"]
            winner = column["winner"]
            u, c = column["union"]["total"], column["confederate"]["total"]
            if column["how"] == "empty":
                parts.append(f"{label}: empty")
            elif winner is None:
                parts.append(f"{label}: both fell")
            elif column["how"] == "unopposed":
                parts.append(f"{label}: {NAMES[winner]} unopposed")
            else:
                won, lost = (u, c) if winner == "union" else (c, u)
                parts.append(f"{label}: {NAMES[winner]} {won}-{lost}")
        line = f"Battle {last['battle']} result:  " + " · ".join(parts)
        text(draw, (MARGIN, row), fit(line, 15, WIDTH - 2 * MARGIN), 15, COLOURS["ink"])
        row += 24
    modifiers = view.get("modifiers") or []
    if modifiers:
        words = []
        for m in modifiers:
            what = f"each {m['unit']}" if m["unit"] else "total"
            where = "all columns" if len(m["columns"]) == 3 else m["columns"][0]
            words.append(f"{m['source']}: {m['amount']:+d} {what}, {NAMES[m['side']]} {where}")
        line = "In force this battle:  " + "; ".join(words)
        for part in wrap(line, 13, WIDTH - 2 * MARGIN, 2):
            text(draw, (MARGIN, row), part, 13, COLOURS["muted"])
            row += 17
    elif not last:
        text(draw, (MARGIN, row), "The first battle of the war.", 15, COLOURS["muted"])


def _outcome_banner(draw: ImageDraw.ImageDraw, view: dict[str, Any], cy: int) -> None:
    outcome = view["outcome"]
    winner = outcome.get("winner")
    title = f"{NAMES[winner]} wins the war" if winner else "The war ends in a draw"
    reason = outcome.get("reason", "")
    score = outcome.get("score") or {}
    detail = reason
    if score:
        detail += (
            f" · alive: Union {score.get('union', 0)}, Confederacy {score.get('confederate', 0)}"
        )
    w = max(text_width(title, 34), text_width(detail, 16)) + 80
    fill = ACCENT[winner] if winner else COLOURS["banner"]
    box = (WIDTH // 2 - w // 2, cy - 56, WIDTH // 2 + w // 2, cy + 56)
    rounded_box(draw, box, fill, COLOURS["gold"], radius=16, width=4)
    text(draw, (WIDTH // 2, cy - 16), title, 34, COLOURS["white"], "mm")
    text(draw, (WIDTH // 2, cy + 28), detail, 16, COLOURS["paper"], "mm")


def draw_choices(view: dict[str, Any]) -> Image.Image | None:
    """None: War's decisions are about cards (which to send, which column), and its
    board, three columns of a battle, has no places to mark."""
    return None


def draw_closeup(view: dict[str, Any]) -> Image.Image | None:
    """None: War's decisions are about the cards of the hand, drawn in the hand's picture
    and named on the prompt's buttons, never about a part of the board."""
    return None


# ---------------------------------------------------------------------------- hand

HAND_CARD_W = 220
HAND_CARD_H = 150


def draw_hand(view: dict[str, Any]) -> Image.Image | None:
    """The viewing player's reinforcements of the battle: those in hand and those placed
    face down, drawn alike and in one order (by card id) whatever was placed where. The
    picture so changes only when the reinforcements do (a new battle), not with each
    placement: the message beside it says where each was placed, and a prompt whose
    picture is unchanged uploads none. None when the view carries nothing private."""
    hand = view.get("hand")
    placements = view.get("placements")
    if hand is None and placements is None:
        return None
    cards = [*(hand or []), *(p["card"] for p in placements or [])]
    if not cards:
        return None
    cards.sort(key=lambda card: str(card.get("id", "")))
    role = view.get("role") or "union"
    accent = ACCENT.get(role, COLOURS["banner"])
    width = max(560, MARGIN * 2 + len(cards) * (HAND_CARD_W + 16) - 16)
    # No prompt here: it is in the message beside the image, and a hand picture that only
    # changes with the hand is uploaded once, not on every click.
    top = 50
    height = top + 26 + HAND_CARD_H + 20
    image = canvas(width, height, LIGHT.get(role, COLOURS["paper"]))
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, width, 40), fill=accent)
    title = f"{NAMES.get(role, role)} reinforcements · Battle {view.get('battle', 0)}"
    text(draw, (MARGIN, 20), title, 18, COLOURS["white"], "lm")
    x = MARGIN
    for card in cards:
        text(draw, (x, top), "Reinforcement", 13, COLOURS["muted"])
        _hand_card(draw, card, accent, x, top + 20)
        x += HAND_CARD_W + 16
    return image


def _hand_card(
    draw: ImageDraw.ImageDraw, card: dict[str, Any], accent: Colour, x: int, y: int
) -> None:
    is_event = card["kind"] == "event"
    kind = card["kind"] + (" · play another" if card.get("another") else "")
    draw_card(
        draw,
        (x, y, x + HAND_CARD_W, y + HAND_CARD_H),
        CardFace(
            title=card["name"],
            value=_value_label(card),
            accent=blend(accent, COLOURS["gold"], 0.45) if is_event else accent,
            kind=kind,
            body=card["text"],
            # Said in the note, which is never cut short as a long event's body is:
            # an Event placed as a reinforcement is ignored (rule 4 note).
            note="reinforcement: counts 0" if is_event else "",
            strip=STRIP,
        ),
    )


__all__ = ["draw_board", "draw_choices", "draw_closeup", "draw_hand", "font"]
