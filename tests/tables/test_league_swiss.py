"""The Swiss pairing (bot/tables/leagues/swiss.py): no rematch while one can be avoided
(and the fewest when none can), byes spread, sides within one, the withdrawn unpaired."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tables.leagues import swiss
from bot.tables.leagues.entrants import Bye, Entrant, Outcome, Pairing, Result, Round, Side
from bot.tables.leagues.swiss import Pairs, swiss_round
from bot.tables.leagues.swiss_weights import Facts, assign_sides

SIX = [Entrant(f"P{i}", 2100.0 - 100 * i) for i in range(1, 7)]


def pairs(round_: Round) -> list[tuple[str, str]]:
    return [(p.first, p.second) for p in round_.pairings]


def test_six_players_paired_as_worked_by_hand() -> None:
    """Round 1 folds the field (1-4, 2-5, 3-6), the sides alternating down the boards.
    Round 2: everyone is a side ahead or behind, so each pair joins one of each; of the
    two pairings without a rematch that cost two one-step floats, the one whose floats
    stand lower (P5-P6, P3-P4) keeps the leaders together. Round 3: the only pairing
    whose score gaps cost 2 (squared, in half points); P2 and P4 are both due the second
    side and P2, ranked higher, gets it."""
    round1 = swiss_round(SIX, [], [], 1)
    assert pairs(round1) == [("P1", "P4"), ("P5", "P2"), ("P3", "P6")]
    results = [
        Result(Pairing(1, "P1", "P4"), Outcome.FIRST_WINS),
        Result(Pairing(1, "P5", "P2"), Outcome.SECOND_WINS),
        Result(Pairing(1, "P3", "P6"), Outcome.DRAW),
    ]
    round2 = swiss_round(SIX, results, [], 2)
    assert pairs(round2) == [("P2", "P1"), ("P4", "P3"), ("P6", "P5")]
    results += [
        Result(Pairing(2, "P2", "P1"), Outcome.SECOND_WINS),
        Result(Pairing(2, "P4", "P3"), Outcome.FIRST_WINS),
        Result(Pairing(2, "P6", "P5"), Outcome.SECOND_FORFEITS),
    ]
    round3 = swiss_round(SIX, results, [], 3)
    assert pairs(round3) == [("P1", "P6"), ("P4", "P2"), ("P3", "P5")]
    assert round3.byes == ()


def test_the_bye_goes_to_the_lowest_ranked_player_without_one() -> None:
    """Five players: Q5, the lowest, sits out round 1 (Q1-Q3 and Q4-Q2, the first side
    winning both). Round 2's standing: Q1, Q4, Q5 on 1 point, Q2, Q3 on none; Q3 is the
    lowest without a bye."""
    five = [Entrant(f"Q{i}", 2000.0 - i) for i in range(1, 6)]
    first = swiss_round(five, [], [], 1)
    assert first.byes == ("Q5",)
    assert pairs(first) == [("Q1", "Q3"), ("Q4", "Q2")]
    results = [Result(p, Outcome.FIRST_WINS) for p in first.pairings]
    second = swiss_round(five, results, first.bye_records(), 2)
    assert second.byes == ("Q3",)


def test_nobody_gets_a_second_bye_while_someone_has_had_none() -> None:
    """After two rounds (E and then D sat out), the standing ends B, C, D, E on 1 point
    behind A: E and D are the lowest, but C is the lowest without a bye."""
    five = [Entrant(name, 2000.0 - i) for i, name in enumerate("ABCDE")]
    results = [
        Result(Pairing(1, "A", "B"), Outcome.FIRST_WINS),
        Result(Pairing(1, "C", "D"), Outcome.FIRST_WINS),
        Result(Pairing(2, "A", "E"), Outcome.FIRST_WINS),
        Result(Pairing(2, "B", "C"), Outcome.FIRST_WINS),
    ]
    third = swiss_round(five, results, [Bye(1, "E"), Bye(2, "D")], 3)
    assert third.byes == ("C",)


def test_withdrawn_players_are_never_paired() -> None:
    entrants = [*SIX[:4], Entrant("P5", 1600.0, withdrawn=True), SIX[5]]
    round1 = swiss_round(entrants, [], [], 1)
    paired = {p for pair in pairs(round1) for p in pair} | set(round1.byes)
    assert paired == {"P1", "P2", "P3", "P4", "P6"}


def test_a_round_needs_two_players() -> None:
    with pytest.raises(ValueError, match="two players"):
        swiss_round(SIX[:1], [], [], 1)


def test_when_every_pairing_is_a_rematch_the_round_still_pairs_everyone() -> None:
    """Four players after three rounds have all met: the fourth round cannot avoid a
    rematch, so it has the fewest (two), and keeps the sides within one."""
    four = SIX[:4]
    results: list[Result] = []
    for number in (1, 2, 3):
        paired = swiss_round(four, results, [], number)
        results += [Result(p, Outcome.FIRST_WINS) for p in paired.pairings]
    met = {frozenset(r.pairing.players()) for r in results}
    assert len(met) == 6
    fourth = swiss_round(four, results, [], 4)
    assert len(fourth.pairings) == 2
    assert sorted(p for pair in pairs(fourth) for p in pair) == ["P1", "P2", "P3", "P4"]


def rematches(round_: Round, met: set[frozenset[str]]) -> int:
    return sum(frozenset(p.players()) in met for p in round_.pairings)


def fewest_rematches(players: list[str], met: set[frozenset[str]]) -> int:
    """By brute force: the fewest rematches over every way to pair ``players`` (one of
    them sitting out when the count is odd)."""
    if len(players) < 2:
        return 0
    if len(players) % 2:
        return min(
            fewest_rematches(players[:i] + players[i + 1 :], met) for i in range(len(players))
        )
    head, rest = players[0], players[1:]
    return min(
        int(frozenset((head, other)) in met)
        + fewest_rematches([p for p in rest if p != other], met)
        for other in rest
    )


@settings(max_examples=25, deadline=None)
@given(st.integers(3, 7), st.integers(1, 9), st.randoms(use_true_random=False))
def test_a_round_that_cannot_avoid_rematches_has_the_fewest(
    count: int, played_rounds: int, deal: random.Random
) -> None:
    """Histories of any rounds at all, past the point where rematches are forced: the
    pairing's rematches are the fewest any pairing of the field could have."""
    entrants = [Entrant(f"r{i}", 1500.0 + i) for i in range(count)]
    results: list[Result] = []
    byes: list[Bye] = []
    for number in range(1, played_rounds + 1):
        order = [e.player for e in entrants]
        deal.shuffle(order)
        if count % 2:
            byes.append(Bye(number, order.pop()))
        results += [
            Result(Pairing(number, a, b), deal.choice(list(Outcome)))
            for a, b in zip(order[::2], order[1::2], strict=True)
        ]
    met = {frozenset(r.pairing.players()) for r in results}
    paired = swiss_round(entrants, results, byes, played_rounds + 1)
    assert rematches(paired, met) == fewest_rematches([e.player for e in entrants], met)


