"""War Between the States: boards and hands render to sensible PNGs from views, and the
public board shows nothing of a face-down reinforcement or a hand card."""

from __future__ import annotations

import copy
import io
from typing import Any

import pytest
from PIL import Image

from render import board_png, hand_png
from rules.war import GAME
from rules.war.strategy import choose

State = dict[str, Any]


def _play(seed: int, until: Any, limit: int = 5000) -> State:
    """Play with the policy until ``until(state)`` holds (or the game ends)."""
    state = GAME.setup(seed=seed)
    for _ in range(limit):
        if until(state) or GAME.outcome(state) is not None:
            return state
        role = GAME.active_roles(state)[0]
        verb, arg = choose(GAME, GAME.view(state, role))
        GAME.act(state, role, verb, arg)
    raise AssertionError("the stage never came")


def _image(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def _stages() -> dict[str, State]:
    return {
        "opening": GAME.setup(seed=7),
        "placing": _play(3, lambda s: s["step"] == "position" and s["sides"]["union"]["placed"]),
        "event choice": _play(7, lambda s: s["step"] == "event" and s["battle"] > 1),
        "late war": _play(5, lambda s: s["battle"] >= 10 and s["step"] == "position"),
        "finished": _play(9, lambda s: False),
    }


STAGES = _stages()


@pytest.mark.parametrize("stage", sorted(STAGES))
def test_board_renders_a_sensible_png(stage: str) -> None:
    data = board_png("war", GAME.view(STAGES[stage], None))
    assert data.startswith(b"\x89PNG")
    image = _image(data)
    assert image.width == 1120
    assert 450 <= image.height <= 1600
    assert 5_000 < len(data) < 150_000


@pytest.mark.parametrize("stage", sorted(STAGES))
def test_hand_renders_for_a_player_with_reinforcements(stage: str) -> None:
    state = STAGES[stage]
    for role in GAME.roles:
        view = GAME.view(state, role)
        data = hand_png("war", view)
        if view["hand"] or view["placements"]:
            assert data is not None
            image = _image(data)
            assert 500 <= image.width <= 1200 and 150 <= image.height <= 500
            assert len(data) < 60_000
        else:
            assert data is None
    assert hand_png("war", GAME.view(state, None)) is None


def test_finished_board_shows_the_outcome_stage() -> None:
    state = STAGES["finished"]
    assert GAME.outcome(state) is not None
    assert GAME.view(state, None)["outcome"] == GAME.outcome(state)


def _swap_hidden(state: State, role: str) -> State:
    """The same state, except that ``role``'s hidden cards (face-down placements and hand)
    are exchanged with cards from its deck: what nobody else may know has changed."""
    other = copy.deepcopy(state)
    here = other["sides"][role]
    hidden = [p[1] for p in here["placed"]] + list(here["hand"])
    assert hidden and len(here["deck"]) >= len(hidden)
    replacements = here["deck"][: len(hidden)]
    here["deck"][: len(hidden)] = hidden
    for placement in here["placed"]:
        placement[1] = replacements.pop(0)
    here["hand"] = [replacements.pop(0) for _ in here["hand"]]
    assert GAME.invariants(other) == []
    return other


def test_public_board_never_shows_face_down_reinforcements_or_hand_cards() -> None:
    state = STAGES["placing"]
    assert state["sides"]["union"]["placed"]
    swapped = _swap_hidden(state, "union")
    for viewer in (None, "confederate"):
        # Changing which cards the Union holds and placed changes nothing the others see.
        assert board_png("war", GAME.view(state, viewer)) == board_png(
            "war", GAME.view(swapped, viewer)
        )
    # ... while the Union's own hand image does show them.
    assert hand_png("war", GAME.view(state, "union")) != hand_png(
        "war", GAME.view(swapped, "union")
    )


def test_face_down_placements_are_drawn_as_a_count() -> None:
    state = STAGES["placing"]
    view = GAME.view(state, None)
    placed = len(state["sides"]["union"]["placed"])
    assert view["sides"]["union"]["placed"] == placed
    names = {c["name"] for c in GAME.view(state, "union")["hand"]}
    names |= {p["card"]["name"] for p in GAME.view(state, "union")["placements"]}
    text = repr(view)
    assert not any(name in text for name in names)


def _texts(monkeypatch: pytest.MonkeyPatch, draw: Any, view: dict[str, Any]) -> str:
    """All the text ``draw(view)`` puts on its image, joined."""
    from PIL import ImageDraw

    import render.war

    seen: list[str] = []
    original_text, original_draw = render.war.text, ImageDraw.ImageDraw.text

    def through_common(d: Any, xy: Any, content: str, *args: Any) -> None:
        seen.append(content)
        original_text(d, xy, content, *args)

    def through_pillow(self: Any, xy: Any, content: Any, *args: Any, **kwargs: Any) -> None:
        seen.append(str(content))
        original_draw(self, xy, content, *args, **kwargs)

    monkeypatch.setattr(render.war, "text", through_common)
    monkeypatch.setattr(ImageDraw.ImageDraw, "text", through_pillow)
    draw(view)
    return " | ".join(seen)


def test_an_event_reinforcement_in_hand_says_it_counts_0(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hand image appended "counts 0" to an Event's text, where a
    long text cut it off. Every Event in hand says so, however long its text."""
    from render.war import draw_hand
    from rules.war.cards import cards

    for card in (c for c in cards().values() if c.is_event):
        view = {"role": card.side, "battle": 2, "hand": [card.facts()], "placements": []}
        assert "counts 0" in _texts(monkeypatch, draw_hand, view), card.name


def test_placing_an_event_reinforcement_says_it_counts_0() -> None:
    """The draw line and the placement buttons named an Event as
    "(event)" only; placed as a reinforcement it is ignored and counts 0 (rule 4 note)."""
    state = _play(7, lambda s: s["step"] == "position")
    from rules.war.cards import cards

    event = next(c.id for c in cards().values() if c.is_event and c.side == "union")
    state["sides"]["union"]["hand"][0] = event
    view = GAME.view(state, "union")
    labels = list(view["labels"]["place"].values())
    name = cards()[event].name
    assert all("counts 0" in label for label in labels if name in label)
    assert any(name in label for label in labels)
