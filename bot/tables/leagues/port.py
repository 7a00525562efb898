"""Where a league meets its front end: the room its games are opened in and its posts
said in (``LeagueRoom``), and ``LocalRoom``, the room of tests and the sandbox until a
front end attaches its own (``LeagueDesk.attach_room``).

Also ``LeaguePasses``: what the background loop runs of the league's desk, named here so
that the background desk is handed the league desk without importing it."""

from __future__ import annotations

from typing import Protocol

from bot.tables.leagues.records import LeagueGameInfo, LeagueInfo, LeaguePost


class LeagueRoom(Protocol):
    async def open_table(self, league: LeagueInfo, game: LeagueGameInfo, name: str) -> str:
        """Open the place a league game is played (a public thread of the league's
        channel, or a forum post) and return its channel id."""
        ...

    async def post(self, league: LeagueInfo, post: LeaguePost) -> None:
        """Say ``post`` in the league's channel (raise on failure: it is retried)."""
        ...


class LocalRoom:
    """A room with no front end: each game's place is named after its pairing, and the
    posts are kept in ``posts`` in the order they were said."""

    def __init__(self) -> None:
        self.posts: list[LeaguePost] = []
        self.opened: list[str] = []

    async def open_table(self, league: LeagueInfo, game: LeagueGameInfo, name: str) -> str:
        channel = f"league-{league.id}-r{game.round}-b{game.board}"
        self.opened.append(channel)
        return channel

    async def post(self, league: LeagueInfo, post: LeaguePost) -> None:
        self.posts.append(post)


class LeaguePasses(Protocol):
    """The league desk's part of each background pass."""

    async def pass_deadlines(self) -> int: ...

    async def open_pending(self) -> int: ...
