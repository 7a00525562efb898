"""Lincoln: the board and the hands draw from views (hand-built fixtures in the shape of
the Lincoln view contract: start, mid-game, a battle, game over), everything a player
needs is on the board where it should be, nothing hidden is ever drawn, and the
essentials read at Discord's inline preview.

Pixel checks sample the drawn image where a piece must be, and the same spot when the
piece is absent, so each fails if the piece is not drawn."""

from __future__ import annotations

import copy
import io
import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops

from render import _png
from render.common import COLOURS
from render.lincoln import (
    CHOICE,
    HEADER_H,
    HEIGHT,
    MAP_X0,
    MAP_Y0,
    RIGHT_X0,
    RIGHT_X1,
    WIDTH,
    board_card,
    choice_locations,
    draw_board,
    draw_choices,
    draw_hand,
    half_pieces,
    hand_boxes,
    hand_rows,
    headline_parts,
    link_ends,
    location_boxes,
    track_boxes,
)
from render.lincoln_parts import (
    CONTESTED,
    GOLD,
    LAYOUT,
    MAP_H,
    MAP_W,
    NAME_H,
    NEUTRAL_RAIL,
    SEA,
    SIDE,
    SIDE_DARK,
    SIDE_LIGHT,
)

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
STAGES = ("start", "midgame", "battle", "over")
ROLES = ("union", "confederate")
View = dict[str, Any]

LOCATION_IDS = {
    "union": [
        "philadelphia", "harrisburg", "pittsburgh", "cincinnati", "washington",
        "harpers_ferry", "kentucky", "cairo", "st_louis",
    ],
    "confederate": [
        "manassas", "front_royal", "fredericksburg", "richmond", "petersburg", "fort_monroe",
        "wilmington", "charleston", "savannah", "atlanta", "chattanooga", "nashville",
        "fort_henry_donelson", "memphis", "corinth", "vicksburg", "mobile", "new_orleans",
    ],
}  # fmt: skip
ALL_IDS = LOCATION_IDS["union"] + LOCATION_IDS["confederate"]


def _fixture(stage: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / f"lincoln_{stage}.json").read_text())
    return data


def public(stage: str) -> View:
    return copy.deepcopy(_fixture(stage)["public"])


def private(stage: str, role: str) -> View:
    """A role's view: the public view plus what the role's private view adds."""
    data = _fixture(stage)
    return copy.deepcopy({**data["public"], **data["private"][role]})


def rgb(image: Image.Image | None) -> Image.Image:
    assert image is not None
    return image.convert("RGB")


def board(view: View) -> Image.Image:
    return rgb(draw_board(view))


def near(pixel: Any, colour: tuple[int, int, int], tolerance: int = 24) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel[:3], colour, strict=True))


def count_near(
    image: Image.Image, box: tuple[int, int, int, int], colour: Any, tolerance: int = 24
) -> int:
    crop = image.crop(box)
    return sum(n for n, c in crop.getcolors(1 << 20) or [] if near(c, colour, tolerance))


def png_image(data: bytes) -> Image.Image:
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


# ------------------------------------------------------------------ the fixtures


def test_the_fixtures_are_what_they_claim() -> None:
    start, mid, battle, over = (public(s) for s in STAGES)
    for view in (start, mid, battle, over):
        assert sorted(view["locations"]) == sorted(ALL_IDS)
        assert len(view["links"]) > 30
    assert start["turn"]["number"] == 1 and start["last_battle"] is None
    assert not any(loc["contested"] or loc["flag"] for loc in start["locations"].values())
    locs = mid["locations"]
    assert [i for i, loc in locs.items() if loc["contested"]] == ["nashville", "new_orleans"]
    assert {i for i, loc in locs.items() if loc["flag"]} >= {"kentucky", "fort_henry_donelson"}
    forts = [
        u for loc in locs.values() for half in loc["units"] for u in half if u["kind"] == "fort"
    ]
    assert len(forts) == 2
    assert mid["tracks"]["blockade"]["position"] == 3 and mid["tracks"]["europe"]["position"] == 10
    assert mid["last_battle"]["winner"] == "union"
    assert len(private("midgame", "union")["hand"]) == 7
    assert len(private("midgame", "confederate")["hand"]) == 6
    assert battle["battle"]["attacker_card"] == "hidden"
    assert isinstance(private("battle", "union")["battle"]["attacker_card"], dict)
    assert private("battle", "confederate")["battle"]["attacker_card"] == "hidden"
    assert over["outcome"]["winner"] == "confederate"


# ------------------------------------------------------------------ sizes and PNGs


@pytest.mark.parametrize("stage", STAGES)
def test_board_renders_a_small_palette_png(stage: str) -> None:
    data = _png(draw_board(public(stage)))
    image = png_image(data)
    assert image.size == (WIDTH, HEIGHT) == (1200, 1032)
    assert image.mode == "P"
    assert 20_000 < len(data) < 120_000


