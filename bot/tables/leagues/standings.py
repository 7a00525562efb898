"""The standings: points, then the tiebreaks in order, with each player's record per side.

Points: a win 1, a draw 1/2, a loss 0; a forfeit is a loss for the forfeiter and a win
for the other; a bye is a win (1). In a round robin of an odd count every player has one
bye, so the point it gives is the same for all.

Order: points, then Buchholz, then Sonneborn-Berger, then head-to-head among the players
still level on all three, then rating (``bot.tables.leagues.tiebreaks`` defines each).
Players level on all of them share a rank, listed by name.

The record per side counts every paired round of the player at the side they were given,
forfeits included, so a player's wins, draws and byes add up to their points.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from bot.tables.leagues.entrants import Bye, Entrant, PlayerId, Result, Side
from bot.tables.leagues.ledger import PlayerRound, ledger, points
from bot.tables.leagues.tiebreaks import buchholz, head_to_head, sonneborn_berger


@dataclass(frozen=True)
class SideRecord:
    """Wins, draws and losses at one side."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    def __str__(self) -> str:
        return f"{self.wins}-{self.draws}-{self.losses}"


@dataclass(frozen=True)
class Standing:
    """A player's line of the table."""

    rank: int
    player: PlayerId
    points: float
    buchholz: float
    sonneborn_berger: float
    head_to_head: float
    rating: float
    first: SideRecord
    second: SideRecord
    byes: int
    withdrawn: bool


def standings(
    entrants: Sequence[Entrant], results: Sequence[Result], byes: Sequence[Bye]
) -> tuple[Standing, ...]:
    """Every entrant's line, withdrawn players included, best first."""
    book = ledger(results, byes)
    scored = points(book)
    lines = [_line(entrant, book.get(entrant.player, []), scored) for entrant in entrants]
    lines = _with_head_to_head(lines, book)
    lines.sort(key=lambda s: (_order(s), s.player))
    ranked: list[Standing] = []
    for place, line in enumerate(lines):
        rank = place + 1
        if ranked and _order(ranked[-1]) == _order(line):
            rank = ranked[-1].rank
        ranked.append(dataclasses.replace(line, rank=rank))
    return tuple(ranked)


def _line(
    entrant: Entrant, rounds: Sequence[PlayerRound], scored: dict[PlayerId, float]
) -> Standing:
    player = entrant.player
    return Standing(
        rank=0,
        player=player,
        points=scored.get(player, 0.0),
        buchholz=buchholz(player, rounds, scored),
        sonneborn_berger=sonneborn_berger(player, rounds, scored),
        head_to_head=0.0,
        rating=entrant.rating,
        first=_record(rounds, Side.FIRST),
        second=_record(rounds, Side.SECOND),
        byes=sum(1 for r in rounds if r.opponent is None),
        withdrawn=entrant.withdrawn,
    )


def _record(rounds: Sequence[PlayerRound], side: Side) -> SideRecord:
    at_side = [r.points for r in rounds if r.side is side]
    return SideRecord(at_side.count(1.0), at_side.count(0.5), at_side.count(0.0))


def _level(line: Standing) -> tuple[float, float, float]:
    return (line.points, line.buchholz, line.sonneborn_berger)


def _with_head_to_head(
    lines: list[Standing], book: dict[PlayerId, list[PlayerRound]]
) -> list[Standing]:
    """Each line with its head-to-head among the players level with it on the first
    three keys."""
    lines = sorted(lines, key=_level)
    done: list[Standing] = []
    for _, group in itertools.groupby(lines, key=_level):
        tied = list(group)
        h2h = head_to_head([line.player for line in tied], book)
        done.extend(dataclasses.replace(line, head_to_head=h2h[line.player]) for line in tied)
    return done


def _order(line: Standing) -> tuple[float, ...]:
    """The sort key, best first: every criterion negated."""
    return (
        -line.points,
        -line.buchholz,
        -line.sonneborn_berger,
        -line.head_to_head,
        -line.rating,
    )
