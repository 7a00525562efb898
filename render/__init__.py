"""Board and hand images, drawn with Pillow from a game's *view* (never its raw state).

Each game names its module here (``Game.renderer``), which draws what ``Drawing`` lists:
``draw_board(view)`` and ``draw_hand(view)`` (None when nothing is private);
``draw_choices(view)``, the board with the places the role's prompt offers marked (None
when the prompt is not about the board); and ``draw_closeup(view)``, a phone-sized
close-up (400 px wide) of what the decision is about, to send beside the full board,
whose names a phone shows a third of their size (``render.closeup``; None when the
game draws none). This package turns those into PNG bytes.
Because only views come in, an image can show nothing a view would not.
"""

from __future__ import annotations

import importlib
import io
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from PIL import Image


class NoRenderer(LookupError):
    """The game has no board renderer."""


@runtime_checkable
class Drawing(Protocol):
    """What a game's renderer module draws, each from one view. A module is checked
    against this when it is looked up, and mypy checks every renderer module against it
    (below), so every call made here is one mypy has seen."""

    def draw_board(self, view: dict[str, Any]) -> Image.Image: ...

    def draw_hand(self, view: dict[str, Any]) -> Image.Image | None: ...

    def draw_choices(self, view: dict[str, Any]) -> Image.Image | None: ...

    def draw_closeup(self, view: dict[str, Any]) -> Image.Image | None: ...


if TYPE_CHECKING:
    from render import fort_sumter, lincoln, solo, war

    _FORT_SUMTER: Drawing = fort_sumter
    _LINCOLN: Drawing = lincoln
    _WAR: Drawing = war
    _SOLO: Drawing = solo


def _module(game_name: str) -> Drawing:
    """The module that draws ``game_name``, as its rules name it (``Game.renderer``)."""
    import rules

    try:
        game = rules.get_game(game_name)
    except LookupError:
        game = None
    # Any object with the rules contract may be registered; only a ``Game`` names a
    # renderer.
    path = game.renderer if isinstance(game, rules.Game) else None
    if path is None:
        raise NoRenderer(f"No board renderer for {game_name!r}.")
    module = importlib.import_module(path)
    if not isinstance(module, Drawing):
        raise NoRenderer(f"{path} does not draw everything a renderer draws.")
    return module


#: Colours kept when an image is saved: boards are flat drawings with anti-aliased text,
#: so a palette is indistinguishable and makes the PNG several times smaller.
PALETTE_COLOURS = 255
#: Positions of a sample game whose images make a game's palette.
SAMPLE_POSITIONS = (0, 6, 20, 45, 90)


#: Every SAMPLE_STEP-th pixel of each row and column of a sample image goes into the
#: palette's sheet: boards are flat areas of a few colours, so a sixteenth of the pixels
#: finds the same colours at a sixteenth of the memory and quantizing time.
SAMPLE_STEP = 4


@lru_cache(maxsize=8)
def _palette(game_name: str) -> Image.Image | None:
    """One palette per game, computed once from the boards, hands and choice boards of a
    sample game played by the game's automated player: mapping every image to a fixed
    palette takes half the time of finding a palette for each image,
    and the same picture always gives the same bytes.

    Only the palette is kept, on a 1x1 image (``quantize`` reads nothing else): the
    quantized sheet of the whole sample game was 4-14 MB per game kind, held for the
    life of the process."""
    import rules

    game = rules.get_game(game_name)
    if not isinstance(game, rules.Game):
        return None
    module = _module(game_name)
    choose = game.automated_player()
    state = game.setup(seed=1)
    images: list[Any] = []
    for number in range(max(SAMPLE_POSITIONS) + 1):
        if number in SAMPLE_POSITIONS or game.outcome(state) is not None:
            views = [game.view(state, None)] + [game.view(state, r) for r in game.roles]
            images.append(module.draw_board(views[0]))
            for view in views[1:]:
                images.append(module.draw_hand(view))
                images.append(module.draw_choices(view))
        if game.outcome(state) is not None:
            break
        role = game.active_roles(state)[0]
        view = game.view(state, role)
        if choose is not None:
            verb, arg = choose(game, view)
        else:
            verb, args = next(iter(view["actions"].items()))
            arg = args[0] if isinstance(args, list) else None
        state = game.act(state, role, verb, arg, record_undo=False)
    return _palette_of([i for i in images if i is not None])


