"""Round robin (bot/tables/leagues/round_robin.py): every pairing once, once per side in a
double, a bye each for an odd count, and each player's sides within one."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tables.leagues.entrants import Entrant, Round
from bot.tables.leagues.round_robin import round_robin


def field(count: int) -> list[Entrant]:
    return [Entrant(f"p{i:02d}", 1500.0) for i in range(count)]


def games(rounds: tuple[Round, ...]) -> list[tuple[str, str]]:
    return [(p.first, p.second) for r in rounds for p in r.pairings]


def test_four_players_by_the_circle_method() -> None:
    """Worked by hand: A stays, the others turn; sides by the parity of the two places."""
    entrants = [Entrant(name, 1500.0) for name in "ABCD"]
    rounds = round_robin(entrants)
    assert [[(p.first, p.second) for p in r.pairings] for r in rounds] == [
        [("A", "D"), ("B", "C")],
        [("C", "A"), ("D", "B")],
        [("A", "B"), ("C", "D")],
    ]
    assert [r.number for r in rounds] == [1, 2, 3]
    assert all(r.byes == () for r in rounds)


def test_a_double_round_robin_returns_each_game_with_the_sides_swapped() -> None:
    rounds = round_robin(field(4), double=True)
    assert len(rounds) == 6
    assert games(rounds[3:]) == [(b, a) for a, b in games(rounds[:3])]
    assert [r.number for r in rounds] == [1, 2, 3, 4, 5, 6]


def test_withdrawn_entrants_are_not_scheduled() -> None:
    entrants = [*field(3), Entrant("gone", 1500.0, withdrawn=True)]
    rounds = round_robin(entrants)
    assert "gone" not in {player for pair in games(rounds) for player in pair}
    assert len(rounds) == 3


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 64))
def test_single_round_robin_pairs_everyone_once_with_sides_within_one(count: int) -> None:
    rounds = round_robin(field(count))
    played = games(rounds)
    assert len(rounds) == count - 1 + count % 2
    assert Counter(frozenset(g) for g in played) == Counter(
        frozenset((f"p{a:02d}", f"p{b:02d}")) for a in range(count) for b in range(a + 1, count)
    )
    for r in rounds:
        seen = [player for p in r.pairings for player in p.players()] + list(r.byes)
        assert sorted(seen) == sorted(e.player for e in field(count))
    byes = Counter(player for r in rounds for player in r.byes)
    assert byes == (Counter(e.player for e in field(count)) if count % 2 else Counter())
    balance = Counter[str]()
    for first, second in played:
        balance[first] += 1
        balance[second] -= 1
    assert all(abs(v) <= 1 for v in balance.values()), balance


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 64))
def test_double_round_robin_plays_each_pairing_once_per_side(count: int) -> None:
    played = games(round_robin(field(count), double=True))
    assert Counter(played) == Counter(
        (f"p{a:02d}", f"p{b:02d}") for a in range(count) for b in range(count) if a != b
    )
