"""A league before its start: created, joined, left. Each function runs in the caller's
transaction, which has taken the league's lock (``db.leagues.lock_league``) for a change,
and writes its audit row."""

from __future__ import annotations

from bot import errors
from bot.storage.league_rows import LeagueRow, NewLeagueRow
from bot.storage.session import Session
from bot.tables.bot_users import is_bot
from bot.tables.leagues import posts
from bot.tables.leagues.records import LeagueSpec
from bot.tables.records.ratings import NEWCOMER_POINTS, scope_of

DAY_S = 86_400.0

MODERATOR_ONLY = "Running leagues is for moderators: Manage Server, or the server's league role."


def require_may_run(may_run: bool, what: str) -> None:
    if not may_run:
        raise errors.ModeratorOnly(f"{MODERATOR_ONLY} ({what})")


async def create(db: Session, place: tuple[str, str], by: str, spec: LeagueSpec) -> int:
    """Write a new league taking entries in channel ``place`` (server, channel)."""
    guild_id, channel_id = place
    new = NewLeagueRow(
        guild_id=guild_id,
        channel_id=channel_id,
        name=spec.name,
        game_name=spec.game_name,
        format=spec.format,
        rounds=spec.rounds,
        games_per_tie=spec.games_per_tie,
        clock=spec.clock,
        entry_days=spec.entry_days,
        round_days=spec.round_days,
        rated=spec.rated,
        cap=spec.cap,
        dispatch_may_enter=spec.dispatch_may_enter,
        created_by=by,
        entry_deadline=db.now + spec.entry_days * DAY_S,
    )
    league_id = await db.leagues.insert_league(new)
    await db.leagues.audit(league_id, by, "created", f"{spec.format} of {spec.game_name}")
    await posts.queue(db, league_id, "lobby")
    return league_id


async def rating_at_entry(db: Session, league: LeagueRow, player: str) -> float:
    """The player's rating of the league's game on its server, 1500 for a newcomer."""
    stored = await db.records.rating(scope_of(league.guild_id), league.game_name, player)
    return stored.points if stored is not None else NEWCOMER_POINTS


def past_entry(league: LeagueRow) -> str:
    """What became of a league past its entries: "has started", "was cancelled"..."""
    return {"cancelled": "was cancelled", "finished": "is over"}.get(league.status, "has started")


async def join(db: Session, league: LeagueRow, player: str, by: str) -> None:
    """Enter ``player`` (``by`` asked: themself, or a moderator entering Dispatch)."""
    if league.status != "entry":
        raise errors.LeagueRefused(f"{league.name} {past_entry(league)}: its entries are closed.")
    if db.now >= league.entry_deadline:
        raise errors.LeagueRefused(f"The entry deadline of {league.name} has passed.")
    if is_bot(player) and not league.dispatch_may_enter:
        raise errors.LeagueRefused(f"Dispatch's levels may not enter {league.name}.")
    entrants = await db.leagues.entrants(league.id)
    for entrant in entrants:
        if entrant.player == player and entrant.status == "disqualified":
            was = "You were" if by == player else f"{posts.who(player)} was"
            raise errors.LeagueRefused(f"{was} disqualified from {league.name}.")
        if entrant.player == player:
            raise errors.LeagueRefused(f"Already entered in {league.name}.")
    if league.cap is not None and len(entrants) >= league.cap:
        raise errors.LeagueRefused(f"{league.name} is full ({league.cap} players).")
    await db.leagues.add_entrant(league.id, player, await rating_at_entry(db, league, player))
    await db.leagues.audit(league.id, by, "joined", player)


async def leave_before_start(db: Session, league: LeagueRow, player: str, by: str) -> None:
    """Out of the list before the start (``by``: themself, or a moderator taking a
    Dispatch level out)."""
    await db.leagues.remove_entrant(league.id, player)
    detail = "before the start" if by == player else f"{player} before the start"
    await db.leagues.audit(league.id, by, "left", detail)


async def entrant_status(db: Session, league: LeagueRow, player: str, by: str) -> str:
    """The player's status in the league; refused when they never entered it (in words
    to ``by``, who asked: the player themself, or a moderator)."""
    for entrant in await db.leagues.entrants(league.id):
        if entrant.player == player:
            return entrant.status
    raise errors.LeagueRefused(f"{subject(player, by)} not entered in {league.name}.")


def subject(player: str, by: str) -> str:
    """How a refusal names the player: as "You are" to themself, else by mention."""
    return "You are" if player == by else f"{posts.who(player)} is"