def play_swiss(
    entrants: list[Entrant], rounds: int, deal: random.Random, *, withdrawals: bool
) -> list[tuple[Round, list[Entrant]]]:
    """A Swiss with random results (and with ``withdrawals``, now and then a player
    withdrawing between rounds): each round with the entrants as they stood when it was
    paired."""
    results: list[Result] = []
    byes: list[Bye] = []
    played = []
    for number in range(1, rounds + 1):
        if withdrawals and number > 1 and deal.random() < 0.2:
            who = deal.randrange(len(entrants))
            entrants = [
                Entrant(e.player, e.rating, withdrawn=e.withdrawn or i == who)
                for i, e in enumerate(entrants)
            ]
        if sum(not e.withdrawn for e in entrants) < 2:
            break
        paired = swiss_round(entrants, results, byes, number)
        played.append((paired, entrants))
        results += [Result(p, deal.choice(list(Outcome))) for p in paired.pairings]
        byes += paired.bye_records()
    return played


@settings(max_examples=20, deadline=None)
@given(st.integers(2, 64), st.integers(1, 6), st.booleans(), st.randoms(use_true_random=False))
def test_swiss_rounds_keep_every_rule_while_the_field_allows(
    count: int, wanted: int, withdrawals: bool, deal: random.Random
) -> None:
    """Round ``r`` of ``n`` players can always avoid a rematch while ``r <= (n - 1) / 2``
    (each player has met fewer than half the others, so by Dirac's theorem the players
    who have not met form a graph with a perfect matching, a bye taken out); the event
    is held to that many rounds and must then have no rematch, no second bye before
    everyone still in has had one, and nobody withdrawn paired. Every side balance stays
    within one too, unless players withdrew: those who leave can leave more players
    ahead on one side than the rest can even out, and then no pairing keeps them all
    within one."""
    rounds = min(wanted, max(1, (count - 1) // 2))
    entrants = [Entrant(f"w{i:02d}", deal.gauss(1500, 200)) for i in range(count)]
    met: set[frozenset[str]] = set()
    byes = Counter[str]()
    balance = Counter[str]()
    for paired, standing in play_swiss(entrants, rounds, deal, withdrawals=withdrawals):
        active = {e.player for e in standing if not e.withdrawn}
        seated = [p for pair in pairs(paired) for p in pair] + list(paired.byes)
        assert sorted(seated) == sorted(active)
        for bye in paired.byes:
            assert byes[bye] == min(byes[p] for p in active)
            byes[bye] += 1
        assert rematches(paired, met) == 0
        met |= {frozenset(p.players()) for p in paired.pairings}
        for p in paired.pairings:
            balance[p.first] += 1
            balance[p.second] -= 1
        assert withdrawals or all(abs(v) <= 1 for v in balance.values()), balance


def test_a_big_field_is_paired_in_blocks_of_neighbours() -> None:
    """Past a block, players are only matched with the nearest by standing: in round 1
    (all level) nobody meets a player more than a block and a half away."""
    field = [Entrant(f"b{i:03d}", 3000.0 - i) for i in range(4 * swiss.BLOCK)]
    first = swiss_round(field, [], [], 1)
    assert len(first.pairings) == 2 * swiss.BLOCK
    for p in first.pairings:
        assert abs(int(p.first[1:]) - int(p.second[1:])) < swiss.BLOCK


def test_settled_sides_are_the_due_ones_evened_from_the_bottom() -> None:
    """After round 1 (each first side won), P2 and P4 withdraw: P1, P3 and P5 are a first
    side ahead (due the second), P6 behind (due the first), and the newcomers P7 and P8,
    unplayed, alternate by rank (first, second). That is two firsts to four seconds, so
    the lowest level player, P8, moves to the first side; without P7 and P8 nobody level
    could move, and there are no settled sides."""
    eight = [*SIX, Entrant("P7", 1400.0), Entrant("P8", 1300.0)]
    eight[1] = Entrant("P2", 1900.0, withdrawn=True)
    eight[3] = Entrant("P4", 1700.0, withdrawn=True)
    results = [
        Result(Pairing(1, "P1", "P2"), Outcome.FIRST_WINS),
        Result(Pairing(1, "P3", "P4"), Outcome.FIRST_WINS),
        Result(Pairing(1, "P5", "P6"), Outcome.FIRST_WINS),
    ]
    settled = assign_sides(swiss.standing(eight, results, []))
    assert settled is not None
    firsts = sorted(p for p, side in settled.items() if side is Side.FIRST)
    assert firsts == ["P6", "P7", "P8"]
    assert assign_sides(swiss.standing(eight[:6], results, [])) is None


def test_a_big_field_stays_in_small_blocks_when_the_sides_run_uneven(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Round 2 of an odd field: everyone is a side ahead or behind but the player who had
    the bye, so the one level player must meet the side more players are ahead on.
    Matching the blocks as they fall spends that player early; settling the sides first
    pairs the round in blocks of 16 instead of doubling them towards the whole field."""
    sizes: list[int] = []
    by_blocks = swiss._by_blocks

    def counted(field: list[Facts], size: int, settled: Mapping[str, Side] | None) -> Pairs | None:
        sizes.append(size)
        return by_blocks(field, size, settled)

    monkeypatch.setattr(swiss, "_by_blocks", counted)
    deal = random.Random(2)
    entrants = [Entrant(f"c{i:03d}", deal.gauss(1500, 200)) for i in range(65)]
    results: list[Result] = []
    byes: list[Bye] = []
    decided = [Outcome.FIRST_WINS, Outcome.SECOND_WINS, Outcome.DRAW]
    for number in (1, 2, 3):
        paired = swiss_round(entrants, results, byes, number)
        results += [Result(p, deal.choice(decided)) for p in paired.pairings]
        byes += paired.bye_records()
    assert set(sizes) == {swiss.BLOCK}
