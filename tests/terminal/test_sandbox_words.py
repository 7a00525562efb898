"""The sandbox's words: each line said once, counts in plain English, a side named as the
table names it, a word that is neither a player nor a game answered so, and a solo
session that ends without being called a draw."""

from __future__ import annotations

from pathlib import Path

from tests.terminal.test_sandbox import run_script


async def test_a_closed_solo_session_is_said_once_and_never_called_a_draw(
    tmp_path: Path,
) -> None:
    text = await run_script(
        tmp_path,
        "new solo paths_of_glory central_powers 5\nend\ngames finished\nstats\nstatus\n",
    )
    assert text.count("The solo session is closed.") == 1, text
    [row] = [line for line in text.splitlines() if " CDG Solo System as " in line]
    assert "CDG Solo System as Solo player: ended (the solo session was closed)" in row
    assert "drawn" not in text and "vs yourself" not in text
    assert "Result: Closed — the solo session was closed" in text
    assert "a draw" not in text.lower()


async def test_a_record_of_one_game_says_game_and_a_stranger_is_neither_player_nor_game(
    tmp_path: Path,
) -> None:
    text = await run_script(
        tmp_path,
        "new war 7\nauto\nstats\nstats nobody\nstats bob nowar\nstats war\n",
    )
    assert "Record of alice: 1 finished game\n" in text
    assert "Record of alice: 1 finished game of War Between the States\n" in text
    assert "! There is no player or game called nobody." in text
    assert "! There is no game called nowar (games: " in text
    assert "finished games of nobody" not in text


async def test_status_names_each_side_as_the_table_does(tmp_path: Path) -> None:
    text = await run_script(tmp_path, "new war 7\nstatus\nhelp\n")
    assert "alice plays Union, bob plays Confederacy (confederate)." in text
    assert "   Union: alice (to act, you)\n" in text
    assert "   Confederacy (confederate): bob (to act)\n" in text
    assert "   confederate: bob" not in text
    # The help's `open`: whoever is at the keyboard sits.
    assert "a lobby: whoever is at the keyboard takes the first side" in text


async def test_a_comment_after_a_command_is_not_read_as_its_words(tmp_path: Path) -> None:
    """The README's lines carry comments: `new war   # or: ...` is `new war`, while a `#`
    inside a word or in quotes stays part of it."""
    text = await run_script(
        tmp_path,
        "new war 7   # or: new fort_sumter\n"
        "# a whole line of comment\n"
        "1 # the first action\n"
        'league new war round_robin name="Cup #1" # quoted, kept\n'
        "status   # the table\n",
    )
    assert "New game of War Between the States" in text
    assert "seed must be" not in text and "One number at a time" not in text
    assert "Cup #1" in text
    assert "#1 War Between the States · active" in text
    assert "Traceback" not in text and "Something went wrong" not in text
