"""Ratings in the sandbox: a game without a chosen seed is rated,
its end post prints each player's change, ``leaderboard <game>`` lists the same numbers,
and a practice game (a seed) is not rated."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.terminal.test_sandbox import run_script

pytestmark = pytest.mark.usefixtures("toy_game")


async def test_a_sandbox_game_is_rated_and_its_leaderboard_shows_it(tmp_path: Path) -> None:
    text = await run_script(tmp_path, "new toy\nauto\nleaderboard toy\n", "--seed", "2")
    assert "Game over:" in text and "Traceback" not in text
    changes = dict(
        (who, int(after))
        for who, after in re.findall(r"rating of (alice|bob): 1500 → (\d+) \([+−±]\d+\)", text)
    )
    assert set(changes) == {"alice", "bob"}, text
    board = dict(re.findall(r"   [12]\. (alice|bob) (\d+) · 1 game, [01] wins?", text))
    assert {who: int(points) for who, points in board.items()} == changes


async def test_a_practice_game_is_not_rated_and_bad_input_is_refused(tmp_path: Path) -> None:
    text = await run_script(
        tmp_path,
        "new toy 3\nauto\nleaderboard toy\nleaderboard\nleaderboard chess\n"
        "leaderboard toy 0\nleaderboard solo\n",
        "--seed",
        "2",
    )
    assert "Game over:" in text and "rating of" not in text
    assert "No rated game of Toy Twenty-One yet." in text
    assert "! Which game? `leaderboard <game> [n]`" in text
    assert "! There is no game called “chess”" in text
    assert "! How many? `leaderboard <game> [n]`, n from 1 to 25." in text
    assert "is played alone, so it has no ratings or leaderboard." in text
    assert "Traceback" not in text and "Something went wrong" not in text
