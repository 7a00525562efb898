"""Each player's rounds so far, read from the results and the byes: the one place that
knows what a round was worth to whom, for the pairing and for the standings alike."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bot.tables.leagues.entrants import Bye, PlayerId, Result, Side


@dataclass(frozen=True)
class PlayerRound:
    """One player's round: ``opponent`` and ``side`` are ``None`` for a bye; ``played`` is
    false for a bye and for a forfeit either way (no game was played out)."""

    number: int
    opponent: PlayerId | None
    side: Side | None
    points: float
    played: bool


def ledger(results: Iterable[Result], byes: Iterable[Bye]) -> dict[PlayerId, list[PlayerRound]]:
    """Every player's rounds, in round order. A bye scores 1, as a win."""
    book: dict[PlayerId, list[PlayerRound]] = {}
    for result in results:
        pairing, played = result.pairing, result.outcome.played
        for player in pairing.players():
            book.setdefault(player, []).append(
                PlayerRound(
                    pairing.round,
                    pairing.opponent_of(player),
                    pairing.side_of(player),
                    result.points(player),
                    played,
                )
            )
    for bye in byes:
        book.setdefault(bye.player, []).append(PlayerRound(bye.round, None, None, 1.0, False))
    for rounds in book.values():
        rounds.sort(key=lambda r: r.number)
    return book


def points(book: dict[PlayerId, list[PlayerRound]]) -> dict[PlayerId, float]:
    """Each player's points: a win or a bye 1, a draw 1/2, a loss 0."""
    return {player: sum((r.points for r in rounds), 0.0) for player, rounds in book.items()}
