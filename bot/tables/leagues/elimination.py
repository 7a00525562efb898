"""Single elimination, seeded by rating.

The bracket is the next power of two at or above the count; seed 1 (the best rating) is
placed against the last seed, seed 2 in the other half, and so on by the standard
bracket order (:func:`bracket_order`), so that while the better seed wins every tie, the
top two meet only in the final and the top four only in the semi-finals. The places past
the count are byes, so the byes fall to the top seeds.

A tie is one game, or a pair of games, one on each side (``games_per_tie=2``). Sides of a
one-game tie: the player who has played the first side less often plays it (a balance as
in the Swiss); at equal balances the better seed plays the first side in odd rounds and
the second in even ones. The winner of a tie is the player with more points from its
games (a forfeit counts as a loss); at equal points the better seed goes through, since
seeding is the one order fixed before the event.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.tables.leagues.entrants import Entrant, Outcome, Pairing, PlayerId


@dataclass(frozen=True)
class Tie:
    """Two players of a round and their games; ``low`` is ``None`` for a bye."""

    high: PlayerId
    low: PlayerId | None
    games: tuple[Pairing, ...]


@dataclass(frozen=True)
class Stage:
    """A round of the bracket, its ties in bracket order (the winners of ties ``2k`` and
    ``2k + 1`` meet in the next round)."""

    number: int
    ties: tuple[Tie, ...]


def seeds(entrants: Sequence[Entrant]) -> tuple[PlayerId, ...]:
    """The entrants not withdrawn, best rating first (then by name, so it is stable)."""
    ranked = sorted((e for e in entrants if not e.withdrawn), key=lambda e: (-e.rating, e.player))
    return tuple(e.player for e in ranked)


def bracket_order(size: int) -> list[int]:
    """The seeds (1-based) in bracket order for a bracket of ``size``, a power of two:
    ``[1, 8, 4, 5, 2, 7, 3, 6]`` for 8, so each pair sums to ``size + 1``."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


def first_stage(entrants: Sequence[Entrant], games_per_tie: int = 1) -> Stage:
    """The first round: every seed in its place, the top seeds given the byes.

    ``ValueError`` for fewer than two players or a tie of other than one or two games: a
    caller's mistake, since whoever sets up the event refuses those politely first."""
    if games_per_tie not in (1, 2):
        raise ValueError("a tie is one game or two")
    seeded = seeds(entrants)
    if len(seeded) < 2:
        raise ValueError("an elimination needs two players")
    size = 1
    while size < len(seeded):
        size *= 2
    order = bracket_order(size)
    ties = []
    for i in range(0, size, 2):
        high = seeded[order[i] - 1]
        low = seeded[order[i + 1] - 1] if order[i + 1] <= len(seeded) else None
        ties.append(_tie(1, high, low, games_per_tie, {}))
    return Stage(1, tuple(ties))


def next_stage(
    stage: Stage,
    results: Mapping[Pairing, Outcome],
    seeded: Sequence[PlayerId],
    games_per_tie: int = 1,
) -> Stage | None:
    """The round after ``stage`` once its ties are decided; ``None`` after the final."""
    if len(stage.ties) == 1:
        return None
    rank = {player: place for place, player in enumerate(seeded)}
    winners = [tie_winner(tie, results, rank) for tie in stage.ties]
    balance = side_balance(results)
    number = stage.number + 1
    ties = []
    for a, b in zip(winners[::2], winners[1::2], strict=True):
        high, low = (a, b) if rank[a] < rank[b] else (b, a)
        ties.append(_tie(number, high, low, games_per_tie, balance))
    return Stage(number, tuple(ties))


def tie_winner(
    tie: Tie, results: Mapping[Pairing, Outcome], rank: Mapping[PlayerId, int]
) -> PlayerId:
    """Who goes through: more points over the tie's games, the better seed when level."""
    if tie.low is None:
        return tie.high
    high = sum(results[game].points(game.side_of(tie.high)) for game in tie.games)
    low = sum(results[game].points(game.side_of(tie.low)) for game in tie.games)
    if high == low:
        return tie.high if rank[tie.high] < rank[tie.low] else tie.low
    return tie.high if high > low else tie.low


def side_balance(results: Mapping[Pairing, Outcome]) -> dict[PlayerId, int]:
    """Each player's count of first sides minus second sides over the games so far."""
    balance: dict[PlayerId, int] = {}
    for pairing in results:
        balance[pairing.first] = balance.get(pairing.first, 0) + 1
        balance[pairing.second] = balance.get(pairing.second, 0) - 1
    return balance


def _tie(
    number: int,
    high: PlayerId,
    low: PlayerId | None,
    games_per_tie: int,
    balance: Mapping[PlayerId, int],
) -> Tie:
    if low is None:
        return Tie(high, None, ())
    if games_per_tie == 2:
        return Tie(high, low, (Pairing(number, high, low), Pairing(number, low, high)))
    first = _first_side(number, high, low, balance)
    second = low if first == high else high
    return Tie(high, low, (Pairing(number, first, second),))


def _first_side(
    number: int, high: PlayerId, low: PlayerId, balance: Mapping[PlayerId, int]
) -> PlayerId:
    high_balance, low_balance = balance.get(high, 0), balance.get(low, 0)
    if high_balance != low_balance:
        return high if high_balance < low_balance else low
    return high if number % 2 else low
