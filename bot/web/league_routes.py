"""A league's page and its live stream (``/l/<token>/``), under the same rules as a
game's (``bot.web.app``): it opens only from a live link of a server that has not turned
the page off, and answers the one 404 otherwise.

Each game the page lists is linked to the game's own page by a link drawn from the
league's (``tokens.game_nonce``): made on demand without a write, and it stops opening
when the league's link is revoked."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from aiohttp import web

from bot.web import pages
from bot.web.league_page import PublicLeague, digest, league_page, read_league
from bot.web.room import ROOM, _html, _stream, not_found
from bot.web.tokens import game_nonce, make_token, read_league_token


@dataclass(frozen=True)
class OpenedLeague:
    league: PublicLeague
    nonce: str
    links: dict[int, str]


def game_links(secret: str, league: PublicLeague, nonce: str) -> dict[int, str]:
    """Each opened game's address, relative to the site (not for a game whose page was
    turned away: it is listed without a link)."""
    games = [
        g.game_id
        for r in league.rounds
        for g in r.games
        if g.game_id is not None and g.game_id not in league.unlinked
    ]
    return {
        game: f"/g/{make_token(secret, game, game_nonce(secret, nonce, game))}/" for game in games
    }


async def opened_league(request: web.Request) -> OpenedLeague:
    room = request.app[ROOM]
    secret = await room.signing_secret()
    token = read_league_token(secret, request.match_info["token"]) if secret else None
    if token is None or secret is None:
        raise not_found()
    async with room.store.read() as db:
        opens = await db.web.league_link_opens(token.game_id, token.nonce)
    league = await read_league(room.store, token.game_id) if opens else None
    if league is None:
        raise not_found()
    async with room.store.read() as db:
        if (await db.web.server(league.guild_id)).page_off:
            raise not_found()
    return OpenedLeague(league, token.nonce, game_links(secret, league, token.nonce))


async def league_live(request: web.Request) -> web.Response:
    found = await opened_league(request)
    return _html(league_page(found.league, found.links, request.app[ROOM].live))


async def league_events(request: web.Request) -> web.StreamResponse:
    """The league page's stream: a digest at each change, while its link opens and until
    the league is over (``bot.web.streams``)."""
    found = await opened_league(request)
    room = request.app[ROOM]
    if found.league.over and request.query.get("d") == digest(found.league):
        return web.Response(status=204)  # it shows the end already: nothing will come
    response = web.StreamResponse(
        headers={
            "Content-Type": "text/event-stream",
            "Cache-Control": "no-cache",
            "X-Accel-Buffering": "no",
        }
    )
    league_id = found.league.id

    async def still_opens() -> bool:
        async with room.store.read() as db:
            if not await db.web.league_link_opens(league_id, found.nonce):
                return False
            return not (await db.web.server(found.league.guild_id)).page_off

    key = -league_id
    async with room.stream_for(request):
        queue = room.spectators.join(key)
        try:
            # Read again once in the room: a change made while the link was being
            # checked is then in this read or in the queue, never in neither.
            league = await read_league(room.store, league_id) or found.league
            await response.prepare(request)
            await response.write(b"retry: 3000\n\n")
            now = digest(league)
            if request.query.get("d") != now:
                # Opened (or reconnected) after a change the page does not show yet.
                await response.write(pages.event("league", {"digest": now}))
            if not league.over:
                await _stream(response, queue, found.nonce, still_opens, room.keepalive_s)
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            room.spectators.leave(key, queue)
    return response
