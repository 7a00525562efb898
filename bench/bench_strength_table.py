"""The strength table of docs/ai.md: fixed samples of paired deals, with their intervals.

Run (from a tree built with ``dispatch compile-rules``; see docs/ai.md, *Strength*):

    nice -n 10 .venv/bin/python bench/bench_strength_table.py \\
        --row fort_sumter:normal:easy --row war:normal:easy \\
        --deals 50 --results strength.jsonl [--jobs 1] [--max-minutes 60]

A row is one pairing of one game (:data:`ROWS`): normal v easy, hard v normal and normal
v the Fate Die opponent, each at the levels' shipped budgets (``rules.ai.level_iterations``)
and with the game's own settings (Lincoln's ``policy_margin``), the first level named the
one measured. "easy" is the game's own automated player; "fate" runs its side by the CDG
Solo System's Fate Die, the automated player choosing among the cards the die allows (Fort
Sumter and Lincoln; War has no playsheet, so no such row).

**Paired deals.** Deal i of a row is set-up seed ``first_seed(row) + i``, played twice:
once with the measured level on the game's first side and once on the second, the same
cards both times. **Disjoint seeds.** Each row owns the seeds from ``SEED_BASE + k *
SEEDS_PER_ROW`` (k its place in :data:`ROWS`, which only ever grows at its end) for
``SEEDS_PER_ROW`` deals, so no deal is played in two rows and no row's figure leans on
another's luck.

**The figure to quote** is a fixed-sample estimate, not a sequential test's stopping
score (``bench/bench_sprt.py`` decides; its stopping score runs high and its interval
covers less than it says). Its unit is the pair: the two games of a deal share their
cards, so they are not independent draws, but deals are. A pair scores the mean of its
two games (win 1, draw 1/2, loss 0), which also cancels the first side's advantage. The
score is the mean of the pair scores and its 95% interval Student's t on them
(:func:`pair_interval`): the pair means are independent and bounded, so their mean is
close to normal, and t rather than z because their spread is estimated from the pairs
themselves, a few dozen at most here (pairs that all scored alike leave t nothing to
estimate: Wilson's interval on the pairs stands in). Only whole pairs count: a deal with
one game played waits for its other.

**Resumable.** Every finished game is appended to ``--results`` (one JSON line: row,
deal, seed, the measured level's side, winner, score, CPU seconds, the budgets and other
shipped settings (a playout horizon, a policy margin, a prior's weight), and whether the
rules ran compiled) as soon as it ends. A rerun with the same file plays only the games
not in it, so a killed run loses at most the games in progress and never replays a
finished one; ``--deals`` may grow from run to run. Lines played at other budgets or
settings, or by the other build, are kept but not counted. The rows are played deal by
deal in turn (both games of deal 0 of each row, then deal 1, ...), so rows stopped by
``--max-minutes`` have grown together. ``--report`` prints the table from the file without playing.

It runs only in the compiled build, the one the Docker image ships, unless ``--sources``
says otherwise (such games are counted apart, as another build).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import rules.core.game
from bench.bench_ai_strength import play
from bench.bench_sprt import wilson_interval
from rules import GAMES
from rules.ai import level_iterations
from rules.compiled import is_compiled

#: The first set-up seed of the first row, and how many deals each row may have.
SEED_BASE = 1_000_000
SEEDS_PER_ROW = 100_000


@dataclass(frozen=True)
class Row:
    """One pairing of one game: ``measured`` against ``other`` (levels easy, normal,
    hard, or fate)."""

    game: str
    measured: str
    other: str

    @property
    def key(self) -> str:
        return f"{self.game}:{self.measured}:{self.other}"


#: Every row of the table. A row's seeds come from its place here: add rows at the end.
ROWS: tuple[Row, ...] = (
    Row("fort_sumter", "normal", "easy"),
    Row("fort_sumter", "hard", "normal"),
    Row("fort_sumter", "normal", "fate"),
    Row("lincoln", "normal", "easy"),
    Row("lincoln", "hard", "normal"),
    Row("lincoln", "normal", "fate"),
    Row("war", "normal", "easy"),
    Row("war", "hard", "normal"),
)


def find_row(key: str) -> Row:
    """The row named ``game:measured:other``; ValueError naming the rows if none."""
    for row in ROWS:
        if row.key == key:
            return row
    raise ValueError(f"no row {key!r}; the rows are {', '.join(row.key for row in ROWS)}")


def first_seed(row: Row) -> int:
    """The set-up seed of the row's deal 0: its seeds are this and the next
    ``SEEDS_PER_ROW - 1``."""
    return SEED_BASE + ROWS.index(row) * SEEDS_PER_ROW


def deal_seed(row: Row, deal: int) -> int:
    """The set-up seed of deal ``deal`` (from 0) of ``row``."""
    if not 0 <= deal < SEEDS_PER_ROW:
        raise ValueError(f"a row has deals 0 to {SEEDS_PER_ROW - 1}, not {deal}")
    return first_seed(row) + deal


def player_level(level: str) -> str:
    """A level as ``bench_ai_strength.play`` names it (easy is its "greedy")."""
    return "greedy" if level == "easy" else level


def sides(row: Row, roles: Iterable[str], measured_as: str) -> dict[str, str]:
    """Each role's player in the game where the measured level plays ``measured_as``."""
    return {
        role: player_level(row.measured if role == measured_as else row.other) for role in roles
    }


