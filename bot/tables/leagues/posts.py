"""What a league says in its channel: queued in the transaction that decides it (a small
outbox, ``league_posts``), and worded when it is delivered, so a round's post links the
threads its games were opened in. A round's post waits until each of its games is open.

Pings: a round's post pings each player of its games to be played, once; the final post
each entrant, once; a Dispatch level never (it is named, not pinged). A league game's own
start post, in its thread, pings nobody (``bot.tables.turn_post``)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

import rules
from bot.delivery.notices import role_name
from bot.storage.league_rows import LeagueGameRow, LeagueRow
from bot.storage.session import Session
from bot.tables.bot_users import is_bot
from bot.tables.leagues.records import LeaguePost
from bot.tables.leagues.table import ranked

FORMAT_WORDS = {
    "round_robin": "round robin",
    "double_round_robin": "double round robin",
    "swiss": "Swiss",
    "elimination": "single elimination",
}


def who(player: str) -> str:
    """A player as a post names them: a mention, or a Dispatch level by its name."""
    return player if is_bot(player) else f"<@{player}>"


def pinged(players: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(p for p in players if not is_bot(p)))


async def queue(db: Session, league_id: int, kind: str, **more: Any) -> None:
    await db.leagues.queue_post(league_id, json.dumps({"kind": kind, **more}, sort_keys=True))


async def notice(
    db: Session,
    league_id: int,
    headline: str,
    lines: Sequence[str] = (),
    mentions: Sequence[str] = (),
) -> None:
    await queue(
        db, league_id, "notice", headline=headline, lines=list(lines), mentions=list(mentions)
    )


async def worded(db: Session, league: LeagueRow, payload: str) -> LeaguePost | None:
    """The post as it is said now; ``None`` while a round's games are still being opened."""
    data = json.loads(payload)
    kind = str(data["kind"])
    if kind == "round":
        return await _round_post(db, league, int(data["round"]))
    if kind == "final":
        table = await ranked(db, league)
        lines = tuple(f"{s.rank}. {who(s.player)}: {s.points:g}" for s in table)
        return LeaguePost(
            "final",
            league.id,
            f"{league.name} is over: the final standings",
            lines,
            pinged(s.player for s in table),
            standings=table,
        )
    if kind == "lobby":
        return LeaguePost(
            "lobby", league.id, f"{league.name}: entries open", _lobby_lines(league), ()
        )
    return LeaguePost(
        "notice",
        league.id,
        str(data["headline"]),
        tuple(data.get("lines", ())),
        pinged(data.get("mentions", ())),
    )


def _lobby_lines(league: LeagueRow) -> tuple[str, ...]:
    game = rules.GAMES.get(league.game_name)
    title = (game.title or game.name) if game is not None else league.game_name
    lines = [
        f"{title}, {FORMAT_WORDS.get(league.format, league.format)}"
        + (f" of {league.rounds} rounds" if league.rounds else ""),
        f"Entries close <t:{int(league.entry_deadline)}:R>.",
        "Rated." if league.rated else "Unrated.",
    ]
    if league.cap is not None:
        lines.append(f"At most {league.cap} players.")
    return tuple(lines)


async def _round_post(db: Session, league: LeagueRow, number: int) -> LeaguePost | None:
    games = await db.leagues.games_of_round(league.id, number)
    if any(g.outcome is None and g.game_id is None for g in games):
        return None  # its games are still being opened: said once they all are
    byes = [p for n, p in await db.leagues.byes(league.id) if n == number]
    game = rules.GAMES.get(league.game_name)
    lines = [_board_line(game, g) for g in games] + [f"Bye: {who(p)}" for p in byes]
    played = [g for g in games if g.game_id is not None]
    return LeaguePost(
        "round",
        league.id,
        f"{league.name}: round {number}",
        tuple(lines),
        pinged(p for g in played for p in (g.first, g.second)),
        round=number,
        standings=await ranked(db, league),
    )


def _board_line(game: rules.Game | None, row: LeagueGameRow) -> str:
    roles = tuple(game.roles) if game is not None else ("first", "second")
    first = f"{who(row.first)} ({role_name(game, roles[0])})"
    second = f"{who(row.second)} ({role_name(game, roles[1])})"
    where = f"<#{row.channel_id}>" if row.game_id is not None and row.channel_id else "forfeit"
    if row.outcome is not None and row.game_id is None:
        where = f"{row.outcome}, not played"
    return f"Board {row.board}: {first} v {second}: {where}"
