"""The chaos run, bounded (issue 25 §6): three bot processes (the real bot, one shard
each) and two workers on PostgreSQL, end to end through the loopback Discord emulator:
nine games against Dispatch, their humans clicking the prompts the bot posted, a random
process killed with SIGKILL every two seconds or so and restarted (a bot process and a
worker first, so every kind is killed). Then 0 acknowledged clicks lost, 0 duplicate
posts, every move of Dispatch applied once, every game replaying to its stored state.
The longer run with figures is bench/bench_chaos.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import POSTGRES_ENV, PostgresDatabases

from tests.chaos import Plan, run_chaos

pytestmark = pytest.mark.slow


@pytest.fixture
def pg_url(postgres_databases: PostgresDatabases | None) -> str:
    if postgres_databases is None:
        pytest.skip(f"PostgreSQL run: no server (set {POSTGRES_ENV}=postgresql://...)")
    return postgres_databases.fresh()


async def test_kill_9_at_random_loses_no_click_and_posts_nothing_twice(
    tmp_path: Path, pg_url: str
) -> None:
    plan = Plan(
        database=pg_url,
        bots=3,
        workers=2,
        games=9,
        seconds=9.0,
        kill_every_s=2.0,
        seed=25,
        folder=tmp_path,
        min_acks=9,
        min_kills=3,
    )
    outcome = await run_chaos(plan)
    print("\n".join(outcome.figures()))
    killed = {name.rstrip("0123456789") for name, _ in outcome.kills}
    assert killed == {"bot", "worker"}
    assert len(outcome.kills) >= 3
    assert len(outcome.acks) >= plan.games
    first_kill = outcome.kills[0][1]
    assert any(at > first_kill for at in outcome.acked_at), "clicks must go on through kills"
    assert outcome.posts >= 2 * plan.games
    assert outcome.lost == []
    assert outcome.duplicates == []
    assert outcome.twice == []
    assert outcome.not_replaying == []