def shipped_budgets(game: str) -> dict[str, int]:
    """The iterations per search the bot ships for each search level of ``game``."""
    return {level: level_iterations(GAMES[game], level) for level in ("normal", "hard")}


def shipped_settings(game: str) -> dict[str, float]:
    """What the search levels of ``game`` ship beside their budgets that a results line
    must match to count, each one the game sets: where its playouts stop
    (``playout_horizon``), the margin by which the search must beat the automated
    player's choice (``policy_margin``) and the weight of that player as a prior in the
    tree (``prior_weight``). A line without settings was played with none."""
    rules_game = GAMES[game]
    shipped = {
        "playout_horizon": rules_game.playout_horizon,
        "policy_margin": rules_game.policy_margin,
        "prior_weight": rules_game.prior_weight,
    }
    return {name: value for name, value in shipped.items() if value}


# --- the arithmetic -------------------------------------------------------------------


def _t_density(x: float, df: int) -> float:
    log_scale = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)
    return math.exp(log_scale - (df + 1) / 2 * math.log1p(x * x / df))


def _t_cdf(x: float, df: int, steps: int = 2_000) -> float:
    """P(T <= x) for x >= 0: one half plus Simpson's rule over the density from 0 to x."""
    width = x / steps
    total = _t_density(0.0, df) + _t_density(x, df)
    for step in range(1, steps):
        total += (4 if step % 2 else 2) * _t_density(step * width, df)
    return 0.5 + total * width / 3


def t_quantile(probability: float, df: int) -> float:
    """Student's t quantile for ``probability`` in [0.5, 1) with ``df`` degrees of freedom
    (by bisection on the distribution function; exact to about 1e-6)."""
    if not 0.5 <= probability < 1 or df < 1:
        raise ValueError("t_quantile takes a probability in [0.5, 1) and df >= 1")
    low, high = 0.0, 1.0
    while _t_cdf(high, df) < probability:
        low, high = high, 2 * high
    for _ in range(60):
        middle = (low + high) / 2
        low, high = (middle, high) if _t_cdf(middle, df) < probability else (low, middle)
    return (low + high) / 2


def pair_interval(pair_scores: list[float], confidence: float = 0.95) -> tuple[float, float, float]:
    """The mean of the pairs' scores and its Student t interval, clipped to [0, 1]. Fewer
    than two pairs say nothing of the spread: the interval is then (0, 1). Pairs that all
    scored alike show no spread for t to work with (it would give the mean alone): the
    interval is then Wilson's on the pairs as a proportion, which takes the most spread a
    score in [0, 1] with that mean can have, p(1 - p)."""
    n = len(pair_scores)
    if n == 0:
        return 0.0, 0.0, 1.0
    mean = sum(pair_scores) / n
    if n == 1:
        return mean, 0.0, 1.0
    variance = sum((score - mean) ** 2 for score in pair_scores) / (n - 1)
    if variance == 0:
        return mean, *wilson_interval(mean * n, n)
    half = t_quantile(0.5 + confidence / 2, n - 1) * math.sqrt(variance / n)
    return mean, max(0.0, mean - half), min(1.0, mean + half)


