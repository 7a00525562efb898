"""The chaos run, bounded: three bot processes (the real bot, one shard
each) and two workers on PostgreSQL, end to end through the loopback Discord emulator:
nine games against Dispatch, their humans clicking the prompts the bot posted, a random
process killed with SIGKILL every two seconds or so and restarted (a bot process and a
worker first, so every kind is killed). Then 0 acknowledged clicks lost, 0 duplicate
posts, every move of Dispatch applied once, every game replaying to its stored state.
The longer run with figures is bench/bench_chaos.py.

Then the database's faults, on a PostgreSQL server of the run's own: PostgreSQL
restarted mid-play and every connection dropped with ``pg_terminate_backend``, kills as
well; a settle phase (every post delivered, no game damaged or stuck, every live game's
**My prompt** answering with a prompt, no process ended by itself); a killed process's
claims taken over within 30 s; SIGTERM to every process while the humans click, after
which each has stopped cleanly and no claim is held by a stopped process."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from chaos_server import private_server

from tests.chaos import Outcome, Plan, chaos, run_chaos

pytestmark = pytest.mark.slow


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


# ------------------------------------------------------------ the database's faults
# One run on a PostgreSQL server of its own (restarted mid-play: the shared test server
# must never be), read by the tests below: kills as above, and the database restarted
# once and every connection dropped twice; then a settle phase, and SIGTERM to every
# process while the humans click.


@pytest.fixture(scope="module")
def faulted() -> Iterator[Outcome]:
    with private_server() as server:
        if server is None:
            pytest.skip("no PostgreSQL server programs here (initdb, pg_ctl)")
        plan = Plan(
            database=server.url,
            bots=2,
            workers=2,
            games=6,
            seconds=12.0,
            kill_every_s=3.0,
            seed=10,
            folder=Path(tempfile.mkdtemp(prefix="dispatch-chaos-faults-")),
            min_acks=6,
            min_kills=2,
            faults=("drop", "restart", "drop"),
            server=server,
            settle_s=40.0,
        )
        outcome = chaos(plan)
        print("\n".join(outcome.figures()))
        yield outcome


def test_postgres_restarted_and_connections_dropped_mid_play(faulted: Outcome) -> None:
    assert [kind for kind, _ in faulted.faults] == ["drop", "restart", "drop"]


def test_through_the_faults_every_acknowledged_click_is_applied_once(faulted: Outcome) -> None:
    assert faulted.lost == []
    assert faulted.applied_twice == []
    assert faulted.twice == []
    assert faulted.duplicates == []


def test_after_the_faults_every_game_replays(faulted: Outcome) -> None:
    assert faulted.not_replaying == []


def test_after_the_faults_every_game_settles_with_a_current_prompt(faulted: Outcome) -> None:
    restart_at = faulted.faults[1][1]
    assert any(at > restart_at for at in faulted.acked_at), "clicks must go on after it"
    assert faulted.unsettled == []


def test_a_killed_process_claims_are_taken_over_within_30_s(faulted: Outcome) -> None:
    assert faulted.not_taken_over == []
    assert all(seconds <= 30.0 for seconds in faulted.takeovers), faulted.takeovers


def test_sigterm_under_load_stops_every_process_cleanly_leaving_no_claim(
    faulted: Outcome,
) -> None:
    assert faulted.unclean_stops == []
    assert faulted.held_after_stop == []
