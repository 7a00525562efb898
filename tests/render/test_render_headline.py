"""At Discord's inline preview (about 400 px wide) the score, where the
game is (round or battle) and whose turn it is read without opening the image.

Each is changed alone in a view; both boards are shrunk to 400 px as Discord shows them,
and what changed must sit in the band at the top and be drawn in glyphs at least 8 px
tall there (a digit of the old header came out about 4 px tall).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from PIL import Image, ImageChops

import rules
from render import fort_sumter, war

PREVIEW_W = 400


def _preview(image: Image.Image) -> Image.Image:
    height = round(image.height * PREVIEW_W / image.width)
    return image.convert("L").resize((PREVIEW_W, height), Image.LANCZOS)


def _changed_box(a: Image.Image, b: Image.Image) -> tuple[int, int, int, int]:
    diff = ImageChops.difference(_preview(a), _preview(b)).point(lambda v: 255 if v > 60 else 0)
    box = diff.getbbox()
    assert box is not None, "the change cannot be seen at 400 px at all"
    return box


def _view(name: str) -> dict[str, Any]:
    game = rules.get_game(name)
    state = game.setup(seed=4)
    choose = game.automated_player()
    assert choose is not None
    for _ in range(12):
        role = game.active_roles(state)[0]
        verb, arg = choose(game, game.view(state, role))
        state = game.act(state, role, verb, arg)
    return game.view(state, None)


CHANGES = {
    "fort_sumter": {
        "score": lambda v: v["score"].update(unionist=v["score"]["unionist"] + 7),
        "round": lambda v: v.update(round=3),
        "turn": lambda v: v.update(status="Waiting for Secessionist."),
    },
    "war": {
        "score": lambda v: v["score"].update(union=v["score"]["union"] - 23),
        "battle": lambda v: v.update(battle=v["battle"] + 40),
        "turn": lambda v: v.update(status="Waiting for Union and Confederacy."),
    },
}
DRAW = {"fort_sumter": fort_sumter.draw_board, "war": war.draw_board}


@pytest.mark.parametrize(
    ("name", "what"), [(name, what) for name, changes in CHANGES.items() for what in changes]
)
def test_the_essentials_read_at_the_inline_preview(name: str, what: str) -> None:
    view = _view(name)
    changed = copy.deepcopy(view)
    CHANGES[name][what](changed)
    before, after = DRAW[name](view), DRAW[name](changed)
    assert before.size == after.size
    _, top, _, bottom = _changed_box(before, after)
    band = round(64 * PREVIEW_W / before.width)
    assert bottom <= band + 1, f"{what} is drawn outside the top band at 400 px"
    assert bottom - top >= 8, f"{what} is only {bottom - top} px tall at 400 px"
