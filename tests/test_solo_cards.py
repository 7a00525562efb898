"""Card knowledge: Paths of Glory data, facts told by the player, CSV card lists, undo."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules import IllegalAction
from rules.solo import GAME
from rules.solo.cards import parse_card_list, pog_cards
from rules.solo.sheets import SHEETS, sheet
from tests.solo_helpers import act, actions, arrange, clean, known, session, slot


def test_pog_card_list_has_both_decks_of_65() -> None:
    cards = pog_cards()
    assert len(cards) == 130
    assert sum(c["side"] == "allied_powers" for c in cards.values()) == 65
    assert cards["CP17"]["name"] == "Mata Hari" and cards["AP23"]["name"] == "Cloak and Dagger"
    assert cards["CP1"]["name"] == "Guns of August" and cards["CP1"]["value"] == 3


@pytest.mark.parametrize("name", SHEETS)
def test_every_playsheet_loads_with_its_facts(name: str) -> None:
    data = sheet(name)
    assert data["name"] == name and len(data["sides"]) == 2
    assert set(data["faces"]) == {"c_low", "event_low", "abc", "ab", "cde", "de"}
    assert data["deck"] in ("single", "dual") and data["setup"] in ("standard", "standard+")


def test_setup_of_every_playsheet_is_clean() -> None:
    for name in SHEETS:
        state = GAME.setup(seed=3, options={"playsheet": name})
        assert GAME.invariants(state) == []
        assert json.loads(json.dumps(state)) == state


def test_a_flipped_unknown_card_asks_number_then_facts_and_remembers_them() -> None:
    state = GAME.setup(seed=2, options={"playsheet": "washingtons_war"})
    assert state["step"] == "identify"
    assert "number" in actions(state) and "unnumbered" in actions(state)
    first = state["asking"]["card"]
    act(state, "number", 12)
    act(state, "value", 3)
    act(state, "event", "no")
    act(state, "kind", "plain")
    assert state["identity"][first]["value"] == 3
    assert state["library"]["shared"]["12"]["value"] == 3
    # the same card number later is filled from the library: no more questions
    while state["step"] == "identify":
        act(state, "unnumbered")
        act(state, "value", 1)
        act(state, "event", "no")
        act(state, "kind", "plain")
    # the first card goes face down; later another token turns up as card 12
    for display in state["displays"].values():
        for entries in display["slots"].values():
            for entry in entries:
                if entry["card"] == first:
                    entry["up"] = False
    card = state["decks"]["shared"]["draw"][0]
    arrange(state, "british", {"C": [(card, True)]})
    from rules.solo.session import settle

    settle(GAME, state, "table")
    assert state["step"] == "identify"
    act(state, "number", 12)
    assert state["step"] == "table" and state["identity"][card]["value"] == 3


def test_a_face_up_number_is_not_offered_twice() -> None:
    state = GAME.setup(seed=2, options={"playsheet": "washingtons_war"})
    act(state, "number", 5)
    act(state, "value", 1)
    act(state, "event", "no")
    act(state, "kind", "plain")
    assert state["step"] == "identify"
    assert 5 not in actions(state)["number"]


def test_a_token_shuffled_back_is_anonymous_again() -> None:
    state = session("washingtons_war")
    card = slot(state, "british", "A")[0][0]
    state["displays"]["british"]["slots"]["A"][0]["up"] = False
    act(state, "reshuffle", "shared")
    assert card not in state["identity"]
    clean(state)


def test_csv_card_list_is_imported_and_stops_the_questions() -> None:
    text = "number,name,value,event,kind\n" + "\n".join(
        f"{n},Card {n},{n % 3 + 1},no,plain" for n in range(1, 31)
    )
    state = GAME.setup(seed=4, options={"playsheet": "washingtons_war", "card_list": text})
    assert state["decks"]["shared"]["size"] == 30
    assert state["step"] == "identify"
    act(state, "number", 7)
    assert state["asking"] is None or state["asking"]["card"] != "k7"
    assert any(f["name"] == "Card 7" for f in state["identity"].values())


def test_csv_card_list_for_a_dual_deck_needs_the_side() -> None:
    data = sheet("illusions_of_glory")
    library = parse_card_list("number,side,value\n3,allied_powers,2\n3,central_powers,4", data)
    assert library["allied_powers"]["3"]["value"] == 2
    assert library["central_powers"]["3"]["value"] == 4
    with pytest.raises(IllegalAction, match="Line 2"):
        parse_card_list("number,value\n3,2", data)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("name,value\nX,1", "header"),
        ("number,value\nfoo,1", "Line 2"),
        ("number,value\n1,one", "whole number"),
        ("number,event\n1,maybe", "yes or no"),
        ("number,kind\n1,dragon", "kind"),
        ("number\n", "no cards"),
    ],
)
def test_bad_card_list_is_refused_politely(text: str, message: str) -> None:
    with pytest.raises(IllegalAction, match=message):
        parse_card_list(text, sheet("washingtons_war"))
    with pytest.raises(IllegalAction):
        GAME.setup(seed=1, options={"playsheet": "washingtons_war", "card_list": text})


@pytest.mark.parametrize(
    "options",
    [
        {"playsheet": "monopoly"},
        {"playsheet": "caesar", "side": "carthage"},
        {"playsheet": "caesar", "scenario": "phyle"},
        {"playsheet": "caesar", "deck_size": 3},
        {"playsheet": "illusions_of_glory", "offensive": "somme"},
    ],
)
def test_bad_options_are_refused(options: dict) -> None:  # type: ignore[type-arg]
    with pytest.raises(IllegalAction):
        GAME.setup(seed=1, options=options)


def test_undo_takes_back_a_purpose_but_never_a_die_roll() -> None:
    state = session("paths_of_glory", side="central_powers")
    act(state, "new_turn")
    assert "undo" in actions(state), "table talk may be undone"
    act(state, "done")
    act(state, "roll", "central_powers")
    while state["step"] == "flip_one":
        act(state, "flip", actions(state)["flip"][0])
    assert state["step"] == "choose"
    assert "undo" not in actions(state), "the roll sealed the state"
    card = actions(state)["played"][0]
    act(state, "played", card)
    assert "undo" in actions(state)
    act(state, "undo")
    assert state["step"] == "choose" and card in actions(state)["played"]
    act(state, "played", card)
    act(state, "purpose", "ops")
    act(state, "undo")
    assert state["step"] == "purpose"
    assert card not in state["decks"]["central_powers"]["discard"]


def test_one_side_session_keeps_one_display() -> None:
    state = session("paths_of_glory", side="allied_powers")
    assert list(state["displays"]) == ["allied_powers"]
    assert actions(state)["roll"] == ["allied_powers"]
    clean(state)


def test_view_shows_face_up_facts_and_marker_values() -> None:
    state = session("paths_of_glory")
    arrange(state, "central_powers", {"A": [("CP17", True)]})
    known(state, "CP17")  # harmless for managed cards: the data wins
    view = GAME.view(state, "solo")
    shown = view["displays"]["central_powers"]["slots"]["A"][0]
    assert shown["name"] == "#17 Mata Hari" and shown["value"] == pog_cards()["CP17"]["value"]
    assert view["displays"]["central_powers"]["remaining"] == 7
    assert view["decks"]["central_powers"]["draw"] == len(state["decks"]["central_powers"]["draw"])


def test_the_paths_of_glory_cards_match_the_shared_reference_list() -> None:
    """rules/solo/data holds the 130 cards of ``shared/reference/paths_of_glory_cards.json``
    in the engine's own field names; every fact must agree with the reference."""
    # The shared reference list, as ``shared/reference`` holds it, kept in the tests.
    reference = (
        Path(__file__).resolve().parent / "fixtures" / "reference" / "paths_of_glory_cards.json"
    )
    sides = {"Allied Powers": "allied_powers", "Central Powers": "central_powers"}
    listed = {(sides[c["side"]], c["num"]): c for c in json.loads(reference.read_text())["cards"]}
    ours = pog_cards()
    assert len(ours) == len(listed) == 130
    for card_id, facts in ours.items():
        ref = listed[(facts["side"], facts["number"])]
        assert card_id == f"{'AP' if facts['side'] == 'allied_powers' else 'CP'}{ref['num']}"
        assert facts["name"] == ref["name"]
        assert facts["value"] == ref["ops"] and facts["sr"] == ref["sr"]
        assert facts["commitment"] == ref["commitment"]
        assert facts["removed_after_event"] == ref["removed_after_event"]
        assert (facts["kind"] == "combat") == ref["combat_card"]
        assert facts["war_status"] == ref["war_status"]
