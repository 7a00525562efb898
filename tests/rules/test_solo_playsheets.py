"""One scenario per playsheet rule ("game-specific" and "card modifications")."""

from __future__ import annotations

import pytest

from rules.solo import GAME
from rules.solo.cards import pog_cards
from tests.solo_helpers import (
    act,
    actions,
    arrange,
    clean,
    force_faces,
    force_rolls,
    known,
    session,
    slot,
    to_top,
)

# The Fate Die is forced by replacing its roll (monkeypatch), which compiled rules
# never call through the module: these run on the sources only.
pytestmark = pytest.mark.source_only

# ----------------------------------------------------------------- Washington's War


def ww(**options):  # type: ignore[no-untyped-def]
    state = session("washingtons_war", **options)
    arrange(state, "british", {s: [(f"k{i}", s in "AB")] for i, s in enumerate("ABCDE", 1)})
    for i in range(1, 6):
        known(state, f"k{i}", value=2)
    return state


def test_ww_mandatory_card_revealed_is_played_at_once_and_refilled_face_up(monkeypatch) -> None:
    state = ww()
    known(state, "k3", value=0, event=True, kind="mandatory")
    to_top(state, "k60")
    known(state, "k60", value=3)
    force_faces(monkeypatch, "c_low")
    act(state, "roll", "british")
    assert "k3" in state["decks"]["shared"]["discard"]
    assert slot(state, "british", "C") == [("k60", True)], "replacement drawn face up"
    assert state["displays"]["british"]["remaining"] == 7, "the marker does not move"
    assert "k60" in actions(state)["played"]
    clean(state)


def test_ww_exchange_ops_card_with_discarded_event(monkeypatch) -> None:
    state = ww()
    deck = state["decks"]["shared"]
    to_top(state, "k40")
    deck["draw"].remove("k40")
    deck["discard"].append("k40")
    known(state, "k40", value=0, event=True)
    force_faces(monkeypatch, "ab")
    act(state, "roll", "british")
    act(state, "exchange", "k1")
    assert slot(state, "british", "A") == [("k40", True)]
    assert deck["discard"][-1] == "k1"
    assert state["displays"]["british"]["remaining"] == 7
    assert "k40" in actions(state)["played"] and "exchange" not in actions(state)
    clean(state)


def test_ww_discard_event_instead_of_playing(monkeypatch) -> None:
    state = ww()
    known(state, "k2", value=0, event=True)
    force_faces(monkeypatch, "c_low")
    act(state, "roll", "british")
    act(state, "discard", "k2")
    assert state["displays"]["british"]["remaining"] == 6
    assert slot(state, "british", "B")[0][1] is False
    assert state["step"] == "table"


@pytest.mark.parametrize("number", [84, 97, 102, 106, 109])
def test_ww_random_discard_cards_make_the_opponent_discard_by_the_chart(
    monkeypatch, number: int
) -> None:
    state = ww()
    known(state, "k1", value=0, event=True, number=number)
    arrange(state, "american", {"A": [("k20", True)], "B": [("k21", True)]})
    known(state, "k20", 1)
    known(state, "k21", 2)
    force_faces(monkeypatch, "ab")
    force_rolls(monkeypatch, "rules.solo.display.roll", 5)  # 2 face-up: 4-6 -> the second
    act(state, "roll", "british")
    act(state, "played", "k1")
    act(state, "purpose", "event")
    assert "k21" in state["decks"]["shared"]["discard"]
    assert state["displays"]["american"]["remaining"] == 6
    assert slot(state, "american", "B")[0][1] is False
    clean(state)


def test_ww_random_discard_without_face_up_cards_only_slides_the_marker() -> None:
    state = ww()
    for s in "AB":
        state["displays"]["british"]["slots"][s][0]["up"] = False
    act(state, "random_discard", "british")
    assert state["displays"]["british"]["remaining"] == 6
    assert state["decks"]["shared"]["discard"] == []


def test_ww_random_discard_of_a_mandatory_card_plays_it(monkeypatch) -> None:
    state = ww()
    known(state, "k1", value=0, event=True, kind="mandatory")
    force_rolls(monkeypatch, "rules.solo.display.roll", 1)
    act(state, "random_discard", "british")
    assert "played for its event" in state["log"][-1]


def test_ww_battle_card_keeps_the_marker_event_discard_moves_it() -> None:
    state = ww()
    known(state, "k1", value=0, event=True, kind="battle")
    arrange(state, "american", {"A": [("k20", True)]})
    known(state, "k20", value=0, event=True)
    act(state, "attack", "british")
    act(state, "battle", "k1")
    assert state["displays"]["british"]["remaining"] == 7
    act(state, "discard", "k20")
    assert state["displays"]["american"]["remaining"] == 6
    assert (
        slot(state, "british", "A")[0][1] is False and slot(state, "american", "A")[0][1] is False
    )
    assert state["step"] == "table"
    clean(state)


