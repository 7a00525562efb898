"""The sequential test of bench/bench_sprt.py: its arithmetic, its stopping rule, parallel
play counted in game order, resuming from a results file and refusing a foreign one."""

from __future__ import annotations

import io
import json
import math
import os
import random
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from bench.bench_ai_strength import make, variant
from bench.bench_sprt import (
    H0_ACCEPTED,
    H1_ACCEPTED,
    UNDECIDED,
    GameFailed,
    Settings,
    SettingsMismatch,
    llr,
    llr_increment,
    main,
    play_game,
    player_spec,
    report,
    run_sprt,
    sprt_bounds,
    wilson_interval,
)
from rules import GAMES
from rules.ai import SearchPlayer

SETTINGS = Settings(game="toy", first="hard@100", second="random", budgets={"hard@100": 100})
ROLES = ("north", "south")


def result(settings: Settings, index: int, score: float) -> dict[str, Any]:
    """A result line as ``play_game`` writes it, for a game of the given score."""
    sides = settings.sides(index, ROLES)
    mine, other = ROLES[index % 2], ROLES[1 - index % 2]
    winner = None if score == 0.5 else mine if score == 1.0 else other
    return {
        "index": index,
        "seed": settings.seed(index),
        "sides": sides,
        "winner": winner,
        "score": score,
        "cpu_seconds": 1.0,
    }


def always(score: float, index: int) -> dict[str, Any]:
    return result(SETTINGS, index, score)


def alternating(index: int) -> dict[str, Any]:
    """Win, loss, win, loss...: exactly 50%."""
    return result(SETTINGS, index, 1.0 if index % 2 == 0 else 0.0)


def lucky(index: int) -> dict[str, Any]:
    """A fixed pseudo-random sequence of wins (58%), draws (4%) and losses: it decides, at
    the 52nd game."""
    draw = random.Random(index).random()
    return result(SETTINGS, index, 1.0 if draw < 0.58 else 0.5 if draw < 0.62 else 0.0)


def test_bounds_are_plus_and_minus_2_944_at_five_percent() -> None:
    lower, upper = sprt_bounds(0.05, 0.05)
    assert lower == pytest.approx(-2.944, abs=5e-4)
    assert upper == pytest.approx(2.944, abs=5e-4)
    assert upper == pytest.approx(math.log(19))
    # Unequal error rates: log(beta / (1 - alpha)) and log((1 - beta) / alpha).
    assert sprt_bounds(0.01, 0.1) == pytest.approx((math.log(0.1 / 0.99), math.log(90)))


def test_llr_of_a_win_a_loss_and_a_draw() -> None:
    assert llr_increment(1.0, 0.5, 0.6) == pytest.approx(math.log(1.2))
    assert llr_increment(0.0, 0.5, 0.6) == pytest.approx(math.log(0.8))
    # A draw: half a win's term and half a loss's.
    assert llr_increment(0.5, 0.5, 0.6) == pytest.approx(0.5 * math.log(1.2 * 0.8))
    assert llr([1.0, 0.0, 0.5, 1.0], 0.5, 0.6) == pytest.approx(
        2 * math.log(1.2) + math.log(0.8) + 0.5 * math.log(0.96)
    )
    with pytest.raises(ValueError):
        llr_increment(0.7, 0.5, 0.6)


