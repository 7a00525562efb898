"""The words of a league: who entered, who plays whom on which side, and what came of it.

Every value is a frozen dataclass, so a round or a result handed out cannot be changed by
whoever holds it, and each can be a key (results are looked up by their pairing).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

#: A player is named as the seats name them: a user id, or a Dispatch level's id.
PlayerId = str


class Side(enum.Enum):
    """The two sides of an asymmetric game, in the game's own order of seats."""

    FIRST = "first"
    SECOND = "second"


@dataclass(frozen=True)
class Entrant:
    """A player of the league, with the rating that seeds them and breaks the last tie.

    ``withdrawn``: the player left; they are paired no more, and what they scored stays.
    """

    player: PlayerId
    rating: float
    withdrawn: bool = False


@dataclass(frozen=True)
class Pairing:
    """One game of a round: ``first`` plays the first side, ``second`` the second."""

    round: int
    first: PlayerId
    second: PlayerId

    def players(self) -> tuple[PlayerId, PlayerId]:
        return (self.first, self.second)

    def side_of(self, player: PlayerId) -> Side:
        return Side.FIRST if player == self.first else Side.SECOND

    def opponent_of(self, player: PlayerId) -> PlayerId:
        return self.second if player == self.first else self.first


@dataclass(frozen=True)
class Bye:
    """A round in which ``player`` had no opponent: it scores as a win (docs/leagues.md)."""

    round: int
    player: PlayerId


class Outcome(enum.Enum):
    """How a game ended. A forfeit (lost on time, or a player who left) is a loss for the
    forfeiter and a win for the other, but not a game played: the tiebreaks treat it as a
    round without an opponent (``bot.tables.leagues.tiebreaks``)."""

    FIRST_WINS = "first wins"
    SECOND_WINS = "second wins"
    DRAW = "draw"
    FIRST_FORFEITS = "first forfeits"
    SECOND_FORFEITS = "second forfeits"

    @property
    def played(self) -> bool:
        return self not in (Outcome.FIRST_FORFEITS, Outcome.SECOND_FORFEITS)

    def points(self, side: Side) -> float:
        """What the player of ``side`` scores: a win 1, a draw 1/2, a loss 0."""
        if self is Outcome.DRAW:
            return 0.5
        first_won = self in (Outcome.FIRST_WINS, Outcome.SECOND_FORFEITS)
        return 1.0 if first_won == (side is Side.FIRST) else 0.0


@dataclass(frozen=True)
class Result:
    """A pairing's game and how it ended."""

    pairing: Pairing
    outcome: Outcome

    def points(self, player: PlayerId) -> float:
        return self.outcome.points(self.pairing.side_of(player))


@dataclass(frozen=True)
class Round:
    """A round's games, in board order, and the players with a bye in it."""

    number: int
    pairings: tuple[Pairing, ...]
    byes: tuple[PlayerId, ...] = ()

    def bye_records(self) -> tuple[Bye, ...]:
        return tuple(Bye(self.number, player) for player in self.byes)
