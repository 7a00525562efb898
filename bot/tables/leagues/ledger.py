"""Each player's rounds so far, read from the results and the byes: the one place that
knows what a round was worth to whom, for the pairing and for the standings alike."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from bot.tables.leagues.entrants import Bye, PlayerId, Result, Side


class PlayerRound(NamedTuple):
    """One player's round: ``opponent`` and ``side`` are ``None`` for a bye; ``played`` is
    false for a bye and for a forfeit either way (no game was played out). A named tuple,
    immutable like the core's other values: a season of 10,000 games makes 20,000 of
    them at every ranking, and a tuple is made several times faster than a frozen
    dataclass."""

    number: int
    opponent: PlayerId | None
    side: Side | None
    points: float
    played: bool


def ledger(results: Iterable[Result], byes: Iterable[Bye]) -> dict[PlayerId, list[PlayerRound]]:
    """Every player's rounds, in round order. A bye scores 1, as a win."""
    book: dict[PlayerId, list[PlayerRound]] = {}
    for result in results:
        pairing, outcome = result.pairing, result.outcome
        played, first_points = outcome.played, outcome.points(Side.FIRST)
        number, first, second = pairing.round, pairing.first, pairing.second
        # A game's two players share one point: a win and a loss, or a draw.
        book.setdefault(first, []).append(
            PlayerRound(number, second, Side.FIRST, first_points, played)
        )
        book.setdefault(second, []).append(
            PlayerRound(number, first, Side.SECOND, 1.0 - first_points, played)
        )
    for bye in byes:
        book.setdefault(bye.player, []).append(PlayerRound(bye.round, None, None, 1.0, False))
    for rounds in book.values():
        rounds.sort(key=_number)
    return book


def _number(r: PlayerRound) -> int:
    return r.number


def points(book: dict[PlayerId, list[PlayerRound]]) -> dict[PlayerId, float]:
    """Each player's points: a win or a bye 1, a draw 1/2, a loss 0."""
    return {player: sum((r.points for r in rounds), 0.0) for player, rounds in book.items()}