def test_ww_reshuffle_discards_face_down_cards_and_refills_face_down() -> None:
    state = ww()
    state["decks"]["shared"]["discard"] = [state["decks"]["shared"]["draw"].pop()]
    act(state, "reshuffle", "shared")
    assert slot(state, "british", "A") == [("k1", True)]
    for s in "CDE":
        _card, up = slot(state, "british", s)[0]
        assert up is False
    assert state["decks"]["shared"]["discard"] == []
    clean(state)


# ------------------------------------------------------------------------- Caesar


def caesar():  # type: ignore[no-untyped-def]
    state = session("caesar")
    arrange(state, "gaul", {s: [(f"k{i}", s in "AB")] for i, s in enumerate("ABCDE", 1)})
    arrange(state, "rome", {s: [(f"k{i}", s in "AB")] for i, s in enumerate("ABCDE", 11)})
    for i in [*range(1, 6), *range(11, 16)]:
        known(state, f"k{i}", value=2, event=True)
    return state


def test_caesar_zero_and_one_ap_count_the_same(monkeypatch) -> None:
    state = caesar()
    known(state, "k1", value=0, event=True, kind="surprise")
    known(state, "k2", value=1, event=True)
    force_faces(monkeypatch, "event_low")
    act(state, "roll", "gaul")
    assert {"k1", "k2"} <= set(actions(state)["played"])


def test_caesar_reroll_while_only_surprise_cards_are_allowed(monkeypatch) -> None:
    state = caesar()
    known(state, "k1", value=0, event=True, kind="surprise")
    force_faces(monkeypatch, "ab", "de")
    known(state, "k2", value=0, event=True, kind="surprise")
    act(state, "roll", "gaul")
    assert state["ts"]["face"] == "de"
    assert any("rolled again" in line for line in state["log"])


def test_caesar_face_up_surprise_cards_playable_whatever_the_die(monkeypatch) -> None:
    state = caesar()
    known(state, "k1", value=0, event=True, kind="surprise", number=52)
    force_faces(monkeypatch, "de")
    act(state, "roll", "gaul")
    assert "k1" in actions(state)["played"]


@pytest.mark.parametrize(
    ("number", "die", "played", "facing"),
    [
        (52, 1, True, False),  # Surprise, face A/B... roll 1 = c_low names C: slot A misses
        (24, 3, True, True),  # Reaction in A, face abc: played, replaced face up
        (54, 6, False, None),  # face de: slot A not named
    ],
)
def test_caesar_reaction_check_by_fate_die_slot(monkeypatch, number, die, played, facing) -> None:
    state = caesar()
    kind = "reaction" if number == 24 else "surprise"
    known(state, "k11", value=0, event=True, kind=kind, number=number)
    if number == 52:
        arrange(state, "rome", {"C": [("k11", True)]})
    force_rolls(monkeypatch, "rules.solo.session.roll", die)
    act(state, "reaction", "k11")
    where = "C" if number == 52 else "A"
    if played:
        assert "k11" in state["decks"]["shared"]["discard"]
        assert slot(state, "rome", where)[0][1] is facing
        assert state["displays"]["rome"]["remaining"] == 8
    else:
        assert ("k11", True) in slot(state, "rome", where)
    clean(state)


def test_caesar_discard_unwanted_surprise_draws_a_face_up_replacement(monkeypatch) -> None:
    state = caesar()
    known(state, "k1", value=0, event=True, kind="surprise")
    to_top(state, "k50")
    known(state, "k50", value=3, event=True)
    force_faces(monkeypatch, "ab")
    act(state, "roll", "gaul")
    act(state, "drop_surprise", "k1")
    assert slot(state, "gaul", "A") == [("k50", True)]
    assert "k50" in actions(state)["played"]


def test_caesar_senate_outraged_exchanges_then_any_face_up_card(monkeypatch) -> None:
    state = caesar()
    known(state, "k1", value=2, event=True, number=42)
    force_faces(monkeypatch, "ab")
    force_rolls(monkeypatch, "rules.solo.display.roll", 1)  # Rome's first face-up card, A
    act(state, "roll", "gaul")
    act(state, "senate")
    assert slot(state, "gaul", "A") == [("k11", True)]
    assert slot(state, "rome", "A") == [("k1", True)]
    assert set(actions(state)["played"]) == {"k11", "k2"}
    act(state, "played", "k11")
    act(state, "purpose", "ap")
    assert state["displays"]["gaul"]["remaining"] == 7, "the marker moves once"
    clean(state)