@pytest.mark.parametrize("stage", STAGES)
def test_hands_render_for_each_player_and_not_for_an_observer(stage: str) -> None:
    assert draw_hand(public(stage)) is None
    for role in ROLES:
        view = private(stage, role)
        data = _png(draw_hand(view))
        image = png_image(data)
        assert image.mode == "P"
        assert 640 <= image.width <= 1200 and 250 <= image.height <= 900
        assert len(data) < 60_000


def test_the_same_view_draws_the_same_board_and_the_log_is_not_drawn() -> None:
    view = public("midgame")
    first = _png(draw_board(view))
    assert _png(draw_board(copy.deepcopy(view))) == first
    other = {**view, "log": ["# Something else", "Entirely different."] * 10}
    assert _png(draw_board(other)) == first


# ------------------------------------------------------------------ map layout


def test_every_location_has_a_place_inside_the_map_and_none_overlap() -> None:
    assert set(LAYOUT) == set(ALL_IDS)
    boxes = location_boxes(public("start"))
    frame = (MAP_X0, MAP_Y0, MAP_X0 + MAP_W, MAP_Y0 + MAP_H)
    for box in boxes.values():
        assert frame[0] <= box[0] and box[2] <= frame[2]
        assert frame[1] <= box[1] and box[3] <= frame[3]
    items = list(boxes.items())
    for i, (a, ba) in enumerate(items):
        for b, bb in items[i + 1 :]:
            apart = ba[2] <= bb[0] or bb[2] <= ba[0] or ba[3] <= bb[1] or bb[3] <= ba[1]
            assert apart, f"{a} overlaps {b}"


def test_the_map_is_laid_out_like_the_eastern_united_states() -> None:
    def y(loc: str) -> int:
        return LAYOUT[loc][1]

    def x(loc: str) -> int:
        return LAYOUT[loc][0]

    pennsylvania = ("philadelphia", "harrisburg", "pittsburgh")
    gulf = ("new_orleans", "mobile", "savannah", "charleston")
    assert max(y(p) for p in pennsylvania) < min(y(c) for c in LOCATION_IDS["confederate"])
    assert min(y(g) for g in gulf) > max(y(u) for u in LOCATION_IDS["union"])
    mississippi = ("st_louis", "cairo", "memphis", "vicksburg", "new_orleans")
    atlantic = ("philadelphia", "washington", "fort_monroe", "wilmington", "charleston")
    assert max(x(m) for m in mississippi) < min(x(a) for a in atlantic)
    # North above south along each front.
    for north, south in [
        ("washington", "manassas"), ("manassas", "richmond"), ("richmond", "petersburg"),
        ("kentucky", "nashville"), ("nashville", "chattanooga"), ("chattanooga", "atlanta"),
        ("cairo", "memphis"), ("memphis", "vicksburg"), ("vicksburg", "new_orleans"),
    ]:  # fmt: skip
        assert y(north) < y(south), (north, south)


def test_an_unknown_location_is_still_placed_on_the_map() -> None:
    view = public("start")
    extra = copy.deepcopy(view["locations"]["kentucky"])
    extra.update(name="Knoxville", xy=[-83.9, 35.96])
    view["locations"]["knoxville"] = extra
    box = location_boxes(view)["knoxville"]
    assert box[0] >= MAP_X0 and box[2] <= MAP_X0 + MAP_W
    assert box[1] >= MAP_Y0 and box[3] <= MAP_Y0 + MAP_H
    board(view)  # and it draws


# ------------------------------------------------------------------ locations


def _army_spot(centre: tuple[int, int]) -> tuple[int, int]:
    return (centre[0] - 7, centre[1] - 7)  # inside the counter, clear of its number


def test_armies_are_drawn_in_the_half_they_stand_in() -> None:
    view = public("midgame")
    image = board(view)
    new_orleans = view["locations"]["new_orleans"]["units"]
    assert [u["side"] for u in new_orleans[0]] == ["confederate"]
    assert [u["side"] for u in new_orleans[1]] == ["union", "union"]
    for half, units in enumerate(new_orleans):
        placed = half_pieces(view, "new_orleans", half)
        assert [(u, n) for _, u, n in placed] == [(u, 1) for u in units]
        for centre, unit, _ in placed:
            assert near(image.getpixel(_army_spot(centre)), SIDE[unit["side"]])
    # With the armies gone, those spots are empty.
    empty = copy.deepcopy(view)
    empty["locations"]["new_orleans"]["units"] = [[], []]
    bare = board(empty)
    for half in (0, 1):
        for centre, _, _ in half_pieces(view, "new_orleans", half):
            assert not any(near(bare.getpixel(_army_spot(centre)), SIDE[s]) for s in ROLES)


