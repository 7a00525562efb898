"""Is one player stronger than another? A sequential probability ratio test (SPRT).

Run: .venv/bin/python bench/bench_sprt.py --game war hard@100 random
     [--results war-hard-random.jsonl] [--jobs 2] [--max-games 2000] [--max-minutes 60]

Two players of one game play game after game until the test decides whether the first
player's score is 60% (H1: "stronger", 10 points above even) rather than 50% (H0: "not
10 points stronger"), with error rates alpha = beta = 0.05: it stops as soon as the
log-likelihood ratio (LLR) of the results so far leaves the interval
(log(beta / (1 - alpha)), log((1 - beta) / alpha)) = (-2.944, 2.944). A stronger player
(70% or more) is usually confirmed in a few dozen games; two close players take a few
hundred.

A player is ``random``, ``easy`` (or ``greedy``: the game's policy), ``fate`` (the Fate
Die opponent: its side is run by the die and greedy play within what the die allows;
Fort Sumter and Lincoln), or a search level with its budget in iterations per search,
``normal@N`` or ``hard@N`` (``normal`` and ``hard`` alone use ``--normal`` and
``--hard``); a search level may end in ``:name=value,...``, game settings its own
searches use (``playout_horizon``, ``policy_margin``; e.g. ``normal@150:playout_horizon=90
normal@150`` measures Lincoln's playouts cut at 90 rounds against its 60). The games
are those of ``bench/bench_ai_strength.py``: its ``play`` plays each one, with the same
players and seeds.

Game i (from 0) is dealt from set-up seed ``--first-seed`` + i, and the sides alternate
game by game: in even games the first player takes the game's first role, in odd games
the second, so any prefix of the sequence is balanced to within one game. A win counts
1, a loss 0, a draw 1/2: a draw adds half a win's LLR and half a loss's (the likelihood
of a score of 1/2 under a Bernoulli model in which the draw is an even mix of the two).
The score's 95% interval is Wilson's, on the score as a proportion of the games.

``--jobs N`` plays N games at a time, each in a process of its own (forked, so a game
cut short by a stop holds nothing another needs). The decision is taken on the
results in game order, whatever order the games finish in: a game that finishes early
waits until every game before it is in. So the decision, and the game it stops at, do
not depend on N or on the machine's load. Games beyond the one the test stopped at that
had already finished are kept in the results file but not counted.

``--results PATH`` (a JSON-lines file) makes a run resumable: its first line holds the
settings (game, players, budgets, seeds, hypotheses, error rates), then one line per
finished game (index, seed, sides, winner, score, CPU seconds of the game), appended as
each game ends. A rerun with the same file plays only the games not yet in it and reaches
the same decision as one uninterrupted run; a file written for other settings is refused.

``--max-games`` and ``--max-minutes`` (wall minutes of this run) stop a test that has not
decided; the report then says "undecided" and gives the interval so far.

Each game's result goes to standard error as it is counted, with the running score, its
interval, the LLR and the decision so far; the final report goes to standard output.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import sys
import time
import traceback
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from functools import partial
from multiprocessing import connection
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any, TextIO

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_ai_strength import parse_tweaks, play
from rules import GAMES

H1_ACCEPTED = "H1 accepted: stronger"
H0_ACCEPTED = "H0 accepted: not 10 points stronger"
UNDECIDED = "undecided so far"


# --- the arithmetic -------------------------------------------------------------------


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """The LLR's lower bound (accept H0 at or below) and upper bound (accept H1 at or
    above): log(beta / (1 - alpha)) and log((1 - beta) / alpha)."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def llr_increment(score: float, p0: float, p1: float) -> float:
    """What one game of score 1 (win), 1/2 (draw) or 0 (loss) adds to the LLR of H1
    (win rate p1) against H0 (p0). A draw adds half a win's term and half a loss's."""
    if score not in (0.0, 0.5, 1.0):
        raise ValueError(f"a game scores 0, 1/2 or 1, not {score!r}")
    return score * math.log(p1 / p0) + (1 - score) * math.log((1 - p1) / (1 - p0))


def llr(scores: Iterable[float], p0: float, p1: float) -> float:
    """The LLR of a whole sequence of game scores."""
    return sum(llr_increment(score, p0, p1) for score in scores)


def decide(value: float, bounds: tuple[float, float]) -> str:
    """The decision an LLR gives against its bounds."""
    lower, upper = bounds
    if value >= upper:
        return H1_ACCEPTED
    if value <= lower:
        return H0_ACCEPTED
    return UNDECIDED


