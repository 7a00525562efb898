"""The values a league's desk hands out (docs/leagues.md, "The desk and the store"): a
league asked for, a league, its entrants, rounds and games, what it says in its channel,
and its export. Every one is frozen, so whoever holds one cannot change it under another.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.tables.leagues.entrants import Outcome
from bot.tables.leagues.standings import Standing

#: The formats a league is run in (docs/leagues.md, "Formats").
FORMATS = ("round_robin", "double_round_robin", "swiss", "elimination")


@dataclass(frozen=True)
class LeagueSpec:
    """What ``/league create`` asks for; the desk checks each value (``spec.checked``)."""

    name: str  # 1..60 characters, shown in posts
    game_name: str  # a rules.GAMES key with two roles
    format: str  # one of FORMATS
    rounds: int | None = None  # swiss: number of rounds (required, 1..20); else None
    games_per_tie: int = 1  # elimination: 1 or 2 (one game on each side)
    clock: str | None = None  # as /game new's clock: a preset or "3d+1d/7d"; None: the server's
    entry_days: float = 7.0  # the entry deadline, days from creation (0.5..60)
    round_days: float = 14.0  # each round's deadline, days from its start (1..90)
    rated: bool = True
    cap: int | None = None  # most entrants (2..1000); None: no cap
    dispatch_may_enter: bool = False


@dataclass(frozen=True)
class EntrantInfo:
    player: str  # a user id, or a Dispatch level's user id (bot_user(level))
    rating: float  # the game's rating on this server at entry (seeds, last tiebreak)
    status: str  # "in" | "withdrawn" | "disqualified"


@dataclass(frozen=True)
class LeagueInfo:
    id: int
    guild_id: str
    channel_id: str  # the league's channel: its games are threads (or forum posts) of it
    spec: LeagueSpec
    status: str  # "entry" | "running" | "finished" | "cancelled"
    round_number: int  # the round being played (0 before the start)
    created_by: str
    entry_deadline: float  # epoch seconds
    lobby_message_id: str | None
    entrants: tuple[EntrantInfo, ...]


@dataclass(frozen=True)
class LeagueGameInfo:
    league_id: int
    round: int
    board: int  # 1.. within the round
    first: str  # the player of the game's first role (rules.GAMES[g].roles[0])
    second: str
    game_id: int | None  # None until the game is opened
    channel_id: str | None  # its thread, once opened
    outcome: Outcome | None  # None while playing
    decided_by: str | None  # a moderator who set the result, else None


@dataclass(frozen=True)
class RoundInfo:
    league_id: int
    number: int
    status: str  # "open" | "done"
    started_at: float
    deadline_at: float
    games: tuple[LeagueGameInfo, ...]
    byes: tuple[str, ...]


@dataclass(frozen=True)
class LeaguePost:
    """What the league says in its channel."""

    kind: str  # "lobby" | "round" | "final" | "notice"
    league_id: int
    headline: str
    #: Plain text, each one line (a game: "Board 2: <@a> (Union) v <@b> (Confederacy): <#t>").
    lines: tuple[str, ...]
    #: Who this post pings (each at most once; never a Dispatch level).
    mention_user_ids: tuple[str, ...]
    round: int | None = None
    #: For "final" (and shown by "round").
    standings: tuple[Standing, ...] = ()


@dataclass(frozen=True)
class LeagueExport:
    json_text: str  # the league, entrants, rounds, games, byes, standings, audit list
    csv_text: str  # one row per league game, then the audit list (docs/leagues.md)
