"""What careful play turned up in the Solo System: one test per finding."""

from __future__ import annotations

import pytest

from render.common import fit, font
from render.fate import ALLOWED
from render.solo import (
    CARD_H,
    CARD_W,
    HEADER_H,
    MARGIN,
    SECOND_OFFSET,
    SIDE_HEAD_H,
    SLOT_W,
    draw_board,
    value_label,
)
from rules.solo import GAME, expected_cards
from rules.solo.session import settle
from rules.solo.sheets import sheet
from tests.rules.test_solo_playsheets import caesar, ftp, ww
from tests.solo_helpers import act, actions, arrange, clean, force_faces, known, session, slot

# The Fate Die is forced by replacing its roll (monkeypatch), which compiled rules
# never call through the module: these run on the sources only.
pytestmark = pytest.mark.source_only

# ------------------------------------------------ 6. Washington's War random discards


def test_ww_random_discard_card_spares_a_side_without_cards_remaining(monkeypatch) -> None:
    """#84 George Rogers Clark: "the opposing side must have Cards Remaining"."""
    state = ww()
    known(state, "k1", value=0, event=True, number=84)
    arrange(state, "american", {"A": [("k20", True)], "B": [("k21", True)]})
    known(state, "k20", 1)
    known(state, "k21", 2)
    state["displays"]["american"]["remaining"] = 0
    force_faces(monkeypatch, "ab")
    act(state, "roll", "british")
    act(state, "played", "k1")
    act(state, "purpose", "event")
    assert slot(state, "american", "A") == [("k20", True)]
    assert slot(state, "american", "B") == [("k21", True)]
    assert "k20" not in state["decks"]["shared"]["discard"]
    assert "k21" not in state["decks"]["shared"]["discard"]
    assert state["displays"]["american"]["remaining"] == 0
    assert any("no Cards Remaining" in line for line in state["log"])
    clean(state)


def test_ww_table_random_discard_at_zero_cards_remaining_discards_nothing() -> None:
    state = ww()
    state["displays"]["british"]["remaining"] = 0
    before = [slot(state, "british", s) for s in "ABCDE"]
    act(state, "random_discard", "british")
    assert [slot(state, "british", s) for s in "ABCDE"] == before
    assert state["decks"]["shared"]["discard"] == []


# ------------------------------------------------- 7. Caesar unwanted Surprise cards


def test_caesar_surprise_not_made_playable_by_the_die_may_not_be_dropped(monkeypatch) -> None:
    """7.5.4: only "if the card is playable as a result of the Fate Die roll"."""
    state = caesar()
    known(state, "k1", value=0, event=True, kind="surprise", number=52)
    force_faces(monkeypatch, "de")
    act(state, "roll", "gaul")
    assert "k1" in actions(state)["played"], "still playable whatever the die (ruling 12)"
    assert "drop_surprise" not in actions(state)


def test_caesar_surprise_in_a_slot_the_die_names_may_be_dropped(monkeypatch) -> None:
    state = caesar()
    known(state, "k1", value=0, event=True, kind="surprise", number=52)
    force_faces(monkeypatch, "ab")
    act(state, "roll", "gaul")
    assert actions(state)["drop_surprise"] == ["k1"]


# ------------------------------------------- 8. For The People, Emancipation Proclamation


def _emancipation(monkeypatch, face: str) -> dict:  # type: ignore[type-arg]
    state = ftp()
    known(state, "k1", value=2, event=True, number=81)
    act(state, "mandatory", "k1")
    force_faces(monkeypatch, face)
    act(state, "roll", "union")
    return state


def test_ftp_emancipation_must_be_played_when_the_die_names_its_slot(monkeypatch) -> None:
    state = _emancipation(monkeypatch, "ab")
    assert actions(state)["played"] == ["k1"], "B may not be played instead"
    act(state, "played", "k1")
    assert actions(state)["purpose"] == ["event"]
    act(state, "purpose", "event")
    assert "k1" in state["decks"]["shared"]["discard"]
    clean(state)


def test_ftp_emancipation_waits_while_the_die_names_other_slots(monkeypatch) -> None:
    state = _emancipation(monkeypatch, "de")
    assert "k1" not in actions(state)["played"]


def test_ftp_emancipation_before_its_conditions_hold_is_an_ordinary_card(monkeypatch) -> None:
    state = ftp()
    known(state, "k1", value=2, event=True, number=81)
    force_faces(monkeypatch, "ab")
    act(state, "roll", "union")
    assert actions(state)["played"] == ["k1", "k2"]


# ------------------------------------------------------ 9. each deck has its real size


