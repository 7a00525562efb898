"""The solo display image: slots, markers, counts, the die; checked by pixels."""

from __future__ import annotations

import copy
import io
from typing import Any

from PIL import Image

from render import board_png
from render.solo import (
    CARD_H,
    HEADER_H,
    MARGIN,
    SECOND_OFFSET,
    SIDE_HEAD_H,
    SLOT_W,
    TRACK_MAX,
    WIDTH,
    draw_board,
    draw_hand,
)
from rules.solo import GAME
from tests.solo_helpers import act, session

GOLD = (196, 154, 58)


def _view(state: dict[str, Any]) -> dict[str, Any]:
    view: dict[str, Any] = GAME.view(state, None)
    return view


def _pog() -> dict[str, Any]:
    return GAME.setup(seed=3, options={"playsheet": "paths_of_glory", "side": "central_powers"})


def _card_box(slot_index: int, nth: int = 0) -> tuple[int, int]:
    """The top-left corner of the nth card of a slot of the first display."""
    x0 = MARGIN + slot_index * SLOT_W + 8
    y0 = HEADER_H + 8 + SIDE_HEAD_H + 30 + nth * SECOND_OFFSET
    return x0, y0


def test_a_face_down_cards_identity_never_changes_a_pixel() -> None:
    state = _pog()
    display = state["displays"]["central_powers"]
    downs = [(s, e) for s in "ABDE" for e in display["slots"][s] if not e["up"]]
    assert downs, "the set-up leaves face-down cards"
    before = board_png("solo", _view(state))
    other = copy.deepcopy(state)
    slot, entry = downs[0]
    deck = other["decks"]["central_powers"]["draw"]
    # swap the face-down card with a card deep in the deck: a different identity
    swapped = deck[-1]
    deck[-1] = entry["card"]
    other["displays"]["central_powers"]["slots"][slot][0]["card"] = swapped
    assert GAME.invariants(other) == []
    assert board_png("solo", _view(other)) == before
    # ... whereas turning it face up does change the picture
    other["displays"]["central_powers"]["slots"][slot][0]["up"] = True
    assert board_png("solo", _view(other)) != before


def test_face_up_and_face_down_cards_are_drawn_differently() -> None:
    state = _pog()
    image = draw_board(_view(state)).convert("RGB")
    display = state["displays"]["central_powers"]
    up = next(
        i for i, s in enumerate("ABCDE") if display["slots"][s] and display["slots"][s][0]["up"]
    )
    down = next(
        i for i, s in enumerate("ABCDE") if display["slots"][s] and not display["slots"][s][0]["up"]
    )
    ux, uy = _card_box(up)
    dx, dy = _card_box(down)
    # a face-up card's body is card-coloured paper, a back is the side's dark blue
    assert image.getpixel((ux + 20, uy + CARD_H - 40)) == (250, 246, 236)
    back = image.getpixel((dx + 20, dy + CARD_H - 40))
    assert isinstance(back, tuple) and back[2] > back[0] + 40


def test_a_double_slot_shows_its_second_card() -> None:
    state = session("cc_samurai")
    view = _view(state)
    first = next(iter(view["displays"]))
    single = draw_board(view)
    twin = copy.deepcopy(view)
    twin["displays"][first]["double"] = ["A"]
    twin["displays"][first]["slots"]["A"] = [{"up": False}, {"up": False}]
    double = draw_board(twin)
    assert double.height == single.height + SECOND_OFFSET
    x, y = _card_box(0, 1)
    below = double.convert("RGB").getpixel((x + 20, y + CARD_H - 20))
    bare = single.convert("RGB").getpixel((x + 20, y + CARD_H - 20))
    assert below != bare


