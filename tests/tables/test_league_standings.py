"""Standings and tiebreaks (bot/tables/leagues/standings.py, tiebreaks.py), checked
against tables worked by hand."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tables.leagues.entrants import Bye, Entrant, Outcome, Pairing, Result
from bot.tables.leagues.ledger import ledger
from bot.tables.leagues.standings import SideRecord, Standing, standings
from bot.tables.leagues.tiebreaks import head_to_head


def line(table: tuple[Standing, ...], player: str) -> Standing:
    return next(s for s in table if s.player == player)


def summary(table: tuple[Standing, ...]) -> list[tuple[object, ...]]:
    return [
        (s.rank, s.player, s.points, s.buchholz, s.sonneborn_berger, s.head_to_head) for s in table
    ]


def test_a_four_player_round_robin_table() -> None:
    """The schedule of test_league_round_robin: A-D, B-C / C-A, D-B / A-B, C-D.

    A beats D, B-C drawn; C-A drawn, B beats D; A-B drawn, D forfeits to C. A, B and C
    all have 2 points. Buchholz (a forfeit is unplayed: a virtual opponent with the
    player's own points): A 0+2+2 = 4, B 2+0+2 = 4, C 2+2+2 = 6, D 2+2+0 = 4.
    Sonneborn-Berger: A 1*0 + 1/2*2 + 1/2*2 = 2, B the same, C 1 + 1 + 1*2 = 4, D 0.
    C leads on Buchholz; A and B are level on all three and drew, so head-to-head gives
    each 1/2, and A's rating (1600 to 1500) puts A above B."""
    entrants = [Entrant("A", 1600.0), Entrant("B", 1500.0), Entrant("C", 1400.0)]
    entrants.append(Entrant("D", 1300.0))
    results = [
        Result(Pairing(1, "A", "D"), Outcome.FIRST_WINS),
        Result(Pairing(1, "B", "C"), Outcome.DRAW),
        Result(Pairing(2, "C", "A"), Outcome.DRAW),
        Result(Pairing(2, "D", "B"), Outcome.SECOND_WINS),
        Result(Pairing(3, "A", "B"), Outcome.DRAW),
        Result(Pairing(3, "C", "D"), Outcome.SECOND_FORFEITS),
    ]
    table = standings(entrants, results, [])
    assert summary(table) == [
        (1, "C", 2.0, 6.0, 4.0, 0.0),
        (2, "A", 2.0, 4.0, 2.0, 0.5),
        (3, "B", 2.0, 4.0, 2.0, 0.5),
        (4, "D", 0.0, 4.0, 0.0, 0.0),
    ]
    assert (str(line(table, "A").first), str(line(table, "A").second)) == ("1-1-0", "0-1-0")
    assert (str(line(table, "B").first), str(line(table, "B").second)) == ("0-1-0", "1-1-0")
    assert (str(line(table, "C").first), str(line(table, "C").second)) == ("1-1-0", "0-1-0")
    assert (str(line(table, "D").first), str(line(table, "D").second)) == ("0-0-1", "0-0-2")


SWISS_SIX = [
    Result(Pairing(1, "P1", "P4"), Outcome.FIRST_WINS),
    Result(Pairing(1, "P5", "P2"), Outcome.SECOND_WINS),
    Result(Pairing(1, "P3", "P6"), Outcome.DRAW),
    Result(Pairing(2, "P2", "P1"), Outcome.SECOND_WINS),
    Result(Pairing(2, "P4", "P3"), Outcome.FIRST_WINS),
    Result(Pairing(2, "P6", "P5"), Outcome.SECOND_FORFEITS),
    Result(Pairing(3, "P1", "P6"), Outcome.DRAW),
    Result(Pairing(3, "P4", "P2"), Outcome.SECOND_WINS),
    Result(Pairing(3, "P3", "P5"), Outcome.FIRST_WINS),
]


def test_a_six_player_swiss_table() -> None:
    """The three rounds of test_league_swiss's worked example, P5 forfeiting round 2.

    Points: P1 2.5, P2 2, P6 2, P3 1.5, P4 1, P5 0. Buchholz: P1 1+2+2 = 5, P2 0+2.5+1
    = 3.5, P3 2+1+0 = 3, P4 2.5+1.5+2 = 6, P5 2+0(own, unplayed)+1.5 = 3.5, P6
    1.5+2(own, unplayed)+2.5 = 6. Sonneborn-Berger: P1 1+2+1 = 4, P2 0+0+1 = 1, P3
    1+0+0 = 1, P4 0+1.5+0 = 1.5, P5 0, P6 0.75+2+1.25 = 4. P6 and P2 share 2 points;
    P6's Buchholz (6 to 3.5) puts it second."""
    entrants = [Entrant(f"P{i}", 2100.0 - 100 * i) for i in range(1, 7)]
    table = standings(entrants, SWISS_SIX, [])
    assert summary(table) == [
        (1, "P1", 2.5, 5.0, 4.0, 0.0),
        (2, "P6", 2.0, 6.0, 4.0, 0.0),
        (3, "P2", 2.0, 3.5, 1.0, 0.0),
        (4, "P3", 1.5, 3.0, 1.0, 0.0),
        (5, "P4", 1.0, 6.0, 1.5, 0.0),
        (6, "P5", 0.0, 3.5, 0.0, 0.0),
    ]
    records = {s.player: (str(s.first), str(s.second)) for s in table}
    assert records == {
        "P1": ("1-1-0", "1-0-0"),
        "P2": ("0-0-1", "2-0-0"),
        "P3": ("1-1-0", "0-0-1"),
        "P4": ("1-0-1", "0-0-1"),
        "P5": ("0-0-1", "0-0-2"),
        "P6": ("1-0-0", "0-2-0"),
    }


def test_a_bye_scores_a_win_and_is_a_round_against_oneself() -> None:
    """X beats Y, then X sits out: 2 points, Buchholz 0 (Y) + 2 (itself), Sonneborn-Berger
    0 + 1 * 2."""
    entrants = [Entrant("X", 1500.0), Entrant("Y", 1400.0)]
    table = standings(entrants, [Result(Pairing(1, "X", "Y"), Outcome.FIRST_WINS)], [Bye(2, "X")])
    assert summary(table)[0] == (1, "X", 2.0, 2.0, 2.0, 0.0)
    assert line(table, "X").byes == 1
    assert line(table, "X").first == SideRecord(1, 0, 0)


def test_head_to_head_only_separates_players_who_all_met() -> None:
    results = [
        Result(Pairing(1, "A", "B"), Outcome.FIRST_WINS),
        Result(Pairing(2, "B", "C"), Outcome.DRAW),
    ]
    book = ledger(results, [])
    assert head_to_head(["A", "B"], book) == {"A": 1.0, "B": 0.0}
    assert head_to_head(["A", "B", "C"], book) == {"A": 0.0, "B": 0.0, "C": 0.0}
    both_ways = [*results, Result(Pairing(3, "C", "A"), Outcome.FIRST_WINS)]
    assert head_to_head(["A", "B", "C"], ledger(both_ways, [])) == {
        "A": 1.0,
        "B": 0.5,
        "C": 1.5,
    }


def test_head_to_head_decides_before_the_rating() -> None:
    """K beat L, M-N drawn; M beat K, L beat N; K-N and L-M drawn. K and L have 1.5
    points, Buchholz 1.5+2+1 = 4.5 each, Sonneborn-Berger 1.5+0+0.5 and 0+1+1 = 2 each:
    K won their game, so K ranks above L though rated lower."""
    entrants = [Entrant(name, rating) for name, rating in (("K", 1400.0), ("L", 1600.0))]
    entrants += [Entrant("M", 1500.0), Entrant("N", 1500.0)]
    results = [
        Result(Pairing(1, "K", "L"), Outcome.FIRST_WINS),
        Result(Pairing(1, "M", "N"), Outcome.DRAW),
        Result(Pairing(2, "M", "K"), Outcome.FIRST_WINS),
        Result(Pairing(2, "L", "N"), Outcome.FIRST_WINS),
        Result(Pairing(3, "K", "N"), Outcome.DRAW),
        Result(Pairing(3, "L", "M"), Outcome.DRAW),
    ]
    assert summary(standings(entrants, results, [])) == [
        (1, "M", 2.0, 4.0, 2.75, 0.0),
        (2, "K", 1.5, 4.5, 2.0, 1.0),
        (3, "L", 1.5, 4.5, 2.0, 0.0),
        (4, "N", 1.0, 5.0, 1.75, 0.0),
    ]


@settings(max_examples=30, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 5), st.integers(0, 5), st.sampled_from(list(Outcome))),
        max_size=30,
    ),
    st.lists(st.integers(0, 5), max_size=5),
)
def test_side_records_and_byes_add_up_to_the_points(
    games: list[tuple[int, int, Outcome]], byes: list[int]
) -> None:
    entrants = [Entrant(f"z{i}", 1500.0) for i in range(6)]
    results = [
        Result(Pairing(n, f"z{a}", f"z{b}"), outcome)
        for n, (a, b, outcome) in enumerate(games, 1)
        if a != b
    ]
    table = standings(entrants, results, [Bye(100 + n, f"z{p}") for n, p in enumerate(byes)])
    for s in table:
        wins = s.first.wins + s.second.wins + s.byes
        assert s.points == wins + (s.first.draws + s.second.draws) / 2
    assert [s.rank for s in table] == sorted(s.rank for s in table)
