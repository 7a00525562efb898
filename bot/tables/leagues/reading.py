"""A league's stored rows read as the desk's values (``records``), and the one read
every act starts from: the league of the server the command was typed in."""

from __future__ import annotations

from collections.abc import Sequence

from bot import errors
from bot.storage.league_rows import LeagueEntrantRow, LeagueGameRow, LeagueRoundRow, LeagueRow
from bot.storage.session import Session
from bot.tables.leagues.entrants import Bye, Entrant, Outcome, Pairing, Result
from bot.tables.leagues.records import (
    EntrantInfo,
    LeagueGameInfo,
    LeagueInfo,
    LeagueSpec,
    RoundInfo,
)


def spec_of(row: LeagueRow) -> LeagueSpec:
    return LeagueSpec(
        name=row.name,
        game_name=row.game_name,
        format=row.format,
        rounds=row.rounds,
        games_per_tie=row.games_per_tie,
        clock=row.clock,
        entry_days=row.entry_days,
        round_days=row.round_days,
        rated=row.rated,
        cap=row.cap,
        dispatch_may_enter=row.dispatch_may_enter,
    )


def league_info(row: LeagueRow, entrants: Sequence[LeagueEntrantRow]) -> LeagueInfo:
    return LeagueInfo(
        id=row.id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        spec=spec_of(row),
        status=row.status,
        round_number=row.round_number,
        created_by=row.created_by,
        entry_deadline=row.entry_deadline,
        lobby_message_id=row.lobby_message_id,
        entrants=tuple(EntrantInfo(e.player, e.rating, e.status) for e in entrants),
    )


def game_info(row: LeagueGameRow) -> LeagueGameInfo:
    return LeagueGameInfo(
        league_id=row.league_id,
        round=row.round,
        board=row.board,
        first=row.first,
        second=row.second,
        game_id=row.game_id,
        channel_id=row.channel_id,
        outcome=Outcome(row.outcome) if row.outcome is not None else None,
        decided_by=row.decided_by,
    )


def round_info(
    row: LeagueRoundRow, games: Sequence[LeagueGameRow], byes: Sequence[tuple[int, str]]
) -> RoundInfo:
    return RoundInfo(
        league_id=row.league_id,
        number=row.number,
        status=row.status,
        started_at=row.started_at,
        deadline_at=row.deadline_at,
        games=tuple(game_info(g) for g in games if g.round == row.number),
        byes=tuple(player for number, player in byes if number == row.number),
    )


def core_entrants(rows: Sequence[LeagueEntrantRow]) -> list[Entrant]:
    """The pure core's entrants, in entry order: anyone not "in" is withdrawn."""
    return [Entrant(e.player, e.rating, withdrawn=e.status != "in") for e in rows]


def core_results(games: Sequence[LeagueGameRow]) -> list[Result]:
    """The results so far, as the pure core reads them."""
    return [
        Result(Pairing(g.round, g.first, g.second), Outcome(g.outcome))
        for g in games
        if g.outcome is not None
    ]


def results_of(rows: Sequence[tuple[int, str, str, str]]) -> list[Result]:
    """The results read lean (``db.leagues.results``), as the pure core reads them."""
    return [Result(Pairing(r, first, second), _OUTCOMES[o]) for r, first, second, o in rows]


#: Each outcome by its stored word: a dict lookup, where ``Outcome(word)`` goes through
#: the enum's machinery 10,000 times a season.
_OUTCOMES = {outcome.value: outcome for outcome in Outcome}


def core_byes(byes: Sequence[tuple[int, str]]) -> list[Bye]:
    return [Bye(number, player) for number, player in byes]


async def league_here(db: Session, league_id: int, guild_id: str) -> LeagueRow:
    """League ``league_id`` if it is one of server ``guild_id``'s; the same refusal for a
    number that names none and for another server's."""
    row = await db.leagues.league(league_id)
    if row is None or row.guild_id != guild_id:
        raise errors.UnknownLeague(league_id)
    return row


async def info_of(db: Session, row: LeagueRow) -> LeagueInfo:
    return league_info(row, await db.leagues.entrants(row.id))
