"""The rows of a league as the store hands them back (``db.leagues``, migration 0026):
one frozen dataclass per table and the reader that makes it from a database row."""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage.connection import Row


@dataclass(frozen=True)
class NewLeagueRow:
    """A league as first written: taking entries, round 0."""

    guild_id: str
    channel_id: str
    name: str
    game_name: str
    format: str
    rounds: int | None
    games_per_tie: int
    clock: str | None
    entry_days: float
    round_days: float
    rated: bool
    cap: int | None
    dispatch_may_enter: bool
    created_by: str
    entry_deadline: float


@dataclass(frozen=True)
class LeagueRow:
    id: int
    guild_id: str
    channel_id: str
    name: str
    game_name: str
    format: str
    rounds: int | None
    games_per_tie: int
    clock: str | None
    entry_days: float
    round_days: float
    rated: bool
    cap: int | None
    dispatch_may_enter: bool
    status: str
    round_number: int
    created_by: str
    created_at: float
    entry_deadline: float
    lobby_message_id: str | None
    version: int


LEAGUE_COLUMNS = (
    "id, guild_id, channel_id, name, game_name, format, rounds, games_per_tie, clock,"
    " entry_days, round_days, rated, cap, dispatch_may_enter, status, round_number,"
    " created_by, created_at, entry_deadline, lobby_message_id, version"
)


def _int_or_none(value: object) -> int | None:
    return None if value is None else int(str(value))


def _str_or_none(value: object) -> str | None:
    return None if value is None else str(value)


def read_league(r: Row) -> LeagueRow:
    return LeagueRow(
        id=int(r[0]),
        guild_id=str(r[1]),
        channel_id=str(r[2]),
        name=str(r[3]),
        game_name=str(r[4]),
        format=str(r[5]),
        rounds=_int_or_none(r[6]),
        games_per_tie=int(r[7]),
        clock=_str_or_none(r[8]),
        entry_days=float(r[9]),
        round_days=float(r[10]),
        rated=bool(r[11]),
        cap=_int_or_none(r[12]),
        dispatch_may_enter=bool(r[13]),
        status=str(r[14]),
        round_number=int(r[15]),
        created_by=str(r[16]),
        created_at=float(r[17]),
        entry_deadline=float(r[18]),
        lobby_message_id=_str_or_none(r[19]),
        version=int(r[20]),
    )


@dataclass(frozen=True)
class LeagueEntrantRow:
    league_id: int
    player: str
    rating: float
    status: str
    place: int
    joined_at: float


ENTRANT_COLUMNS = "league_id, player, rating, status, place, joined_at"


def read_entrant(r: Row) -> LeagueEntrantRow:
    return LeagueEntrantRow(int(r[0]), str(r[1]), float(r[2]), str(r[3]), int(r[4]), float(r[5]))


@dataclass(frozen=True)
class LeagueRoundRow:
    league_id: int
    number: int
    status: str
    started_at: float
    deadline_at: float


ROUND_COLUMNS = "league_id, number, status, started_at, deadline_at"


def read_round(r: Row) -> LeagueRoundRow:
    return LeagueRoundRow(int(r[0]), int(r[1]), str(r[2]), float(r[3]), float(r[4]))


@dataclass(frozen=True)
class LeagueGameRow:
    id: int
    league_id: int
    round: int
    board: int
    first: str
    second: str
    game_id: int | None
    channel_id: str | None
    outcome: str | None
    decided_by: str | None


GAME_COLUMNS = (
    "id, league_id, round, board, first_player, second_player, game_id, channel_id,"
    " outcome, decided_by"
)


def read_league_game(r: Row) -> LeagueGameRow:
    return LeagueGameRow(
        id=int(r[0]),
        league_id=int(r[1]),
        round=int(r[2]),
        board=int(r[3]),
        first=str(r[4]),
        second=str(r[5]),
        game_id=_int_or_none(r[6]),
        channel_id=_str_or_none(r[7]),
        outcome=_str_or_none(r[8]),
        decided_by=_str_or_none(r[9]),
    )


@dataclass(frozen=True)
class LeagueAuditRow:
    at: float
    by_user: str
    what: str
    detail: str


def read_audit(r: Row) -> LeagueAuditRow:
    return LeagueAuditRow(float(r[0]), str(r[1]), str(r[2]), str(r[3]))


@dataclass(frozen=True)
class LeaguePostRow:
    id: int
    league_id: int
    payload: str
    attempts: int


def read_post(r: Row) -> LeaguePostRow:
    return LeaguePostRow(int(r[0]), int(r[1]), str(r[2]), int(r[3]))