def test_caesar_winter_campaign_interrupts_without_the_die() -> None:
    state = caesar()
    known(state, "k12", value=2, event=True, number=47)
    act(state, "winter_campaign")
    assert "k12" in state["decks"]["shared"]["discard"]
    assert state["displays"]["rome"]["remaining"] == 7
    assert slot(state, "rome", "B")[0][1] is False


def test_caesar_end_of_turn_3_reshuffles_every_strategy_card() -> None:
    state = caesar()
    state["turn"] = 3
    act(state, "new_turn")
    clean(state)
    assert state["turn"] == 4 and state["decks"]["shared"]["discard"] == []
    assert any("End of turn 3" in line for line in state["log"])


def test_caesar_exhausted_deck_with_four_cards_plays_best_without_the_die() -> None:
    state = caesar()
    deck = state["decks"]["shared"]
    deck["discard"] += deck["draw"]
    deck["draw"] = []
    gone = state["displays"]["gaul"]["slots"]["E"].pop()
    deck["discard"].append(gone["card"])
    act(state, "roll", "gaul")
    assert state["step"] == "choose" and state["ts"]["face"] is None
    assert set(actions(state)["played"]) == {"k1", "k2", "k3", "k4"}


# ------------------------------------------------------------------ Paths of Glory


def test_pog_setup_deals_mobilization_cards_and_holds_the_rest_out() -> None:
    state = session("paths_of_glory")
    clean(state)
    facts = pog_cards()
    for side in ("central_powers", "allied_powers"):
        deck = state["decks"][side]
        assert {facts[c]["commitment"] for c in deck["draw"]} == {"mobilization"}
        assert len(deck["out"]["limited"]) == 24 and len(deck["out"]["total"]) == 25
        assert slot(state, side, "A")[0][1] and slot(state, side, "B")[0][1]
        assert not slot(state, side, "D")[0][1] and not state["decks"][side]["top_up"]


def test_pog_guns_of_august_first_cp_round_is_played_without_the_die() -> None:
    state = session("paths_of_glory", guns_of_august=True)
    act(state, "roll", "central_powers")
    assert actions(state)["played"] == ["CP1"] and "discard" not in actions(state)
    act(state, "played", "CP1")
    assert actions(state)["purpose"] == ["event"]
    act(state, "purpose", "event")
    assert "CP1" in state["decks"]["central_powers"]["removed"]
    assert state["war_status"]["central_powers"] == 2
    clean(state)


def test_pog_mata_hari_turns_the_opponents_display_and_deck_top_face_up(monkeypatch) -> None:
    state = session("paths_of_glory")
    arrange(state, "central_powers", {"A": [("CP17", True)]})
    force_faces(monkeypatch, "ab")
    act(state, "roll", "central_powers")
    act(state, "played", "CP17")
    act(state, "purpose", "event")
    assert all(up for s in "ABDE" for _c, up in slot(state, "allied_powers", s))
    assert state["decks"]["allied_powers"]["top_up"] is True


def test_pog_cloak_and_dagger_for_ops_flips_nothing(monkeypatch) -> None:
    state = session("paths_of_glory")
    arrange(state, "allied_powers", {"A": [("AP23", True)]})
    force_faces(monkeypatch, "ab")
    act(state, "roll", "allied_powers")
    act(state, "played", "AP23")
    act(state, "purpose", "ops")
    assert not slot(state, "central_powers", "D")[0][1]


def test_pog_draw_phase_discards_combat_cards_resets_and_fills_face_down() -> None:
    state = session("paths_of_glory", side="central_powers")
    arrange(state, "central_powers", {"A": [("CP3", True)], "B": [("CP6", True)], "D": []})
    state["displays"]["central_powers"]["remaining"] = 1
    act(state, "new_turn")
    assert state["step"] == "draw_phase" and actions(state)["discard"] == ["CP3"]
    act(state, "discard", "CP3")
    assert "discard" not in actions(state), "one per card remaining"
    act(state, "done")
    display = state["displays"]["central_powers"]
    assert display["remaining"] == 7
    assert slot(state, "central_powers", "A")[0][1] is False
    assert slot(state, "central_powers", "D")[0][1] is False
    clean(state)


def test_pog_eight_card_hands_option() -> None:
    state = session("paths_of_glory", eight_card_hands=True)
    assert state["hands"]["central_powers"] == 8
    assert state["displays"]["central_powers"]["remaining"] == 8


def test_pog_commitment_adds_limited_war_cards_and_deals_again() -> None:
    state = session("paths_of_glory")
    act(state, "commitment", "allied_powers")
    deck = state["decks"]["allied_powers"]
    assert "limited" not in deck["out"]
    assert state["commitment"]["allied_powers"] == "limited"
    assert len(deck["draw"]) + 4 == 16 + 24
    clean(state)


