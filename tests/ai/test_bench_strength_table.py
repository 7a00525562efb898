"""The strength table's runner (bench/bench_strength_table.py): its interval on paired
deals, its disjoint seed ranges, and resuming without replaying a finished game."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from bench.bench_strength_table import (
    ROWS,
    SEEDS_PER_ROW,
    Game,
    build_name,
    counts,
    deal_seed,
    find_row,
    first_seed,
    load,
    main,
    pair_interval,
    plan,
    run,
    shipped_budgets,
    shipped_settings,
    sides,
    t_quantile,
    tally,
)
from rules import GAMES

ROW = find_row("war:normal:easy")
ROLES = GAMES["war"].roles


def record(row_key: str, deal: int, role: str, score: float, **extra: Any) -> dict[str, Any]:
    row = find_row(row_key)
    return {
        "row": row_key,
        "deal": deal,
        "seed": deal_seed(row, deal),
        "measured_as": role,
        "winner": None,
        "score": score,
        "cpu_seconds": 1.0,
        "budgets": shipped_budgets(row.game),
        "settings": shipped_settings(row.game),
        "build": build_name(),
        **extra,
    }


def test_t_quantiles_are_the_tables() -> None:
    for df, expected in ((1, 12.7062), (3, 3.1824), (9, 2.2622), (30, 2.0423)):
        assert t_quantile(0.975, df) == pytest.approx(expected, abs=1e-4)


def test_a_known_record_gives_its_known_interval() -> None:
    # Ten deals: six won both ways, four split: 16-0-4, pair means 1 (x6) and 0.5 (x4).
    records = [record(ROW.key, deal, role, 1.0) for deal in range(6) for role in ROLES]
    records += [
        record(ROW.key, deal, role, 1.0 if role == ROLES[0] else 0.0)
        for deal in range(6, 10)
        for role in ROLES
    ]
    counted = tally(ROW, records, ROLES)
    assert (counted.games, counted.wins, counted.draws, counted.losses) == (20, 16, 0, 4)
    mean, low, high = pair_interval(list(counted.pair_scores))
    # mean 0.8, pair sd sqrt(0.6 / 9), t(9) 2.2622: 0.8 +- 0.1847.
    assert mean == pytest.approx(0.8)
    assert (low, high) == pytest.approx((0.6153, 0.9847), abs=1e-4)


def test_draws_count_half_and_a_lone_game_waits_for_its_pair() -> None:
    records = [
        record(ROW.key, 0, ROLES[0], 0.5),
        record(ROW.key, 0, ROLES[1], 1.0),
        record(ROW.key, 1, ROLES[0], 0.0),
        record("fort_sumter:normal:easy", 1, GAMES["fort_sumter"].roles[1], 1.0),
    ]
    counted = tally(ROW, records, ROLES)
    assert (counted.games, counted.wins, counted.draws, counted.losses) == (2, 1, 1, 0)
    assert counted.pair_scores == (0.75,)
    assert counted.waiting == 1
    assert pair_interval([0.75]) == (0.75, 0.0, 1.0)


def test_pairs_all_alike_get_wilsons_interval_not_a_point() -> None:
    # Three deals won both ways: t has no spread to use; Wilson's 3 of 3 is 43.9-100%.
    mean, low, high = pair_interval([1.0, 1.0, 1.0])
    assert mean == 1.0
    assert (low, high) == pytest.approx((0.4385, 1.0), abs=1e-4)
    assert pair_interval([0.5] * 4)[1:] == pytest.approx((0.1500, 0.8500), abs=1e-4)


def test_no_two_rows_share_a_seed() -> None:
    ranges = [range(first_seed(row), first_seed(row) + SEEDS_PER_ROW) for row in ROWS]
    for one, other in itertools.combinations(ranges, 2):
        assert not set(one) & set(other)
    assert deal_seed(ROWS[1], 0) == deal_seed(ROWS[0], SEEDS_PER_ROW - 1) + 1
    with pytest.raises(ValueError):
        deal_seed(ROWS[0], SEEDS_PER_ROW)


def test_each_deal_is_played_both_ways() -> None:
    games = list(plan([ROW], 2, set()))
    assert [(game.deal, game.role) for game in games] == [
        (deal, role) for deal in range(2) for role in ROLES
    ]
    first, second = (sides(ROW, ROLES, role) for role in ROLES)
    assert first == {ROLES[0]: "normal", ROLES[1]: "greedy"}
    assert second == {ROLES[0]: "greedy", ROLES[1]: "normal"}


def fake_play(game: Game) -> dict[str, Any]:
    return record(game.row.key, game.deal, game.role, 1.0)


def test_resuming_never_replays_a_finished_game(tmp_path: Path) -> None:
    results = tmp_path / "table.jsonl"
    rows = [ROW, find_row("fort_sumter:normal:easy")]
    played: list[Game] = []

    def playing(game: Game) -> dict[str, Any]:
        played.append(game)
        return fake_play(game)

    ticks = itertools.count()
    # A run stopped after five games (its clock passes the deadline at the sixth start).
    assert run(plan(rows, 3, set()), playing, results, deadline=5, clock=lambda: next(ticks)) == 5
    with results.open("a") as out:
        out.write('{"row": "war:normal:easy", "deal"')  # a line cut short by a kill
    done = {(line["row"], line["deal"], line["measured_as"]) for line in load(results)}
    assert len(done) == 5
    assert run(plan(rows, 3, done), playing, results) == 7
    keys = [(game.row.key, game.deal, game.role) for game in played]
    assert len(keys) == len(set(keys)) == 12
    lines = load(results)
    assert len(lines) == 12
    assert all(tally(row, lines, GAMES[row.game].roles).games == 6 for row in rows)


def test_worker_processes_append_every_game(tmp_path: Path) -> None:
    results = tmp_path / "table.jsonl"
    assert run(plan([ROW], 2, set()), fake_play, results, jobs=2) == 4
    assert sorted((line["deal"], line["measured_as"]) for line in load(results)) == [
        (deal, role) for deal in range(2) for role in sorted(ROLES)
    ]


def test_lines_of_other_budgets_or_builds_are_not_counted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = tmp_path / "table.jsonl"
    lines = [record(ROW.key, 0, role, 1.0) for role in ROLES]
    lines += [record(ROW.key, 1, role, 0.0, budgets={"normal": 1, "hard": 2}) for role in ROLES]
    lines += [record(ROW.key, 2, role, 0.0, build="another") for role in ROLES]
    results.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert main(["--row", ROW.key, "--results", str(results), "--report"]) == 0
    shown = capsys.readouterr().out
    assert "2 games (1 deals), W-D-L 2-0-0" in shown
    assert "4 line(s) of other budgets, settings or builds kept, not counted" in shown


def test_lines_played_before_a_game_shipped_its_prior_are_not_counted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A row's lines count only at the settings the game ships now: lines played before
    it shipped a prior in the tree (they carry no settings) are kept, not counted, and
    their deals are played again."""
    results = tmp_path / "table.jsonl"
    before = [record(ROW.key, 0, role, 1.0) for role in ROLES]
    assert all(line["settings"] == {} for line in before)
    monkeypatch.setattr(type(GAMES["war"]), "prior_weight", 0.5)
    assert shipped_settings("war") == {"prior_weight": 0.5}
    after = [record(ROW.key, 1, role, 0.0) for role in ROLES]
    old = [{k: v for k, v in line.items() if k != "settings"} for line in before]
    results.write_text("".join(json.dumps(line) + "\n" for line in old + after))
    assert main(["--row", ROW.key, "--results", str(results), "--report"]) == 0
    shown = capsys.readouterr().out
    assert "2 games (1 deals), W-D-L 0-0-2" in shown
    assert "2 line(s) of other budgets, settings or builds kept, not counted" in shown
    done = {(line["row"], line["deal"], line["measured_as"]) for line in after}
    assert [(g.deal, g.role) for g in plan([ROW], 2, done)] == [(0, r) for r in ROLES]


def test_a_line_counts_only_at_the_margin_and_horizon_its_game_ships() -> None:
    """Lincoln's search ships a policy margin and a playout horizon: a line played at
    both counts; one played at another margin or horizon (before a retuning) does not."""
    lincoln = find_row("lincoln:normal:easy")
    shipped = {"playout_horizon": 60, "policy_margin": 0.10}
    assert shipped_settings("lincoln") == shipped
    role = GAMES["lincoln"].roles[0]
    assert counts(record(lincoln.key, 0, role, 1.0), build_name())
    other_margin, other_horizon = (
        {**shipped, "policy_margin": 0.05},
        {**shipped, "playout_horizon": 80},
    )
    for settings in (other_margin, other_horizon, {}):
        line = record(lincoln.key, 0, role, 1.0, settings=settings)
        assert not counts(line, build_name()), settings
