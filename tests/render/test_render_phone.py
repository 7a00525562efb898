"""On a phone (400 px wide) the Lincoln board's names and army
strengths, the Fate Die display's card names and Fort Sumter's Crisis Tracks could not be
read. Beside the full board the renderers now draw a close-up of what the decision is
about (``draw_closeup``, ``render.closeup``).

Every line of text a board draws is recorded with its type size and place; each name the
decision is about must be in the close-up, with a cap height of at least
``MIN_CAP_PX`` once the close-up is shown 400 px wide (on the full board, shown 400 px
wide, the same names are 3-4 px tall).
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from PIL import Image, ImageDraw

import render.common
import render.fate
import render.fort_sumter
import render.fort_sumter_parts
import render.lincoln
import render.lincoln_parts
import rules
from render import closeup_png
from render.closeup import CLOSEUP_MAX_H, MIN_CAP_PX, layout
from render.common import font

PHONE_W = 400


@dataclass(frozen=True)
class Drawn:
    content: str
    size: int
    centre: tuple[float, float]


def cap_height(size: int) -> int:
    """The height of a capital H at ``size`` (what "the text height of a name" means)."""
    _, top, _, bottom = font(size).getbbox("H")
    return int(bottom - top)


@pytest.fixture
def recorded(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Drawn]]:
    """Every line of text drawn while the test runs (the shared ``text`` helper as each
    module imported it, and Pillow's own ``draw.text``), with its size and centre."""
    seen: list[Drawn] = []

    def note(xy: Any, content: Any, size: int, anchor: str) -> None:
        box = font(size).getbbox(str(content), anchor=anchor)
        centre = (xy[0] + (box[0] + box[2]) / 2, xy[1] + (box[1] + box[3]) / 2)
        seen.append(Drawn(str(content), size, centre))

    helper = render.common.text

    def via_helper(draw: Any, xy: Any, content: str, size: int, *args: Any) -> None:
        anchor = args[1] if len(args) > 1 else "la"
        note(xy, content, size, anchor)
        helper(draw, xy, content, size, *args)

    pillow = ImageDraw.ImageDraw.text

    def via_pillow(self: Any, xy: Any, content: Any, *args: Any, **kwargs: Any) -> None:
        face = kwargs.get("font")
        if face is not None and "\n" not in str(content):
            note(xy, content, int(face.size), kwargs.get("anchor") or "la")
        pillow(self, xy, content, *args, **kwargs)

    modules = (
        render.common,
        render.fate,
        render.fort_sumter,
        render.fort_sumter_parts,
        render.lincoln,
        render.lincoln_parts,
    )
    for module in modules:
        if getattr(module, "text", None) is helper:
            monkeypatch.setattr(module, "text", via_helper)
    monkeypatch.setattr(ImageDraw.ImageDraw, "text", via_pillow)
    yield seen


def _inside(point: tuple[float, float], box: tuple[int, int, int, int]) -> bool:
    return box[0] <= point[0] <= box[2] and box[1] <= point[1] <= box[3]


def phone_cap(
    drawn: list[Drawn], wanted: Callable[[Drawn], bool], parts: Any, board: Image.Image
) -> tuple[float, float]:
    """The smallest cap height, on a 400 px phone, of the wanted text: in the close-up of
    ``parts`` and on the full board; fails when a wanted line is not in the close-up."""
    placements = layout(parts, board.size)
    found = [d for d in drawn if wanted(d)]
    assert found, "none of the wanted text was drawn"
    in_closeup = []
    for d in found:
        where = next((p for p in placements if _inside(d.centre, p.source)), None)
        assert where is not None, f"{d.content!r} is not in the close-up"
        in_closeup.append(cap_height(d.size) * where.scale)
    on_board = min(cap_height(d.size) for d in found) * PHONE_W / board.width
    return min(in_closeup), on_board


def _play(name: str, seed: int, until: Callable[[Any, Any], bool], **options: Any) -> Any:
    """A role's view at the first decision (of the automated players' game) ``until``
    accepts."""
    game = rules.get_game(name)
    state = game.setup(seed=seed, options=options or None)
    choose = game.automated_player()
    assert choose is not None
    for _ in range(3000):
        assert game.outcome(state) is None, "the position never came"
        role = game.active_roles(state)[0]
        view = game.view(state, role)
        if until(game, view):
            return view
        state = game.act(state, role, *choose(game, view))
    raise AssertionError("the position never came")


def _check(view: Any, module: Any, recorded: list[Drawn], wanted: Callable[[Drawn], bool]) -> None:
    image = module.draw_closeup(view)
    assert image is not None and image.width == PHONE_W and image.height <= CLOSEUP_MAX_H
    recorded.clear()
    board = module.draw_choices(view) or module.draw_board(view)
    closeup, full = phone_cap(recorded, wanted, module.closeup_parts(view), board)
    assert full < MIN_CAP_PX  # why the close-up is needed at all
    print(f"phone cap height: close-up {closeup:.1f} px, full board {full:.1f} px")
    assert closeup >= MIN_CAP_PX, f"{closeup:.1f} px tall on a phone"


def _name_of(view: Any, loc: str) -> str:
    return str(view["locations"][loc].get("name", loc))


def test_lincoln_battle_names_and_strengths_read_on_a_phone(recorded: list[Drawn]) -> None:
    view = _play("lincoln", 7, lambda g, v: bool(v.get("battle")))
    loc = view["battle"]["location"]
    box = render.lincoln.location_boxes(view)[loc]
    name = _name_of(view, loc)
    _check(
        view,
        render.lincoln,
        recorded,
        lambda d: d.content == name or (d.content.isdigit() and _inside(d.centre, box)),
    )


def test_lincoln_ringed_choices_read_on_a_phone(recorded: list[Drawn]) -> None:
    view = _play(
        "lincoln", 7, lambda g, v: len(render.lincoln.choice_locations(v)) > 3 and not v["battle"]
    )
    chosen = render.lincoln.choice_locations(view)[: render.lincoln.CLOSEUP_CHOICES]
    names = {_name_of(view, loc) for loc in chosen}
    _check(view, render.lincoln, recorded, lambda d: d.content in names)


def _face_up_names(view: Any) -> list[str]:
    return [
        str(e.get("name") or e.get("title"))
        for slot in view["fate"]["slots"]
        for e in slot.get("cards") or []
        if e.get("up")
    ]


def _a_card_name(names: list[str]) -> Callable[[Drawn], bool]:
    """A card's title as drawn (cut short with "..." when long)."""

    def match(d: Drawn) -> bool:
        shown = d.content.removesuffix("...")
        return len(shown) >= 3 and any(n.startswith(shown) for n in names)

    return match


@pytest.mark.parametrize(("name", "module", "side"), [("lincoln", render.lincoln, "union")])
def test_the_fate_display_card_names_read_on_a_phone(
    recorded: list[Drawn], name: str, module: Any, side: str
) -> None:
    view = _play(
        name,
        9,
        lambda g, v: bool(v.get("fate") and _face_up_names(v) and not module.choice_locations(v)),
        fate=side,
    )
    _check(view, module, recorded, _a_card_name(_face_up_names(view)))


def test_fort_sumter_crisis_tracks_read_on_a_phone(recorded: list[Drawn]) -> None:
    view = _play("fort_sumter", 7, lambda g, v: not render.fort_sumter.choice_spaces(v))
    tracks = render.fort_sumter.TRACKS_BOX
    numbers = {str(n) for n in range(16)}
    _check(
        view,
        render.fort_sumter,
        recorded,
        lambda d: d.content in numbers and _inside(d.centre, tracks),
    )


def test_fort_sumter_ringed_spaces_read_on_a_phone(recorded: list[Drawn]) -> None:
    view = _play("fort_sumter", 7, lambda g, v: len(render.fort_sumter.choice_spaces(v)) > 2)
    names = {s["name"] for s in view["spaces"] if s["id"] in render.fort_sumter.choice_spaces(view)}
    _check(view, render.fort_sumter, recorded, lambda d: d.content in names)


def test_fort_sumter_fate_display_reads_on_a_phone(recorded: list[Drawn]) -> None:
    view = _play(
        "fort_sumter",
        8,
        lambda g, v: bool(
            v.get("fate") and _face_up_names(v) and not render.fort_sumter.choice_spaces(v)
        ),
        fate="unionist",
    )
    _check(view, render.fort_sumter, recorded, _a_card_name(_face_up_names(view)))


def test_the_closeup_is_sent_as_png_bytes() -> None:
    view = _play("lincoln", 7, lambda g, v: bool(v.get("battle")))
    data = closeup_png("lincoln", view)
    assert data is not None and data.startswith(b"\x89PNG")
    assert Image.open(io.BytesIO(data)).width == PHONE_W
    assert (
        closeup_png("war", rules.get_game("war").view(rules.get_game("war").setup(seed=1), None))
        is None
    )


@pytest.mark.parametrize("name", ["lincoln", "fort_sumter"])
def test_a_closeup_draws_at_every_position_of_a_game(name: str) -> None:
    """Every role's view along a game draws a close-up that fits a phone, or none."""
    game = rules.get_game(name)
    module = {"lincoln": render.lincoln, "fort_sumter": render.fort_sumter}[name]
    state = game.setup(seed=3)
    choose = game.automated_player()
    assert choose is not None
    for number in range(400):
        if game.outcome(state) is not None:
            break
        role = game.active_roles(state)[0]
        view = game.view(state, role)
        if number % 7 == 0:
            image = module.draw_closeup(view)
            assert image is None or (image.width == PHONE_W and image.height <= CLOSEUP_MAX_H)
        state = game.act(state, role, *choose(game, view), record_undo=False)
