"""A league's rounds and games as text: what ``/league round`` and ``/league games`` answer.

A game's line names its board, both players with their sides, its thread once opened and
its result once known ("decided" when a moderator set it). Answers are cut at Discord's
2,000 characters with a line that says how many games are left out.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.discord_app import formatting
from bot.discord_app.league_posts import who
from bot.discord_app.league_room import sides_of
from bot.tables.leagues.entrants import Outcome
from bot.tables.leagues.records import LeagueGameInfo, LeagueInfo, RoundInfo

RESULT_WORDS = {
    Outcome.FIRST_WINS: "1-0",
    Outcome.SECOND_WINS: "0-1",
    Outcome.DRAW: "½-½",
    Outcome.FIRST_FORFEITS: "0-1 (forfeit)",
    Outcome.SECOND_FORFEITS: "1-0 (forfeit)",
}


def game_line(league: LeagueInfo, game: LeagueGameInfo, *, with_round: bool = False) -> str:
    """One game: "Board 2: <@a> (Union) v <@b> (Confederacy): <#thread> · 1-0"."""
    sides = sides_of(league.spec.game_name)
    head = f"Round {game.round}, board {game.board}" if with_round else f"Board {game.board}"
    line = f"{head}: {who(game.first)} ({sides[0]}) v {who(game.second)} ({sides[1]})"
    line += f": <#{game.channel_id}>" if game.channel_id else ": opening"
    if game.outcome is None:
        return line + " · playing"
    decided = ", decided by a moderator" if game.decided_by else ""
    return f"{line} · {RESULT_WORDS[game.outcome]}{decided}"


def _cut(head: str, lines: Sequence[str]) -> str:
    """``head`` then as many ``lines`` as fit in a message, and how many did not."""
    text = head
    for index, line in enumerate(lines):
        rest = len(lines) - index
        tail = f"\n…and {rest} more (all are in /league export)"
        if len(text) + 1 + len(line) + len(tail) > formatting.CONTENT_MAX:
            return text + tail
        text += "\n" + line
    return text


def round_text(league: LeagueInfo, shown: RoundInfo) -> str:
    """A round: its state, deadline, games and byes."""
    state = "being played" if shown.status == "open" else "done"
    head = (
        f"**{formatting.escape(league.spec.name)}**, round {shown.number} ({state}; "
        f"deadline <t:{int(shown.deadline_at)}:f>)"
    )
    lines = [game_line(league, g) for g in shown.games]
    lines += [f"Bye: {who(player)} (1 point)" for player in shown.byes]
    return _cut(head, lines)


def games_text(league: LeagueInfo, games: Sequence[LeagueGameInfo]) -> str:
    """Games of any rounds, each with its round."""
    head = f"**{formatting.escape(league.spec.name)}**: {len(games)} games"
    if not games:
        return f"**{formatting.escape(league.spec.name)}**: no games yet."
    return _cut(head, [game_line(league, g, with_round=True) for g in games])
