"""The sandbox's ``league`` commands against a puzzled user: a place to export to that
cannot be written is refused in a sentence that names it, never as a Python error."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.terminal.test_sandbox import run_script

pytestmark = pytest.mark.usefixtures("toy_game")


async def test_an_export_to_a_place_that_cannot_be_written_is_refused_plainly(
    tmp_path: Path,
) -> None:
    taken = tmp_path / "taken.json"
    taken.mkdir()  # a folder where the JSON would go
    text = await run_script(
        tmp_path,
        f"league new toy round_robin name=X\nleague export .\nleague export {tmp_path}/taken\n",
    )
    assert "Something went wrong" not in text and "Error(" not in text, text
    assert "! `league export .` names no file: name one, e.g. `league export winter`." in text
    assert f"! The export could not be written to {taken}: Is a directory." in text
    assert not (tmp_path / "taken.csv").exists()


async def test_a_dispatch_level_entered_by_mistake_is_taken_out_at_the_sandbox(
    tmp_path: Path,
) -> None:
    text = await run_script(
        tmp_path,
        "league new toy round_robin name=X dispatch=yes\nleague dispatch hard\n"
        "league withdraw-dispatch hard\nleague withdraw-dispatch hard\n"
        "league withdraw-dispatch god\nleague\n",
    )
    assert "Dispatch (hard) is out of league #1." in text, text
    assert "! Dispatch (hard) is not entered in X." in text
    assert "! Dispatch plays at levels" in text
    assert "Entrants (0): none yet" in text.rsplit("league #1 · X", 1)[-1]
