"""bench/bench_calibration.py: its reliability table and Brier score, and a run that
resumes from its results file (and refuses one written at another budget)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.bench_calibration import brier, main, pairs, table

#: A small budget keeps the self-play games quick.
ITERATIONS = 8


def test_the_table_pairs_each_estimate_with_its_sides_result() -> None:
    records = [
        {
            "game": "war",
            "seed": 1,
            "winner": "north",
            "estimates": [["north", 0.9], ["south", 0.15]],
        },
        {"game": "war", "seed": 2, "winner": None, "estimates": [["north", 0.95]]},
    ]
    points = pairs(records)
    assert points == [(0.9, 1.0, 1), (0.15, 0.0, 1), (0.95, 0.5, 2)]
    assert brier(points) == pytest.approx((0.1**2 + 0.15**2 + 0.45**2) / 3)
    lines = table(points)
    assert lines[1].startswith("0.1-0.2    1     1  0.15  0.00")
    # Two estimates from two games in the top tenth: 1 and 1/2 won, 0.75 in all.
    assert lines[2].startswith("0.9-1.0    2     2  0.93  0.75")


def test_a_run_resumes_from_its_results_file(tmp_path: Path) -> None:
    results = tmp_path / "calibration.jsonl"
    argv = ["--games", "fort_sumter", "--count", "1", "--iterations", str(ITERATIONS)]
    first = main([*argv, "--results", str(results)])
    assert "fort_sumter: 1 self-play games at 8 iterations" in first and "Brier" in first
    kept = results.read_text().splitlines()
    assert len(kept) == 2 and json.loads(kept[0]) == {"iterations": ITERATIONS}
    # Again: nothing is played anew, and the report is the same.
    assert main([*argv, "--results", str(results)]) == first
    assert results.read_text().splitlines() == kept
    # One more game adds one line.
    main([*argv[:2], "--count", "2", *argv[4:], "--results", str(results)])
    assert len(results.read_text().splitlines()) == 3
    with pytest.raises(SystemExit, match="other settings"):
        main(["--games", "fort_sumter", "--iterations", "9", "--results", str(results)])