def test_pog_deck_exhaustion_lowers_cards_remaining_and_automatic_operation(monkeypatch) -> None:
    state = session("paths_of_glory", side="central_powers")
    arrange(state, "central_powers", {"A": [("CP1", True)], "B": [], "D": [], "E": []})
    deck = state["decks"]["central_powers"]
    deck["removed"] += deck["draw"]
    deck["draw"] = []
    force_faces(monkeypatch, "ab", "c_low")
    act(state, "roll", "central_powers")
    act(state, "played", "CP1")
    act(state, "purpose", "event")  # removed after its event: nothing left to reshuffle
    assert state["displays"]["central_powers"]["remaining"] == 4
    assert slot(state, "central_powers", "A") == []
    act(state, "roll", "central_powers")
    assert state["step"] == "table"
    assert "Automatic Operation with an Ops value of 1" in state["log"][-1]
    assert state["displays"]["central_powers"]["remaining"] == 4
    clean(state)


def test_pog_removed_after_event_cards_leave_the_game(monkeypatch) -> None:
    state = session("paths_of_glory")
    arrange(state, "allied_powers", {"A": [("AP1", True)]})
    force_faces(monkeypatch, "ab")
    act(state, "roll", "allied_powers")
    act(state, "played", "AP1")
    act(state, "purpose", "event")
    assert "AP1" in state["decks"]["allied_powers"]["removed"]
    assert state["war_status"]["allied_powers"] == 1


def test_pog_combat_cards_in_an_attack_keep_the_marker() -> None:
    state = session("paths_of_glory")
    arrange(state, "central_powers", {"A": [("CP3", True)]})
    act(state, "attack", "central_powers")
    assert actions(state)["combat"] == ["CP3"]
    act(state, "combat", "CP3")
    act(state, "done")
    act(state, "done")
    assert state["displays"]["central_powers"]["remaining"] == 7
    assert len(slot(state, "central_powers", "A")) == 1
    clean(state)


def test_pog_view_never_shows_face_down_cards() -> None:
    import json

    state = session("paths_of_glory")
    text = json.dumps(GAME.view(state, "solo"))
    for side in ("central_powers", "allied_powers"):
        for s in "DE":
            card, up = slot(state, side, s)[0]
            assert not up and json.dumps(card) not in text
        assert json.dumps(state["decks"][side]["draw"][0]) not in text


# -------------------------------------------------------------- Illusions of Glory


def test_iog_set_aside_offensive_playable_turns_1_and_2_then_removed() -> None:
    state = session("illusions_of_glory")
    assert actions(state)["offensive"] is True
    act(state, "new_turn")
    while state["step"] == "draw_phase":
        act(state, "done")
    assert "offensive" in actions(state)
    act(state, "new_turn")
    while state["step"] == "draw_phase":
        act(state, "done")
    assert "offensive" not in actions(state)
    assert "offensive" in state["decks"]["allied_powers"]["removed"]
    clean(state)


def test_iog_four_ops_card_refills_the_first_emptied_slot(monkeypatch) -> None:
    state = session("illusions_of_glory")
    force_faces(monkeypatch, "ab")
    act(state, "roll", "central_powers")
    card = actions(state)["played"][0]
    act(state, "played", card)
    act(state, "purpose", actions(state)["purpose"][0])
    assert slot(state, "central_powers", "A") == [("four_ops", True)]
    clean(state)


# ------------------------------------------------------------------ For The People


def ftp():  # type: ignore[no-untyped-def]
    state = session("for_the_people")
    arrange(state, "union", {s: [(f"k{i}", s in "AB")] for i, s in enumerate("ABCDE", 1)})
    arrange(state, "confederate", {s: [(f"k{i}", s in "AB")] for i, s in enumerate("ABCDE", 11)})
    for i in [*range(1, 6), *range(11, 16)]:
        known(state, f"k{i}", value=2, event=True)
    return state


def test_ftp_increasing_hand_size_from_4_to_7() -> None:
    state = ftp()
    seen = []
    for _ in range(4):
        seen.append((state["hands"]["union"], state["displays"]["union"]["remaining"]))
        act(state, "new_turn")
    assert seen == [(4, 4), (5, 5), (6, 6), (7, 7)]
    assert state["hands"]["union"] == 7


def test_ftp_mandatory_cards_must_be_played_before_cards_remaining_reaches_zero() -> None:
    state = ftp()
    known(state, "k1", value=2, event=True, kind="mandatory")
    state["displays"]["union"]["remaining"] = 1
    act(state, "roll", "union")
    assert actions(state)["played"] == ["k1"]
    assert state["ts"]["face"] is None


def test_ftp_more_mandatory_revealed_than_remaining_go_back_and_redraw(monkeypatch) -> None:
    state = ftp()
    state["displays"]["union"]["remaining"] = 1
    known(state, "k4", value=2, event=True, kind="mandatory")
    known(state, "k5", value=2, event=True, kind="mandatory")
    force_faces(monkeypatch, "de")
    for card in state["decks"]["shared"]["draw"][:2]:
        known(state, card, 3)
    act(state, "roll", "union")
    draw = state["decks"]["shared"]["draw"]
    assert "k4" in draw and "k5" in draw
    assert all(up for s in "DE" for _c, up in slot(state, "union", s))
    clean(state)


