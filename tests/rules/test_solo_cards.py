"""Card knowledge: Paths of Glory data, facts told by the player, CSV card lists, undo."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot import errors
from bot.storage.store import Store
from bot.tables import solo, validate
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


def test_the_engine_refuses_a_card_number_listed_twice_naming_both_lines() -> None:
    """The engine refuses what it cannot hold, whoever calls it: one card per number and
    deck, so a second row for a number names both lines instead of the later one winning."""
    text = "number,name,value\n4,Lafayette,3\n5,Rochambeau,2\n4,de Grasse,1"
    with pytest.raises(IllegalAction, match=r"Line 4: card #4 is listed already on line 2"):
        parse_card_list(text, sheet("washingtons_war"))
    with pytest.raises(IllegalAction, match="line 2"):
        GAME.setup(seed=1, options={"playsheet": "washingtons_war", "card_list": text})
    dual = sheet("illusions_of_glory")
    with pytest.raises(IllegalAction, match="lines 2 and 4"):
        parse_card_list("number,side\n3,allied_powers\n3,central_powers\n3,allied_powers", dual)


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
    """rules/solo/data holds the 130 cards of the public Paths of Glory card list
    (``fixtures/reference/paths_of_glory_cards.json``) in the engine's own field names;
    every fact must agree with the reference."""
    reference = (
        Path(__file__).resolve().parents[1] / "fixtures" / "reference" / "paths_of_glory_cards.json"
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


# -- imported lists, read strictly by the bot (bot.tables.card_csv)

HEAD = "number,name,value,event,kind\n"


def test_a_card_number_listed_twice_is_refused_naming_both_lines() -> None:
    """The later row used to win silently."""
    text = HEAD + "3,Senate,1,no,plain\n5,Legion,2,no,plain\n3,Revolt,2,yes,plain\n"
    with pytest.raises(errors.CardListRefused) as refused:
        solo.check_card_list("caesar", text)
    assert "Line 4: card #3 is listed already on line 2" in str(refused.value)
    assert "lines 2 and 4" in str(refused.value)
    # One number per side where each side has its own deck.
    dual = "number,side,value\n3,allied_powers,2\n3,central_powers,4\n"
    assert solo.check_card_list("illusions_of_glory", dual)[1] == 2
    with pytest.raises(errors.CardListRefused, match="Line 4: card #3 is listed already on line 2"):
        solo.check_card_list("illusions_of_glory", dual + "3,Allied Powers,1\n")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (HEAD + "1,Senate,1,no,plain\r2,Legion,2,no,plain\n", "Line 2: it holds a carriage"),
        (HEAD + '1,"Senate,1,no,plain\n2,Legion,2,no,plain\n', 'Line 2: a quote (") is not'),
        (HEAD + "1,Sen\x00ate,1,no,plain\n", "Line 2: it holds an invisible control character"),
        (HEAD + "1,\x1b[31mRed\x1b[0m,1,no,plain\n", "(U+001B)"),
        (HEAD + "1,Evil\u202eelaS,1,no,plain\n", "(U+202E)"),
        (HEAD + "1,Tab\there,1,no,plain\n", "(U+0009)"),
        (HEAD + "٣,Senate,1,no,plain\n", "the number “٣” is not a number from 1"),
        (HEAD + "１２,Senate,1,no,plain\n", "the number “１２” is not a number"),
        (HEAD + "1_000,Senate,1,no,plain\n", "the number “1_000” is not a number"),
        (HEAD + "+7,Senate,1,no,plain\n", "the number “+7” is not a number"),
        (HEAD + "0,Senate,1,no,plain\n", "the number “0” is not a number from 1"),
        (HEAD + "7,Senate,٣,no,plain\n", "the value “٣” is not a number from 0 to 6"),
        (HEAD + "7,Senate,9,no,plain\n", "the value “9” is not a number from 0 to 6"),
        (HEAD + "7,Senate,1,no,plain,extra\n", "Line 2: it has 6 fields, the header 5"),
        ("number,colour\n1,red\n", "Line 1: there is no column “colour”"),
        ("number,name,name\n1,a,b\n", "Line 1: the column “name” is named twice"),
        (HEAD + "7," + "N" * 81 + ",1,no,plain\n", "longer than 80"),
    ],
)
def test_an_imported_list_is_read_strictly(text: str, message: str) -> None:
    """Each of these was taken (or escaped as a raw ``_csv.Error``)."""
    with pytest.raises(errors.CardListRefused) as refused:
        solo.check_card_list("caesar", text)
    said = str(refused.value)
    assert said.startswith("The card list was not imported: ") and message in said
    assert "\x00" not in said and "\x1b" not in said and "\r" not in said


def test_a_realistic_list_is_kept_with_plain_line_ends() -> None:
    rows = [
        f'{n},"Card {n}, the {n}th",{n % 4},{"yes" if n % 2 else "no"},plain' for n in range(1, 111)
    ]
    text = "\ufeff" + HEAD.replace("\n", "\r\n") + "\r\n".join(rows) + "\r\n\r\n"
    clean, count = solo.check_card_list("caesar", text)
    assert count == 110 and "\r" not in clean and not clean.startswith("\ufeff")
    state = GAME.setup(seed=2, options={"playsheet": "caesar", "card_list": clean})
    assert state["library"]["shared"]["42"]["name"] == "Card 42, the 42th"


def test_a_card_list_passed_as_an_option_is_read_strictly_at_the_front_door() -> None:
    """Whoever passes ``card_list`` (``/solo new`` from the store, a typed JSON option),
    the manager's front door reads it as strictly as an import, and takes a real list's
    length (the 200-character cap is for typed option texts)."""
    rows = "\n".join(f"{n},Card {n},1,no,plain" for n in range(1, 111))
    assert len(validate.options({"card_list": HEAD + rows})["card_list"]) > 2000
    with pytest.raises(errors.CardListRefused, match="Line 3: card #3 is listed already on line 2"):
        validate.options({"card_list": "number\n3\n3\n"})
    with pytest.raises(errors.BadOptions, match="a short text"):
        validate.options({"colour": "x" * 201})


async def test_a_list_kept_before_the_strict_reading_is_refused_with_what_to_do(
    tmp_path: Path,
) -> None:
    """A list stored by an older version (the same number twice) is not started with: the
    player is told which list is wrong and how to mend it."""
    store = await Store.open(tmp_path / "s.sqlite3")
    try:
        async with store.transaction() as db:
            await db.settings.set_solo_card_list(
                "g1", "caesar", "number,value\n3,1\n3,2\n", 2, "u1"
            )
        with pytest.raises(errors.CardListRefused) as refused:
            await solo.card_list_for(store, "g1", "caesar")
        said = str(refused.value)
        assert "card list imported here for Caesar: Rome vs Gaul does not pass" in said
        assert "Line 3: card #3 is listed already on line 2" in said
        assert await solo.card_list_for(store, "g2", "caesar") == ""
    finally:
        await store.close()


def test_a_row_of_empty_fields_is_a_blank_line_for_the_engine_too() -> None:
    """Found in review: a spreadsheet exports a row it once formatted as ``,,,,``. The
    strict reading skips it as blank, but the kept text held it and the engine refused
    the whole list: "Line 4: the number '' is not a number". Only card lines are kept."""
    text = HEAD + "1,Senate,1,no,plain\n,,,,\n2,Legion,2,no,plain\n , \n,,,,\n"
    clean, count = solo.check_card_list("caesar", text)
    assert count == 2 and ",," not in clean
    state = GAME.setup(seed=2, options={"playsheet": "caesar", "card_list": clean})
    assert sorted(state["library"]["shared"]) == ["1", "2"]
    # A list passed as an option is kept the same way at the front door.
    typed = validate.options({"card_list": text})["card_list"]
    assert typed == clean
