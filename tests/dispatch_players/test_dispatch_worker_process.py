"""A real ``dispatch worker`` process: SIGTERM mid-search gives its lease
back and exits 0 at once; the command refuses what it cannot use."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import RecordingFrontEnd

from bot.__main__ import main
from bot.dispatch_players.bots import BotSeats
from bot.tables.bot_users import bot_user
from bot.tables.manager import GameManager
from bot.tables.requests import NewGame

ROOT = Path(__file__).resolve().parents[2]
NORMAL = bot_user("normal")


async def a_game_owing_a_move(db: Path) -> int:
    manager = await GameManager.open(db, RecordingFrontEnd())
    BotSeats.attach(manager, workers="thread").nudge = lambda game_id: None  # type: ignore[method-assign]
    try:
        info = await manager.create_game(
            "g1", "c1", "alice", NewGame("fort_sumter", seat="secessionist", opponent_id=NORMAL)
        )
    finally:
        await manager.close()
    return info.id


def job_row(db: Path) -> tuple[object, ...] | None:
    with sqlite3.connect(db, timeout=60) as con:
        row = con.execute(
            "SELECT claimed_by, lease_until, attempts, status FROM bot_jobs"
        ).fetchone()
        workers = con.execute("SELECT COUNT(*) FROM bot_workers").fetchone()[0]
    return (*row, workers) if row else None


def start_worker(env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "bot", "worker"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), **env},
        stderr=subprocess.PIPE,
        text=True,
    )


async def test_sigterm_mid_search_gives_the_lease_back_and_exits_0(tmp_path: Path) -> None:
    db = tmp_path / "dispatch.sqlite3"
    await a_game_owing_a_move(db)
    # A search far longer than the test: it is mid-search when the signal comes.
    worker = start_worker({"DISPATCH_DB": str(db), "DISPATCH_WORKER_ITERATIONS": str(10**9)})
    try:
        # Waiting on the other process, not on a clock of ours.
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            row = job_row(db)
            if row is not None and row[0] is not None:
                break
            time.sleep(0.05)
        claimed = job_row(db)
        assert claimed is not None and claimed[0] is not None, claimed
        assert claimed[2:] == (1, "pending", 1)  # one attempt, one worker alive
        worker.send_signal(signal.SIGTERM)
        assert worker.wait(timeout=60) == 0
    finally:
        if worker.poll() is None:
            worker.kill()
            worker.wait()
    assert job_row(db) == (None, None, 0, "pending", 0)


def test_the_worker_command_refuses_arguments_and_a_wrong_setting(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["worker", "--now"]) == 2
    assert "takes no arguments" in capsys.readouterr().err
    monkeypatch.setenv("DISPATCH_WORKER_ITERATIONS", "lots")
    assert main(["worker"]) == 2
    assert "DISPATCH_WORKER_ITERATIONS must be a positive number" in capsys.readouterr().err
