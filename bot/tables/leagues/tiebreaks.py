"""The tiebreaks, in the order the standings apply them after points.

Each reads a player's rounds (``ledger``) and the points of every player as they stand at
the end; a withdrawn opponent counts with the points they made before leaving (their
rounds after it were never paired, so they add nothing).

Unplayed rounds: a bye, and a forfeit either way, are rounds without a game played. Both
tiebreaks below count such a round as a game against a virtual opponent with the
player's own points, so a bye or a walkover neither lifts nor sinks a player against
those who played every round, and a forfeit's winner gains nothing from the opponent who
did not play.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence

from bot.tables.leagues.entrants import PlayerId
from bot.tables.leagues.ledger import PlayerRound


def _opponent_points(player: PlayerId, r: PlayerRound, scored: Mapping[PlayerId, float]) -> float:
    """The points of the round's opponent: the real one for a game played, else the
    virtual one with the player's own points."""
    if r.played and r.opponent is not None:
        return scored.get(r.opponent, 0.0)
    return scored.get(player, 0.0)


def buchholz(
    player: PlayerId, rounds: Sequence[PlayerRound], scored: Mapping[PlayerId, float]
) -> float:
    """Buchholz: the sum of the opponents' points, how hard a player's field was."""
    return sum((_opponent_points(player, r, scored) for r in rounds), 0.0)


def sonneborn_berger(
    player: PlayerId, rounds: Sequence[PlayerRound], scored: Mapping[PlayerId, float]
) -> float:
    """Sonneborn-Berger: the points of each opponent times what the player scored against
    them (all of a beaten opponent's, half of a drawn one's, none of a winner's), so a win
    against the strong weighs more than a win against the weak."""
    return sum((r.points * _opponent_points(player, r, scored) for r in rounds), 0.0)


def head_to_head(
    group: Sequence[PlayerId], book: Mapping[PlayerId, Sequence[PlayerRound]]
) -> dict[PlayerId, float]:
    """Head-to-head among players still tied: each one's points from the rounds between
    them (forfeits included: they are results). It applies only when every two of the
    group met; otherwise it separates nobody (all 0), since a player who never met a
    rival would be judged on a partial record."""
    members = set(group)
    met = {
        frozenset((player, r.opponent))
        for player in group
        for r in book.get(player, [])
        if r.opponent in members
    }
    if any(frozenset(pair) not in met for pair in itertools.combinations(group, 2)):
        return dict.fromkeys(group, 0.0)
    return {
        player: sum((r.points for r in book.get(player, []) if r.opponent in members), 0.0)
        for player in group
    }