def _palette_of(images: list[Any]) -> Image.Image:
    """A 1x1 image carrying the palette of ``images``, found from a sample of their pixels
    (nearest neighbour: each sampled pixel keeps its exact colour)."""
    shown = [
        i.convert("RGB").resize(
            (max(1, i.width // SAMPLE_STEP), max(1, i.height // SAMPLE_STEP)),
            Image.Resampling.NEAREST,
        )
        for i in images
    ]
    sheet = Image.new("RGB", (max(i.width for i in shown), sum(i.height for i in shown)))
    y = 0
    for image in shown:
        sheet.paste(image, (0, y))
        y += image.height
    quantized = sheet.quantize(
        colors=PALETTE_COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )
    palette = Image.new("P", (1, 1))
    palette.putpalette(quantized.getpalette() or [])
    return palette


def quantized(image: Any, game_name: str | None = None) -> Any:
    """``image`` on the game's palette (any other image on one found for it), exactly as
    its PNG carries it; an image not in RGB is kept as it is."""
    if isinstance(image, Image.Image) and image.mode == "RGB":
        palette = _palette(game_name) if game_name else None
        if palette is not None:
            return image.quantize(palette=palette, dither=Image.Dither.NONE)
        return image.quantize(
            colors=128, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
        )
    return image


#: zlib's level for every PNG, chosen by ``bench/bench_png_level.py``: on the boards of
#: the three games level 2 encodes in about 0.4 of the time of Pillow's default (6), for
#: boards a quarter larger (Lincoln's largest 75 KiB, within a 200 KiB budget); levels 1
#: to 3 cost the same within the noise, and 2 is the smaller of the fastest two.
PNG_LEVEL = 2


def _png(image: Any, game_name: str | None = None) -> bytes:
    image = quantized(image, game_name)
    buffer = io.BytesIO()
    # No optimize=True: on these palette images it costs 3-4x the encode time (about
    # 40 ms a board) to save about a tenth of the bytes, and boards are drawn every turn.
    image.save(buffer, format="PNG", compress_level=PNG_LEVEL)
    return buffer.getvalue()


def board_png(game_name: str, view: dict[str, Any]) -> bytes:
    """The board as everyone (or the viewing role) sees it, as PNG bytes."""
    return _png(_module(game_name).draw_board(view), game_name)


def board_image(game_name: str, view: dict[str, Any]) -> Image.Image:
    """The board of ``board_png`` as a palette image, pixel for pixel what its PNG holds:
    for callers that go on drawing with it, such as a replay's frames."""
    image: Image.Image = quantized(_module(game_name).draw_board(view), game_name)
    return image


def hand_png(game_name: str, view: dict[str, Any]) -> bytes | None:
    """A role's private hand as PNG bytes, or None when there is nothing private to draw."""
    image = _module(game_name).draw_hand(view)
    return None if image is None else _png(image, game_name)


def choices_png(game_name: str, view: dict[str, Any]) -> bytes | None:
    """The board with the role's choices marked, when its prompt is about places on the
    board; None otherwise (or when the game's renderer draws no such board)."""
    image = _module(game_name).draw_choices(view)
    return None if image is None else _png(image, game_name)


def closeup_png(game_name: str, view: dict[str, Any]) -> bytes | None:
    """A phone-sized close-up of what the view's decision is about (the battle, the
    ringed choices, a track, the Fate Die's display), to send beside the full board; None
    when the game's renderer draws none or the decision is about nothing on the board."""
    image = _module(game_name).draw_closeup(view)
    return None if image is None else _png(image, game_name)