def test_wilson_interval_known_values() -> None:
    assert wilson_interval(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson_interval(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson_interval(17, 17) == pytest.approx((0.8157, 1.0), abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_all_wins_accept_h1_at_the_17th_game() -> None:
    # 16 wins give 16 log 1.2 = 2.917 < 2.944; the 17th gives 3.099.
    log = io.StringIO()
    outcome = run_sprt(SETTINGS, partial(always, 1.0), log=log)
    assert outcome.tally.decision == H1_ACCEPTED
    assert outcome.stopped_by == "decision"
    assert (outcome.tally.games, outcome.tally.wins, outcome.played) == (17, 17, 17)
    assert outcome.tally.llr == pytest.approx(17 * math.log(1.2))
    lines = log.getvalue().splitlines()
    assert len(lines) == 17
    assert "from the results file" not in log.getvalue()
    assert lines[15].endswith(UNDECIDED)
    assert lines[16].endswith(H1_ACCEPTED)
    assert "LLR +3.099 in (-2.944, +2.944)" in lines[16]
    assert "95% interval 81.6-100.0%" in lines[16]


def test_all_losses_accept_h0_at_the_14th_game() -> None:
    # 13 log 0.8 = -2.901; 14 log 0.8 = -3.124.
    outcome = run_sprt(SETTINGS, partial(always, 0.0))
    assert (outcome.tally.decision, outcome.tally.games) == (H0_ACCEPTED, 14)


def test_an_even_sequence_accepts_h0_at_the_146th_game() -> None:
    # Each win-loss pair adds log 0.96 = -0.0408; after 72 pairs the LLR is -2.939, still
    # inside; the 73rd pair's win leaves it at -2.757, its loss takes it to -2.980.
    outcome = run_sprt(SETTINGS, alternating)
    assert outcome.tally.decision == H0_ACCEPTED
    assert (outcome.tally.games, outcome.tally.wins, outcome.tally.losses) == (146, 73, 73)
    assert outcome.tally.llr == pytest.approx(73 * math.log(0.96))


def test_draws_count_half() -> None:
    outcome = run_sprt(SETTINGS, partial(always, 0.5), max_games=10)
    assert (outcome.tally.draws, outcome.tally.score) == (10, 5.0)
    assert outcome.tally.llr == pytest.approx(5 * math.log(0.96))


def test_max_games_stops_undecided_with_the_interval_so_far() -> None:
    outcome = run_sprt(SETTINGS, alternating, max_games=20)
    assert (outcome.stopped_by, outcome.tally.games, outcome.tally.decision) == (
        "max-games",
        20,
        UNDECIDED,
    )
    text = report(SETTINGS, outcome)
    assert "undecided (stopped by --max-games)" in text
    assert "20 games, 10 wins 0 draws 10 losses, score 50.0% (95% interval 29.9-70.1%)" in text


def test_max_minutes_stops_undecided_on_an_injected_clock() -> None:
    now = [0.0]

    def slow_game(index: int) -> dict[str, Any]:
        now[0] += 60.0  # each game takes a minute
        return alternating(index)

    outcome = run_sprt(SETTINGS, slow_game, max_minutes=5, clock=lambda: now[0])
    assert (outcome.stopped_by, outcome.tally.games, outcome.played) == ("max-minutes", 5, 5)
    assert "undecided (stopped by --max-minutes)" in report(SETTINGS, outcome)


def test_resuming_from_the_file_reaches_the_same_decision(tmp_path: Path) -> None:
    whole = run_sprt(SETTINGS, lucky)
    assert whole.tally.decision == H1_ACCEPTED
    assert whole.tally.games == 52  # long enough to cut in three

    path = tmp_path / "results.jsonl"
    first = run_sprt(SETTINGS, lucky, results=path, max_games=20)
    assert (first.stopped_by, first.played) == ("max-games", 20)
    second = run_sprt(SETTINGS, lucky, results=path, max_games=40)
    assert (second.stopped_by, second.played) == ("max-games", 20)
    last = run_sprt(SETTINGS, lucky, results=path)
    assert last.played == 12
    assert last.tally == whole.tally

    lines = path.read_text().splitlines()
    assert json.loads(lines[0]) == {"settings": json.loads(json.dumps(SETTINGS.__dict__))}
    assert [json.loads(line)["index"] for line in lines[1:]] == list(range(whole.tally.games))
    # A run on a finished file plays nothing and says the same.
    log = io.StringIO()
    again = run_sprt(SETTINGS, lucky, results=path, log=log)
    assert (again.played, again.tally) == (0, whole.tally)
    lines = log.getvalue().splitlines()
    assert len(lines) == 52 and all("from the results file" in line for line in lines)
    assert lines[-1].endswith(H1_ACCEPTED)


def test_games_finished_out_of_order_are_counted_in_game_order(tmp_path: Path) -> None:
    # As parallel workers leave it: lines in completion order, gaps (games 20 and 23) that a
    # rerun must fill before counting the games after them, a game beyond the decision,
    # and a last line cut short by a kill.
    path = tmp_path / "results.jsonl"
    path.write_text(json.dumps({"settings": json.loads(json.dumps(SETTINGS.__dict__))}) + "\n")
    order = [3, 1, 0, 2, *range(4, 20), 22, 27, 21, 24]
    with path.open("a") as out:
        for index in order:
            score = 0.0 if index in (5, 6, 7, 8) else 1.0
            out.write(json.dumps(result(SETTINGS, index, score)) + "\n")
        out.write('{"index": 23, "seed"')
    played: list[int] = []

    def win(index: int) -> dict[str, Any]:
        played.append(index)
        return result(SETTINGS, index, 1.0)

    outcome = run_sprt(SETTINGS, win, results=path)
    # Games 0-24 (21 wins, 4 losses) leave the LLR at 2.936, inside; game 25 takes it to
    # 3.118, so the test stops there, with game 27 finished but not counted.
    assert played == [20, 23, 25]
    assert (outcome.tally.games, outcome.tally.losses, outcome.uncounted) == (26, 4, 1)
    assert outcome.tally.decision == H1_ACCEPTED
    # The cut line is gone and the games played since are whole lines of their own.
    lines = path.read_text().splitlines()
    assert [json.loads(line)["index"] for line in lines[1:]] == [*order, 20, 23, 25]
    again = run_sprt(SETTINGS, win, results=path)
    assert (again.played, again.tally) == (0, outcome.tally)


def win_elsewhere(index: int) -> dict[str, Any]:
    return {**result(SETTINGS, index, 1.0), "pid": os.getpid()}


def test_parallel_workers_give_the_decision_of_one_process(tmp_path: Path) -> None:
    alone = run_sprt(SETTINGS, lucky, max_games=60)
    together = run_sprt(SETTINGS, lucky, max_games=60, jobs=2)
    assert together.tally == alone.tally
    decided_alone = run_sprt(SETTINGS, partial(always, 1.0), jobs=1)
    decided_together = run_sprt(SETTINGS, partial(always, 1.0), jobs=2)
    assert decided_together.tally == decided_alone.tally
    assert decided_together.tally.games == 17
    # The games were played by worker processes, not this one.
    path = tmp_path / "results.jsonl"
    run_sprt(SETTINGS, win_elsewhere, results=path, jobs=2)
    pids = {json.loads(line)["pid"] for line in path.read_text().splitlines()[1:]}
    assert pids and os.getpid() not in pids


def fails_at_five(index: int) -> dict[str, Any]:
    if index == 5:
        raise RuntimeError("engine error in game 5")
    return result(SETTINGS, index, 1.0)


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_game_that_fails_stops_the_test_and_keeps_the_others(tmp_path: Path, jobs: int) -> None:
    path = tmp_path / "results.jsonl"
    with pytest.raises(RuntimeError, match="engine error in game 5"):
        run_sprt(SETTINGS, fails_at_five, results=path, jobs=jobs)
    indices = {json.loads(line)["index"] for line in path.read_text().splitlines()[1:]}
    # Every game that finished before game 5 failed is kept; with two games at a time,
    # one of games 0-4 may still have been running (and is played again by a rerun).
    assert len(indices & {0, 1, 2, 3, 4}) >= 6 - jobs and 5 not in indices


def dies_at_five(index: int) -> dict[str, Any]:
    if index == 5:
        os._exit(3)
    return result(SETTINGS, index, 1.0)


def test_a_game_whose_process_dies_stops_the_test() -> None:
    with pytest.raises(GameFailed, match=r"game 5 failed: its process died \(exit code 3\)"):
        run_sprt(SETTINGS, dies_at_five, jobs=2)


def test_a_file_for_other_settings_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "results.jsonl"
    run_sprt(SETTINGS, alternating, results=path, max_games=4)
    before = path.read_text()
    other = Settings(game="toy", first="hard@200", second="random", budgets={"hard@200": 200})
    with pytest.raises(SettingsMismatch, match=r"first 'hard@100' in the file, 'hard@200' now"):
        run_sprt(other, alternating, results=path)
    with pytest.raises(SettingsMismatch, match="p1"):
        run_sprt(Settings(**{**SETTINGS.__dict__, "p1": 0.55}), alternating, results=path)
    assert path.read_text() == before


def test_player_names_and_budgets() -> None:
    assert player_spec("easy", 1000, 5000) == ("greedy", {})
    assert player_spec("hard", 1000, 5000) == ("hard@5000", {"hard@5000": 5000})
    assert player_spec("normal@250", 1000, 5000) == ("normal@250", {"normal@250": 250})
    for bad in ("expert", "random@5", "hard@0"):
        with pytest.raises(ValueError):
            player_spec(bad, 1000, 5000)


def test_a_search_player_may_change_game_settings_for_its_own_searches() -> None:
    name, budgets = player_spec("normal@150:playout_horizon=90", 1000, 5000)
    assert (name, budgets) == (
        "normal@150:playout_horizon=90",
        {"normal@150:playout_horizon=90": 150},
    )
    for bad in ("normal@150:depth=3", "normal@150:playout_horizon", "easy:policy_margin=0.1"):
        with pytest.raises(ValueError):
            player_spec(bad, 1000, 5000)
    lincoln = GAMES["lincoln"]
    own = (lincoln.playout_horizon, lincoln.policy_margin)
    assert own != (90, 0.02)
    level = "normal@150:playout_horizon=90,policy_margin=0.02"
    player = make(lincoln, "union", level, 1, {level: 150})
    assert isinstance(player, SearchPlayer) and player.iterations == 150
    assert player.game.playout_horizon == 90 and player.game.policy_margin == 0.02
    assert player.game.name == "lincoln" and player.game.steps is lincoln.steps
    # The game both players play is untouched.
    assert (lincoln.playout_horizon, lincoln.policy_margin) == own
    # A game without the setting (War keeps no policy margin) refuses it.
    with pytest.raises(ValueError, match="no setting"):
        variant(GAMES["war"], "policy_margin=0.1")


def test_real_games_alternate_sides_and_score_the_first_player() -> None:
    settings = Settings(game="fort_sumter", first="greedy", second="random")
    for index in (0, 1):
        line = play_game(settings, index)
        mine = ("unionist", "secessionist")[index]
        assert line["sides"][mine] == "greedy"
        assert line["seed"] == 10_000 + index
        assert line["score"] == (0.5 if line["winner"] is None else float(line["winner"] == mine))


def test_command_line_refuses_a_foreign_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = str(tmp_path / "results.jsonl")
    assert (
        main(["--game", "fort_sumter", "easy", "random", "--results", path, "--max-games", "2"])
        == 0
    )
    out = capsys.readouterr().out
    assert "undecided (stopped by --max-games)" in out
    assert main(["--game", "fort_sumter", "random", "easy", "--results", path]) == 2
    assert "refused:" in capsys.readouterr().err
