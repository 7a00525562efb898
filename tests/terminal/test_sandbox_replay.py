"""Replays in the sandbox: ``replay [number]`` writes a game's
animated board and its public log and prints their paths; a game still being played, a
game that does not exist and a word that is not a number are refused politely."""

from __future__ import annotations

import re
from pathlib import Path

from PIL import Image

from tests.terminal.test_sandbox import run_script


async def test_replay_writes_the_animation_and_the_log(tmp_path: Path) -> None:
    text = await run_script(
        tmp_path,
        "new war 5\nreplay\nauto 40\nresign\nreplay\nreplay 1\nreplay 9\nreplay one\nreplay 1 2\n",
        "--seed",
        "2",
    )
    assert "! Game #1 is still being played: its replay is ready once it is over." in text
    gifs = re.findall(r"animation: (\S+\.gif)", text)
    logs = re.findall(r"log: (\S+-log\.txt)", text)
    assert len(gifs) == len(logs) == 2 and gifs[0] == gifs[1]
    movie = Image.open(gifs[0])
    assert movie.format == "GIF" and movie.n_frames > 3
    closing = Path(logs[0]).read_text(encoding="utf-8").splitlines()[-1]
    assert closing == "Game over: Confederacy wins (Union resigned).", closing
    assert "! Game #9 is not a game you played or one played on this server" in text
    assert text.count("! Which game? `replay` (the current one) or `replay <number>`.") == 2
    assert "Traceback" not in text and "Something went wrong" not in text