def test_cards_remaining_and_max_hand_markers_sit_on_the_track() -> None:
    state = _pog()
    view = _view(state)
    view["displays"]["central_powers"]["remaining"] = 5
    image = draw_board(view).convert("RGB")
    size, step = 30, 34
    x = WIDTH - MARGIN - (TRACK_MAX + 1) * step
    y = HEADER_H + 8 + 56
    assert image.getpixel((x + 5 * step + 3, y + 3)) == GOLD
    assert image.getpixel((x + 4 * step + 3, y + 3)) != GOLD
    # Max Hand Size 7: a red frame just outside box 7
    red = image.getpixel((x + 7 * step + size // 2, y - 1))
    assert isinstance(red, tuple) and red[0] > 140 and red[1] < 80


def test_the_last_die_face_and_what_it_allows_are_drawn() -> None:
    state = _pog()
    before = board_png("solo", _view(state))
    act(state, "roll", "central_powers")
    after_view = _view(state)
    assert after_view["die"] and after_view["die"]["face"]
    assert board_png("solo", after_view) != before
    no_allowed = copy.deepcopy(after_view)
    no_allowed["die"]["allowed"] = []
    assert board_png("solo", no_allowed) != board_png("solo", after_view)


def test_deck_and_discard_counts_change_the_picture() -> None:
    view = _view(_pog())
    more = copy.deepcopy(view)
    more["decks"]["central_powers"]["discard"] += 1
    assert board_png("solo", more) != board_png("solo", view)


def test_the_header_is_legible_at_400_pixels_wide() -> None:
    image = draw_board(_view(_pog())).convert("L")
    small = image.resize((400, round(image.height * 400 / image.width)), Image.LANCZOS)
    header = round(HEADER_H * 400 / WIDTH)
    # rows of the title line that hold bright (white) text strokes
    rows = [
        y
        for y in range(0, header // 2 + 4)
        if any(small.getpixel((x, y)) > 200 for x in range(small.width))  # type: ignore[operator]
    ]
    assert rows, "no title text in the header"
    assert max(rows) - min(rows) + 1 >= 12, "the title is under 12 px tall at 400 px"


def test_there_is_no_private_hand_image() -> None:
    assert draw_hand(_view(_pog())) is None


def test_every_playsheet_draws(tmp_path: Any) -> None:
    for sheet in (
        "washingtons_war",
        "caesar",
        "paths_of_glory",
        "illusions_of_glory",
        "for_the_people",
        "cc_ancients",
        "cc_samurai",
    ):
        png = board_png("solo", _view(session(sheet)))
        image = Image.open(io.BytesIO(png))
        assert image.width == WIDTH and image.height > HEADER_H + CARD_H


def test_a_card_whose_facts_are_not_told_is_drawn_as_such() -> None:
    state = GAME.setup(seed=1, options={"playsheet": "caesar", "side": "rome"})
    view = _view(state)
    first = view["displays"]["rome"]["slots"]["A"][0]
    assert first["up"] and first["told"] is False and first["value"] is None
    told = copy.deepcopy(view)
    told["displays"]["rome"]["slots"]["A"][0].update(told=True, value=3, name="card #12")
    assert board_png("solo", told) != board_png("solo", view)
    # a C&C card has no value (it depends on the board): drawn as such, not as unknown
    board = copy.deepcopy(told)
    board["board_values"] = True
    board["displays"]["rome"]["slots"]["A"][0]["value"] = None
    assert board_png("solo", board) != board_png("solo", view)


def test_the_die_face_reads_in_the_header_at_400_pixels() -> None:
    from PIL import ImageChops

    state = _pog()
    act(state, "roll", "central_powers")
    view = _view(state)
    other = copy.deepcopy(view)
    other["die"]["title"] = "A or B" if view["die"]["title"] != "A or B" else "D or E"
    other["die"]["allowed"] = view["die"]["allowed"]

    def small(image: Image.Image) -> Image.Image:
        return image.convert("L").resize(
            (400, round(image.height * 400 / image.width)), Image.LANCZOS
        )

    a, b = small(draw_board(view)), small(draw_board(other))
    diff = ImageChops.difference(a, b).point(lambda v: 255 if v > 60 else 0)
    box = diff.getbbox()
    assert box is not None
    _left, top, _right, _bottom = box
    header = round(HEADER_H * 400 / WIDTH)
    assert top <= header, "the die face is not in the header"
    # the header's change is at least 8 px tall at 400 px (the footer repeats the face)
    head = diff.crop((0, 0, 400, header))
    hbox = head.getbbox()
    assert hbox is not None and hbox[3] - hbox[1] >= 8