@pytest.mark.parametrize(
    ("playsheet", "sizes"),
    [
        ("washingtons_war", {"shared": 110}),
        ("caesar", {"shared": 55}),
        ("illusions_of_glory", {"central_powers": 55, "allied_powers": 55}),
        ("for_the_people", {"shared": 130}),
        ("cc_ancients", {"shared": 60}),
        ("cc_samurai", {"shared": 60}),
    ],
)
def test_each_playsheet_deck_has_the_games_card_count(playsheet: str, sizes: dict) -> None:  # type: ignore[type-arg]
    state = GAME.setup(seed=3, options={"playsheet": playsheet})
    assert {name: deck["size"] for name, deck in state["decks"].items()} == sizes
    for name, size in sizes.items():
        tokens = [c for c in expected_cards(state, name) if c[-1].isdigit()]
        assert len(tokens) == size
    assert sheet(playsheet)["deck_size_source"], "a stated card count cites its source"


def test_ftp_card_numbers_run_to_130() -> None:
    """The playsheet names #112, #119, #125 and #130: each may be told."""
    state = GAME.setup(seed=3, options={"playsheet": "for_the_people"})
    assert state["step"] == "identify"
    numbers = actions(state)["number"]
    assert {112, 119, 125, 130} <= set(numbers)
    assert max(numbers) == 130


def test_deck_size_option_still_overrides_the_games_count() -> None:
    state = GAME.setup(seed=3, options={"playsheet": "for_the_people", "deck_size": 40})
    assert state["decks"]["shared"]["size"] == 40
    assert max(actions(state)["number"]) == 40


def test_caesar_deck_runs_out_in_turn_3() -> None:
    """55 cards, two displays of five: each of a turn's 2 x 8 plays refills one slot, so
    the deck lasts two full turns and runs out during the third, as the playsheet's Draw
    Deck Exhaustion expects (and again in turn 6, after the turn-3 reshuffle)."""
    state = session("caesar")
    left = len(state["decks"]["shared"]["draw"])
    assert left == 55 - 2 * 5
    plays_per_turn = 2 * 8
    assert 0 < left - 2 * plays_per_turn < plays_per_turn


# ------------------------------------- 10. Samurai Dragon cards and Honor & Fortune tokens


def samurai() -> dict:  # type: ignore[type-arg]
    state = session("cc_samurai")
    for side in state["displays"]:
        for s in "ABCDE":
            for card, _up in slot(state, side, s):
                known(state, card, None, kind="section")
    return state


def choices(state: dict) -> dict:  # type: ignore[type-arg]
    return {k: v for k, v in actions(state).items() if k != "undo"}


def test_samurai_counts_tokens_and_dragon_cards_on_the_view() -> None:
    state = samurai()
    assert GAME.view(state, "solo")["honor"] == {
        "tokens": {"blue": 0, "red": 0},
        "dragons": {"blue": 0, "red": 0},
        "draw": 40,
        "discard": 0,
    }
    for _ in range(3):
        act(state, "gain_token", "red")
    act(state, "spend_token", "red")
    act(state, "draw_dragon", "blue")
    act(state, "draw_dragon", "blue")
    act(state, "play_dragon", "blue")
    shown = GAME.view(state, "solo")["honor"]
    assert shown["tokens"] == {"blue": 0, "red": 2}
    assert shown["dragons"] == {"blue": 1, "red": 0}
    assert (shown["draw"], shown["discard"]) == (38, 1)
    assert "play_dragon" not in actions(state) or actions(state)["play_dragon"] == ["blue"]
    assert actions(state)["spend_token"] == ["red"]


def test_samurai_end_of_turn_asks_only_what_the_sheet_leaves_to_the_player() -> None:
    state = samurai()
    for _ in range(3):
        act(state, "gain_token", "blue")
    act(state, "draw_dragon", "blue")
    act(state, "end_of_turn", "blue")
    assert choices(state) == {"reward": ["dragon", "tokens"]}, "3 tokens: the player chooses"
    act(state, "reward", "tokens")
    assert choices(state) == {"dragon_discard": ["yes", "no"]}
    act(state, "dragon_discard", "yes")
    assert state["honor"]["tokens"]["blue"] == 6 and state["honor"]["dragons"]["blue"] == 0
    act(state, "draw_dragon", "blue")
    act(state, "play_dragon", "blue")
    act(state, "end_of_turn", "blue")
    act(state, "reward", "dragon")
    assert state["step"] == "table", "it played a Dragon card this turn: no discard offer"


def test_samurai_shogun_reshuffle_shuffles_the_dragon_deck_with_its_discards() -> None:
    state = samurai()
    act(state, "draw_dragon", "red")
    act(state, "play_dragon", "red")
    assert state["honor"]["discard"] == 1
    act(state, "reshuffle", "shared")
    assert (state["honor"]["draw"], state["honor"]["discard"]) == (40, 0)


def test_samurai_order_one_unit_draws_a_dragon_card(monkeypatch) -> None:
    state = samurai()
    known(state, slot(state, "blue", "A")[0][0], None, kind="order_one_unit")
    card = slot(state, "blue", "A")[0][0]
    force_faces(monkeypatch, "ab")
    act(state, "roll", "blue")
    act(state, "played", card)
    act(state, "purpose", "order")
    while state["step"] == "identify":
        act(state, "unnumbered")
        if state["step"] == "identify" and "kind" in actions(state):
            act(state, "kind", "section")
    assert state["honor"]["dragons"]["blue"] == 1 and state["honor"]["draw"] == 39


