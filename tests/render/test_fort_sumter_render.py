"""Fort Sumter: boards and hands render to sensible PNGs from views at every stage of a
game, the public board shows nothing hidden, and what is drawn follows the view."""

from __future__ import annotations

import copy
import io
from typing import Any

import pytest
from PIL import Image

from render import board_png, hand_png
from render.fort_sumter import draw_board, draw_hand, space_boxes, token_centre
from render.fort_sumter_parts import PC_FILL, SIDE
from rules import get_game
from rules.fort_sumter.strategy import choose

GAME = get_game("fort_sumter")
ROLES = ("unionist", "secessionist")
State = dict[str, Any]


def _play(seed: int, until: Any, limit: int = 5000) -> State:
    """Play with the automated player until ``until(state)`` holds (or the game ends)."""
    state = GAME.setup(seed=seed)
    for _ in range(limit):
        if until(state) or GAME.outcome(state) is not None:
            return state
        role = GAME.active_roles(state)[0]
        GAME.act(state, role, *choose(GAME, GAME.view(state, role)))
    raise AssertionError("the stage never came")


def _stages() -> dict[str, State]:
    return {
        "set-up": GAME.setup(seed=7),
        "mid-round": _play(
            7, lambda s: s["peace_commissioner"] is not None and s["step"] == "play_cards"
        ),
        "round end": _play(7, lambda s: s["revealed_objectives"] is not None),
        "final crisis order": _play(
            7,
            lambda s: (
                s["phase"] == "final_crisis" and s["final_crisis"]["order"]["unionist"] is not None
            ),
        ),
        "final crisis": _play(
            7, lambda s: s["phase"] == "final_crisis" and s["final_crisis"]["pair"] == 2
        ),
        "game over": _play(7, lambda s: False),
    }


STAGES = _stages()


def _image(data: bytes) -> Image.Image:
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def test_the_stages_are_what_they_claim() -> None:
    views = {name: GAME.view(state, None) for name, state in STAGES.items()}
    assert views["set-up"]["step"] == "choose_objective"
    mid = views["mid-round"]
    assert mid["peace_commissioner"] and sum(s["tokens"]["unionist"] for s in mid["spaces"]) > 0
    assert views["round end"]["revealed_objectives"] is not None
    assert views["final crisis"]["final_crisis"]["revealed"]["unionist"]
    assert views["game over"]["outcome"] is not None


@pytest.mark.parametrize("stage", list(STAGES))
def test_board_renders_a_sensible_png(stage: str) -> None:
    data = board_png("fort_sumter", GAME.view(STAGES[stage], None))
    image = _image(data)
    assert image.size == (1200, 812)
    assert image.mode == "P"  # quantised by render._png
    assert 10_000 < len(data) < 150_000


@pytest.mark.parametrize("stage", list(STAGES))
def test_hand_renders_for_each_player(stage: str) -> None:
    for role in ROLES:
        view = GAME.view(STAGES[stage], role)
        data = hand_png("fort_sumter", view)
        assert data is not None
        image = _image(data)
        assert image.mode == "P"
        assert 600 <= image.width <= 1200 and 250 <= image.height <= 900
        assert len(data) < 100_000


@pytest.mark.parametrize("stage", list(STAGES))
def test_no_hand_for_the_public_view(stage: str) -> None:
    view = GAME.view(STAGES[stage], None)
    assert draw_hand(view) is None
    assert hand_png("fort_sumter", view) is None


def _reshuffle_secrets(state: State) -> State:
    """The same public position with different hidden cards: every hand, set-aside card,
    objective and Final Crisis order swapped with unseen cards from the decks."""
    other = copy.deepcopy(state)
    deck = other["strategy_deck"]
    objectives = other["objective_deck"]
    taken = 0

    def swap_strategy(cards: list[str]) -> None:
        nonlocal taken
        for i in range(len(cards)):
            cards[i], deck[taken] = deck[taken], cards[i]
            taken += 1

    for role in ROLES:
        swap_strategy(other["hands"][role])
        swap_strategy(other["set_aside"][role])
        fc = other["final_crisis"]
        if fc is not None and fc["order"][role]:
            swap_strategy(fc["order"][role])
    kept = 0
    for role in ROLES:
        offer = other["objective_offer"][role]
        for i in range(len(offer)):
            offer[i], objectives[kept] = objectives[kept], offer[i]
            kept += 1
        if other["objective"][role]:
            other["objective"][role], objectives[kept] = objectives[kept], other["objective"][role]
            kept += 1
    return other


@pytest.mark.parametrize("stage", ["set-up", "mid-round", "final crisis order"])
def test_public_board_is_the_same_whatever_is_hidden(stage: str) -> None:
    state = STAGES[stage]
    other = _reshuffle_secrets(state)
    # The secrets really differ...
    assert GAME.view(state, "unionist")["hand"] != GAME.view(other, "unionist")["hand"] or (
        GAME.view(state, "unionist")["final_crisis_order"]
        != GAME.view(other, "unionist")["final_crisis_order"]
    )
    assert GAME.view(state, "unionist") != GAME.view(other, "unionist")
    # ...and the board does not show them, even drawn from a view that carries them.
    assert GAME.view(state, None) == GAME.view(other, None)
    public = board_png("fort_sumter", GAME.view(state, None))
    assert board_png("fort_sumter", GAME.view(other, None)) == public
    for role in ROLES:
        assert board_png("fort_sumter", GAME.view(other, role)) == public


