"""``/league export``: the whole league as JSON and as CSV, its audit list included.

The CSV is two tables one after the other, each with its header row: one row per league
game (round, board, first, second, game, outcome, decided by), a blank row, then the
audit list (at, by, what, detail). Times are epoch seconds; a text cell that a
spreadsheet would run as a formula starts with an apostrophe. Nothing in it is hidden
information: a league's rows hold who played whom and how it ended, never a card."""

from __future__ import annotations

import csv
import dataclasses
import io
import json
from typing import Any

from bot.storage.league_rows import LeagueRow
from bot.storage.session import Session
from bot.tables.leagues import reading, table
from bot.tables.leagues.records import LeagueExport


async def export(db: Session, league: LeagueRow) -> LeagueExport:
    entrants, games, byes = await db.leagues.standings_rows(league.id)
    rounds = await db.leagues.rounds(league.id)
    audit = await db.leagues.audit_list(league.id)
    info = reading.league_info(league, entrants)
    data: dict[str, Any] = {
        "league": {
            "id": league.id,
            "guild_id": league.guild_id,
            "channel_id": league.channel_id,
            "status": league.status,
            "round": league.round_number,
            "created_by": league.created_by,
            "entry_deadline": league.entry_deadline,
            **dataclasses.asdict(info.spec),
        },
        "entrants": [dataclasses.asdict(e) for e in info.entrants],
        "rounds": [
            {
                "number": r.number,
                "status": r.status,
                "started_at": r.started_at,
                "deadline_at": r.deadline_at,
                "byes": [p for n, p in byes if n == r.number],
            }
            for r in rounds
        ],
        "games": [
            {
                "round": g.round,
                "board": g.board,
                "first": g.first,
                "second": g.second,
                "game_id": g.game_id,
                "channel_id": g.channel_id,
                "outcome": g.outcome,
                "decided_by": g.decided_by,
            }
            for g in games
        ],
        "standings": [_standing(s) for s in await table.ranked(db, league)],
        "audit": [dataclasses.asdict(a) for a in audit],
    }
    sheet = io.StringIO()
    out = csv.writer(sheet, lineterminator="\n")
    out.writerow(["round", "board", "first", "second", "game_id", "outcome", "decided_by"])
    for g in games:
        out.writerow(
            _cells([g.round, g.board, g.first, g.second, g.game_id, g.outcome, g.decided_by])
        )
    out.writerow([])
    out.writerow(["at", "by", "what", "detail"])
    for a in audit:
        out.writerow(_cells([a.at, a.by_user, a.what, a.detail]))
    return LeagueExport(json.dumps(data, indent=2, sort_keys=True), sheet.getvalue())


#: Signs that make a spreadsheet read a cell as a formula (a tab or a return before one).
FORMULA_SIGNS = ("=", "+", "-", "@", "\t", "\r")


def _cells(row: list[Any]) -> list[Any]:
    """A CSV row whose typed texts (a moderator's reason) a spreadsheet shows as text:
    one that starts like a formula is quoted with an apostrophe, as spreadsheets do."""
    return [f"'{c}" if isinstance(c, str) and c.startswith(FORMULA_SIGNS) else c for c in row]


def _standing(line: Any) -> dict[str, Any]:
    row = dataclasses.asdict(line)
    row["first"], row["second"] = str(line.first), str(line.second)
    return dict(row)
