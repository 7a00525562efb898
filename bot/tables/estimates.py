"""Where the game turned (issue 27, section 4): Dispatch's own estimates, shown at the end.

Each searched decision of a bot seat keeps the search's estimate of its chance after the
move (``bot.seats.bots``: the chosen action's mean result in its tree) and the public
words of the move, in ``bot_estimates``. While the game runs they stay secret: a sudden
fall would tell the table what Dispatch drew. Once the game is over, ``/game log`` lists
the decisions that mattered most: the largest changes of a seat's estimate between two of
its consecutive decisions, each told at the earlier one, so a player who lost can see
where the game turned.
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


def turning_line(before: BotEstimateRow, after: BotEstimateRow, name: str) -> str:
    """One turning point, e.g. "Move 14, played X: Dispatch's estimate fell from 64% to
    31% by its next decision (move 17)"."""
    move = before.move.strip() or "a move"
    if len(move) > MOVE_WORDS_MAX:
        move = move[: MOVE_WORDS_MAX - 1] + "…"
    was, now = round(100 * before.estimate), round(100 * after.estimate)
    way = "rose" if now > was else "fell" if now < was else "stayed"
    return (
        f"Move {before.version}, {move} — {name}'s estimate {way} from {was}% to {now}% "
        f"by its next decision (move {after.version})."
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
    was, now = round(100 * before.estimate), round(100 * after.estimate)
    name = names.get(before.role, before.role)
    return (
        f"{name}'s estimate of its chances went from {was}% to {now}% between moves "
        f"{before.version} and {after.version}: where the game turned is in /game log."
    )


async def with_turning_point(
    db: Session, game_id: int, seats: Sequence[SeatRow], post: TablePost
) -> TablePost:
    """The end post with its short line on where the game turned; other posts (before
    the end, when the estimates stay secret) as they are."""
    if post.kind != "end":
        return post
    line = end_line(await db.bot_estimates(game_id), {s.role: s.user_id for s in seats})
    return dataclasses.replace(post, turned=line) if line else post
