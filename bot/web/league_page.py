"""A league's page: its standings and its rounds, each game linked to its own page, read
from the league's rows alone and drawn on the server.

Players are shown by the names the league shows them by (kept by the bot with the link,
``bot.web.league_links``), a Dispatch level by its name, and a player without a kept name
by their place of entry: never a user's id or anything of theirs but that name. Nothing
of a game but its number, players and outcome is read here (no view, no seed, no key).
The standings are ranked here, on read, from the results (the bot's ranked copy is a
write the page's read-only store cannot make)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from html import escape

from bot.delivery.notices import role_name
from bot.storage.league_rows import LeagueEntrantRow, LeagueGameRow
from bot.storage.store import Store
from bot.tables.bot_users import is_bot
from bot.tables.leagues import reading
from bot.tables.leagues.posts import FORMAT_WORDS
from bot.tables.leagues.standings import SideRecord, Standing, standings
from bot.tables.loading import rules_or_none
from bot.web import pages
from bot.web.pages import _head

OUTCOME_WORDS = {
    "first wins": "{first} won",
    "second wins": "{second} won",
    "draw": "drawn",
    "first forfeits": "{first} forfeited",
    "second forfeits": "{second} forfeited",
}
STATUS_WORDS = {
    "entry": "Entries are open.",
    "running": "Round {round} is being played.",
    "finished": "The league is over.",
    "cancelled": "The league was cancelled.",
}


@dataclass(frozen=True)
class LeagueRound:
    number: int
    games: tuple[LeagueGameRow, ...]
    byes: tuple[str, ...]


@dataclass(frozen=True)
class PublicLeague:
    """A league as anyone with its link may see it."""

    id: int
    guild_id: str
    name: str
    game_title: str
    format: str
    status: str
    round_number: int
    sides: tuple[str, str]
    standings: tuple[Standing, ...]
    #: Player → the name shown (kept name, level's name, or "Entrant N").
    shown: dict[str, str]
    #: Player → "withdrawn" or "disqualified", for those no longer in.
    out: dict[str, str]
    rounds: tuple[LeagueRound, ...]
    #: Its games whose page was turned away (``/game link revoke``): listed, not linked.
    unlinked: frozenset[int] = frozenset()

    @property
    def over(self) -> bool:
        """Finished or cancelled: nothing on its page will change again."""
        return self.status in ("finished", "cancelled")

    def name_of(self, player: str) -> str:
        return self.shown.get(player, "an entrant")


async def read_league(store: Store, league_id: int) -> PublicLeague | None:
    """The league as its page shows it; None when there is no such league."""
    async with store.read() as db:
        row = await db.leagues.league(league_id)
        if row is None:
            return None
        entrants = await db.leagues.entrants(league_id)
        games = await db.leagues.games(league_id)
        byes = await db.leagues.byes(league_id)
        kept = await db.web.names(league_id)
        unlinked = await db.web.league_pages_revoked(league_id)
    table = standings(
        reading.core_entrants(entrants), reading.core_results(games), reading.core_byes(byes)
    )
    game = rules_or_none(row.game_name)
    numbers = sorted({g.round for g in games} | {n for n, _ in byes})
    return PublicLeague(
        id=row.id,
        guild_id=row.guild_id,
        name=row.name,
        game_title=(game.title if game else None) or row.game_name,
        format=FORMAT_WORDS.get(row.format, row.format),
        status=row.status,
        round_number=row.round_number,
        sides=_sides(row.game_name),
        standings=table,
        shown=_shown(entrants, kept),
        out={e.player: e.status for e in entrants if e.status != "in"},
        rounds=tuple(
            LeagueRound(
                n,
                tuple(sorted((g for g in games if g.round == n), key=lambda g: g.board)),
                tuple(p for r, p in byes if r == n),
            )
            for n in numbers
        ),
        unlinked=frozenset(unlinked),
    )


def _sides(game_name: str) -> tuple[str, str]:
    game = rules_or_none(game_name)
    if game is None or len(game.roles) != 2:
        return ("First", "Second")
    return (role_name(game, game.roles[0]), role_name(game, game.roles[1]))


def _shown(entrants: list[LeagueEntrantRow], kept: dict[str, str]) -> dict[str, str]:
    shown = {}
    for number, entrant in enumerate(sorted(entrants, key=lambda e: e.place), 1):
        player = entrant.player
        shown[player] = player if is_bot(player) else kept.get(player, f"Entrant {number}")
    return shown


def _record(record: SideRecord) -> str:
    return f"{record.wins}–{record.draws}–{record.losses}"


def _standings_table(league: PublicLeague) -> str:
    if not league.standings:
        return '<p class="empty">Nobody has entered yet.</p>'
    first, second = (escape(side) for side in league.sides)
    head = (
        "<tr><th scope=col>Rank</th><th scope=col>Player</th><th scope=col>Points</th>"
        "<th scope=col>Buchholz</th><th scope=col>Sonneborn–Berger</th>"
        f"<th scope=col>As {first} (W–D–L)</th><th scope=col>As {second} (W–D–L)</th></tr>"
    )
    rows = "".join(
        f"<tr><td>{s.rank}</td><td>{escape(league.name_of(s.player))}{_out(league, s)}</td>"
        f"<td>{s.points:g}</td><td>{s.buchholz:g}</td><td>{s.sonneborn_berger:g}</td>"
        f"<td>{_record(s.first)}</td><td>{_record(s.second)}</td></tr>"
        for s in league.standings
    )
    return f'<table id="standings"><thead>{head}</thead><tbody>{rows}</tbody></table>'


def _out(league: PublicLeague, line: Standing) -> str:
    status = league.out.get(line.player)
    return f' <span class="out">({escape(status)})</span>' if status else ""


def _game_line(league: PublicLeague, game: LeagueGameRow, link: str | None) -> str:
    first, second = escape(league.name_of(game.first)), escape(league.name_of(game.second))
    players = f"{first} ({escape(league.sides[0])}) v {second} ({escape(league.sides[1])})"
    if game.outcome is not None:
        state = OUTCOME_WORDS.get(game.outcome, escape(game.outcome)).format(
            first=first, second=second
        )
    else:
        state = "being played" if game.game_id is not None else "not opened yet"
    if link:
        where = f' <a href="{escape(link)}">game #{game.game_id}</a>'
    else:  # not opened yet, or its page turned away: named, not linked
        where = f" game #{game.game_id}" if game.game_id is not None else ""
    return f"<li>Board {game.board}: {players}: {state}.{where}</li>"


def _rounds(league: PublicLeague, links: dict[int, str]) -> str:
    if not league.rounds:
        return '<p class="empty">No round has been paired yet.</p>'
    parts = []
    for found in reversed(league.rounds):
        lines = [_game_line(league, g, links.get(g.game_id or 0)) for g in found.games]
        lines += [f"<li>Bye: {escape(league.name_of(p))}</li>" for p in found.byes]
        parts.append(
            f'<section class="round"><h3>Round {found.number}</h3><ul>{"".join(lines)}</ul>'
            "</section>"
        )
    return "".join(parts)


def league_main(league: PublicLeague, links: dict[int, str]) -> str:
    """The page's body, which its live stream's digest is taken of."""
    status = STATUS_WORDS.get(league.status, "").format(round=league.round_number)
    return (
        f"<header><h1>{escape(league.name)}</h1>\n"
        f'<p id="about">{escape(league.game_title)}, {escape(league.format)}. '
        f"{escape(status)}</p></header>\n"
        f'<main><section aria-labelledby="standhead"><h2 id="standhead">Standings</h2>\n'
        f"{_standings_table(league)}</section>\n"
        f'<section aria-labelledby="roundhead"><h2 id="roundhead">Rounds</h2>\n'
        f"{_rounds(league, links)}</section>\n"
    )


def digest(league: PublicLeague) -> str:
    """What changes when anything the page shows does, alike for every link of the league
    (its game links are left out: each link's page has its own)."""
    games = [
        g.game_id
        for r in league.rounds
        for g in r.games
        if g.game_id is not None and g.game_id not in league.unlinked
    ]
    body = league_main(league, {game: f"#{game}" for game in games})
    return hashlib.sha256(body.encode()).hexdigest()[:16]


def league_page(league: PublicLeague, links: dict[int, str], live: bool) -> str:
    """The league's page now; ``live``: its script listens for changes and reloads."""
    body = league_main(league, links)
    now = digest(league)
    events = f' data-events="events?d={now}"' if live and not league.over else ""
    if league.over:
        note = "The league is over."
    elif live:
        note = "This page updates by itself when the league changes."
    else:
        note = "Reload the page to see the latest: this server does not send live updates."
    return (
        f'{_head(league.name)}\n<body{events} data-digest="{now}">\n{body}'
        f'<p class="note" id="note">{escape(note)}</p></main></body></html>\n'
    )


@dataclass(frozen=True)
class LeagueUpdate:
    """What a change of the league sends its pages: the event (the digest of what the
    page shows now: a page whose own differs reloads), the links that still open it,
    whether its server still shows it, and whether the league is over (nothing after)."""

    data: bytes
    nonces: list[str]
    shown: bool
    over: bool


async def league_update(store: Store, league_id: int) -> LeagueUpdate | None:
    """The update a change of the league sends; None when the league is gone."""
    league = await read_league(store, league_id)
    if league is None:
        return None
    async with store.read() as db:
        nonces = await db.web.live_league_nonces(league_id)
        server = await db.web.server(league.guild_id)
    data = pages.event("league", {"digest": digest(league)})
    return LeagueUpdate(data, nonces, not server.page_off, league.over)