@pytest.mark.parametrize(("die", "played"), [(1, True), (3, True), (4, False), (6, False)])
def test_ftp_reaction_card_rolls_1_to_3(monkeypatch, die: int, played: bool) -> None:
    state = ftp()
    known(state, "k11", value=2, event=True, kind="reaction", number=8)
    force_rolls(monkeypatch, "rules.solo.steps.roll", die)
    act(state, "reaction", "k11")
    assert ("k11" in state["decks"]["shared"]["discard"]) is played
    assert state["displays"]["confederate"]["remaining"] == (3 if played else 4)


def test_ftp_union_siege_guns_does_not_move_the_marker(monkeypatch) -> None:
    state = ftp()
    known(state, "k1", value=2, event=True, number=130)
    force_rolls(monkeypatch, "rules.solo.steps.roll", 2)
    act(state, "reaction", "k1")
    assert "k1" in state["decks"]["shared"]["discard"]
    assert state["displays"]["union"]["remaining"] == 4


@pytest.mark.parametrize("number", [27, 119])
def test_ftp_random_card_removal(monkeypatch, number: int) -> None:
    state = ftp()
    known(state, "k1", value=2, event=True, number=number)
    force_faces(monkeypatch, "ab")
    force_rolls(monkeypatch, "rules.solo.display.roll", 1)
    act(state, "roll", "union")
    act(state, "played", "k1")
    act(state, "purpose", "event")
    assert "k11" in state["decks"]["shared"]["discard"]
    assert state["displays"]["confederate"]["remaining"] == 3
    clean(state)


def test_ftp_red_river_campaign_is_mandatory_for_the_union() -> None:
    state = ftp()
    known(state, "k1", value=2, event=True, number=14)
    state["displays"]["union"]["remaining"] = 1
    act(state, "roll", "union")
    assert actions(state)["played"] == ["k1"]


# ------------------------------------------------------------- Commands & Colors


def cca(**options):  # type: ignore[no-untyped-def]
    state = session("cc_ancients", **options)
    for side in state["displays"]:
        for s in "ABCDE":
            for card, _up in slot(state, side, s):
                known(state, card, None, kind="section")
    return state


@pytest.mark.parametrize(
    ("hands", "doubled"),
    [
        ((5, 5), []),
        ((6, 5), ["A"]),
        ((7, 5), ["A", "D"]),
        ((8, 5), ["A", "B", "D"]),
        ((9, 5), ["A", "B", "D", "E"]),
        ((10, 4), ["A", "B", "D", "E"]),
    ],
)
def test_cc_variable_hand_size_table(hands, doubled) -> None:
    state = cca(blue_hand=hands[0], red_hand=hands[1])
    assert state["displays"]["blue"]["double"] == doubled
    assert state["displays"]["red"]["double"] == []
    for s in doubled:
        assert len(slot(state, "blue", s)) == 2
        assert slot(state, "blue", s)[1][1] is False, "added face down"
    clean(state)


def test_cc_lowest_order_count_lists_every_face_up_card(monkeypatch) -> None:
    state = cca()
    force_faces(monkeypatch, "c_low")
    act(state, "roll", "blue")
    a, b = slot(state, "blue", "A")[0][0], slot(state, "blue", "B")[0][0]
    assert {a, b} <= set(actions(state)["played"])
    assert "fewest units" in GAME.view(state, "solo")["prompt"]


def test_cc_unplayable_result_rerolls(monkeypatch) -> None:
    state = cca()
    force_faces(monkeypatch, "ab", "de")
    act(state, "roll", "blue")
    act(state, "unplayable")
    assert state["ts"]["face"] == "de"


def test_cc_five_unplayable_face_up_cards_search_from_slot_a(monkeypatch) -> None:
    state = cca()
    for s in "ABCDE":
        state["displays"]["blue"]["slots"][s][0]["up"] = True
    first = slot(state, "blue", "A")[0][0]
    force_faces(monkeypatch, "ab")
    act(state, "roll", "blue")
    act(state, "unplayable")
    assert state["step"] in ("identify", "search")
    while state["step"] == "identify":
        act(state, "unnumbered")
        act(state, "kind", "troop")
    act(state, "playable", "no")
    while state["step"] == "identify":
        act(state, "unnumbered")
        act(state, "kind", "troop")
    drawn = slot(state, "blue", "A")[0][0]
    act(state, "playable", "yes")
    act(state, "purpose", "order")
    assert (
        first in state["decks"]["shared"]["discard"]
        and drawn in state["decks"]["shared"]["discard"]
    )
    assert slot(state, "blue", "A")[0][1] is False
    clean(state)