def wilson_interval(score: float, games: int, z: float = 1.959964) -> tuple[float, float]:
    """Wilson's score interval (95% for the default z) of a proportion ``score / games``;
    (0, 1) before any game."""
    if games == 0:
        return 0.0, 1.0
    p = score / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Tally:
    """The state of the test after the games counted so far, in game order."""

    p0: float
    p1: float
    bounds: tuple[float, float]
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    llr: float = 0.0

    @property
    def score(self) -> float:
        return self.wins + 0.5 * self.draws

    @property
    def decision(self) -> str:
        return decide(self.llr, self.bounds)

    def add(self, score: float) -> None:
        self.llr += llr_increment(score, self.p0, self.p1)
        self.games += 1
        self.wins += score == 1.0
        self.draws += score == 0.5
        self.losses += score == 0.0

    def line(self) -> str:
        low, high = wilson_interval(self.score, self.games)
        rate = 100 * self.score / self.games if self.games else 0.0
        lower, upper = self.bounds
        return (
            f"{self.games} games, {self.wins} wins {self.draws} draws {self.losses} losses, "
            f"score {rate:.1f}% (95% interval {100 * low:.1f}-{100 * high:.1f}%), "
            f"LLR {self.llr:+.3f} in ({lower:+.3f}, {upper:+.3f}): {self.decision}"
        )


# --- the settings and the games -------------------------------------------------------


@dataclass(frozen=True)
class Settings:
    """Everything that fixes the sequence of games and the test: a results file holds
    one and is only ever continued under the same."""

    game: str
    first: str
    second: str
    budgets: dict[str, int] = field(default_factory=dict)
    first_seed: int = 10_000
    p0: float = 0.5
    p1: float = 0.6
    alpha: float = 0.05
    beta: float = 0.05

    def seed(self, index: int) -> int:
        return self.first_seed + index

    def sides(self, index: int, roles: tuple[str, ...]) -> dict[str, str]:
        """Each role's player in game ``index``: the first player takes the first role
        in even games and the second role in odd ones."""
        mine = roles[index % 2]
        return {role: self.first if role == mine else self.second for role in roles}

    def tally(self) -> Tally:
        return Tally(self.p0, self.p1, sprt_bounds(self.alpha, self.beta))


def player_spec(spec: str, normal: int, hard: int) -> tuple[str, dict[str, int]]:
    """A player's name as ``play`` takes it, and the search budget it needs (if any)."""
    player, _, tweaks = spec.partition(":")
    level, _, iterations = player.partition("@")
    level = {"easy": "greedy"}.get(level, level)
    if level in ("random", "greedy", "fate"):
        if iterations or tweaks:
            raise ValueError(f"{spec}: only normal and hard take a budget and settings")
        return level, {}
    if level not in ("normal", "hard"):
        raise ValueError(f"{spec}: a player is random, easy, fate, normal[@N] or hard[@N]")
    budget = int(iterations) if iterations else {"normal": normal, "hard": hard}[level]
    if budget < 1:
        raise ValueError(f"{spec}: a search needs at least one iteration")
    name = f"{level}@{budget}"
    if tweaks:
        parse_tweaks(tweaks)
        name += f":{tweaks}"
    return name, {name: budget}


def play_game(settings: Settings, index: int) -> dict[str, Any]:
    """Game ``index`` of the sequence, played in this process; its result line."""
    game = GAMES[settings.game]
    sides = settings.sides(index, game.roles)
    mine = game.roles[index % 2]
    started = time.process_time()
    winner = play(game, settings.seed(index), sides, settings.budgets, {})
    spent = time.process_time() - started
    score = 0.5 if winner is None else 1.0 if winner == mine else 0.0
    return {
        "index": index,
        "seed": settings.seed(index),
        "sides": sides,
        "winner": winner,
        "score": score,
        "cpu_seconds": round(spent, 3),
    }


# --- the results file -----------------------------------------------------------------


class SettingsMismatch(Exception):
    """A results file written for other settings."""


