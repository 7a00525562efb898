"""A league as the sandbox prints it: the standings as a text table, a round's boards,
a player's games, and a league's own posts (lobby, round, final) with Discord's markup
written out (``frontend.plain_markup``)."""

from __future__ import annotations

from collections.abc import Sequence

import rules
from bot.tables.leagues.records import LeagueGameInfo, LeagueInfo, LeaguePost, RoundInfo
from bot.tables.leagues.standings import Standing
from bot.tables.records import pages
from bot.terminal.frontend import plain_markup


def score(value: float) -> str:
    """A score as people write it: 2, 1.5, 0.25."""
    return f"{value:g}"


def standings_table(league: LeagueInfo, table: Sequence[Standing]) -> list[str]:
    """Rank, player, points, Buchholz, Sonneborn-Berger and the record (wins-draws-losses)
    at each side, named as the game names it, in aligned columns; a player no longer in
    is marked withdrawn or disqualified."""
    roles = _roles(league.spec.game_name)
    out = {e.player: e.status for e in league.entrants if e.status != "in"}
    head = ("#", "player", "pts", "Buch", "SB", f"as {roles[0]}", f"as {roles[1]}")
    rows = [
        (
            str(s.rank),
            s.player + (f" ({out.get(s.player, 'withdrawn')})" if s.withdrawn else ""),
            score(s.points),
            score(s.buchholz),
            score(s.sonneborn_berger),
            str(s.first),
            str(s.second),
        )
        for s in table
    ]
    widths = [max(len(row[i]) for row in (head, *rows)) for i in range(len(head))]
    return [
        "  ".join(
            cell.ljust(width) if i == 1 else cell.rjust(width)
            for i, (cell, width) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        for row in (head, *rows)
    ]


def _roles(game_name: str) -> tuple[str, str]:
    first, second = rules.get_game(game_name).roles[:2]
    return pages.role_name(game_name, first), pages.role_name(game_name, second)


def result_text(game_name: str, game: LeagueGameInfo) -> str:
    """How a league game stands: playing, or its result by the sides' names."""
    if game.outcome is None:
        return "playing" if game.game_id is not None else "not opened yet"
    first, second = _roles(game_name)
    said = game.outcome.value.replace("first", first).replace("second", second)
    return said + (f" (decided by {game.decided_by})" if game.decided_by else "")


def game_line(game_name: str, game: LeagueGameInfo, *, with_round: bool = False) -> str:
    """One league game: its board, its players and sides, its game number and result."""
    first, second = _roles(game_name)
    where = f"round {game.round}, board {game.board}" if with_round else f"Board {game.board}"
    number = f"game #{game.game_id}" if game.game_id is not None else "no game yet"
    return (
        f"{where}: {game.first} ({first}) v {game.second} ({second}) · {number} · "
        f"{result_text(game_name, game)}"
    )


def round_lines(game_name: str, info: RoundInfo) -> list[str]:
    """A round: its state, its boards and its byes."""
    lines = [f"Round {info.number} · {info.status}"]
    lines.extend(game_line(game_name, game) for game in info.games)
    lines.extend(f"Bye: {player} (1 point)" for player in info.byes)
    return lines


def league_lines(league: LeagueInfo) -> list[str]:
    """What a league is: its game, format, state and entrants."""
    spec = league.spec
    rounds = f", {spec.rounds} rounds" if spec.rounds else ""
    rated = "rated" if spec.rated else "unrated"
    state = league.status + (f", round {league.round_number}" if league.round_number else "")
    names = [e.player + ("" if e.status == "in" else f" ({e.status})") for e in league.entrants]
    return [
        f"League #{league.id} “{spec.name}”: {pages.game_title(spec.game_name)}, "
        f"{spec.format.replace('_', ' ')}{rounds}, {rated} · {state}",
        f"Entrants ({len(names)}): {', '.join(names) or 'none yet'}",
    ]


def post_lines(league: LeagueInfo, post: LeaguePost) -> list[str]:
    """A league's post as the terminal prints it: its headline, its lines, its table."""
    lines = [f"── league #{league.id} · {plain_markup(post.headline)} ──"]
    lines.extend(f"   {plain_markup(line)}" for line in post.lines)
    # A round's table once anyone has scored (a table of noughts says nothing), as on Discord.
    if post.kind == "final" or any(s.points for s in post.standings):
        lines.extend(f"   {row}" for row in standings_table(league, post.standings))
    return lines
