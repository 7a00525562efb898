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
        "new solo paths_of_glory central_powers 5\nend\ngames finished\nstats\n",
    )
    assert text.count("The solo session is closed.") == 1, text
    [row] = [line for line in text.splitlines() if line.startswith("   #1 ")]
    assert "CDG Solo System as Solo player: ended (the solo session was closed)" in row
    assert "drawn" not in text and "vs yourself" not in text


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
    # The help's `open`: alice sits whoever is at the keyboard.
    assert "a lobby: alice takes the first side (whoever is at the keyboard)" in text
