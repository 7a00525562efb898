"""Where the sandbox's leagues are played and what they say: each league game in a
channel named after its round and board (the terminal has no threads), and each league
post (the lobby, a round's boards, the final table) printed as it is delivered."""

from __future__ import annotations

from bot.tables.leagues.records import LeagueGameInfo, LeagueInfo, LeaguePost
from bot.terminal.frontend import TerminalFrontEnd
from bot.terminal.league_text import post_lines


class SandboxRoom:
    """The league room of the sandbox (``bot.tables.leagues.port.LeagueRoom``)."""

    def __init__(self, front_end: TerminalFrontEnd) -> None:
        self.fe = front_end

    async def open_table(self, league: LeagueInfo, game: LeagueGameInfo, name: str) -> str:
        return f"league-{league.id}-r{game.round}-b{game.board}"

    async def post(self, league: LeagueInfo, post: LeaguePost) -> None:
        for line in post_lines(league, post):
            self.fe.say(line)
