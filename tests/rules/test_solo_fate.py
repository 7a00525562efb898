"""The Fate Die faces, the Random Card Selection chart and the die's fairness."""

from __future__ import annotations

from collections import Counter

import pytest

from rules.core.rng import generator
from rules.fate_die.faces import FACES
from rules.solo.display import chart_pick, random_face_up
from rules.solo.fate import roll_face
from tests.solo_helpers import act, actions, arrange, clean, force_faces, known, session, slot

# The Fate Die is forced by replacing its roll (monkeypatch), which compiled rules
# never call through the module: these run on the sources only.
pytestmark = pytest.mark.source_only


def ww_display() -> tuple[dict, list[str]]:
    """Washington's War, British display: A=3 Ops up, B=1 Ops up, C=2 down, D=1 down,
    E=event down (value 0)."""
    state = session("washingtons_war")
    k = ["k1", "k2", "k3", "k4", "k5"]
    arrange(state, "british", {s: [(c, s in "AB")] for s, c in zip("ABCDE", k, strict=True)})
    for card, value in zip(k, [3, 1, 2, 1, 0], strict=True):
        known(state, card, value=value, event=value == 0)
    return state, k


def test_face_c_or_lowest_flips_c_and_allows_c_or_the_lowest_face_up_ops(monkeypatch) -> None:
    state, _k = ww_display()
    force_faces(monkeypatch, "c_low")
    act(state, "roll", "british")
    assert slot(state, "british", "C") == [("k3", True)]
    assert slot(state, "british", "D") == [("k4", False)], "only C is flipped"
    assert actions(state)["played"] == ["k2", "k3"]  # B is the lowest face-up (1); C itself
    act(state, "played", "k2")
    act(state, "purpose", "ops")
    assert state["displays"]["british"]["remaining"] == 6
    assert len(slot(state, "british", "B")) == 1 and slot(state, "british", "B")[0][1] is False
    assert state["decks"]["shared"]["discard"] == ["k2"]
    clean(state)


def test_double_bang_result_has_no_effect(monkeypatch) -> None:
    """The "!!" on the C face changes nothing in these games: the log says only the face."""
    state, _k = ww_display()
    force_faces(monkeypatch, "c_low")
    before = len(state["log"])
    act(state, "roll", "british")
    new = state["log"][before:]
    assert any("Fate Die" in line for line in new)
    assert state["step"] == "choose"


def test_lowest_ties_are_left_to_the_player(monkeypatch) -> None:
    state, _k = ww_display()
    state["displays"]["british"]["slots"]["D"][0]["up"] = True  # D = 1 Ops, ties with B
    force_faces(monkeypatch, "c_low")
    act(state, "roll", "british")
    assert actions(state)["played"] == ["k2", "k3", "k4"]


def test_face_event_or_lowest_player_flips_until_two_face_up(monkeypatch) -> None:
    state, _k = ww_display()
    state["displays"]["british"]["slots"]["B"][0]["up"] = False
    force_faces(monkeypatch, "event_low")
    act(state, "roll", "british")
    assert state["step"] == "flip_one"
    assert actions(state)["flip"] == ["B", "C", "D", "E"]
    act(state, "flip", "E")  # the Event card
    assert state["step"] == "choose"
    # any face-up Event (E) or the lowest face-up Ops card (A is the only Ops card up)
    assert actions(state)["played"] == ["k1", "k5"]
    assert actions(state)["discard"] == ["k5"], "Washington's War may discard an Event"


def test_face_event_or_lowest_flips_nothing_with_two_face_up(monkeypatch) -> None:
    state, _k = ww_display()
    force_faces(monkeypatch, "event_low")
    act(state, "roll", "british")
    assert state["step"] == "choose"
    assert actions(state)["played"] == ["k2"]


@pytest.mark.parametrize(
    ("face", "flipped", "allowed"),
    [
        ("abc", "ABC", ["k1", "k2", "k3"]),
        ("ab", "AB", ["k1", "k2"]),
        ("cde", "CDE", ["k3", "k4", "k5"]),
        ("de", "DE", ["k4", "k5"]),
    ],
)
def test_face_named_slots_flip_them_and_allow_any_of_them(
    monkeypatch, face: str, flipped: str, allowed: list[str]
) -> None:
    state, _k = ww_display()
    force_faces(monkeypatch, face)
    act(state, "roll", "british")
    for name in "CDE":
        assert slot(state, "british", name)[0][1] is (name in flipped)
    assert actions(state)["played"] == allowed
    act(state, "played", allowed[-1])
    act(state, "purpose", actions(state)["purpose"][0])
    refilled = slot(state, "british", allowed[-1] and "ABCDE"[int(allowed[-1][1:]) - 1])
    assert len(refilled) == 1 and refilled[0][1] is False, "refilled face down"
    clean(state)


def test_cards_remaining_at_zero_the_side_plays_no_more() -> None:
    state = session("washingtons_war")
    state["displays"]["british"]["remaining"] = 0
    assert actions(state)["roll"] == ["american"]