def load_results(path: Path, settings: Settings) -> dict[int, dict[str, Any]]:
    """The games already in ``path`` by index (an empty file or none: no games, and the
    settings line is written); refuses a file written for other settings."""
    if not path.exists() or path.stat().st_size == 0:
        with path.open("w") as out:
            out.write(json.dumps({"settings": asdict(settings)}) + "\n")
        return {}
    text = path.read_text()
    if not text.endswith("\n"):
        # The last line was cut short by a kill while it was written: that game is played
        # again, and the line goes, so that the next result starts a line of its own.
        text = text[: text.rfind("\n") + 1]
        path.write_text(text)
    lines = text.splitlines()
    head = json.loads(lines[0]).get("settings")
    if head != json.loads(json.dumps(asdict(settings))):
        wanted = asdict(settings)
        differ = sorted(
            key for key in set(wanted) | set(head or {}) if (head or {}).get(key) != wanted.get(key)
        )
        raise SettingsMismatch(
            f"{path} was written for other settings ({', '.join(differ)} differ: "
            + "; ".join(
                f"{key} {(head or {}).get(key)!r} in the file, {wanted.get(key)!r} now"
                for key in differ
            )
            + "); use another --results file, or the settings it was written for"
        )
    done: dict[int, dict[str, Any]] = {}
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        record = json.loads(line)
        if record["seed"] != settings.seed(record["index"]):
            raise SettingsMismatch(f"{path} line {number}: seed does not match its game index")
        done[record["index"]] = record
    return done


def append_result(path: Path, record: dict[str, Any]) -> None:
    with path.open("a") as out:
        out.write(json.dumps(record) + "\n")
        out.flush()


# --- running the test -----------------------------------------------------------------


@dataclass
class Outcome:
    tally: Tally
    stopped_by: str  # "decision", "max-games", "max-minutes"
    played: int  # games played by this run (the rest came from the results file)
    uncounted: int  # finished games after the one the test stopped at
    cpu_seconds: float  # of every game in the results file counted or not


class GameFailed(RuntimeError):
    """A game raised an exception, or its process died."""


def play_in_child(play_one: Callable[[int], dict[str, Any]], index: int, out: Connection) -> None:
    try:
        out.send(("ok", play_one(index)))
    except BaseException:
        out.send(("error", traceback.format_exc()))
    finally:
        out.close()


def start_game(
    play_one: Callable[[int], dict[str, Any]], index: int
) -> dict[Connection, tuple[int, BaseProcess]]:
    """Game ``index`` in a forked process of its own (so one that is killed holds no lock
    another needs, as a pool's workers can); the end of a pipe its result comes on."""
    context = multiprocessing.get_context("fork")
    reader, writer = context.Pipe(duplex=False)
    process = context.Process(target=play_in_child, args=(play_one, index, writer), daemon=True)
    process.start()
    writer.close()
    return {reader: (index, process)}


def end_game(ready: Connection, process: BaseProcess) -> tuple[str, Any]:
    try:
        kind, value = ready.recv()
    except EOFError:
        process.join()
        kind, value = "error", f"its process died (exit code {process.exitcode})"
    ready.close()
    process.join()
    return kind, value


def run_sprt(
    settings: Settings,
    play_one: Callable[[int], dict[str, Any]],
    *,
    results: Path | None = None,
    jobs: int = 1,
    max_games: int | None = None,
    max_minutes: float | None = None,
    processes: bool | None = None,
    clock: Callable[[], float] = time.monotonic,
    log: TextIO | None = None,
) -> Outcome:
    """Plays games of ``settings`` with ``play_one(index)`` until the test decides or a
    limit is hit; resumes from and appends to ``results``. Results are counted in game
    order. The games are played by ``jobs`` worker processes if ``processes`` (by
    default when ``jobs`` is more than one; then ``max_minutes`` also stops a game in
    progress), otherwise one after another in this process."""
    done = load_results(results, settings) if results is not None else {}
    tally = settings.tally()
    fresh: set[int] = set()  # the games played by this run
    cpu = sum(record["cpu_seconds"] for record in done.values())
    deadline = None if max_minutes is None else clock() + 60 * max_minutes
    limit = max_games if max_games is not None else math.inf

    def count_ready() -> str | None:
        """Counts the games in order as far as they are in; why the test stops, if it
        does."""
        while tally.decision == UNDECIDED and tally.games < limit and tally.games in done:
            record = done[tally.games]
            tally.add(record["score"])
            if log is not None:
                mine = next(r for r, p in record["sides"].items() if p == settings.first)
                print(
                    f"game {record['index']} seed {record['seed']}: {settings.first} as "
                    f"{mine}, winner {record['winner']} ({record['cpu_seconds']:.1f} CPU s"
                    + ("" if record["index"] in fresh else ", from the results file")
                    + "); "
                    + tally.line(),
                    file=log,
                    flush=True,
                )
        if tally.decision != UNDECIDED:
            return "decision"
        if tally.games >= limit:
            return "max-games"
        return None

    stopped_by = count_ready()
    played = 0
    if stopped_by is None:

        def missing() -> Iterator[int]:
            index = tally.games
            while index < limit:
                if index not in done:
                    yield index
                index += 1

        pending = missing()
        use_processes = jobs > 1 if processes is None else processes
        running: dict[Connection, tuple[int, BaseProcess]] = {}
        try:
            while stopped_by is None:
                if deadline is not None and clock() >= deadline:
                    stopped_by = "max-minutes"
                    break
                arrived: list[tuple[int, str, Any]] = []
                if not use_processes:
                    index = next(pending, None)
                    if index is None:
                        raise AssertionError("no game left to play")
                    arrived.append((index, "ok", play_one(index)))
                else:
                    while len(running) < jobs:
                        index = next(pending, None)
                        if index is None:
                            break
                        running.update(start_game(play_one, index))
                    if not running:
                        # Every game up to the limit is in, yet the test neither decided
                        # nor reached it: cannot happen, since the limit then stops it.
                        raise AssertionError("no game left to play")
                    wait = None if deadline is None else max(0.0, deadline - clock())
                    for ready in connection.wait(list(running), timeout=wait):
                        assert isinstance(ready, Connection)
                        index, process = running.pop(ready)
                        arrived.append((index, *end_game(ready, process)))
                for index, kind, value in arrived:
                    if kind == "error":
                        raise GameFailed(f"game {index} failed: {value}")
                    played += 1
                    cpu += value["cpu_seconds"]
                    done[value["index"]] = value
                    fresh.add(value["index"])
                    if results is not None:
                        append_result(results, value)
                if arrived:
                    stopped_by = count_ready()
        finally:
            # Games still running when the test stops (decided, out of time, or failed)
            # are abandoned; each runs in a process of its own, so nothing is shared.
            for ready, (_, process) in running.items():
                process.kill()
                process.join()
                ready.close()
    uncounted = sum(1 for index in done if index >= tally.games)
    return Outcome(tally, stopped_by, played, uncounted, cpu)