@dataclass
class Tally:
    """A row's counted games: whole pairs only."""

    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    cpu_seconds: float = 0.0
    waiting: int = 0  # games whose pair is not whole yet
    pair_scores: tuple[float, ...] = ()

    def line(self) -> str:
        mean, low, high = pair_interval(list(self.pair_scores))
        return (
            f"{self.games} games ({len(self.pair_scores)} deals), "
            f"W-D-L {self.wins}-{self.draws}-{self.losses}, score {100 * mean:.1f}% "
            f"(95% interval {100 * low:.1f}-{100 * high:.1f}%), "
            f"{self.cpu_seconds / 60:.0f} CPU minutes"
            + (
                f"; {self.waiting} game(s) waiting for the other of their deal"
                if self.waiting
                else ""
            )
        )


def tally(row: Row, records: Iterable[dict[str, Any]], roles: tuple[str, ...]) -> Tally:
    """The row's figures from its ``records`` (already those of this run's settings)."""
    deals: dict[int, dict[str, dict[str, Any]]] = {}
    for record in records:
        if record["row"] == row.key:
            deals.setdefault(record["deal"], {})[record["measured_as"]] = record
    counted = Tally()
    scores: list[float] = []
    for deal in sorted(deals):
        games = deals[deal]
        if set(games) != set(roles):
            counted.waiting += len(games)
            continue
        scores.append(sum(game["score"] for game in games.values()) / len(games))
        for game in games.values():
            counted.games += 1
            counted.wins += game["score"] == 1.0
            counted.draws += game["score"] == 0.5
            counted.losses += game["score"] == 0.0
            counted.cpu_seconds += game["cpu_seconds"]
    counted.pair_scores = tuple(scores)
    return counted


# --- the plan and the results file ----------------------------------------------------


def plan(rows: list[Row], deals: int, done: set[tuple[str, int, str]]) -> Iterator[Game]:
    """The games still to play for ``deals`` deals of each row, deal by deal across the
    rows, both games of a deal together; a game in ``done`` (row key, deal, measured
    side) is never played again."""
    for deal in range(deals):
        for row in rows:
            for role in GAMES[row.game].roles:
                if (row.key, deal, role) not in done:
                    yield Game(row, deal, role)


@dataclass(frozen=True)
class Game:
    """One game of the plan: deal ``deal`` of ``row``, the measured level playing ``role``."""

    row: Row
    deal: int
    role: str


def build_name() -> str:
    """Which build of the rules this process runs: "compiled" or "sources"."""
    return "compiled" if is_compiled(rules.core.game) else "sources"


def counts(record: dict[str, Any], build: str) -> bool:
    """Whether a results line was played at the shipped budgets and settings of its game
    in ``build``."""
    row = find_row(record["row"])
    return bool(
        record["build"] == build
        and record["budgets"] == shipped_budgets(row.game)
        and record.get("settings", {}) == shipped_settings(row.game)
    )


def load(path: Path) -> list[dict[str, Any]]:
    """Every results line in ``path`` (none if it does not exist). A last line cut short
    by a kill is dropped from the file: that game is played again."""
    if not path.exists():
        return []
    text = path.read_text()
    if text and not text.endswith("\n"):
        text = text[: text.rfind("\n") + 1]
        path.write_text(text)
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def append(path: Path, record: dict[str, Any]) -> None:
    with path.open("a") as out:
        out.write(json.dumps(record) + "\n")