def test_cc_first_strike_without_the_die() -> None:
    state = cca()
    card = slot(state, "red", "A")[0][0]
    known(state, card, None, event=True, kind="first_strike")
    act(state, "first_strike", "red")
    assert card in state["decks"]["shared"]["discard"]
    assert slot(state, "red", "A")[0][1] is False


def test_cc_order_one_unit_refills_face_up(monkeypatch) -> None:
    state = cca()
    card = slot(state, "blue", "A")[0][0]
    known(state, card, None, kind="order_one_unit")
    force_faces(monkeypatch, "ab")
    act(state, "roll", "blue")
    act(state, "played", card)
    act(state, "purpose", "order")
    while state["step"] == "identify":
        act(state, "unnumbered")
        act(state, "kind", "troop")
    assert slot(state, "blue", "A")[0][1] is True


def test_cc_i_am_spartacus_reshuffle_covers_both_displays() -> None:
    state = cca()
    down = [slot(state, side, "D")[0][0] for side in ("blue", "red")]
    act(state, "reshuffle", "shared")
    clean(state)
    assert all(c not in state["decks"]["shared"]["discard"] for c in down)
    assert all(slot(state, side, "D")[0][1] is False for side in ("blue", "red"))


@pytest.mark.parametrize(
    ("scenario", "red_double", "no_refill"),
    [
        ("lake_trasimenus", ["A", "B", "D", "E"], ["D", "E"]),
        ("brindisi_raid", ["A", "B", "D"], ["A", "B", "C", "D", "E"]),
        ("phyle", ["A", "B", "D", "E"], ["E"]),
    ],
)
def test_cc_scenario_growing_hand(monkeypatch, scenario, red_double, no_refill) -> None:
    state = cca(scenario=scenario)
    display = state["displays"]["red"]
    assert display["double"] == red_double and display["no_refill_second"] == no_refill
    target = next(s for s in red_double if s in no_refill)
    card = slot(state, "red", target)[0][0]
    state["displays"]["red"]["slots"][target][0]["up"] = True
    face = {"A": "ab", "B": "ab", "D": "de", "E": "de"}[target]
    force_faces(monkeypatch, face)
    act(state, "roll", "red")
    while state["step"] == "identify":
        act(state, "unnumbered")
        act(state, "kind", "troop")
    act(state, "played", card)
    act(state, "purpose", "order")
    assert len(slot(state, "red", target)) == 1, "the second card is not replaced"
    clean(state)


def test_cc_hellespont_leader_eliminated_adjusts_the_displays() -> None:
    state = cca(scenario="hellespont", blue_hand=5, red_hand=7)
    assert state["displays"]["red"]["double"] == ["A", "D"]
    act(state, "leader_lost", "red")  # difference 2 -> 1: D's second card discarded
    assert state["displays"]["red"]["double"] == ["A"] and len(slot(state, "red", "D")) == 1
    act(state, "leader_lost", "red")  # equal: A's second card discarded
    assert state["displays"]["red"]["double"] == [] and len(slot(state, "red", "A")) == 1
    act(state, "leader_lost", "blue")  # Eumenes now larger by one: second card in A
    assert state["displays"]["red"]["double"] == ["A"] and len(slot(state, "red", "A")) == 2
    clean(state)


# ---------------------------------------------------------------- C&C: Samurai


def ccs(**options):  # type: ignore[no-untyped-def]
    state = session("cc_samurai", **options)
    for side in state["displays"]:
        for s in "ABCDE":
            for card, _up in slot(state, side, s):
                known(state, card, None, kind="section")
    return state


def test_samurai_seppuku_discards_by_chart_and_moves_the_second_card(monkeypatch) -> None:
    state = ccs(blue_hand=7, red_hand=5)  # blue doubles A and D
    second_d = slot(state, "blue", "D")[1][0]
    force_rolls(monkeypatch, "rules.solo.display.roll", 1)  # 2 face-up (A, B): the first
    act(state, "seppuku", "blue")
    assert state["hands"]["blue"] == 6
    assert state["displays"]["blue"]["double"] == ["A"]
    assert slot(state, "blue", "A")[-1] == (second_d, False), "D's second card fills A"
    assert len(slot(state, "blue", "D")) == 1
    clean(state)


def test_samurai_seppuku_of_the_smaller_side_grows_the_other(monkeypatch) -> None:
    state = ccs()
    force_rolls(monkeypatch, "rules.solo.display.roll", 4)
    act(state, "seppuku", "red")
    assert state["displays"]["blue"]["double"] == ["A"]
    assert len(slot(state, "blue", "A")) == 2
    assert len(slot(state, "red", "B")) == 1
    clean(state)