def report(settings: Settings, outcome: Outcome) -> str:
    tally = outcome.tally
    why = {
        "decision": "the LLR crossed a bound",
        "max-games": "stopped by --max-games",
        "max-minutes": "stopped by --max-minutes",
    }[outcome.stopped_by]
    decision = tally.decision if outcome.stopped_by == "decision" else "undecided"
    return (
        f"{settings.game}: {settings.first} v {settings.second} "
        f"(H0 {100 * settings.p0:.0f}%, H1 {100 * settings.p1:.0f}%, "
        f"alpha {settings.alpha}, beta {settings.beta}, sides alternating, "
        f"seeds from {settings.first_seed})\n"
        f"{decision} ({why})\n"
        f"{tally.line()}\n"
        f"{outcome.played} games played by this run, {outcome.uncounted} finished after the "
        f"stop and not counted; {outcome.cpu_seconds / 60:.1f} CPU minutes of games in all"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", help="the player measured: random, easy, fate, normal@N, hard@N")
    parser.add_argument("second", help="its opponent, in the same terms")
    parser.add_argument("--game", required=True, choices=sorted(GAMES))
    parser.add_argument("--normal", type=int, default=1000, help="iterations of normal alone")
    parser.add_argument("--hard", type=int, default=5000, help="iterations of hard alone")
    parser.add_argument("--first-seed", type=int, default=10_000)
    parser.add_argument("--results", type=Path, help="JSON-lines file to resume from and add to")
    parser.add_argument("--jobs", type=int, default=1, help="games played at a time")
    parser.add_argument("--max-games", type=int)
    parser.add_argument("--max-minutes", type=float, help="wall minutes of this run")
    options = parser.parse_args(argv)
    try:
        first, first_budget = player_spec(options.first, options.normal, options.hard)
        second, second_budget = player_spec(options.second, options.normal, options.hard)
    except ValueError as error:
        parser.error(str(error))
    if first == second:
        parser.error("the two players are the same; give one a different budget")
    if "fate" in (first, second) and "fate" not in GAMES[options.game].default_options:
        parser.error(f"{options.game} has no Fate Die opponent")
    settings = Settings(
        game=options.game,
        first=first,
        second=second,
        budgets={**first_budget, **second_budget},
        first_seed=options.first_seed,
    )
    try:
        outcome = run_sprt(
            settings,
            partial(play_game, settings),
            results=options.results,
            jobs=options.jobs,
            max_games=options.max_games,
            max_minutes=options.max_minutes,
            processes=True,
            log=sys.stderr,
        )
    except SettingsMismatch as error:
        print(f"refused: {error}", file=sys.stderr)
        return 2
    print(report(settings, outcome))
    return 0


if __name__ == "__main__":
    sys.exit(main())
