"""``hint`` in the sandbox: the search's top choices in a practice
game, a polite refusal in a game between alice and bob dealt from a secret key."""

from __future__ import annotations

import re
from pathlib import Path

from tests.terminal.test_sandbox import run_script


async def test_a_hint_in_a_practice_game_and_a_refusal_in_a_rated_one(tmp_path: Path) -> None:
    text = await run_script(
        tmp_path, "new fort_sumter 5\nhint\nhint please\nnew fort_sumter\nhint\n", "--seed", "2"
    )
    choices = re.findall(r"   (?:\d\.|1=) Keep (.+) — [\d,]+ playouts, won \d+%", text)
    assert len(choices) == 2, text  # two objectives to keep: two choices
    assert "This game now counts as assisted: it is not rated." in text
    assert "! `hint` takes nothing: it answers for your decision now." in text
    assert "! Hints are for practice games only" in text
    assert "Traceback" not in text and "Something went wrong" not in text
