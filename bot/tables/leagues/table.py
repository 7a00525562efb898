"""A league's standings, ranked once per change of the league and kept.

Ranking a season of 10,000 games takes a few hundred milliseconds of Python, and the
standings change only when the league does: every change takes the league's lock, which
bumps its version (``db.leagues.lock_league``). So the standings are kept with the
version they were ranked at (``league_standings``), and a look at the same version reads
them back; the first look after a change ranks them again and keeps them."""

from __future__ import annotations

import json
from typing import Any

from bot.storage.league_rows import LeagueRow
from bot.storage.session import Session
from bot.tables.leagues import reading
from bot.tables.leagues.standings import SideRecord, Standing, standings

FIELDS = (
    "rank",
    "player",
    "points",
    "buchholz",
    "sonneborn_berger",
    "head_to_head",
    "rating",
    "first",
    "second",
    "byes",
    "withdrawn",
)


async def ranked(db: Session, league: LeagueRow) -> tuple[Standing, ...]:
    """The league's standings at ``league``'s version (``league`` read in ``db``)."""
    kept = await db.leagues.saved_standings(league.id, league.version)
    if kept is not None:
        return tuple(_standing(line) for line in json.loads(kept))
    entrants, games, byes = await db.leagues.standings_rows(league.id)
    table = standings(
        reading.core_entrants(entrants), reading.core_results(games), reading.core_byes(byes)
    )
    lines = json.dumps([_line(s) for s in table], separators=(",", ":"))
    await db.leagues.save_standings(league.id, league.version, lines)
    return table


def _line(s: Standing) -> list[Any]:
    record = (s.first.wins, s.first.draws, s.first.losses)
    other = (s.second.wins, s.second.draws, s.second.losses)
    return [
        s.rank,
        s.player,
        s.points,
        s.buchholz,
        s.sonneborn_berger,
        s.head_to_head,
        s.rating,
        record,
        other,
        s.byes,
        s.withdrawn,
    ]


def _standing(line: list[Any]) -> Standing:
    values = dict(zip(FIELDS, line, strict=True))
    values["first"] = SideRecord(*values["first"])
    values["second"] = SideRecord(*values["second"])
    return Standing(**values)