def test_pog_slot_c_is_the_deck_top_and_a_refill_keeps_its_facing(monkeypatch) -> None:
    state = session("paths_of_glory")
    # A Entrench 3, B Von Francois 2 (combat), C top = Guns of August 3, D, E face down
    arrange(
        state, "central_powers", {"A": [("CP6", True)], "B": [("CP3", True)], "C": [("CP1", False)]}
    )
    force_faces(monkeypatch, "c_low")
    act(state, "roll", "central_powers")
    assert actions(state)["played"] == ["CP3", "CP1"]
    act(state, "played", "CP3")
    act(state, "purpose", "ops")
    assert slot(state, "central_powers", "B") == [("CP1", True)], "the face-up top moved to B"
    assert state["decks"]["central_powers"]["top_up"] is False
    clean(state)


def test_pog_face_a_or_b_refill_maintains_a_face_down_top(monkeypatch) -> None:
    state = session("paths_of_glory")
    arrange(state, "central_powers", {"A": [("CP6", True)], "C": [("CP1", False)]})
    force_faces(monkeypatch, "ab")
    act(state, "roll", "central_powers")
    act(state, "played", "CP6")
    act(state, "purpose", "sr")
    assert slot(state, "central_powers", "A") == [("CP1", False)]


def test_pog_playing_c_takes_the_deck_top(monkeypatch) -> None:
    state = session("paths_of_glory")
    arrange(state, "central_powers", {"C": [("CP6", False)]})
    force_faces(monkeypatch, "abc")
    act(state, "roll", "central_powers")
    assert "CP6" in actions(state)["played"]
    act(state, "played", "CP6")
    act(state, "purpose", "ops")
    deck = state["decks"]["central_powers"]
    assert "CP6" in deck["discard"] and deck["draw"][0] != "CP6" and not deck["top_up"]
    clean(state)


def test_double_slot_flips_both_cards_and_is_refilled_to_two(monkeypatch) -> None:
    state = session("cc_ancients", blue_hand=6, red_hand=5)
    assert state["displays"]["blue"]["double"] == ["A"]
    arrange(state, "blue", {"A": [("k1", False), ("k2", False)]})
    known(state, "k1", None, kind="section")
    known(state, "k2", None, kind="troop")
    force_faces(monkeypatch, "ab")
    act(state, "roll", "blue")
    assert slot(state, "blue", "A") == [("k1", True), ("k2", True)]
    assert {"k1", "k2"} <= set(actions(state)["played"])
    act(state, "played", "k2")
    act(state, "purpose", "order")
    assert next(c for c, _up in slot(state, "blue", "A")) == "k1"
    assert len(slot(state, "blue", "A")) == 2 and slot(state, "blue", "A")[1][1] is False
    clean(state)


# --------------------------------------------------------------- Random Card Selection


class Rolls:
    def __init__(self, *rolls: int) -> None:
        self.rolls = list(rolls)
        self.used = 0

    def __call__(self, state: object, sides: int) -> int:
        assert sides == 6
        self.used += 1
        return self.rolls.pop(0)


@pytest.mark.parametrize(
    ("count", "rolls", "index", "used"),
    [
        (1, [], 0, 0),
        (2, [1], 0, 1),
        (2, [3], 0, 1),
        (2, [4], 1, 1),
        (2, [6], 1, 1),
        (3, [1], 0, 1),
        (3, [2], 0, 1),
        (3, [3], 1, 1),
        (3, [4], 1, 1),
        (3, [5], 2, 1),
        (3, [6], 2, 1),
        (4, [1], 0, 1),
        (4, [4], 3, 1),
        (4, [5, 6, 2], 1, 3),
        (5, [5], 4, 1),
        (5, [6, 6, 1], 0, 3),
        (5, [3], 2, 1),
    ],
)
def test_random_card_selection_chart(monkeypatch, count, rolls, index, used) -> None:
    die = Rolls(*rolls)
    monkeypatch.setattr("rules.solo.display.roll", die)
    picked, made = chart_pick({}, count)
    assert picked == index and die.used == used and made == rolls


def test_random_card_selection_chart_every_face_up_count_is_uniform() -> None:
    for count in range(1, 6):
        state = {"rng": generator(count), "seal": 0, "undo": []}
        tally = Counter(chart_pick(state, count)[0] for _ in range(6000))
        assert set(tally) == set(range(count))
        for n in tally.values():
            assert abs(n - 6000 / count) < 6000 / count * 0.1


def test_chart_with_more_than_five_face_up_cards_picks_a_slot_then_a_card(monkeypatch) -> None:
    state = session("cc_ancients", blue_hand=9, red_hand=5)
    side = "blue"
    layout = {s: [(f"k{2 * i + 1}", True), (f"k{2 * i + 2}", True)] for i, s in enumerate("ABDE")}
    layout["C"] = [("k20", True)]
    arrange(state, side, layout)
    die = Rolls(5, 4)  # 5 slots: slot 5 (E); then 2 cards of E: 4 -> the second
    monkeypatch.setattr("rules.solo.display.roll", die)
    assert random_face_up(state, side) == "k8"


def test_fate_die_is_uniform() -> None:
    tally: Counter[str] = Counter()
    for seed in range(20):
        state = {"rng": generator(seed), "seal": 0, "undo": []}
        tally.update(roll_face(state) for _ in range(3000))
    expected = 60000 / 6
    chi2 = sum((tally[f] - expected) ** 2 / expected for f in FACES)
    assert set(tally) == set(FACES)
    assert chi2 < 20.5  # 5 degrees of freedom, p = 0.001
    assert all(abs(tally[f] - expected) < 400 for f in FACES)