@pytest.mark.parametrize("stage", ["mid-round", "final crisis"])
def test_every_role_sees_the_same_board(stage: str) -> None:
    state = STAGES[stage]
    public = board_png("fort_sumter", GAME.view(state, None))
    for role in ROLES:
        assert board_png("fort_sumter", GAME.view(state, role)) == public


def _near(pixel: Any, colour: tuple[int, int, int], tolerance: int = 24) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel[:3], colour, strict=True))


def test_tokens_in_a_space_are_drawn_as_discs() -> None:
    view = GAME.view(STAGES["set-up"], None)
    with_tokens = copy.deepcopy(view)
    space = next(s for s in with_tokens["spaces"] if s["id"] == "fort_sumter")
    space["tokens"] = {"unionist": 3, "secessionist": 0}
    box = space_boxes(view)["fort_sumter"]
    empty = draw_board(view)
    full = draw_board(with_tokens)
    for i in range(4):
        centre = token_centre(box, "unionist", i)
        assert not _near(empty.getpixel(centre), SIDE["unionist"])
        assert _near(full.getpixel(centre), SIDE["unionist"]) == (i < 3)
    centre = token_centre(box, "secessionist", 0)
    assert not _near(full.getpixel(centre), SIDE["secessionist"])


def test_the_peace_commissioner_stands_in_its_space() -> None:
    view = GAME.view(STAGES["mid-round"], None)
    where = view["peace_commissioner"]
    image = draw_board(view)
    boxes = space_boxes(view)

    def has_meeple(space_id: str) -> bool:
        crop = image.crop(boxes[space_id])
        return any(_near(c, PC_FILL, 6) for _, c in crop.getcolors(1 << 16) or [])

    assert has_meeple(where)
    assert not any(has_meeple(s) for s in boxes if s != where)


@pytest.mark.parametrize("seed", [3, 12])
def test_every_position_of_a_game_draws(seed: int) -> None:
    """Boards and hands draw at every step of whole games (Event Discard on, so claimable
    cards appear too); the same view always draws the same board."""
    state = GAME.setup(seed=seed, options={"event_discard": True})
    seen_claimable = False
    steps = 0
    while True:
        public = GAME.view(state, None)
        seen_claimable |= public["claimable"] is not None
        if steps % 4 == 0 or public["claimable"] or public["outcome"]:
            assert draw_board(public).size == (1200, 812)
            for role in ROLES:
                hand = draw_hand(GAME.view(state, role))
                assert hand is not None and hand.width <= 1200
        if GAME.outcome(state) is not None:
            break
        role = GAME.active_roles(state)[0]
        GAME.act(state, role, *choose(GAME, GAME.view(state, role)))
        steps += 1
    assert steps > 50 and seen_claimable


def test_a_prompt_about_places_shows_the_board_with_exactly_its_choices_ringed() -> None:
    """A placement prompt shows the current board, choices marked."""
    from render import choices_png
    from render.fort_sumter import CHOICE, draw_choices

    state = _play(4, lambda s: s["step"] == "play_cards")
    state["peace_commissioner"] = "texas"  # no token may be placed there
    role = GAME.active_roles(state)[0]
    card_prompt = GAME.view(state, role)
    assert draw_choices(card_prompt) is None  # choosing a card: the hand, not the map
    state = GAME.act(state, role, "value", card_prompt["actions"]["value"][0])
    view = GAME.view(state, role)
    offered = set(view["actions"]["place"])
    assert 0 < len(offered) < 12
    image = draw_choices(view)
    assert image is not None and image.size == draw_board(view).size
    for space, (x0, y0, x1, _) in space_boxes(view).items():
        ring = image.getpixel(((x0 + x1) // 2, y0 - 2))
        assert (ring == CHOICE) == (space in offered), space
    data = choices_png("fort_sumter", view)
    assert data is not None and data.startswith(b"\x89PNG")


def test_the_game_over_headline_is_not_cut_short() -> None:
    """The status "Unionist won: tied on VP; controls Fort Sumter" was cut to
    "...controls Fort Su..." in the top band. Its last word must reach the image: a
    status differing only there draws a different band."""
    view = GAME.view(STAGES["game over"], None)
    view["outcome"] = {"winner": "unionist", "reason": "tied on VP; controls Fort Sumter"}
    view["score"] = {"unionist": 10, "secessionist": 10}
    tied = dict(view, status="Unionist won: tied on VP; controls Fort Sumter")
    other = dict(view, status="Unionist won: tied on VP; controls Fort Sumtex")
    band = (0, 0, 1200, 64)
    assert draw_board(tied).crop(band).tobytes() != draw_board(other).crop(band).tobytes()
