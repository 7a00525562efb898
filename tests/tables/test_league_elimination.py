"""Single elimination (bot/tables/leagues/elimination.py): seeded by rating, byes to the
top seeds, every round halving the field, the top seeds apart until the end."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tables.leagues.elimination import (
    Stage,
    bracket_order,
    first_stage,
    next_stage,
    seeds,
    tie_winner,
)
from bot.tables.leagues.entrants import Entrant, Outcome, Pairing

OUTCOMES = list(Outcome)


def field(count: int) -> list[Entrant]:
    """Seed ``i`` is ``s{i:02d}``: the ratings fall with the number."""
    return [Entrant(f"s{i:02d}", 3000.0 - i) for i in range(1, count + 1)]


def test_the_bracket_order_keeps_the_top_seeds_apart() -> None:
    assert bracket_order(2) == [1, 2]
    assert bracket_order(4) == [1, 4, 2, 3]
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]


def test_seeds_follow_the_rating_and_leave_out_the_withdrawn() -> None:
    entrants = [
        Entrant("low", 1200.0),
        Entrant("high", 1900.0),
        Entrant("gone", 2500.0, withdrawn=True),
    ]
    assert seeds(entrants) == ("high", "low")


def test_six_players_give_the_two_byes_to_the_top_seeds() -> None:
    stage = first_stage(field(6))
    assert [(t.high, t.low) for t in stage.ties] == [
        ("s01", None),
        ("s04", "s05"),
        ("s02", None),
        ("s03", "s06"),
    ]
    assert stage.ties[0].games == ()


def test_a_pair_of_games_plays_each_side_once() -> None:
    tie = first_stage(field(2), games_per_tie=2).ties[0]
    assert tie.games == (Pairing(1, "s01", "s02"), Pairing(1, "s02", "s01"))


def test_a_level_tie_sends_the_better_seed_through() -> None:
    tie = first_stage(field(2), games_per_tie=2).ties[0]
    split = {tie.games[0]: Outcome.SECOND_WINS, tie.games[1]: Outcome.SECOND_WINS}
    assert tie_winner(tie, split, {"s01": 0, "s02": 1}) == "s01"
    drawn_then_won = {tie.games[0]: Outcome.DRAW, tie.games[1]: Outcome.FIRST_WINS}
    assert tie_winner(tie, drawn_then_won, {"s01": 0, "s02": 1}) == "s02"


def play_out(count: int, games_per_tie: int, decide: random.Random | None) -> list[Stage]:
    """The whole bracket; ``decide`` picks each game's outcome, ``None``: the better seed
    wins every game."""
    entrants = field(count)
    seeded = seeds(entrants)
    results: dict[Pairing, Outcome] = {}
    stages = [first_stage(entrants, games_per_tie)]
    while True:
        for tie in stages[-1].ties:
            for game in tie.games:
                if decide is None:
                    better_first = game.first == tie.high
                    results[game] = Outcome.FIRST_WINS if better_first else Outcome.SECOND_WINS
                else:
                    results[game] = decide.choice(OUTCOMES)
        following = next_stage(stages[-1], results, seeded, games_per_tie)
        if following is None:
            return stages
        stages.append(following)


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 64), st.sampled_from([1, 2]), st.randoms(use_true_random=False))
def test_every_round_halves_and_the_top_seeds_meet_last(
    count: int, games_per_tie: int, decide: random.Random
) -> None:
    size = 1 << (count - 1).bit_length()
    stages = play_out(count, games_per_tie, decide)
    assert [len(s.ties) for s in stages] == [size >> k for k in range(1, len(stages) + 1)]
    assert len(stages[-1].ties) == 1
    byes = [t.high for t in stages[0].ties if t.low is None]
    assert sorted(byes) == [f"s{i:02d}" for i in range(1, size - count + 1)]
    halves = [
        {p for t in stages[0].ties[: len(stages[0].ties) // 2] for p in (t.high, t.low)},
        {p for t in stages[0].ties[len(stages[0].ties) // 2 :] for p in (t.high, t.low)},
    ]
    if count > 2:
        assert "s01" in halves[0] and "s02" in halves[1]
    for stage in stages[1:]:
        assert all(t.low is not None for t in stage.ties)
    if games_per_tie == 2:
        balance = Counter[str]()
        for stage in stages:
            for tie in stage.ties:
                for game in tie.games:
                    balance[game.first] += 1
                    balance[game.second] -= 1
        assert set(balance.values()) <= {0}


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 64))
def test_when_the_better_seed_always_wins_each_round_folds_the_seeds(count: int) -> None:
    """Round ``k``: seed ``i`` meets seed ``m + 1 - i`` of the ``m`` still in, so the top
    two meet only in the final, the top four only in the semi-finals."""
    stages = play_out(count, 1, None)
    size = 1 << (count - 1).bit_length()
    for stage in stages[1:]:
        remaining = 2 * len(stage.ties)
        assert sorted((t.high, t.low) for t in stage.ties) == [
            (f"s{i:02d}", f"s{remaining + 1 - i:02d}") for i in range(1, remaining // 2 + 1)
        ]
    assert {stages[-1].ties[0].high, stages[-1].ties[0].low} == {"s01", "s02"}
    assert len(stages) == size.bit_length() - 1


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 64), st.randoms(use_true_random=False))
def test_one_game_ties_give_the_side_a_player_has_played_less(
    count: int, decide: random.Random
) -> None:
    """A player who played the first side more often plays the second, where the two
    players' balances differ (two players both a side ahead cannot both be evened)."""
    stages = play_out(count, 1, decide)
    balance = Counter[str]()
    for stage in stages:
        for tie in stage.ties:
            for game in tie.games:
                if balance[game.first] != balance[game.second]:
                    assert balance[game.first] < balance[game.second]
                balance[game.first] += 1
                balance[game.second] -= 1
