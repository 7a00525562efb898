"""Leagues in the terminal sandbox (``league ...``), typed as a player would type them:
a league opened, its entrants (local players and Dispatch's levels), and bad input
refused with one clear line that changes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.terminal.test_sandbox import run_script

pytestmark = pytest.mark.usefixtures("toy_game")


async def test_a_league_is_opened_and_entered_at_the_sandbox(tmp_path: Path) -> None:
    text = await run_script(
        tmp_path,
        'league new toy round_robin name="Winter cup" dispatch=yes round=2\n'
        "league join\nleague join bob carol\nleague dispatch easy\nleague\nleague list\n",
    )
    assert "League #1 “Winter cup”: Toy Twenty-One, round robin, rated · entry" in text, text
    assert "alice entered league #1 (1 entrant)." in text
    assert "carol entered league #1 (3 entrants)." in text
    assert "Dispatch (easy) entered league #1 (4 entrants)." in text
    assert "Entrants (4): alice, bob, carol, Dispatch (easy)" in text
    assert "#1 Winter cup · entry ←" in text
    assert "!" not in text.replace("league #1", "")  # nothing refused
    assert "Traceback" not in text and "Something went wrong" not in text


async def test_bad_league_words_are_refused_and_change_nothing(tmp_path: Path) -> None:
    text = await run_script(
        tmp_path,
        "league join\n"
        "league new\nleague new toy\nleague new chess swiss rounds=3\n"
        "league new toy knockout\nleague new toy swiss\nleague new toy swiss rounds=x\n"
        "league new toy swiss rounds=3 rounds=4\nleague new toy swiss rounds=3 colour=red\n"
        "league new toy swiss rounds=3 entry=soon\nleague new toy swiss rounds=3 rated=maybe\n"
        "league new toy round_robin rounds=3\nleague new toy round_robin name=\n"
        "league new toy round_robin\n"
        "league frob\nleague join alice alice\nleague dispatch easy\nleague dispatch a b\n"
        "league use\nleague use 9\nleague standings now\nleague list\nleague\n",
    )
    for refusal in (
        "! No league yet: type `league new <game> <format>`",
        "! Which game and format? `league new <game> <format>",
        "! There is no game called “chess”.",
        "! A league's format is one of: round_robin, double_round_robin, swiss, elimination.",
        "! A Swiss is played over 1 to 20 rounds: say how many.",
        "! `rounds=` is a whole number, not “x”.",
        "! `rounds=` is given twice: give it once.",
        "! “colour=red” is not understood here",
        "! `entry=` is a number of days, such as 7 or 0.5, not “soon”.",
        "! `rated=` takes yes or no, not “maybe”.",
        "! Only a Swiss takes a number of rounds.",
        "! A league's name is one line of 1 to 60 characters.",
        "! “frob” is not a league command",
        "! Name each player once: `league join carol dave`.",
        "! `league dispatch` takes at most a level",
        "! Which league? `league use <id>`",
        "! There is no league #9 on this server.",
        "! `league standings` takes nothing after it.",
    ):
        assert refusal in text, (refusal, text)
    # Of all that, one league was opened (the one well typed), and nobody entered it.
    assert text.count("League #1 “Toy Twenty-One round robin”") == 2  # opened, then shown
    assert "#2" not in text
    assert "Entrants (0): none yet" in text
    assert "entered league" not in text
    assert "Traceback" not in text and "Something went wrong" not in text
