"""A CDG Solo System session in the terminal sandbox: one seat, a board after each change."""

from __future__ import annotations

import io
import json
from pathlib import Path

from bot.storage.store import Store
from bot.tables import solo
from bot.tables.manager import GameManager
from bot.tables.requests import Move
from bot.terminal.frontend import TerminalFrontEnd
from bot.terminal.sandbox import Sandbox
from tests.terminal.test_sandbox import run_script


async def test_a_paths_of_glory_session_plays_in_the_terminal(tmp_path: Path) -> None:
    text = await run_script(
        tmp_path,
        "new solo paths_of_glory central_powers 5\n"
        "roll central_powers\n"
        "1\n"  # the first card the die allows
        "undo\n"
        "1\n"
        "purpose ops\n"
        "auto 30\n"
        "end\n"
        "status\n",
    )
    assert "This is game #1, CDG Solo System, for alice alone." in text
    assert "# Paths of Glory: CDG Solo System session" in text
    assert "Fate Die for Central Powers:" in text
    assert "Undone" in text
    assert "(slot D) for Operations." in text or "for Operations." in text
    # every change writes the display image
    boards = sorted((tmp_path / "out").glob("*-board-*.png"))
    assert len(boards) >= 5
    assert "bob" not in text.split("status", 1)[1]  # nobody else is seated
    assert "· finished ·" in text
    assert "Traceback" not in text and "Something went wrong" not in text


async def test_bad_solo_words_are_refused_politely(tmp_path: Path) -> None:
    text = await run_script(
        tmp_path,
        "new solo no_such_sheet\nnew solo caesar martians\nnew solo cc_ancients blue atlantis\n",
    )
    assert text.count("is not a playsheet, side, scenario or seed") == 1  # no_such_sheet
    # Once a playsheet is named, the refusal lists that playsheet's own words.
    assert "“martians” is not a side, scenario or seed of Caesar: Rome vs Gaul (sides: " in text
    assert "“atlantis” is not a side, scenario or seed of Commands & Colors: Ancients" in text
    assert "This is game" not in text


async def test_a_side_named_before_its_playsheet_says_which_playsheet_has_it(
    tmp_path: Path,
) -> None:
    """Found by a newcomer: `new solo central_powers` answered that central_powers was
    "not a playsheet, side, scenario or seed", although it is a side (of two playsheets)."""
    text = await run_script(tmp_path, "new solo central_powers\n")
    assert (
        "“central_powers” is a side of Paths of Glory and Illusions of Glory: name the "
        "playsheet first, as in `new solo paths_of_glory central_powers`." in text
    )
    assert "This is game" not in text


async def test_a_token_game_asks_the_facts_of_a_flipped_card(tmp_path: Path) -> None:
    text = await run_script(tmp_path, "new solo caesar rome 3\nnumber 12\nvalue 3\nevent no\n")
    assert "which card number is it?" in text
    assert "What is its AP value?" in text
    assert "Does it have an event you could play?" in text
    assert "What kind of card is it?" in text


async def test_new_solo_without_a_playsheet_asks_for_one(tmp_path: Path) -> None:
    """Found by a newcomer: `new solo` alone used to start Paths of Glory unasked."""
    text = await run_script(tmp_path, "new solo\nnew solo 5\nnew solo marsbar\ngames\n")
    assert text.count("Which playsheet?") == 2
    for name, title in solo.playsheets():
        assert f"  · {name} — {title}" in text  # listed, one a line, under the question
    assert "“marsbar” is not a playsheet" in text and "paths_of_glory" in text
    assert "This is game" not in text and "── table" not in text
    assert "No open games" in text  # nothing was started


async def test_new_solo_takes_the_options_of_slash_solo_new(tmp_path: Path) -> None:
    """The sandbox's `new solo` could not set what `/solo new options:`
    can. Both now read `key=value` with the one parser (``solo.extra_options``)."""
    text = await run_script(
        tmp_path,
        "new solo caesar rome 3 deck_size=40 eight_card_hands=yes\n"
        "new solo paths_of_glory allied_powers 4 guns_of_august=yes\n"
        "new solo illusions_of_glory 5 offensive=galicia_offensive\n"
        "new solo cc_ancients blue 6 blue_hand=4 red_hand=6\n"
        "new solo caesar 7 card_list=x\n"
        "new solo caesar 8 deck_size=5\n"
        "new solo caesar 9 colour=red\n",
    )
    assert text.count("This is game #") == 4
    assert "set card_list with its own field" in text
    assert "deck size must be between 10 and 400" in text
    assert "Traceback" not in text and "Something went wrong" not in text
    store = await Store.open(tmp_path / "sandbox.sqlite3")
    try:
        async with store.read() as db:
            rows = [await db.game(n) for n in (1, 2, 3, 4)]
    finally:
        await store.close()
    chosen = [json.loads(row.options_json) for row in rows]
    assert chosen[0]["deck_size"] == 40 and chosen[0]["eight_card_hands"] is True
    assert chosen[1]["guns_of_august"] is True
    assert chosen[2]["offensive"] == "galicia_offensive"
    assert (chosen[3]["blue_hand"], chosen[3]["red_hand"]) == (4, 6)


async def test_numbers_mean_the_card_number_and_value_typed(tmp_path: Path) -> None:
    """Once #12 was told, the list of card numbers shifted (typing 20
    took #21), and `3` at the value question gave the third choice, a value of 2. A
    question answered by a number lists its choices under that number; undo changes
    nothing about which number is which."""
    text = await run_script(
        tmp_path,
        "new solo caesar rome 3\n12\n7\n3\nevent no\nkind plain\n12\n20\nundo\n20\n4\n",
    )
    assert "   or type: unnumbered — It has no number" in text
    assert " 3) value 3 — 3" in text
    assert "7 is not one of the choices now" in text
    assert "12 is not one of the choices now" in text  # #12 is face up already
    store = await Store.open(tmp_path / "sandbox.sqlite3")
    try:
        async with store.read() as db:
            told = [(a.verb, a.arg) for a in await db.actions(1)]
    finally:
        await store.close()
    assert told == [
        ("number", 12),
        ("value", 3),
        ("event", "no"),
        ("kind", "plain"),
        ("number", 20),
        ("undo", None),
        ("number", 20),
        ("value", 4),
    ]


async def test_a_number_typed_after_the_game_moved_is_not_guessed(tmp_path: Path) -> None:
    """A number means the list last shown. When the game moved since
    (here the same seat played from elsewhere), the number is not taken from the new list:
    the sandbox says so, changes nothing and shows the new list."""
    out = io.StringIO()
    front_end = TerminalFrontEnd(out=out, out_dir=tmp_path / "out")
    manager = await GameManager.open(tmp_path / "s.sqlite3", front_end)
    try:
        sandbox = Sandbox(manager, front_end, seed=1)
        await sandbox.handle("new solo paths_of_glory central_powers 5")
        await manager.act(1, "alice", Move("roll", "central_powers"))  # not through the list
        version = (await manager.get_game_info(1)).version
        await sandbox.handle("1")
        assert (await manager.get_game_info(1)).version == version
        text = out.getvalue()
        assert "The choices changed since this list was shown; nothing was done." in text
        await sandbox.handle("1")  # from the list just shown: taken
        assert (await manager.get_game_info(1)).version == version + 1
    finally:
        await manager.close()
