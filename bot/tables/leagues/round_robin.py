"""Round robin, single or double, scheduled in rounds by the circle method.

The circle method: the players stand in two rows facing each other, the first player
stays put and the others turn one place each round, so each pair meets exactly once in
``n - 1`` rounds (``n`` rounded up to even); with an odd count, the empty place is a bye,
each player's once.

Sides: in a single round robin, of two players at places ``a < b`` of the entry list,
``a`` plays the first side when ``a + b`` is odd and ``b`` when it is even. Each player
then plays each side as often as the other, within one (half the opponents of each
parity): ``tests/tables/test_league_round_robin.py`` checks it for every count. A double
round robin plays the single one twice, the second time with every pairing's sides
swapped, so each pairing plays both sides.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.tables.leagues.entrants import Entrant, Pairing, PlayerId, Round


def round_robin(entrants: Sequence[Entrant], *, double: bool = False) -> tuple[Round, ...]:
    """Every round of a round robin between the entrants not withdrawn, in entry order."""
    players = [entrant.player for entrant in entrants if not entrant.withdrawn]
    single = tuple(
        _round(number, places, players) for number, places in enumerate(_circle(len(players)), 1)
    )
    if not double:
        return single
    return single + tuple(_swapped(played, len(single)) for played in single)


def _circle(count: int) -> list[list[tuple[int | None, int | None]]]:
    """Each round's pairs of places; ``None`` is the empty place of an odd count."""
    places: list[int | None] = list(range(count))
    if count % 2:
        places.append(None)
    size = len(places)
    rounds = []
    for _ in range(size - 1):
        rounds.append([(places[i], places[size - 1 - i]) for i in range(size // 2)])
        places = [places[0], places[-1], *places[1:-1]]
    return rounds


def _round(
    number: int, places: list[tuple[int | None, int | None]], players: list[PlayerId]
) -> Round:
    pairings: list[Pairing] = []
    byes: list[PlayerId] = []
    for a, b in places:
        if a is None or b is None:
            byes.extend(players[p] for p in (a, b) if p is not None)
            continue
        low, high = min(a, b), max(a, b)
        first, second = (low, high) if (low + high) % 2 else (high, low)
        pairings.append(Pairing(number, players[first], players[second]))
    return Round(number, tuple(pairings), tuple(byes))


def _swapped(played: Round, offset: int) -> Round:
    """The return leg of a round: the same games, each with its sides swapped."""
    number = played.number + offset
    return Round(
        number,
        tuple(Pairing(number, p.second, p.first) for p in played.pairings),
        played.byes,
    )