def play_one(game: Game, build: str) -> dict[str, Any]:
    """Plays ``game`` in this process; its results line."""
    row = game.row
    rules_game = GAMES[row.game]
    budgets = shipped_budgets(row.game)
    seed = deal_seed(row, game.deal)
    started = time.process_time()
    winner = play(rules_game, seed, sides(row, rules_game.roles, game.role), budgets, {})
    spent = time.process_time() - started
    return {
        "row": row.key,
        "deal": game.deal,
        "seed": seed,
        "measured_as": game.role,
        "winner": winner,
        "score": 0.5 if winner is None else float(winner == game.role),
        "cpu_seconds": round(spent, 3),
        "budgets": budgets,
        "settings": shipped_settings(row.game),
        "build": build,
    }


def run(
    todo: Iterable[Game],
    play_game: Callable[[Game], dict[str, Any]],
    results: Path,
    *,
    jobs: int = 1,
    deadline: float = math.inf,
    clock: Callable[[], float] = time.monotonic,
) -> int:
    """Plays the games of ``todo`` (``jobs`` at a time in worker processes, or here when
    one), appending each result to ``results`` as it ends, and starts no game after
    ``deadline`` (of ``clock``); how many games were played."""
    played = 0
    if jobs <= 1:
        for game in todo:
            if clock() >= deadline:
                break
            append(results, play_game(game))
            played += 1
        return played
    with ProcessPoolExecutor(jobs) as workers:
        pending = iter(todo)
        running: set[Future[dict[str, Any]]] = set()
        while True:
            while len(running) < jobs and clock() < deadline:
                upcoming = next(pending, None)
                if upcoming is None:
                    break
                running.add(workers.submit(play_game, upcoming))
            if not running:
                return played
            finished, running = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                append(results, future.result())
                played += 1


# --- the command ----------------------------------------------------------------------


def report(rows: list[Row], records: list[dict[str, Any]], build: str) -> str:
    counted = [record for record in records if counts(record, build)]
    lines = [f"rows at the shipped budgets, {build} build; score of the first level named:"]
    for row in rows:
        budgets = shipped_budgets(row.game)
        seeds = f"seeds {first_seed(row):,}-{first_seed(row) + SEEDS_PER_ROW - 1:,}"
        shown = ", ".join(
            f"{level} {budgets[level]:,}" for level in (row.measured, row.other) if level in budgets
        )
        lines.append(
            f"  {row.key} ({seeds}; iterations a search: {shown}): "
            + tally(row, counted, GAMES[row.game].roles).line()
        )
    ignored = len(records) - len(counted)
    if ignored:
        lines.append(
            f"  ({ignored} line(s) of other budgets, settings or builds kept, not counted)"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--row", action="append", help="game:measured:other (default: all)")
    parser.add_argument("--deals", type=int, default=0, help="whole deals wanted per row")
    parser.add_argument("--results", type=Path, required=True, help="the JSON-lines file")
    parser.add_argument("--jobs", type=int, default=1, help="games played at a time")
    parser.add_argument("--max-minutes", type=float, help="start no game after this")
    parser.add_argument("--report", action="store_true", help="print the table, play nothing")
    parser.add_argument("--sources", action="store_true", help="allow the sources build")
    options = parser.parse_args(argv)
    try:
        rows = [find_row(key) for key in options.row] if options.row else list(ROWS)
    except ValueError as exc:
        parser.error(str(exc))
    build = build_name()
    if build != "compiled" and not (options.sources or options.report):
        parser.error("the table is of the compiled build: run `dispatch compile-rules` first")
    records = load(options.results)
    if not options.report:
        done = {
            (record["row"], record["deal"], record["measured_as"])
            for record in records
            if counts(record, build)
        }
        deadline = (
            math.inf if options.max_minutes is None else time.monotonic() + 60 * options.max_minutes
        )
        todo = plan(rows, options.deals, done)
        played = run(
            todo,
            partial(play_one, build=build),
            options.results,
            jobs=options.jobs,
            deadline=deadline,
        )
        print(f"{played} game(s) played by this run", file=sys.stderr)
        records = load(options.results)
    print(report(rows, records, build))
    return 0


if __name__ == "__main__":
    sys.exit(main())