def test_samurai_empty_dragon_deck_is_shuffled_from_its_discards() -> None:
    state = samurai()
    act(state, "draw_dragon", "red")
    state["honor"]["draw"] = 0
    act(state, "play_dragon", "red")
    act(state, "draw_dragon", "red")
    assert state["honor"]["dragons"]["red"] == 1
    assert (state["honor"]["draw"], state["honor"]["discard"]) == (0, 0)


# ------------------------------------------------------------- 14. the display image


def _ww_identifying(monkeypatch) -> dict:  # type: ignore[type-arg]
    """Washington's War: a British round is played, then the American roll turns C, D and
    E face up and the player is asked their facts."""
    state = session("washingtons_war")
    force_faces(monkeypatch, "ab", "cde")
    act(state, "roll", "british")
    act(state, "played", state["ts"]["allowed"][0])
    act(state, "purpose", actions(state)["purpose"][0])
    while state["step"] == "identify":
        known(state, state["asking"]["card"], 2)
        settle(GAME, state, state["asking"]["resume"])
    act(state, "roll", "american")
    assert state["step"] == "identify"
    return state


def test_the_display_shows_the_new_roll_while_its_cards_are_told(monkeypatch) -> None:
    state = _ww_identifying(monkeypatch)
    die = GAME.view(state, None)["die"]
    assert (die["side"], die["face"], die["pending"]) == ("american", "cde", True)
    assert die["allowed"] == []
    image = draw_board(GAME.view(state, None))
    assert image.height > 0


def test_allowed_cards_are_named_with_their_slot_letters(monkeypatch) -> None:
    state = ww()
    force_faces(monkeypatch, "ab")
    act(state, "roll", "british")
    die = GAME.view(state, None)["die"]
    assert die["allowed"] == ["A: an unnumbered card", "B: an unnumbered card"]
    assert die["allowed_ids"] == ["k1", "k2"] and die["pending"] is False


def test_a_round_without_the_die_replaces_the_last_roll_on_the_display() -> None:
    state = ftp()
    known(state, "k1", value=2, event=True, kind="mandatory")
    state["die"] = {"side": "confederate", "face": "ab", "allowed": []}
    state["displays"]["union"]["remaining"] = 1
    act(state, "roll", "union")
    die = GAME.view(state, None)["die"]
    assert (die["side"], die["face"], die["allowed_ids"]) == ("union", None, ["k1"])


def test_allowed_cards_are_ringed_on_the_display(monkeypatch) -> None:
    state = ww()
    force_faces(monkeypatch, "ab")
    act(state, "roll", "british")
    image = draw_board(GAME.view(state, None)).convert("RGB")
    ax, ay = card_corner(0)
    cx, cy = card_corner(2)
    assert image.getpixel((ax + CARD_W // 2, ay - 2)) == ALLOWED
    assert image.getpixel((cx + CARD_W // 2, cy - 2)) != ALLOWED


def card_corner(slot_index: int, nth: int = 0) -> tuple[int, int]:
    x0 = MARGIN + slot_index * SLOT_W + 8
    return x0, HEADER_H + 8 + SIDE_HEAD_H + 30 + nth * SECOND_OFFSET


@pytest.mark.parametrize("playsheet", ["cc_ancients", "cc_samurai", "caesar", "for_the_people"])
@pytest.mark.parametrize("told", [True, False])
@pytest.mark.parametrize("value", [None, 3])
def test_a_cards_value_strip_is_never_cut(playsheet: str, told: bool, value: int | None) -> None:
    view = GAME.view(session(playsheet), None)
    label, size = value_label({"told": told, "value": value}, view, CARD_W - 16)
    assert font(size).getlength(label) <= CARD_W - 16
    assert fit(label, size, CARD_W - 16) == label


def test_a_face_down_second_card_leaves_the_first_card_whole() -> None:
    state = session("cc_samurai", blue_hand=6, red_hand=5)
    view = GAME.view(state, None)
    display = view["displays"]["blue"]
    assert "A" in display["double"]
    display["slots"]["A"] = [
        {"up": True, "told": True, "name": "card #3", "value": None, "kind": "section"},
        {"up": False},
    ]
    image = draw_board(view).convert("RGB")
    x, y = card_corner(0)
    # the first card's kind line, near its foot, is on card paper, not under the back
    assert image.getpixel((x + 100, y + CARD_H - 12)) == (250, 246, 236)


def test_samurai_tokens_and_dragon_cards_are_drawn() -> None:
    state = samurai()
    before = draw_board(GAME.view(state, None)).tobytes()
    act(state, "gain_token", "blue")
    assert draw_board(GAME.view(state, None)).tobytes() != before
