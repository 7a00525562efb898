"""The CDG Solo System: the automated sides' Card Displays, drawn from a view.

One band per automated side: its name, the Max Hand Size and Cards Remaining markers on a
track (and, for C&C Samurai, its Honor & Fortune tokens and Dragon cards), then slots A to
E. A slot holding two cards shows both whole, the second below the first, so a face-down
second card never hides the first. The cards the last Fate Die allows are ringed, as on
the Fate band of the other games (``render.fate``).
Face-up cards show their number and name, their value (Ops, AP...), whether they carry an
event and their kind; face-down cards are plain backs, all alike, since the view says
nothing about them. On sheets where the draw deck sits in slot C, C shows the deck's top.
Below: each deck's draw, discard and removed counts, and the last Fate Die face with the
cards it allowed, by slot letter and name (while the roll's newly turned cards are still
being told, the face is shown and what it allows is said to be pending). The header is
drawn large enough to read when Discord shows the image about 400 pixels wide. A card's
value strip shrinks its type until its words fit whole ("Order count: board").
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from render.common import COLOURS, Colour, blend, canvas, draw_card_back, fit, font, text, wrap
from render.fate import ALLOWED

WIDTH = 960
MARGIN = 20
SLOT_W = (WIDTH - 2 * MARGIN) // 5
CARD_W = SLOT_W - 16
CARD_H = 150
#: A second card sits wholly below the first (a gap of 10 px).
SECOND_OFFSET = CARD_H + 10
#: The sizes a card's value strip is tried at, largest first, until its words fit.
STRIP_SIZES = (26, 22, 19, 16, 14)
HEADER_H = 104
SIDE_HEAD_H = 96
TRACK_MAX = 8
SLOTS = ("A", "B", "C", "D", "E")

#: Side colours: the first display drawn is dark blue, a second dark red.
ACCENTS: tuple[Colour, ...] = ((44, 66, 120), (128, 40, 40))
KIND_WORDS = {
    "plain": "",
    "combat": "Combat",
    "battle": "Battle",
    "mandatory": "Mandatory",
    "surprise": "Surprise",
    "reaction": "Reaction",
    "campaign": "Campaign",
    "first_strike": "First Strike",
}


def _kind_word(kind: Any) -> str:
    word = str(kind or "")
    return KIND_WORDS.get(word, word.replace("_", " ").capitalize())


def _slot_height(cards: list[dict[str, Any]]) -> int:
    return CARD_H + SECOND_OFFSET * max(0, len(cards) - 1)


def _display_height(display: dict[str, Any]) -> int:
    tallest = max((_slot_height(c) for c in display["slots"].values()), default=CARD_H)
    tallest = max(tallest, CARD_H + (SECOND_OFFSET if display.get("double") else 0))
    aside = 30 if display.get("aside") else 0
    return SIDE_HEAD_H + 34 + tallest + aside + 24


def _face_up(
    draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], card: dict[str, Any], view: Any
) -> None:
    x0, y0, x1, y1 = box
    draw.rounded_rectangle((x0 + 2, y0 + 3, x1 + 2, y1 + 3), radius=8, fill=COLOURS["shadow"])
    draw.rounded_rectangle(box, radius=8, fill=COLOURS["card"], outline=COLOURS["card_edge"])
    strip = 44
    draw.rounded_rectangle((x0, y0, x1, y0 + strip), radius=8, fill=COLOURS["banner"])
    draw.rectangle((x0 + 1, y0 + strip - 8, x1 - 1, y0 + strip), fill=COLOURS["banner"])
    label, size = value_label(card, view, x1 - x0 - 16)
    text(
        draw,
        (x0 + 8, y0 + strip // 2),
        fit(label, size, x1 - x0 - 16),
        size,
        COLOURS["white"],
        anchor="lm",
    )
    y = y0 + strip + 6
    name = str(card.get("name") or "card") if card.get("told", True) else "Facts not told yet"
    for row in wrap(name, 17, x1 - x0 - 14, 3):
        text(draw, (x0 + 7, y), row, 17)
        y += 20
    notes = []
    if card.get("event"):
        notes.append("Event")
    kind = _kind_word(card.get("kind"))
    if kind:
        notes.append(kind)
    if "sr" in card:
        notes.append(f"SR {card['sr']}")
    if notes:
        text(draw, (x0 + 7, y1 - 8), fit(" · ".join(notes), 15, x1 - x0 - 14), 15, anchor="ld")
    if card.get("removed_after_event"):
        text(draw, (x1 - 8, y0 + strip // 2 + 4), "*", 30, COLOURS["gold"], anchor="rm")


def value_label(card: dict[str, Any], view: Any, room: int) -> tuple[str, int]:
    """A face-up card's value strip and the largest size it fits ``room`` at, whole.
    C&C order counts depend on the board: the view has no value, and neither do we."""
    value = card.get("value")
    word = str(view.get("value_word") or "Ops")
    if not card.get("told", True):
        label = f"? {word}"
    elif value is not None:
        label = f"{value} {word}"
    else:
        label = f"{word.capitalize()}: board" if view.get("board_values") else f"No {word}"
    size = next((s for s in STRIP_SIZES if font(s).getlength(label) <= room), STRIP_SIZES[-1])
    return label, size


def _ring(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int]) -> None:
    """The ring of a card the last Fate Die allows (the Fate band's colour)."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle((x0 - 4, y0 - 4, x1 + 4, y1 + 4), radius=10, outline=ALLOWED, width=4)


def _track(draw: ImageDraw.ImageDraw, x: int, y: int, display: dict[str, Any]) -> None:
    """Boxes 0..8: Cards Remaining filled in gold, Max Hand Size framed in red."""
    remaining, most = display.get("remaining"), display.get("max_hand")
    size = 30
    for n in range(TRACK_MAX + 1):
        box = (x + n * (size + 4), y, x + n * (size + 4) + size, y + size)
        fill = COLOURS["gold"] if n == remaining else COLOURS["paper"]
        draw.rectangle(box, fill=fill, outline=COLOURS["card_edge"])
        if n == most:
            draw.rectangle(
                (box[0] - 2, box[1] - 2, box[2] + 2, box[3] + 2), outline=COLOURS["red"], width=3
            )
        text(draw, ((box[0] + box[2]) // 2, y + size // 2), str(n), 18, anchor="mm")


def _draw_display(
    draw: ImageDraw.ImageDraw, y: int, display: dict[str, Any], view: Any, accent: Colour
) -> int:
    light = blend(accent, COLOURS["white"], 0.82)
    height = _display_height(display)
    draw.rectangle((0, y, WIDTH, y + height - 8), fill=light)
    text(draw, (MARGIN, y + 10), str(display.get("name", "")), 32, accent)
    most, remaining = display.get("max_hand"), display.get("remaining")
    markers = f"Max Hand Size {most}"
    markers += f" · Cards Remaining {remaining}" if remaining is not None else ""
    markers += _honor_words(view, display)
    text(draw, (MARGIN, y + 52), markers, 24)
    if remaining is not None:
        _track(draw, WIDTH - MARGIN - (TRACK_MAX + 1) * 34, y + 56, display)
    top = y + SIDE_HEAD_H
    double = set(display.get("double") or [])
    die = view.get("die") or {}
    mine = die.get("side") == display.get("side_id")
    ringed = set(die.get("allowed_ids") or []) if mine else set()
    for index, slot in enumerate(SLOTS):
        x0 = MARGIN + index * SLOT_W + 8
        label = f"{slot} (two cards)" if slot in double else slot
        if slot == "C" and view.get("deck_in_slot_c"):
            label = "C: deck top"
        text(draw, (x0, top), label, 22, accent)
        cards = list(display["slots"].get(slot) or [])
        cy = top + 30
        if not cards:
            draw.rounded_rectangle(
                (x0, cy, x0 + CARD_W, cy + CARD_H), radius=8, outline=COLOURS["muted"], width=2
            )
            text(draw, (x0 + CARD_W // 2, cy + CARD_H // 2), "empty", 18, COLOURS["muted"], "mm")
        for card in cards:
            box = (x0, cy, x0 + CARD_W, cy + CARD_H)
            if card.get("up"):
                _face_up(draw, box, card, view)
                if card.get("card") in ringed:
                    _ring(draw, box)
            else:
                draw_card_back(draw, box, accent, label="face down")
            cy += SECOND_OFFSET
    aside = display.get("aside") or []
    if aside:
        names = ", ".join(str(c.get("name") or "a card") for c in aside)
        text(draw, (MARGIN, y + height - 38), fit(f"Set aside: {names}", 20, WIDTH - 40), 20)
    return y + height


def _honor_words(view: dict[str, Any], display: dict[str, Any]) -> str:
    """C&C Samurai: the side's Honor & Fortune tokens and Dragon cards, after its markers."""
    counts = view.get("honor")
    side = display.get("side_id")
    if not counts or side not in counts["tokens"]:
        return ""
    return f" · Honor & Fortune {counts['tokens'][side]} · Dragon cards {counts['dragons'][side]}"


def _die_lines(view: dict[str, Any]) -> list[tuple[str, int]]:
    """The last Fate Die face and what it allows, by slot and name."""
    die = view.get("die")
    if not die:
        return [("The Fate Die has not been rolled yet.", 20)]
    allowed = ", ".join(str(a) for a in die.get("allowed") or []) or "no card"
    if die.get("pending"):
        allowed = "known once the newly turned cards are told"
    if not die.get("face"):
        return [(fit(f"Playable without the Fate Die: {allowed}", 20, WIDTH - 40), 20)]
    side = ((view.get("displays") or {}).get(die.get("side")) or {}).get("name")
    rows = [(f"Last Fate Die{f' ({side})' if side else ''}: {die['title']}", 24)]
    lead = "Allows" if die.get("pending") or not die.get("allowed_ids") else "Allows (ringed)"
    for row in wrap(f"{lead}: {allowed}", 20, WIDTH - 2 * MARGIN, 3):
        rows.append((row, 20))
    return rows


def _footer_lines(view: dict[str, Any]) -> list[tuple[str, int]]:
    rows: list[tuple[str, int]] = []
    for deck in (view.get("decks") or {}).values():
        label = str(deck["label"])
        line = (
            f"{label[:1].upper()}{label[1:]}: {deck['draw']} to draw · {deck['discard']} discarded"
            f" · {deck['removed']} removed"
        )
        top = deck.get("discard_top")
        if top and top.get("name"):
            line += f" · discard top {top['name']}"
        rows.append((line, 20))
    counts = view.get("honor")
    if counts:
        rows.append((f"Dragon deck: {counts['draw']} to draw · {counts['discard']} discarded", 20))
    rows += _die_lines(view)
    removable = any(
        card.get("removed_after_event")
        for display in (view.get("displays") or {}).values()
        for cards in display["slots"].values()
        for card in cards
    )
    if removable:
        rows.append(("* removed from the game after its event is played", 20))
    war = view.get("war_status") or {}
    if war:
        rows.append(
            (
                "War Status: "
                + ", ".join(f"{s.replace('_', ' ').title()} {n}" for s, n in war.items()),
                20,
            )
        )
    return rows


def draw_board(view: dict[str, Any]) -> Image.Image:
    displays = list((view.get("displays") or {}).values())
    footer = _footer_lines(view)
    height = HEADER_H + sum(_display_height(d) for d in displays) + 24
    height += sum(size + 8 for _row, size in footer) + 16
    image = canvas(WIDTH, height)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, HEADER_H), fill=COLOURS["banner"])
    title = f"{view.get('title', '')} · Turn {view.get('turn', '')}"
    text(draw, (MARGIN, 12), fit(title, 44, WIDTH - 2 * MARGIN), 44, COLOURS["white"])
    # The second line is what a glance needs most: the last Fate Die face.
    scenario = str(view.get("scenario") or "").replace("_", " ").title()
    die = view.get("die") or {}
    if die.get("face"):
        sub = f"Fate Die: {die.get('title', '')}"
    else:
        sub = "CDG Solo System" + (f" · {scenario}" if scenario else "")
    text(draw, (MARGIN, 64), fit(sub, 30, WIDTH - 2 * MARGIN), 30, COLOURS["gold"])
    y = HEADER_H + 8
    for index, (side, display) in enumerate((view.get("displays") or {}).items()):
        shown = {**display, "side_id": side}
        y = _draw_display(draw, y, shown, view, ACCENTS[index % len(ACCENTS)])
    y += 12
    for row, size in footer:
        text(draw, (MARGIN, y), fit(row, size, WIDTH - 2 * MARGIN), size)
        y += size + 8
    return image


def draw_hand(view: dict[str, Any]) -> Image.Image | None:
    """Nothing is private in a solo session: the display is the board."""
    return None


def draw_choices(view: dict[str, Any]) -> Image.Image | None:
    """None: a solo session's choices are the Fate Die's and the playsheet's steps, shown
    as its buttons; its display has no places to mark."""
    return None


def draw_closeup(view: dict[str, Any]) -> Image.Image | None:
    """None: a session's decisions are named on its prompt's buttons; none is about a
    part of the display."""
    return None
