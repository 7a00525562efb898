"""Where the game turned: Dispatch's own estimates, shown at the end.

Each searched decision of a bot seat keeps the search's estimate of its chance after the
move (``bot.dispatch_players.decision``: the chosen action's mean result in its tree)
and the public words of the move, in ``bot_estimates``. While the game runs they stay
secret: a sudden fall would tell the table what Dispatch drew. Once the game is over,
``/game log`` lists where the game turned: the largest changes of a seat's estimate
between two of its consecutive decisions. Each is told as what happened between them
(the other side's moves and the draws), not as the fault of the bot's earlier move: the
estimate kept at a decision is already the chance after that move. It is told in coarse
words ("behind", "undecided", "ahead"), not as a percentage, which the reliability table
over self-play games does not back (``bench/bench_calibration.py``, ``docs/ai.md``).
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Sequence

from bot.delivery.port import TablePost
from bot.storage.rows import BotEstimateRow, SeatRow
from bot.storage.session import Session

#: How many turning points the log shows.
TURNING_POINTS = 3
#: The most characters of a move's words in a line.
MOVE_WORDS_MAX = 160
#: The words for an estimate, by the band it falls in (below each bound). Three coarse
#: bands, not a percentage: in self-play (``bench/bench_calibration.py``, ``docs/ai.md``)
#: the estimates below 0.2 went on to win about a fifth of the time or less, those of 0.9
#: and more about three times in four or more, and those between anywhere from about a
#: quarter to two thirds: no finer words are backed. The top band starts high because an
#: estimate is the mean of the action the search chose, the best of several noisy means,
#: and so runs high.
OUTLOOKS: tuple[tuple[float, str], ...] = (
    (0.2, "behind"),
    (0.9, "undecided"),
    (float("inf"), "ahead"),
)
#: Statuses of a game that is over: only then are the estimates shown.
OVER = ("finished",)


def turning_points(
    rows: Sequence[BotEstimateRow], top: int = TURNING_POINTS
) -> list[tuple[BotEstimateRow, BotEstimateRow]]:
    """The ``top`` pairs of consecutive estimates of one seat with the largest change,
    in the order they were played."""
    by_role: dict[str, list[BotEstimateRow]] = {}
    for row in sorted(rows, key=lambda r: r.version):
        by_role.setdefault(row.role, []).append(row)
    pairs = [(a, b) for seq in by_role.values() for a, b in itertools.pairwise(seq)]
    pairs.sort(key=lambda p: (-abs(p[1].estimate - p[0].estimate), p[0].version))
    return sorted(pairs[:top], key=lambda p: p[0].version)


def outlook(estimate: float) -> str:
    """The words for an estimate: its band of :data:`OUTLOOKS`, never a percentage (the
    estimates are not calibrated well enough for one: ``docs/ai.md``)."""
    return next(words for bound, words in OUTLOOKS if estimate < bound)


def _change(before: BotEstimateRow, after: BotEstimateRow, name: str) -> str:
    """How ``name``'s estimate went, e.g. "took X's estimate from ahead to behind", or
    within one band "left X's estimate ahead, though lower"."""
    was, now = outlook(before.estimate), outlook(after.estimate)
    if was != now:
        return f"took {name}'s estimate from {was} to {now}"
    way = "lower" if after.estimate < before.estimate else "higher"
    return f"left {name}'s estimate {now}, though {way}"


def turning_line(before: BotEstimateRow, after: BotEstimateRow, name: str) -> str:
    """One turning point, e.g. "Moves 14 to 17: after Dispatch's move 14 (played X), the
    other side's moves and the draws up to its next decision took Dispatch's estimate from
    ahead to behind". The swing is what happened between the two decisions: the estimate
    at a decision is the chance the search gave its chosen move, so the bot's move 14 is
    already in the first figure, and the change is the other side's play and the draws."""
    move = before.move.strip().rstrip(".") or "a move"
    if len(move) > MOVE_WORDS_MAX:
        move = move[: MOVE_WORDS_MAX - 1] + "…"
    return (
        f"Moves {before.version} to {after.version}: after {name}'s move {before.version} "
        f"({move}), the other side's moves and the draws up to its next decision "
        f"{_change(before, after, name)}."
    )


def turning_lines(rows: Sequence[BotEstimateRow], names: dict[str, str]) -> list[str]:
    """The log's lines on where the game turned; [] when Dispatch searched no move."""
    points = turning_points(rows)
    if not points:
        return []
    lines = ["Where the game turned, by Dispatch's own estimate of its chances:"]
    lines += [turning_line(a, b, names.get(a.role, a.role)) for a, b in points]
    return lines


def end_line(rows: Sequence[BotEstimateRow], names: dict[str, str]) -> str:
    """The end post's short line: the largest turning point, without the move's words."""
    points = turning_points(rows, top=1)
    if not points:
        return ""
    before, after = points[0]
    name = names.get(before.role, before.role)
    return (
        f"Between moves {before.version} and {after.version}, the other side's moves and "
        f"the draws {_change(before, after, name)}: where the game turned is in /game log."
    )


async def with_turning_point(
    db: Session, game_id: int, seats: Sequence[SeatRow], post: TablePost
) -> TablePost:
    """The end post with its short line on where the game turned; other posts (before
    the end, when the estimates stay secret) as they are."""
    if post.kind != "end":
        return post
    line = end_line(await db.hints.bot_estimates(game_id), {s.role: s.user_id for s in seats})
    return dataclasses.replace(post, turned=line) if line else post
