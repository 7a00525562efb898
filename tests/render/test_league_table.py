"""The standings picture: its size follows the players (up to a cap), each row is drawn
in its band, a withdrawn player's row is greyed, and its text stays readable at the width
Discord previews it."""

from __future__ import annotations

import io

from PIL import Image

from bot.tables.leagues.standings import SideRecord, Standing
from render import league_table
from render.common import COLOURS, text_width
from render.league_table import HEAD_H, MAX_ROWS, ROW_H, TITLE_H, WIDTH


def _standing(rank: int, player: str, points: float, *, withdrawn: bool = False) -> Standing:
    return Standing(
        rank=rank,
        player=player,
        points=points,
        buchholz=points * 3,
        sonneborn_berger=points * 2,
        head_to_head=0.0,
        rating=25.0,
        first=SideRecord(2, 1, 0),
        second=SideRecord(1, 0, 1),
        byes=1,
        withdrawn=withdrawn,
    )


def _darkest(image: Image.Image, box: tuple[int, int, int, int]) -> int:
    """The lowest channel sum in ``box``: the ink of the darkest text drawn there."""
    band = image.crop(box).convert("RGB")
    return min(sum(pixel) for pixel in band.get_flattened_data())  # type: ignore[arg-type]


def _row_box(index: int, left: int, right: int) -> tuple[int, int, int, int]:
    top = TITLE_H + HEAD_H + index * ROW_H
    return (left, top, right, top + ROW_H)


def test_the_picture_has_a_row_per_player_under_a_title_and_a_heading() -> None:
    standings = [_standing(i + 1, f"p{i}", 5 - i * 0.5) for i in range(5)]
    names = {f"p{i}": f"Player {i}" for i in range(5)}
    image = league_table.draw_table("Spring Swiss", standings, names, ("Union", "Conf."))
    assert image.size == (WIDTH, TITLE_H + HEAD_H + 5 * ROW_H + league_table.PAD)
    ink = sum(COLOURS["ink"])
    for index in range(5):  # each row holds dark text in the name column
        assert _darkest(image, _row_box(index, 80, 370)) <= ink + 30
    # the heading band is the banner colour, with white text in it
    heading = image.crop((0, TITLE_H, WIDTH, TITLE_H + HEAD_H)).convert("RGB")
    colours = set(heading.get_flattened_data())
    assert COLOURS["banner"] in colours and COLOURS["white"] in colours
    # rows alternate paper and a darker stripe
    assert image.getpixel((WIDTH - 3, TITLE_H + HEAD_H + 2)) == COLOURS["paper"]
    assert image.getpixel((WIDTH - 3, TITLE_H + HEAD_H + ROW_H + 2)) == COLOURS["paper_dark"]


def test_a_withdrawn_player_is_greyed_and_marked() -> None:
    standings = [_standing(1, "a", 3.0), _standing(2, "b", 2.0, withdrawn=True)]
    names = {"a": "Alice", "b": "Bob"}
    image = league_table.draw_table("League", standings, names, ("First", "Second"))
    muted, ink = sum(COLOURS["muted"]), sum(COLOURS["ink"])
    assert _darkest(image, _row_box(0, 0, WIDTH)) <= ink + 30
    assert _darkest(image, _row_box(1, 0, WIDTH)) >= muted - 10
    assert league_table.row_cells(standings[1], "Bob")[1] == "Bob (withdrawn)"
    # a long name is cut, never the mark
    long = league_table.row_cells(standings[1], "Bob the longest named player on the server")
    assert long[1].endswith("... (withdrawn)")
    assert text_width(long[1], league_table.SIZE) <= league_table.NAME_WIDTH


def test_a_long_table_stops_at_the_cap_and_counts_the_rest() -> None:
    standings = [_standing(i + 1, f"p{i}", 100 - i) for i in range(1000)]
    image = league_table.draw_table("Big", standings, {}, ("A", "B"))
    assert image.height == TITLE_H + HEAD_H + (MAX_ROWS + 1) * ROW_H + league_table.PAD
    # the "and N more" line is drawn under the last row
    assert _darkest(image, _row_box(MAX_ROWS, 0, WIDTH)) <= sum(COLOURS["muted"]) + 10


def test_text_stays_readable_at_discords_preview_width() -> None:
    scale = league_table.PREVIEW_WIDTH / WIDTH
    assert league_table.SIZE * scale >= 14  # px of text once Discord scales the picture
    assert ROW_H * scale >= 20


def test_the_png_holds_the_same_picture_small() -> None:
    standings = [_standing(i + 1, f"p{i}", 9 - i) for i in range(9)]
    data = league_table.table_png("Nine", standings, {}, ("Union", "Confederacy"))
    image = Image.open(io.BytesIO(data))
    assert data.startswith(b"\x89PNG") and image.size == (WIDTH, league_table.height_for(9))
    assert len(data) < 100_000
    assert league_table.number(2.5) == "2.5" and league_table.number(3.0) == "3"