def test_samurai_tedorigawa_oda_shrinks_without_three_units_across(monkeypatch) -> None:
    state = ccs(scenario="tedorigawa")
    assert state["hands"] == {"blue": 6, "red": 5}
    assert state["displays"]["blue"]["double"] == ["A"]
    card = slot(state, "blue", "B")[0][0]
    force_faces(monkeypatch, "ab")
    act(state, "roll", "blue")
    act(state, "played", card)
    act(state, "purpose", "order")
    assert state["step"] == "river"
    act(state, "across", "no")
    assert state["hands"]["blue"] == 5
    assert state["displays"]["blue"]["double"] == []
    assert len(slot(state, "blue", "A")) == 1 and len(slot(state, "blue", "B")) == 1
    clean(state)


def test_samurai_end_of_turn_honor_choices() -> None:
    state = ccs()
    act(state, "gain_token", "red")
    act(state, "end_of_turn", "red")
    assert "gains 2" in state["log"][-1], "1 token held: it takes 2 without asking"
    assert state["step"] == "table", "no Dragon card held: nothing to discard"
    act(state, "end_of_turn", "red")
    act(state, "reward", "dragon")
    act(state, "dragon_discard", "yes")
    assert state["step"] == "table"
    assert state["honor"]["tokens"]["red"] == 4 and state["honor"]["dragons"]["red"] == 0


def test_caesar_exhausted_deck_card_draw_takes_a_random_face_down_card_of_the_other_side(
    monkeypatch,
) -> None:
    state = caesar()
    deck = state["decks"]["shared"]
    deck["discard"] += deck["draw"]
    deck["draw"] = []
    gone = state["displays"]["gaul"]["slots"]["E"].pop()
    deck["discard"].append(gone["card"])
    assert actions(state)["borrow"] == ["gaul"]
    force_rolls(monkeypatch, "rules.solo.display.roll", 6)  # 3 face-down cards: the third
    act(state, "borrow", "gaul")
    assert slot(state, "gaul", "E") == [("k15", False)]
    assert slot(state, "rome", "E") == []
    clean(state)


@pytest.mark.parametrize(
    ("playsheet", "side"), [("washingtons_war", "british"), ("for_the_people", "confederate")]
)
def test_who_goes_first_face_up_campaign_card(playsheet: str, side: str) -> None:
    state = session(playsheet)
    assert GAME.view(state, "solo")["campaign_face_up"] is False
    card = slot(state, side, "A")[0][0]
    known(state, card, value=0, event=True, kind="campaign")
    assert GAME.view(state, "solo")["campaign_face_up"] is True
    assert GAME.view(session("caesar"), "solo")["campaign_face_up"] is None


@pytest.mark.parametrize("number", [81, 82])
def test_ftp_conditional_mandatory_cards_become_mandatory_when_told(number: int) -> None:
    state = ftp()
    known(state, "k1", value=2, event=True, number=number)
    state["displays"]["union"]["remaining"] = 1
    assert actions(state)["mandatory"] == ["k1"]
    act(state, "mandatory", "k1")
    assert "mandatory" not in actions(state)
    act(state, "roll", "union")
    assert actions(state)["played"] == ["k1"], "now it must be played before the marker hits 0"


def test_purpose_buttons_use_the_games_words(monkeypatch) -> None:
    state = session("paths_of_glory")
    arrange(state, "central_powers", {"A": [("CP6", True)]})
    force_faces(monkeypatch, "ab")
    act(state, "roll", "central_powers")
    act(state, "played", "CP6")
    labels = GAME.view(state, "solo")["labels"]["purpose"]
    assert labels == {
        "ops": "Operations",
        "sr": "Strategic Redeployment",
        "rp": "Replacement Points",
        "event": "Event",
    }


def test_cc_random_discard_without_face_up_cards_has_no_marker_to_move() -> None:
    state = cca()
    for s in "AB":
        state["displays"]["blue"]["slots"][s][0]["up"] = False
    act(state, "random_discard", "blue")
    assert state["log"][-1] == "Blue has no face-up card to discard."
    assert state["displays"]["blue"]["remaining"] is None


def test_ftp_red_river_campaign_is_not_mandatory_for_the_confederacy() -> None:
    state = ftp()
    known(state, "k11", value=2, event=True, number=14)
    state["displays"]["confederate"]["remaining"] = 1
    act(state, "roll", "confederate")
    assert state["ts"]["face"] is not None, "the Fate Die is rolled as usual"


# ------------------------------------------------------------- rulings, one test each


