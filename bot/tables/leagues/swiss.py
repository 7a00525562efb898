"""A Swiss round, paired by a maximum-weight matching (networkx's blossom algorithm).

Why networkx: it is a well-kept library whose ``max_weight_matching`` finds, among the
pairings that pair the most players, one of greatest total weight; the rules live in the
weights (``swiss_weights``), so no pairing search is written here. A FIDE Dutch engine
fits chess's colour rules and its own tiebreaks; the matching lets the rules be ours.

The standing orders the players not withdrawn by points, then rating, then name. With an
odd count, the bye goes to the lowest-ranked player among those with the fewest byes.

Speed: a complete graph of 1,000 players is half a million edges and the blossom
algorithm is cubic, so the fast pass connects each player only to the nearest players by
standing: the standing is cut into blocks of :data:`BLOCK` players, each block is matched
on its own, and a player left unpaired moves down into the next block. Matching block by
block can spend early a player the end needed (one level on sides, the only partner left
for two players ahead on the same side), so when the last block leaves someone unpaired
the blocks are matched again with every player's side settled first (``assign_sides``:
half the field each side, so whoever a block leaves over finds a partner further down).
While both fail, the blocks double, up to the whole field. The fast pass pairs nobody
against a rule (a rematch, a bye out of turn, a side out of balance); with an odd count
it tries the bye on the :data:`BYE_TRIES` lowest-ranked players who may have it.

When no such pairing exists (the late rounds of a small event), the complete pass weighs
every pairing of the field with the rules as levels of penalty, so the round has the
fewest rematches possible, then the fewest byes out of turn, then the fewest sides out of
balance.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence

import networkx as nx

from bot.tables.leagues.entrants import Bye, Entrant, Pairing, Result, Round, Side
from bot.tables.leagues.ledger import ledger, points
from bot.tables.leagues.swiss_weights import (
    Facts,
    assign_sides,
    bounds_for,
    breaks_a_rule,
    bye_levels,
    facts,
    pair_levels,
    sides,
    weigh,
)

#: Players per block of the fast pass: a block of 16 matches in a few milliseconds.
BLOCK = 16

#: The largest block of the first tries, which let any two players meet (the sides
#: decided after); past it, the sides are settled before pairing (``assign_sides``).
FREE_BLOCKS = 4 * BLOCK

#: How many bye candidates the fast pass tries before the complete pass.
BYE_TRIES = 4

#: The bye's place in the complete pass's graph (a seat's user id is never empty).
_BYE = ""

Pairs = list[tuple[Facts, Facts]]


def swiss_round(
    entrants: Sequence[Entrant], results: Sequence[Result], byes: Sequence[Bye], number: int
) -> Round:
    """Round ``number`` of a Swiss, after ``results`` and ``byes`` of the rounds before.

    A field of fewer than two players raises ``ValueError``: a caller's mistake, since
    whoever starts a round refuses that politely first."""
    field = standing(entrants, results, byes)
    if len(field) < 2:
        raise ValueError("a round needs two players")
    for bye in _bye_candidates(field)[:BYE_TRIES]:
        rest = [p for p in field if p is not bye]
        pairs = _fast_pass(rest)
        if pairs is not None:
            return _round(number, pairs, bye)
    pairs, bye = _complete_pass(field)
    return _round(number, pairs, bye)


def standing(
    entrants: Sequence[Entrant], results: Sequence[Result], byes: Sequence[Bye]
) -> list[Facts]:
    """The players still in, best first: by points, then rating, then name."""
    book = ledger(results, byes)
    scored = points(book)
    active = sorted(
        (e for e in entrants if not e.withdrawn),
        key=lambda e: (-scored.get(e.player, 0.0), -e.rating, e.player),
    )
    halves = [round(2 * scored.get(e.player, 0.0)) for e in active]
    groups = Counter(halves)
    firsts = {h: halves.index(h) for h in groups}
    return [
        facts(e.player, (rank, rank - firsts[h], groups[h], len(active)), book.get(e.player, []))
        for rank, (e, h) in enumerate(zip(active, halves, strict=True))
    ]


def _bye_candidates(field: list[Facts]) -> list[Facts | None]:
    """Nobody for an even count; else those with the fewest byes, lowest ranked first."""
    if len(field) % 2 == 0:
        return [None]
    fewest = min(p.byes for p in field)
    return [p for p in reversed(field) if p.byes == fewest]


def _fast_pass(field: list[Facts]) -> Pairs | None:
    """Pairs by blocks of neighbours, first letting any two players meet (the sides are
    given after), then with each player's side settled first (``assign_sides``), which
    rarely leaves anyone over at the end; the blocks double while both fail."""
    settled = assign_sides(field)
    for size in _sizes(len(field)):
        for sides_first in _tries(size, settled):
            pairs = _by_blocks(field, size, sides_first)
            if pairs is not None:
                return pairs
    return None


def _tries(size: int, settled: Mapping[str, Side] | None) -> list[Mapping[str, Side] | None]:
    """Free blocks up to :data:`FREE_BLOCKS` players, then blocks with sides settled."""
    tries: list[Mapping[str, Side] | None] = [None] if size <= FREE_BLOCKS else []
    return tries if settled is None else [*tries, settled]


def _sizes(limit: int) -> list[int]:
    """The block sizes to try, doubling from :data:`BLOCK` until one holds ``limit``."""
    sizes = [BLOCK]
    while sizes[-1] < limit:
        sizes.append(2 * sizes[-1])
    return sizes


def _by_blocks(field: list[Facts], size: int, settled: Mapping[str, Side] | None) -> Pairs | None:
    count = max(1, len(field) // size)
    cuts = [len(field) * i // count for i in range(count + 1)]
    pairs: Pairs = []
    carried: list[Facts] = []
    for start, end in itertools.pairwise(cuts):
        block = carried + field[start:end]
        matched = _match(block, strict=True, settled=settled)
        pairs.extend(matched)
        paired = {p.player for pair in matched for p in pair}
        carried = [p for p in block if p.player not in paired]
    return None if carried else pairs


def _match(block: list[Facts], *, strict: bool, settled: Mapping[str, Side] | None = None) -> Pairs:
    """The block's best matching; ``strict``: without the pairings that break a rule;
    ``settled``: only between players settled on different sides."""
    bounds = bounds_for(block)
    graph: nx.Graph[str] = nx.Graph()
    for i, a in enumerate(block):
        for b in block[i + 1 :]:
            levels = pair_levels(a, b)
            if strict and breaks_a_rule(levels):
                continue
            if settled is not None and settled[a.player] is settled[b.player]:
                continue
            graph.add_edge(a.player, b.player, weight=weigh(levels, bounds))
    by_id = {p.player: p for p in block}
    return [_ordered(by_id[x], by_id[y]) for x, y in nx.max_weight_matching(graph, True)]


def _complete_pass(field: list[Facts]) -> tuple[Pairs, Facts | None]:
    """Every pairing weighed, the rules as penalties: the fewest broken, in their order."""
    if len(field) % 2 == 0:
        return _match(field, strict=False), None
    bounds = bounds_for(field)
    graph: nx.Graph[str] = nx.Graph()
    for i, a in enumerate(field):
        for b in field[i + 1 :]:
            graph.add_edge(a.player, b.player, weight=weigh(pair_levels(a, b), bounds))
    fewest, lowest = min(p.byes for p in field), len(field) - 1
    for p in field:
        graph.add_edge(_BYE, p.player, weight=weigh(bye_levels(p, fewest, lowest), bounds))
    by_id = {p.player: p for p in field}
    pairs: Pairs = []
    bye: Facts | None = None
    for x, y in nx.max_weight_matching(graph, True):
        if _BYE in (x, y):
            bye = by_id[y if x == _BYE else x]
        else:
            pairs.append(_ordered(by_id[x], by_id[y]))
    return pairs, bye


def _ordered(a: Facts, b: Facts) -> tuple[Facts, Facts]:
    return (a, b) if a.rank < b.rank else (b, a)


def _round(number: int, pairs: Pairs, bye: Facts | None) -> Round:
    """The round in board order (the better ranked player of each pair), sides given."""
    pairs.sort(key=lambda pair: pair[0].rank)
    pairings = tuple(Pairing(number, *sides(a, b, board)) for board, (a, b) in enumerate(pairs))
    return Round(number, pairings, () if bye is None else (bye.player,))