def test_a_big_stack_is_drawn_as_one_counter_per_kind_with_its_number() -> None:
    view = public("start")
    army = {"side": "union", "kind": "army"}
    stack = [{**army, "strength": 3}] * 2 + [{**army, "strength": 1}] * 8
    stack.append({"side": "union", "kind": "fort", "strength": 0})
    view["locations"]["washington"]["units"][0] = stack
    placed = half_pieces(view, "washington", 0)
    assert [(u["kind"], u["strength"], n) for _, u, n in placed] == [
        ("army", 1, 8),
        ("army", 3, 2),
        ("fort", 0, 1),
    ]
    half = location_boxes(view)["washington"]
    for (a, _, _), (b, _, _) in itertools.pairwise(placed):
        assert b[0] - a[0] >= 30  # side by side, room for the number between
        assert half[0] < a[0] < b[0] < half[2]
    image = board(view)
    for centre, unit, _ in placed:
        colour = GOLD if unit["kind"] == "fort" else SIDE["union"]
        spot = (centre[0] - 8, centre[1] - 8) if unit["kind"] == "fort" else _army_spot(centre)
        assert near(image.getpixel(spot), colour)
    # The number is drawn: 8 and 7 one-counters differ beside the counter.
    fewer = copy.deepcopy(view)
    fewer["locations"]["washington"]["units"][0] = stack[:2] + stack[3:]
    (x, y), _, _ = placed[0]
    beside = (x + 10, y - 10, x + 30, y + 10)
    assert image.crop(beside).tobytes() != board(fewer).crop(beside).tobytes()


def test_army_strength_is_written_on_the_counter() -> None:
    view = public("start")
    one, three = copy.deepcopy(view), copy.deepcopy(view)
    one["locations"]["washington"]["units"][0][0]["strength"] = 1
    three["locations"]["washington"]["units"][0][0]["strength"] = 3
    centre = half_pieces(view, "washington", 0)[0][0]
    box = (centre[0] - 9, centre[1] - 9, centre[0] + 10, centre[1] + 10)
    assert board(one).crop(box).tobytes() != board(three).crop(box).tobytes()


def test_forts_are_drawn_as_forts() -> None:
    view = public("midgame")
    image = board(view)
    units = view["locations"]["fort_henry_donelson"]["units"][1]
    assert units == [{"side": "union", "kind": "fort", "strength": 0}]
    ((centre, _, _),) = half_pieces(view, "fort_henry_donelson", 1)
    spot = (centre[0] - 8, centre[1] - 8)
    assert near(image.getpixel(spot), GOLD)
    as_army = copy.deepcopy(view)
    as_army["locations"]["fort_henry_donelson"]["units"][1][0]["kind"] = "army"
    assert near(board(as_army).getpixel(spot), SIDE["union"])


