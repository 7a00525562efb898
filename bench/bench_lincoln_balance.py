"""Lincoln balance: the win rate of each side when both are played by the same automated
player (rules/lincoln/strategy.py), over many seeds. Target: the Union wins 40-60%.

Also how much each side uses the sea: naval movement actions, armies sailed and armies
deployed by sea (a naval card paid on top), per game (only the Union has naval cards, so
the Confederacy's figures show that nothing else sails).

Run: .venv/bin/python bench/bench_lincoln_balance.py [games]   (default 2,000)
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.core import Arg, State
from rules.lincoln import GAME

#: The sea figures counted per side.
SEA = ("naval actions", "armies sailed", "sea deployments")


def _sea_use(state: State, verb: str, arg: Arg) -> str | None:
    """Which sea figure the action about to be taken adds to, if any."""
    step, doing = state["step"], state["doing"]
    if step == "turn" and verb == "naval":
        return "naval actions"
    if step == "naval_pick" and verb == "army":
        return "armies sailed"
    if step == "pay" and doing is not None and doing.get("naval_due"):
        return "sea deployments"
    return None


def play(seed: int, sea: Counter[str]) -> tuple[str, str, int]:
    choose = GAME.automated_player()
    assert choose is not None
    state = GAME.setup(seed=seed)
    before = Counter(sea)
    actions = 0
    while GAME.outcome(state) is None:
        role = GAME.active_roles(state)[0]
        verb, arg = choose(GAME, GAME.view(state, role))
        used = _sea_use(state, verb, arg)
        if used is not None:
            if not sea[f"{role} {used}"] - before[f"{role} {used}"]:
                sea[f"{role} first {used} turn"] += state["turn"]["number"]
                sea[f"{role} games with {used}"] += 1
            sea[f"{role} {used}"] += 1
        state = GAME.act(state, role, verb, arg, record_undo=False)
        actions += 1
    outcome = GAME.outcome(state)
    assert outcome is not None
    return str(outcome["winner"]), str(outcome["code"]), actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", type=int, nargs="?", default=2000, help="games to play")
    games: int = parser.parse_args().games
    start = time.perf_counter()
    wins: Counter[str] = Counter()
    endings: Counter[str] = Counter()
    sea: Counter[str] = Counter()
    total = 0
    for seed in range(games):
        winner, code, actions = play(seed, sea)
        wins[winner] += 1
        endings[f"{winner}/{code}"] += 1
        total += actions
    elapsed = time.perf_counter() - start
    print(f"{games} games of the automated player against itself in {elapsed:.0f} s")
    for side in ("union", "confederate"):
        print(f"  {side}: {wins[side]} wins, {100 * wins[side] / games:.1f}%")
    print(f"  {total / games:.0f} actions per game")
    for ending, count in endings.most_common():
        print(f"  {ending}: {count}")
    print("  per game, each side:")
    for side in ("union", "confederate"):
        figures: list[Any] = [f"{sea[f'{side} {what}'] / games:.2f} {what}" for what in SEA]
        print(f"    {side}: {', '.join(figures)}")
    for what in SEA:
        some = sea[f"union games with {what}"]
        first = sea[f"union first {what} turn"] / some if some else 0.0
        print(
            f"  Union games with {what}: {some} ({100 * some / games:.0f}%), "
            f"the first on turn {first:.1f} on average"
        )


if __name__ == "__main__":
    main()
