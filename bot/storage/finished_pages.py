"""History and records: finished games a page at a time, and a player's record.

Every query here is listed in ``HISTORY_QUERIES`` with example parameters, and
``tests/tables/test_history.py`` asserts that SQLite answers each from an index (EXPLAIN QUERY
PLAN), never a scan of games: pages are keyset pages on the game number (``id < ?`` or
``id > ?`` on ``seats_by_user`` or ``games_finished_by_guild``), not OFFSET.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.storage.session import Session

_ROW = "g.id, g.guild_id, g.channel_id, g.game_name, r.winner, r.reason, r.code, r.finished_at"
#: A user's finished games: the seats they hold at the end, and the seats they passed to
#: someone else (``seat_changes``, from ``seat_changes_by_passer``), each side keyset
#: paged and limited from its own index before the two are merged.
_OF_USER = (
    f"SELECT {_ROW} FROM ("
    " SELECT gid FROM (SELECT s.game_id AS gid FROM seats s JOIN games g ON g.id = s.game_id"
    "  WHERE s.user_id = ? AND s.game_id {cmp} CAST(? AS BIGINT) AND g.status = 'finished'"
    "  GROUP BY s.game_id ORDER BY s.game_id {order} LIMIT ?) AS played"
    " UNION"
    " SELECT gid FROM (SELECT c.game_id AS gid FROM seat_changes c"
    "  JOIN games g ON g.id = c.game_id"
    "  WHERE c.from_user = ? AND c.game_id {cmp} CAST(? AS BIGINT) AND g.status = 'finished'"
    "  GROUP BY c.game_id ORDER BY c.game_id {order} LIMIT ?) AS passed"
    ") m JOIN games g ON g.id = m.gid JOIN results r ON r.game_id = g.id"
    " ORDER BY g.id {order} LIMIT ?"
)
_OF_GUILD = (
    f"SELECT {_ROW} FROM games g JOIN results r ON r.game_id = g.id"
    " WHERE g.guild_id = ? AND g.status = 'finished' AND g.id {cmp} CAST(? AS BIGINT)"
    " ORDER BY g.id {order} LIMIT ?"
)
#: The games the user is seated in that are being set up or played, by number.
_LIVE_OF_USER = (
    "SELECT s.game_id FROM seats s JOIN games g ON g.id = s.game_id"
    " WHERE s.user_id = ? AND s.game_id {cmp} CAST(? AS BIGINT) AND g.status IN ('lobby', 'active')"
    " GROUP BY s.game_id ORDER BY s.game_id {order} LIMIT ?"
)
#: The user's finished games (not hot-seat: one person on both sides has no record), with
#: the other sides' players beside each: the seats they hold at the end (``how`` empty),
#: then the seats they played and passed on (from ``seat_changes_by_passer``: ``how`` and
#: ``by`` of their last change of that seat), since a seat given away keeps its result.
_RECORDS = (
    "SELECT g.id, g.game_name, s.role, r.winner, r.code, '' AS how, '' AS by_user,"
    " (SELECT group_concat(o.user_id, char(10)) FROM seats o"
    "  WHERE o.game_id = g.id AND o.user_id != s.user_id) AS others"
    " FROM seats s JOIN games g ON g.id = s.game_id JOIN results r ON r.game_id = g.id"
    " WHERE s.user_id = ? AND g.status = 'finished' AND g.hotseat = 0"
    " AND (CAST(? AS TEXT) IS NULL OR g.game_name = ?)"
    " UNION ALL"
    " SELECT g.id, g.game_name, c.role, r.winner, r.code, c.how, c.by_user,"
    " (SELECT group_concat(o.user_id, char(10)) FROM seats o"
    "  WHERE o.game_id = g.id AND o.role != c.role) AS others"
    " FROM seat_changes c JOIN games g ON g.id = c.game_id JOIN results r ON r.game_id = g.id"
    " WHERE c.from_user = ? AND g.status = 'finished' AND g.hotseat = 0"
    " AND (CAST(? AS TEXT) IS NULL OR g.game_name = ?)"
    " AND c.id = (SELECT MAX(l.id) FROM seat_changes l WHERE l.from_user = c.from_user"
    "  AND l.game_id = c.game_id AND l.role = c.role)"
    " AND NOT EXISTS (SELECT 1 FROM seats h WHERE h.game_id = c.game_id"
    "  AND h.user_id = c.from_user)"
)
#: How long the user took over each turn: from the other side's action to the next one of
#: the user's side, made by the user (not by whoever held the seat before them), in the
#: user's latest ``TURN_GAMES`` finished games (the seats index newest first, then the
#: actions' primary key): the player's pace now, at a bounded cost.
_TURN_TIMES = (
    "SELECT at - prev_at FROM ("
    " SELECT a.role, a.at, latest.role AS mine, a.user_id, latest.user_id AS me,"
    " LAG(a.at) OVER w AS prev_at, LAG(a.role) OVER w AS prev_role"
    " FROM (SELECT s.game_id, s.role, s.user_id FROM seats s JOIN games g ON g.id = s.game_id"
    "  WHERE s.user_id = ? AND g.status = 'finished' AND g.hotseat = 0"
    "  AND (CAST(? AS TEXT) IS NULL OR g.game_name = ?) ORDER BY s.game_id DESC LIMIT ?) latest"
    " JOIN actions a ON a.game_id = latest.game_id"
    " WINDOW w AS (PARTITION BY latest.game_id, latest.role ORDER BY a.seq)) AS t"
    " WHERE role = mine AND prev_role != mine AND user_id = me"
)
TURN_GAMES = 100

#: Name -> (SQL, example parameters), for the query-plan test and the benchmark.
HISTORY_QUERIES: dict[str, tuple[str, tuple[Any, ...]]] = {
    "finished_of_user_older": (
        _OF_USER.format(cmp="<", order="DESC"),
        ("u", 1 << 62, 11, "u", 1 << 62, 11, 11),
    ),
    "finished_of_user_newer": (
        _OF_USER.format(cmp=">", order="ASC"),
        ("u", 0, 11, "u", 0, 11, 11),
    ),
    "finished_of_guild_older": (_OF_GUILD.format(cmp="<", order="DESC"), ("g", 1 << 62, 11)),
    "finished_of_guild_newer": (_OF_GUILD.format(cmp=">", order="ASC"), ("g", 0, 11)),
    "live_of_user_older": (_LIVE_OF_USER.format(cmp="<", order="DESC"), ("u", 1 << 62, 11)),
    "live_of_user_newer": (_LIVE_OF_USER.format(cmp=">", order="ASC"), ("u", 0, 11)),
    "records_of_user": (_RECORDS, ("u", None, None, "u", None, None)),
    "turn_times_of_user": (_TURN_TIMES, ("u", None, None, TURN_GAMES)),
}

SCOPES = ("live", "mine", "server")


@dataclass(frozen=True)
class FinishedGame:
    id: int
    guild_id: str | None
    channel_id: str
    game_name: str
    winner: str | None
    reason: str
    code: str
    finished_at: float
    #: (role, user id) of every seat, in seating order.
    seats: tuple[tuple[str, str], ...] = ()
    #: In a list of the user's own games, the seat they passed and held no more at the
    #: end: (role, who took it, the move it changed hands at); None otherwise.
    passed: tuple[str, str, int] | None = None
    #: How that seat left them ("offer", "reseat", "handover") and who made the change.
    passed_how: tuple[str, str] = ("", "")


@dataclass(frozen=True)
class RecordRow:
    game_id: int
    game_name: str
    role: str
    winner: str | None
    code: str
    others: tuple[str, ...]
    #: A seat the player passed on: how its last change was made ("offer", "reseat",
    #: "handover") and by whom; empty for a seat they held at the end.
    how: str = ""
    by_user: str = ""


async def finished_games(
    db: Session, scope: str, owner: str, *, older: bool, key: int, limit: int
) -> list[FinishedGame]:
    """Up to ``limit`` finished games of a user (scope "mine") or a server ("server") with a
    number below ``key`` (``older``) or above it, newest first either way."""
    mine = scope == "mine"
    sql = _OF_USER if mine else _OF_GUILD
    sql = sql.format(cmp="<" if older else ">", order="DESC" if older else "ASC")
    params = (owner, key, limit, owner, key, limit, limit) if mine else (owner, key, limit)
    rows = await db.db.execute_fetchall(sql, params)
    found = []
    for r in rows:
        seats = tuple((s.role, s.user_id) for s in await db.seats(r[0]))
        passed, how = None, ("", "")
        if mine and all(user != owner for _, user in seats):
            change = await db.seat_changes.seat_passed(r[0], owner)
            if change is not None:
                passed = (change.role, change.to_user, change.at_version)
                how = (change.how, change.by_user)
        found.append(
            FinishedGame(
                id=r[0],
                guild_id=r[1],
                channel_id=r[2],
                game_name=r[3],
                winner=r[4],
                reason=r[5],
                code=r[6],
                finished_at=r[7],
                seats=seats,
                passed=passed,
                passed_how=how,
            )
        )
    found.sort(key=lambda g: g.id, reverse=True)
    return found


async def live_game_ids(db: Session, owner: str, *, older: bool, key: int, limit: int) -> list[int]:
    """Up to ``limit`` numbers of the user's live games below (``older``) or above ``key``."""
    sql = _LIVE_OF_USER.format(cmp="<" if older else ">", order="DESC" if older else "ASC")
    rows = await db.db.execute_fetchall(sql, (owner, key, limit))
    return [int(r[0]) for r in rows]


async def records(db: Session, user_id: str, game_name: str | None) -> list[RecordRow]:
    params = (user_id, game_name, game_name) * 2
    rows = await db.db.execute_fetchall(_RECORDS, params)
    return [
        RecordRow(r[0], r[1], r[2], r[3], r[4], tuple(str(r[7] or "").split("\n")), r[5], r[6])
        for r in rows
    ]


async def turn_times(db: Session, user_id: str, game_name: str | None) -> list[float]:
    rows = await db.db.execute_fetchall(_TURN_TIMES, (user_id, game_name, game_name, TURN_GAMES))
    return [float(r[0]) for r in rows if r[0] is not None]
