"""What the Swiss pairing weighs: each player's standing facts, the penalty of a pairing
or a bye as levels in order of importance, and who plays which side.

The levels, most important first (a lower level never outweighs one above it):

1. a rematch;
2. a bye to a player who has had more byes than someone else still playing;
3. a side out of balance: two players both ahead on the same side (or both behind), so
   one of them ends two ahead;
4. a bye to a player ranked higher than the lowest who could take it;
5. the square of the score gap (in half points), so two small gaps beat one large;
6. how high a pair with a score gap stands, so players float from as low in the
   standing as possible and the leaders meet each other;
7. a player who does not get the side they are due (see :func:`due`);
8. within a score group, how far a pair is from the top half meeting the bottom half in
   order (the first against the one just past the middle), as a chess Swiss pairs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.tables.leagues.entrants import PlayerId, Side
from bot.tables.leagues.ledger import PlayerRound


@dataclass(frozen=True)
class Facts:
    """What the pairing knows of a player: ``rank`` 0 is the top of the standing,
    ``halves`` the points doubled (an integer), ``balance`` first sides minus second,
    ``place`` the rank within the players of the same points, ``group`` their count,
    ``field`` the count of players being paired."""

    player: PlayerId
    rank: int
    place: int
    group: int
    field: int
    halves: int
    opponents: frozenset[PlayerId]
    balance: int
    last: Side | None
    byes: int


def facts(
    player: PlayerId, ranks: tuple[int, int, int, int], rounds: Sequence[PlayerRound]
) -> Facts:
    """``ranks``: the rank, the place in the score group, the group's count, the field's."""
    sides = [r.side for r in rounds if r.side is not None]
    rank, place, group, field = ranks
    return Facts(
        player=player,
        rank=rank,
        place=place,
        group=group,
        field=field,
        halves=round(2 * sum(r.points for r in rounds)),
        opponents=frozenset(r.opponent for r in rounds if r.opponent is not None),
        balance=sides.count(Side.FIRST) - sides.count(Side.SECOND),
        last=sides[-1] if sides else None,
        byes=sum(1 for r in rounds if r.opponent is None),
    )


def due(player: Facts) -> Side | None:
    """The side a player is due: the one they have played less, else the one they did
    not play last; ``None`` before their first game."""
    if player.balance:
        return Side.SECOND if player.balance > 0 else Side.FIRST
    if player.last is None:
        return None
    return Side.SECOND if player.last is Side.FIRST else Side.FIRST


def pair_levels(a: Facts, b: Facts) -> tuple[int, ...]:
    """The penalty of pairing ``a`` with ``b``, level by level."""
    high, low = (a, b) if a.rank < b.rank else (b, a)
    rematch = int(b.player in a.opponents)
    unbalanced = int(a.balance * b.balance > 0)
    gap = high.halves - low.halves
    height = high.field - high.rank if gap else 0
    clash = int(due(a) is not None and due(a) == due(b))
    fold = 0 if gap else abs(low.place - high.place - high.group // 2)
    return (rematch, 0, unbalanced, 0, gap * gap, height, clash, fold)


def bye_levels(player: Facts, fewest_byes: int, lowest_rank: int) -> tuple[int, ...]:
    """The penalty of giving ``player`` the bye: extra byes, then rank above the lowest."""
    return (0, player.byes - fewest_byes, 0, lowest_rank - player.rank, 0, 0, 0, 0)


def breaks_a_rule(levels: Sequence[int]) -> bool:
    """A rematch, a second bye out of turn or a side out of balance: what the fast pass
    never pairs, and the complete pass only when nothing else is possible."""
    return any(levels[:3])


def weigh(levels: Sequence[int], bounds: Sequence[int]) -> int:
    """A positive weight, larger for a smaller penalty, that orders penalties level by
    level: ``bounds[i]`` is more than level ``i`` can add up to over a whole round."""
    penalty = 0
    for level, bound in zip(levels, bounds, strict=True):
        penalty = penalty * bound + level
    top = 1
    for bound in bounds:
        top *= bound
    return top - penalty


def bounds_for(players: Sequence[Facts]) -> tuple[int, ...]:
    """Bounds above each level's total over a round of ``players`` (see :func:`weigh`)."""
    pairs = len(players) // 2 + 1
    spread = max(p.halves for p in players) - min(p.halves for p in players)
    most_byes = max(p.byes for p in players)
    field = max(p.field for p in players) + 1
    return (
        pairs + 1,
        most_byes + 1,
        pairs + 1,
        field,
        pairs * spread * spread + 1,
        pairs * field,
        pairs + 1,
        pairs * field,
    )


def assign_sides(players: Sequence[Facts]) -> dict[PlayerId, Side] | None:
    """A side for each player before pairing, half of them each: the side each is due
    (the better ranked of two unplayed players alternately first and second), then as
    many of the lowest-ranked players level on sides moved to the other side as it takes
    to make the halves even; ``None`` when too few are level on sides to move.

    The fast pass pairs by these when its blocks of neighbours leave players unpaired: a
    player ahead on one side can then meet only one who is not, and with the two halves
    even, whoever a block leaves over can be paired further down."""
    wanted = {p.player: due(p) or (Side.FIRST if p.rank % 2 == 0 else Side.SECOND) for p in players}
    excess = sum(1 if side is Side.FIRST else -1 for side in wanted.values()) // 2
    away, to = (Side.FIRST, Side.SECOND) if excess > 0 else (Side.SECOND, Side.FIRST)
    movable = [p.player for p in reversed(players) if p.balance == 0 and wanted[p.player] is away]
    if len(movable) < abs(excess):
        return None
    for player in movable[: abs(excess)]:
        wanted[player] = to
    return wanted


def sides(a: Facts, b: Facts, board: int) -> tuple[PlayerId, PlayerId]:
    """``(first, second)`` for ``a`` (the better ranked) and ``b`` on ``board`` (from 0).

    The player who has played the first side less plays it; at equal balance, a player
    due a side the other is not due gets it; when both are due the same side (or neither
    has played), ``a`` gets the side it is due, and before any game the first side on
    even boards and the second on odd ones, so the top of the field is split evenly.
    """
    if a.balance != b.balance:
        return (a.player, b.player) if a.balance < b.balance else (b.player, a.player)
    due_a, due_b = due(a), due(b)
    if due_a != due_b:
        a_first = due_a is Side.FIRST or due_b is Side.SECOND
    elif due_a is not None:
        a_first = due_a is Side.FIRST
    else:
        a_first = board % 2 == 0
    return (a.player, b.player) if a_first else (b.player, a.player)
