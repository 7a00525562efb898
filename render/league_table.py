"""A league's standings as a picture: rank, player, points, Buchholz, Sonneborn-Berger and
each player's record per side, a row per player, withdrawn players greyed and marked.

Discord previews an image at most about 550 pixels wide, so the table is drawn
:data:`WIDTH` wide with text large enough to stay readable once scaled down to it
(:data:`PREVIEW_WIDTH`). A long table stops after :data:`MAX_ROWS` rows with a line that
says how many more there are: a 1,000-player Swiss would otherwise be an image taller
than any screen (the full table is in ``/league export``).

Only standings and display names come in, so the picture shows nothing hidden. A row is
anything shaped as the league core's ``Standing`` (``Row``): render draws, it does not
import the bot.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from PIL import Image, ImageDraw

from render.common import COLOURS, Colour, canvas, fit, text, text_width

#: The picture's width, and the width Discord previews an image at (at most).
WIDTH = 820
PREVIEW_WIDTH = 550
#: Text size of the rows and of the title; a row's height.
SIZE = 24
TITLE_SIZE = 30
ROW_H = 38
TITLE_H = 56
HEAD_H = 40
PAD = 16
#: The most players drawn; the rest are counted on a last line.
MAX_ROWS = 40

INK: Colour = COLOURS["ink"]
MUTED: Colour = COLOURS["muted"]
STRIPE: Colour = COLOURS["paper_dark"]
HEAD: Colour = COLOURS["banner"]
NAME_WIDTH = 300
WITHDRAWN = "withdrawn"


class Row(Protocol):
    """A player's line of the table, as ``bot.tables.leagues.standings.Standing`` has it
    (a side's record prints as wins-draws-losses)."""

    @property
    def rank(self) -> int: ...
    @property
    def player(self) -> str: ...
    @property
    def points(self) -> float: ...
    @property
    def buchholz(self) -> float: ...
    @property
    def sonneborn_berger(self) -> float: ...
    @property
    def first(self) -> object: ...
    @property
    def second(self) -> object: ...
    @property
    def withdrawn(self) -> bool: ...


@dataclass(frozen=True)
class Column:
    """A column: its heading, its left edge, its width, and whether it is right-aligned."""

    heading: str
    x: int
    width: int
    right: bool = True


def columns(sides: tuple[str, str]) -> tuple[Column, ...]:
    """The table's columns, the two sides' records headed by the sides' short names."""
    return (
        Column("#", PAD, 44),
        Column("Player", PAD + 60, NAME_WIDTH, right=False),
        Column("Pts", 380, 60),
        Column("Bch", 450, 70),
        Column("SB", 530, 70),
        Column(sides[0], 610, 90),
        Column(sides[1], 710, 94),
    )


def number(value: float) -> str:
    """A score as a person writes it: 3, 2.5, 12.25."""
    return f"{round(value, 2):g}"


def player_cell(name: str, withdrawn: bool, width: int) -> str:
    """A player's name cut to ``width`` pixels, keeping the withdrawn mark whole."""
    if not withdrawn:
        return fit(name, SIZE, width)
    mark = f" ({WITHDRAWN})"
    return fit(name, SIZE, width - text_width(mark, SIZE)) + mark


def row_cells(standing: Row, name: str) -> tuple[str, ...]:
    """What a player's row says, column by column."""
    return (
        str(standing.rank),
        player_cell(name, standing.withdrawn, NAME_WIDTH),
        number(standing.points),
        number(standing.buchholz),
        number(standing.sonneborn_berger),
        str(standing.first),
        str(standing.second),
    )


def height_for(count: int) -> int:
    """The picture's height for ``count`` players."""
    shown = min(count, MAX_ROWS)
    more = 1 if count > MAX_ROWS else 0
    return TITLE_H + HEAD_H + (shown + more) * ROW_H + PAD


def _cell(draw: ImageDraw.ImageDraw, column: Column, y: int, content: str, colour: Colour) -> None:
    content = fit(content, SIZE, column.width)
    if column.right:
        text(draw, (column.x + column.width, y), content, SIZE, colour, anchor="rm")
    else:
        text(draw, (column.x, y), content, SIZE, colour, anchor="lm")


def draw_table(
    title: str,
    standings: Sequence[Row],
    names: Mapping[str, str],
    sides: tuple[str, str],
) -> Image.Image:
    """The table of ``standings``; ``names`` gives each player's display name (a player
    without one is shown by their id), ``sides`` the two sides' short names."""
    image = canvas(WIDTH, height_for(len(standings)))
    draw = ImageDraw.Draw(image)
    text(draw, (PAD, TITLE_H // 2), fit(title, TITLE_SIZE, WIDTH - 2 * PAD), TITLE_SIZE, INK, "lm")
    cols = columns(sides)
    draw.rectangle((0, TITLE_H, WIDTH, TITLE_H + HEAD_H), fill=HEAD)
    for column in cols:
        _cell(draw, column, TITLE_H + HEAD_H // 2, column.heading, COLOURS["white"])
    y = TITLE_H + HEAD_H
    for index, standing in enumerate(standings[:MAX_ROWS]):
        if index % 2:
            draw.rectangle((0, y, WIDTH, y + ROW_H - 1), fill=STRIPE)
        colour = MUTED if standing.withdrawn else INK
        cells = row_cells(standing, names.get(standing.player, standing.player))
        for column, content in zip(cols, cells, strict=True):
            _cell(draw, column, y + ROW_H // 2, content, colour)
        y += ROW_H
    if len(standings) > MAX_ROWS:
        rest = len(standings) - MAX_ROWS
        more = f"and {rest} more (the whole table is in /league export)"
        text(draw, (PAD, y + ROW_H // 2), fit(more, SIZE, WIDTH - 2 * PAD), SIZE, MUTED, "lm")
    return image


def table_png(
    title: str,
    standings: Sequence[Row],
    names: Mapping[str, str],
    sides: tuple[str, str],
) -> bytes:
    """:func:`draw_table` as PNG bytes (a flat drawing: a palette keeps it small)."""
    image = draw_table(title, standings, names, sides)
    flat = image.quantize(colors=64, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    flat.save(buffer, format="PNG", compress_level=2)
    return buffer.getvalue()
