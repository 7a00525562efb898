"""The chaos run, bounded (issue 25 §6): three bot processes and two workers on
PostgreSQL, two dozen games against Dispatch with scripted clicks, a random process
killed with SIGKILL every couple of seconds and restarted; then 0 acknowledged clicks
lost, every move of Dispatch applied once, every game replaying to its stored state.
The longer run with figures is bench/bench_chaos.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from chaos import Plan, chaos
from conftest import POSTGRES_ENV, PostgresDatabases

pytestmark = pytest.mark.slow


def test_kill_9_at_random_loses_nothing_and_applies_every_bot_move_once(
    tmp_path: Path, postgres_databases: PostgresDatabases | None
) -> None:
    if postgres_databases is None:
        pytest.skip(f"PostgreSQL run: no server (set {POSTGRES_ENV}=postgresql://...)")
    plan = Plan(
        database=postgres_databases.fresh(),
        bots=3,
        workers=2,
        games=24,
        seconds=40.0,
        kill_every_s=2.5,
        seed=25,
        folder=tmp_path,
    )
    outcome = chaos(plan)
    print("\n".join(outcome.figures()))
    assert len(outcome.kills) >= 8
    assert len(outcome.acks) >= 20, "the clicks must have gone on through the kills"
    assert outcome.lost == []
    assert outcome.twice == []
    assert outcome.not_replaying == []