def _strip_spot(view: View, loc: str) -> tuple[int, int]:
    box = location_boxes(view)[loc]
    return ((box[0] + box[2]) // 2 + 20, box[1] + 2)


def test_the_name_strip_shows_who_controls_a_location() -> None:
    view = public("start")
    assert view["locations"]["kentucky"]["control"] == "union"
    spot = _strip_spot(view, "kentucky")
    assert near(board(view).getpixel(spot), SIDE["union"])
    taken = copy.deepcopy(view)
    taken["locations"]["kentucky"]["control"] = "confederate"
    assert near(board(taken).getpixel(spot), SIDE["confederate"])
    nobody = copy.deepcopy(view)
    nobody["locations"]["kentucky"]["control"] = None
    assert near(board(nobody).getpixel(spot), COLOURS["paper_dark"])


def _flag_spot(view: View, loc: str) -> tuple[int, int]:
    box = location_boxes(view)[loc]
    base = (box[2] - 24, box[1] + NAME_H - 1)
    return (base[0] + 5, base[1] - 19)


def test_control_flags_are_drawn_in_their_side_colour() -> None:
    view = public("midgame")
    image = board(view)
    assert near(image.getpixel(_flag_spot(view, "fort_henry_donelson")), SIDE["union"])
    assert near(image.getpixel(_flag_spot(view, "kentucky")), SIDE["confederate"])
    unflagged = copy.deepcopy(view)
    unflagged["locations"]["kentucky"]["flag"] = False
    spot = _flag_spot(view, "kentucky")
    assert not near(board(unflagged).getpixel(spot), SIDE["confederate"])


def test_contested_locations_are_ringed_in_red() -> None:
    view = public("midgame")
    image = board(view)
    for loc in ("nashville", "new_orleans"):
        box = location_boxes(view)[loc]
        # Round the box (its VP hex, port and rail links cover a few spots).
        ring = [(box[0] - 2, y) for y in range(box[1] + 4, box[3], 12)]
        ring += [(x, box[3] + 2) for x in range(box[0] + 4, box[2], 12)]
        red = sum(near(image.getpixel(p), CONTESTED) for p in ring)
        assert red >= 0.75 * len(ring), loc
    calm = copy.deepcopy(view)
    calm["locations"]["nashville"]["contested"] = False
    box = location_boxes(view)["nashville"]
    assert not near(board(calm).getpixel((box[0] - 2, (box[1] + box[3]) // 2)), CONTESTED)
    # Uncontested locations have no ring.
    for loc, data in view["locations"].items():
        if not data["contested"]:
            box = location_boxes(view)[loc]
            assert not near(image.getpixel((box[0] - 2, (box[1] + box[3]) // 2)), CONTESTED)


def test_vp_hexes_and_ports_are_drawn() -> None:
    view = public("start")
    image = board(view)
    for loc, data in view["locations"].items():
        box = location_boxes(view)[loc]
        hex_spot = (box[0] + 2, box[1] - 6)
        assert near(image.getpixel(hex_spot), GOLD) == (data["vp"] > 0), loc
        port = (box[2] - 12, box[3] - 12, box[2] + 10, box[3] + 10)
        sea = count_near(image, port, SEA)
        if data["port"]:
            assert sea > 80, loc
    nashville = location_boxes(view)["nashville"]
    assert (
        count_near(
            image, (nashville[2] - 12, nashville[3] - 12, nashville[2] + 10, nashville[3] + 10), SEA
        )
        < 20
    )
    assert view["locations"]["nashville"]["port"] is False
    no_vp = copy.deepcopy(view)
    no_vp["locations"]["richmond"]["vp"] = 0
    box = location_boxes(view)["richmond"]
    assert not near(board(no_vp).getpixel((box[0] + 2, box[1] - 6)), GOLD)


def test_supply_sources_carry_a_star() -> None:
    view = public("start")
    sources = [i for i, loc in view["locations"].items() if loc["supply_source"]]
    assert "washington" in sources and "richmond" in sources
    box = location_boxes(view)["washington"]
    strip = (box[0], box[1], box[2], box[1] + NAME_H)
    plain = copy.deepcopy(view)
    plain["locations"]["washington"]["supply_source"] = False
    assert count_near(board(view), strip, GOLD) > 30
    assert count_near(board(plain), strip, GOLD) == 0


def test_the_top_three_carry_a_no_entry_sign() -> None:
    view = public("start")
    top = [i for i, loc in view["locations"].items() if loc["top_three"]]
    assert sorted(top) == ["harrisburg", "philadelphia", "pittsburgh"]
    image = board(view)
    for loc in view["locations"]:
        box = location_boxes(view)[loc]
        corner = (box[0] - 6, box[3] - 8, box[0] + 10, box[3] + 6)
        assert (count_near(image, corner, CONTESTED) > 40) == (loc in top), loc


def test_the_battle_location_and_half_are_marked() -> None:
    view = public("battle")
    box = location_boxes(view)["richmond"]
    spot = (box[0] - 6, (box[1] + box[3]) // 2)
    assert near(board(view).getpixel(spot), GOLD)
    assert not near(board(public("midgame")).getpixel(spot), GOLD)


# ------------------------------------------------------------------ rail links


def _rail_colour(colour: str) -> tuple[int, int, int]:
    return SIDE.get(colour, NEUTRAL_RAIL)


def _points(view: View, link: dict[str, Any]) -> list[tuple[int, int]]:
    a, b = link_ends(view, link)
    return [
        (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t))
        for t in (0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85)
    ]


def test_rail_links_are_drawn_in_their_colours() -> None:
    view = public("start")
    image = board(view)
    colours = {link["colour"] for link in view["links"]}
    assert colours == {"union", "confederate", "neutral"}
    for link in view["links"]:
        points = _points(view, link)
        assert any(near(image.getpixel(p), _rail_colour(link["colour"])) for p in points), link
    # Recolouring one link recolours its line.
    recoloured = copy.deepcopy(view)
    link = next(lk for lk in recoloured["links"] if lk["colour"] == "neutral")
    link["colour"] = "union"
    after = board(recoloured)
    assert any(near(after.getpixel(p), SIDE["union"], 10) for p in _points(view, link))
    assert not any(near(image.getpixel(p), SIDE["union"], 10) for p in _points(view, link))


def test_links_meet_the_half_they_join() -> None:
    view = public("start")
    boxes = location_boxes(view)
    for link in view["links"]:
        for end, loc, half in zip(
            link_ends(view, link),
            (link["a"], link["b"]),
            (link["a_half"], link["b_half"]),
            strict=True,
        ):
            box = boxes[loc]
            halves = view["locations"][loc]["halves"]
            if halves[0] in ("West", "East"):
                mid = (box[0] + box[2]) // 2
                assert (end[0] < mid) == (half == 0), (link, loc)
            else:
                mid = (box[1] + NAME_H + box[3]) // 2
                assert (end[1] < mid) == (half == 0), (link, loc)


def test_rail_modifiers_are_shown_on_their_links() -> None:
    view = public("start")
    image = board(view)
    modified = [lk for lk in view["links"] if lk["modifier"]]
    assert modified
    for link in modified:
        a, b = link_ends(view, link)
        mid = ((a[0] + b[0]) // 2, (a[1] + b[1]) // 2 + 8)
        assert near(image.getpixel(mid), COLOURS["white"], 10), link
    plain = copy.deepcopy(view)
    for link in plain["links"]:
        link["modifier"] = 0
    bare = board(plain)
    for link in modified:
        a, b = link_ends(view, link)
        mid = ((a[0] + b[0]) // 2, (a[1] + b[1]) // 2 + 8)
        assert not near(bare.getpixel(mid), COLOURS["white"], 10) or not near(
            bare.getpixel((mid[0], mid[1] - 16)), COLOURS["white"], 10
        )


# ------------------------------------------------------------------ tracks and panels


@pytest.mark.parametrize("track", ["blockade", "europe"])
def test_track_markers_stand_on_their_space(track: str) -> None:
    view = public("midgame")
    spaces = view["tracks"][track]["spaces"]
    boxes = track_boxes(view, track)
    assert len(boxes) == len(spaces)
    for position in (0, len(spaces) - 1, view["tracks"][track]["position"]):
        moved = copy.deepcopy(view)
        moved["tracks"][track]["position"] = position
        image = board(moved)
        for i, box in enumerate(boxes):
            spot = (box[0] + 6, box[1] + 6)
            assert near(image.getpixel(spot), GOLD) == (i == position), (position, i)


def test_every_europe_space_is_labelled() -> None:
    view = public("start")
    box = track_boxes(view, "europe")[3]
    changed = copy.deepcopy(view)
    changed["tracks"]["europe"]["spaces"][3] = "9"
    assert board(view).crop(box).tobytes() != board(changed).crop(box).tobytes()


def test_the_status_line_is_in_the_footer() -> None:
    view = public("midgame")
    footer = (0, HEIGHT - 30, WIDTH, HEIGHT)
    changed = {**view, "status": "Waiting for Confederate."}
    assert board(view).crop(footer).tobytes() != board(changed).crop(footer).tobytes()


def test_every_blockade_space_says_what_it_means() -> None:
    view = public("start")
    box = track_boxes(view, "blockade")[2]
    changed = copy.deepcopy(view)
    changed["tracks"]["blockade"]["spaces"][2]["hand_size"] = 9
    assert board(view).crop(box).tobytes() != board(changed).crop(box).tobytes()
    changed = copy.deepcopy(view)
    changed["tracks"]["blockade"]["spaces"][2]["union_vp"] = 7
    assert board(view).crop(box).tobytes() != board(changed).crop(box).tobytes()


PANEL = (RIGHT_X0, MAP_Y0, RIGHT_X1, MAP_Y0 + 280)


@pytest.mark.parametrize(
    ("role", "key", "value"),
    [
        ("union", "deck", 3),
        ("union", "discard", 30),
        ("confederate", "removed", 11),
        ("confederate", "hand", 2),
        ("union", "reshuffles", 2),
    ],
)
def test_pile_counts_are_drawn(role: str, key: str, value: int) -> None:
    view = public("midgame")
    changed = copy.deepcopy(view)
    changed["piles"][role][key] = value
    assert board(view).crop(PANEL).tobytes() != board(changed).crop(PANEL).tobytes()


def test_the_i_and_ii_cards_show_waiting_or_added() -> None:
    view = public("start")
    added = copy.deepcopy(view)
    added["piles"]["confederate"]["waves"]["II"] = "added"
    before = count_near(board(view), PANEL, COLOURS["green"])
    after = count_near(board(added), PANEL, COLOURS["green"])
    assert before == 0 and after > 100


def test_stock_is_drawn() -> None:
    view = public("start")
    changed = copy.deepcopy(view)
    changed["stock"]["union"]["forts"] = 0
    assert board(view).crop(PANEL).tobytes() != board(changed).crop(PANEL).tobytes()


RIGHT_REST = (RIGHT_X0, MAP_Y0 + 280, RIGHT_X1, MAP_Y0 + MAP_H - 130)


def test_the_last_battle_is_drawn() -> None:
    view = public("midgame")
    none = copy.deepcopy(view)
    none["last_battle"] = None
    lost = copy.deepcopy(view)
    lost["last_battle"]["winner"] = "confederate"
    drawn = board(view).crop(RIGHT_REST)
    assert drawn.tobytes() != board(none).crop(RIGHT_REST).tobytes()
    assert count_near(drawn, (0, 0, *drawn.size), SIDE["union"]) > 200
    other = board(lost).crop(RIGHT_REST)
    assert count_near(other, (0, 0, *other.size), SIDE["confederate"]) > 200


def test_the_result_is_drawn_once_the_game_is_over() -> None:
    view = public("over")
    playing = copy.deepcopy(view)
    playing["outcome"] = None
    header = (0, 0, WIDTH, HEADER_H)
    assert board(playing).crop(header).tobytes() != board(view).crop(header).tobytes()
    right = (RIGHT_X0, MAP_Y0 + 300, RIGHT_X1, MAP_Y0 + 420)
    assert count_near(board(view), right, SIDE_DARK["confederate"]) > 5_000
    assert count_near(board(playing), right, SIDE_DARK["confederate"]) < 1_000


# ------------------------------------------------------------------ the header at preview size

PREVIEW_W = 400


def _preview(image: Image.Image) -> Image.Image:
    height = round(image.height * PREVIEW_W / image.width)
    return image.convert("L").resize((PREVIEW_W, height), Image.Resampling.LANCZOS)


def _set(path: str, value: Any) -> Any:
    def change(view: View) -> None:
        *keys, last = path.split(".")
        target = view
        for key in keys:
            target = target[key]
        target[last] = value

    return change


HEADER_CHANGES = {
    "turn number": _set("turn.number", 17),
    "actions left": _set("turn.actions_left", 2),
    "whose turn": _set("turn.player", "confederate"),
    "who must act": _set("active", ["confederate"]),
    "union vp": _set("vp.union", 11),
    "the result": _set("outcome", {"winner": "union", "reason": "Richmond and Vicksburg"}),
}


@pytest.mark.parametrize("what", list(HEADER_CHANGES))
def test_the_essentials_read_at_discords_inline_preview(what: str) -> None:
    """As render's headline test asks of every board: shrunk to 400 px wide as Discord
    shows it, each essential changed alone changes the top band only, in glyphs at least
    8 px tall there."""
    view = public("midgame")
    assert view["turn"] == {"number": 7, "player": "union", "actions_left": 1}
    assert view["active"] == ["union"] and view["outcome"] is None
    changed = copy.deepcopy(view)
    HEADER_CHANGES[what](changed)
    before, after = draw_board(view), draw_board(changed)
    diff = ImageChops.difference(_preview(before), _preview(after)).point(
        lambda v: 255 if v > 60 else 0
    )
    top = diff.crop((0, 0, PREVIEW_W, round(HEADER_H * PREVIEW_W / WIDTH) + 1)).getbbox()
    assert top is not None, f"{what} cannot be seen in the band at 400 px"
    assert top[3] - top[1] >= 8, f"{what} is only {top[3] - top[1]} px tall at 400 px"


def test_the_headline_says_whose_turn_and_how_many_actions_are_left() -> None:
    view = public("midgame")
    assert headline_parts(view) == (
        "Turn 7",
        [("Union 4 VP", GOLD), ("Union: 1 action left", SIDE_LIGHT["union"])],
        "",
    )
    battle = headline_parts(public("battle"))
    assert battle[1][1][0] == "Union: 0 actions left" and battle[2] == "Confederate to act"
    over = headline_parts(public("over"))
    assert over[0] == "Game over" and over[1][1][0] == "Confederate wins"
    stripe = (0, HEADER_H - 4, WIDTH, HEADER_H)
    assert count_near(board(view), stripe, SIDE["union"]) > 4_000
    theirs = copy.deepcopy(view)
    theirs["turn"]["player"] = "confederate"
    assert count_near(board(theirs), stripe, SIDE["confederate"]) > 4_000


# ------------------------------------------------------------------ choices


def test_the_locations_a_prompt_offers_are_ringed() -> None:
    view = private("midgame", "union")
    view["actions"] = {"to": ["manassas", "front_royal"], "attack": ["nashville"], "undo": [True]}
    assert choice_locations(view) == ["manassas", "front_royal", "nashville"]
    image = rgb(draw_choices(view))
    plain = board(view)
    boxes = location_boxes(view)
    for loc in boxes:
        x0, y0, x1, _ = boxes[loc]
        edge = (x0 - 6, y0 - 6, x1 + 6, y0 - 2)
        ringed = count_near(image, edge, CHOICE, 12)
        assert (ringed > 200) == (loc in choice_locations(view)), loc
        assert count_near(plain, edge, CHOICE, 12) < 50


def test_no_choice_board_for_a_prompt_not_about_the_map() -> None:
    view = private("midgame", "union")
    view["actions"] = {"card": ["U01", "U02"], "pass": [True], "half": [0, 1]}
    assert choice_locations(view) == []
    assert draw_choices(view) is None
    assert draw_choices(public("midgame")) is None


# ------------------------------------------------------------------ hidden information


def test_every_role_sees_the_board_an_observer_sees() -> None:
    for stage in STAGES:
        shown = _png(draw_board(public(stage)))
        for role in ROLES:
            assert _png(draw_board(private(stage, role))) == shown, (stage, role)


def test_a_face_down_battle_card_is_never_drawn_on_the_board() -> None:
    view = public("battle")
    assert view["battle"]["attacker_card"] == "hidden"
    shown = _png(draw_board(view))
    hand = private("midgame", "union")["hand"]
    own = private("battle", "union")
    assert isinstance(own["battle"]["attacker_card"], dict)
    for card in hand[:4]:
        # Whatever the attacker's card is, its owner's board is the observer's board.
        other = copy.deepcopy(own)
        other["battle"]["attacker_card"] = card
        assert _png(draw_board(other)) == shown
        assert board_card(other, other["battle"], "union") == "hidden"


def test_revealed_battle_cards_are_drawn_face_up() -> None:
    view = public("battle")
    union_hand = private("midgame", "union")["hand"]
    confederate_hand = private("midgame", "confederate")["hand"]
    revealed = copy.deepcopy(view)
    revealed["battle"]["attacker_card"] = union_hand[0]
    revealed["battle"]["defender_card"] = confederate_hand[0]
    other = copy.deepcopy(revealed)
    other["battle"]["attacker_card"] = union_hand[2]
    hidden = _png(draw_board(view))
    assert _png(draw_board(revealed)) != hidden
    assert _png(draw_board(other)) != _png(draw_board(revealed))
    # Face up for everyone once both are face up, the players' own views included.
    for role in ROLES:
        mine = {**revealed, "role": role}
        assert _png(draw_board(mine)) == _png(draw_board(revealed))


BATTLE_PANEL = (RIGHT_X0, MAP_Y0 + 300, RIGHT_X1, MAP_Y0 + 480)


def test_the_battle_panel_shows_the_attacking_force_and_the_totals() -> None:
    view = public("battle")
    assert len(view["battle"]["attackers"]) == 5
    fewer = copy.deepcopy(view)
    fewer["battle"]["attackers"] = fewer["battle"]["attackers"][:1]
    image = board(view)
    assert count_near(image, BATTLE_PANEL, SIDE["union"]) > count_near(
        board(fewer), BATTLE_PANEL, SIDE["union"]
    )
    totals = copy.deepcopy(view)
    totals["battle"].update(totals={"union": 9, "confederate": 6}, winner="union")
    other = copy.deepcopy(totals)
    other["battle"]["totals"] = {"union": 4, "confederate": 6}
    assert board(totals).crop(BATTLE_PANEL).tobytes() != image.crop(BATTLE_PANEL).tobytes()
    assert board(totals).crop(BATTLE_PANEL).tobytes() != board(other).crop(BATTLE_PANEL).tobytes()


def test_a_card_revealed_against_no_card_is_face_up_for_everyone() -> None:
    # The defender had no card to play: once the totals are known, the attacker's card
    # is face up on every board, its owner's included.
    view = public("battle")
    card = private("battle", "union")["battle"]["attacker_card"]
    view["battle"].update(attacker_card=card, totals={"union": 9, "confederate": 6})
    shown = _png(draw_board(view))
    assert shown != _png(
        draw_board({**view, "battle": {**view["battle"], "attacker_card": "hidden"}})
    )
    for role in ROLES:
        assert _png(draw_board({**view, "role": role})) == shown


def test_the_board_does_not_read_the_hand() -> None:
    view = private("midgame", "union")
    other = {**view, "hand": private("midgame", "confederate")["hand"]}
    assert _png(draw_board(view)) == _png(draw_board(other)) == _png(draw_board(public("midgame")))


# ------------------------------------------------------------------ hands


def test_every_card_in_hand_is_drawn_with_its_side_top_item_cost_icons_and_text() -> None:
    view = private("midgame", "union")
    placed = hand_boxes(view)
    assert [card["id"] for card, _ in placed] == [card["id"] for card in view["hand"]]
    image = rgb(draw_hand(view))
    assert image.width <= 1200
    for card, box in placed:
        x0, y0, x1, y1 = box
        assert x1 <= image.width and y1 <= image.height
        assert near(image.getpixel((x1 - 12, y0 + 10)), SIDE["union"])  # the name strip
        # The top item's icon box: an army is a square in the side's colour.
        icon = (x0 + 10, y0 + 50, x0 + 56, y0 + 96)
        if card["top"]["kind"] == "army":
            assert count_near(image, icon, SIDE["union"]) > 400
        elif card["top"]["kind"] == "none":
            assert count_near(image, icon, SIDE["union"]) == 0
    assert {c["top"]["kind"] for c in view["hand"]} >= {"army", "none", "ship"}


@pytest.mark.parametrize(
    "change",
    [
        ("top", "cost", 3),
        ("top", "strength", 3),
        ("icons", "leadership", 3),
        ("icons", "train", False),
        ("icons", "naval", True),
        (None, "text", "A different text altogether."),
        (None, "timing", "free"),
        (None, "name", "Somebody Else"),
        (None, "wave", "II"),
    ],
)
def test_each_part_of_a_card_is_drawn(change: tuple[str | None, str, Any]) -> None:
    view = private("midgame", "union")
    where, key, value = change
    card = view["hand"][0]
    assert card["top"]["kind"] == "army" and card["icons"]["train"] is True
    changed = copy.deepcopy(view)
    target = changed["hand"][0] if where is None else changed["hand"][0][where]
    assert target[key] != value
    target[key] = value
    box = hand_boxes(view)[0][1]
    before = rgb(draw_hand(view)).crop(box)
    after = rgb(draw_hand(changed)).crop(box)
    assert before.tobytes() != after.tobytes()


@pytest.mark.parametrize(
    ("cards", "rows"), [(1, [1]), (5, [5]), (6, [3, 3]), (7, [4, 3]), (11, [4, 4, 3])]
)
def test_hand_rows_are_even(cards: int, rows: list[int]) -> None:
    view = private("midgame", "union")
    view["hand"] = (view["hand"] * 2)[:cards]
    assert [len(row) for _, row in hand_rows(view)] == rows


def test_an_own_battle_card_shows_in_its_owners_hand_only() -> None:
    union = private("battle", "union")
    placed = hand_boxes(union)
    assert len(placed) == len(union["hand"]) + 1
    assert placed[-1][0] == union["battle"]["attacker_card"]
    confederate = private("battle", "confederate")
    assert len(hand_boxes(confederate)) == len(confederate["hand"])
    without = copy.deepcopy(union)
    without["battle"] = None
    assert rgb(draw_hand(union)).height > rgb(draw_hand(without)).height


def test_an_empty_hand_still_draws() -> None:
    view = private("start", "union")
    view["hand"] = []
    image = rgb(draw_hand(view))
    assert image.width >= 640 and hand_boxes(view) == []


# ------------------------------------------------------------------ with the engine


def _same_pixels(one: Image.Image, other: Image.Image) -> bool:
    return (one.mode, one.size) == (other.mode, other.size) and one.tobytes() == other.tobytes()


def test_boards_and_hands_draw_through_a_whole_engine_game() -> None:
    """Once the Lincoln engine is present (it is written on another branch), its views
    draw at every few steps of a game with the automated player, and every role's board
    is the observer's."""
    lincoln = pytest.importorskip("rules.lincoln")
    from rules import get_game

    del lincoln
    game = get_game("lincoln")
    choose = game.automated_player()
    assert choose is not None
    state = game.setup(seed=11)
    steps = 0
    while True:
        over = game.outcome(state) is not None
        if steps % 7 == 0 or over or state.get("battle"):
            view = game.view(state, None)
            board = draw_board(view)
            shown = _png(board)
            for role in ROLES:
                mine = game.view(state, role)
                # Pixel for pixel the same picture has the same PNG: only a board that
                # differs is encoded to compare the PNGs (the encoding is most of the time).
                drawn = draw_board(mine)
                assert _same_pixels(drawn, board) or _png(drawn) == shown
                assert draw_hand(mine) is not None
        if over or steps > 600:
            break
        role = game.active_roles(state)[0]
        state = game.act(state, role, *choose(game, game.view(state, role)))
        steps += 1
    assert steps > 20


def _drawn_text(monkeypatch: pytest.MonkeyPatch, view: dict[str, Any]) -> list[str]:
    """Every line of text ``draw_board`` draws for ``view``."""
    import render.lincoln
    import render.lincoln_parts

    seen: list[str] = []
    for module in (render.lincoln, render.lincoln_parts):
        original = module.text

        def record(draw: Any, xy: Any, content: str, *args: Any, _o: Any = original) -> None:
            seen.append(content)
            _o(draw, xy, content, *args)

        monkeypatch.setattr(module, "text", record)
    board(view)
    return seen


@pytest.mark.parametrize("kept", [True, False])
def test_a_withdrawal_is_not_drawn_as_a_battle_won_0_to_0(
    monkeypatch: pytest.MonkeyPatch, kept: bool
) -> None:
    """After the defender withdrew, the last battle box read "Union
    won · Union 0 - Confederate 0". It must say the defender withdrew, with no score (also
    for a state saved before the view said whether the battle was fought: ``kept``)."""
    view = public("midgame")
    view["last_battle"] = {
        "location": view["last_battle"]["location"],
        "attacker": "union",
        "winner": "union",
        "totals": {"union": 0, "confederate": 0},
        "losses": {"union": 0, "confederate": 0},
        "europe": 0,
        "text": "Confederate withdrew; Union takes the half.",
        "cards": {"union": None, "confederate": None},
    }
    if kept:
        view["last_battle"]["fought"] = False
    drawn = " | ".join(_drawn_text(monkeypatch, view))
    assert "Union 0 - Confederate 0" not in drawn and "Union won" not in drawn
    assert "Confederate withdrew" in drawn