def test_ruling_5_flip_one_turns_only_the_first_face_down_card_of_a_double_slot(
    monkeypatch,
) -> None:
    state = cca(blue_hand=6)
    arrange(state, "blue", {"A": [("k1", False), ("k2", False)], "B": [("k3", False)]})
    for card in ("k1", "k2", "k3"):
        known(state, card, None, kind="section")
    force_faces(monkeypatch, "event_low")
    act(state, "roll", "blue")
    act(state, "flip", "A")
    assert slot(state, "blue", "A") == [("k1", True), ("k2", False)]


def test_ruling_9_pog_empty_deck_is_rebuilt_from_the_discards_at_once(monkeypatch) -> None:
    state = session("paths_of_glory", side="central_powers")
    arrange(state, "central_powers", {"A": [("CP6", True)]})
    deck = state["decks"]["central_powers"]
    deck["discard"] += deck["draw"]
    deck["draw"] = []
    force_faces(monkeypatch, "ab")
    act(state, "roll", "central_powers")
    act(state, "played", "CP6")
    act(state, "purpose", "ops")
    assert len(slot(state, "central_powers", "A")) == 1
    assert deck["discard"] == [] and deck["draw"]
    assert state["displays"]["central_powers"]["remaining"] == 6
    clean(state)


def test_ruling_9_elsewhere_an_empty_deck_leaves_the_slot_empty(monkeypatch) -> None:
    state = ww()
    deck = state["decks"]["shared"]
    deck["discard"] += deck["draw"]
    deck["draw"] = []
    force_faces(monkeypatch, "ab")
    act(state, "roll", "british")
    act(state, "played", "k1")
    act(state, "purpose", "ops")
    assert slot(state, "british", "A") == []
    assert "reshuffle" in state["log"][-2] or "reshuffle" in state["log"][-1]
    act(state, "reshuffle", "shared")
    assert len(slot(state, "british", "A")) == 1
    clean(state)


def test_ruling_12_caesar_event_or_lowest_face_names_no_slot(monkeypatch) -> None:
    state = caesar()
    known(state, "k11", value=0, event=True, kind="reaction", number=24)
    force_rolls(monkeypatch, "rules.solo.session.roll", 2)  # the "event or lowest" face
    act(state, "reaction", "k11")
    assert ("k11", True) in slot(state, "rome", "A")


def test_ruling_16_seppuku_with_no_face_up_card_picks_among_all(monkeypatch) -> None:
    state = ccs()
    for s in "AB":
        state["displays"]["red"]["slots"][s][0]["up"] = False
    force_rolls(monkeypatch, "rules.solo.display.roll", 6, 5)  # 5 cards: 6 rerolled; 5 -> E
    card = slot(state, "red", "E")[0][0]
    act(state, "seppuku", "red")
    assert card in state["decks"]["shared"]["discard"]
    clean(state)


def test_ruling_22_iog_commitment_reshuffles_without_new_tokens() -> None:
    state = session("illusions_of_glory")
    deck = state["decks"]["allied_powers"]
    before = deck["size"]
    act(state, "commitment", "allied_powers")
    assert deck["size"] == before and state["commitment"]["allied_powers"] == "limited"
    while state["step"] == "identify":
        act(state, "unnumbered")
        act(state, "value", 2)
        act(state, "event", "yes")
        act(state, "kind", "plain")
    assert slot(state, "allied_powers", "A")[0][1] and not slot(state, "allied_powers", "D")[0][1]
    clean(state)


def test_iog_inactive_side_decides_cards_remind_the_player(monkeypatch) -> None:
    state = session("illusions_of_glory")
    card = slot(state, "central_powers", "A")[0][0]
    known(state, card, value=3, event=True, number=45)
    force_faces(monkeypatch, "ab")
    act(state, "roll", "central_powers")
    act(state, "played", card)
    act(state, "purpose", "event")
    while state["step"] == "identify":
        act(state, "unnumbered")
        act(state, "value", 2)
        act(state, "event", "yes")
        act(state, "kind", "plain")
    assert any("You decide for the other side" in line for line in state["log"])


def test_pog_display_shows_strategic_redeployment_and_removal() -> None:
    state = session("paths_of_glory")
    arrange(state, "allied_powers", {"A": [("AP1", True)]})
    shown = GAME.view(state, "solo")["displays"]["allied_powers"]["slots"]["A"][0]
    assert shown["sr"] == 4 and shown["removed_after_event"] is True and shown["value"] == 4


def test_pog_guns_of_august_is_never_dealt_into_the_display_whatever_the_shuffle() -> None:
    # CP1 is taken out before the deal: with any shuffle it waits on top of the deck.
    for seed in range(1, 41):
        state = session("paths_of_glory", seed=seed, guns_of_august=True)
        deck = state["decks"]["central_powers"]
        assert deck["draw"][0] == "CP1" and deck["top_up"] and state["goa_pending"], seed
        shown = [
            e["card"]
            for cards in state["displays"]["central_powers"]["slots"].values()
            for e in cards
        ]
        assert "CP1" not in shown
