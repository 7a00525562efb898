"""The page's aiohttp application: its routes, and the rules every answer keeps.

- A game's page opens only from a live link (``bot.web.tokens``; recorded, not revoked,
  of a server that has not turned the page off). Anything else is the same 404, so a
  link tells nothing of a game it does not open (not even that it exists).
- Nothing is indexable unless the game's server allows it: ``X-Robots-Tag: noindex`` on
  every answer, and ``robots.txt`` disallows everything else.
- Each address is held to a token bucket (``bot.web.limits``), the clock handed in.
- The pages name no referrer (the link is the key), allow no inline script or style,
  and a board or page is drawn from the public view alone (``bot.web.reading``).
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from aiohttp import web

from bot.storage.errors import Damaged, StoreError
from bot.storage.statements.web import WebServer
from bot.web import assets, league_routes, pages
from bot.web.reading import PublicGame, Turns, read_public
from bot.web.room import (
    KEEPALIVE_S,
    NOT_FOUND,
    ROOM,
    Room,
    Update,
    _html,
    _stream,
    address_of,
    not_found,
    refusal,
)
from bot.web.tokens import game_nonce, make_token, read_token

__all__ = ["KEEPALIVE_S", "NOT_FOUND", "ROOM", "Room", "Update", "make_app", "refusal"]

NO_REPLAY = "This game's record does not replay, so it has no step-through."
NOT_OVER = "The step-through of every turn opens once the game is over."
TOO_MANY = "Too many requests from your address; wait a moment."
OUT_OF_REACH = "The games' records are out of reach for now; try again in a minute."
SECURITY_HEADERS = {
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": (
        "default-src 'none'; img-src 'self'; style-src 'self'; script-src 'self'; "
        "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
    ),
}


#: Whether the answer may be indexed (its game's server allows it).
INDEXABLE: web.RequestKey[bool] = web.RequestKey("indexable", bool)


@dataclass(frozen=True)
class Opened:
    game: PublicGame
    nonce: str
    server: WebServer


async def opened(request: web.Request) -> Opened:
    """The game a request's link opens, or the one 404 for every link that does not."""
    room = request.app[ROOM]
    secret = await room.signing_secret()
    token = read_token(secret, request.match_info["token"]) if secret else None
    if token is None:
        raise not_found()
    server = await link_opens(room, token.game_id, token.nonce)
    if server is None:
        raise not_found()
    game = await read_public(room.store, token.game_id)
    if game is None:
        raise not_found()
    request[INDEXABLE] = server.indexable
    return Opened(game, token.nonce, server)


async def link_opens(room: Room, game_id: int, nonce: str) -> WebServer | None:
    """The game's server when the link of ``nonce`` opens its page now: recorded and not
    revoked (or made by the page of a league the game is played in), of a game that is
    there, on a server that has not turned its pages off. None otherwise."""
    secret = await room.signing_secret()
    async with room.store.read() as db:
        opens = await db.web.link_opens(game_id, nonce)
        if not opens and secret:  # a link a league's page made for one of its games
            leagues = await db.web.league_nonces_of_game(game_id)
            opens = nonce in {game_nonce(secret, made, game_id) for made in leagues}
        row = await db.game(game_id) if opens else None
        server = await db.web.server(row.guild_id) if row and row.guild_id else WebServer()
    return None if row is None or server.page_off else server


async def home(request: web.Request) -> web.Response:
    return _html(
        pages.plain_page(
            "Dispatch",
            "A game's page opens from its link: ask for it with /game link in the game's channel.",
        )
    )


async def robots(request: web.Request) -> web.Response:
    """Everything disallowed, but the live links of servers that allow indexing."""
    room = request.app[ROOM]
    secret = await room.signing_secret()
    async with room.store.read() as db:
        allowed = await db.web.indexable_links() if secret else []
    lines = ["User-agent: *"]
    lines += [f"Allow: /g/{make_token(secret or '', g, n)}/" for g, n in allowed]
    lines.append("Disallow: /")
    if allowed:
        request[INDEXABLE] = True  # robots.txt itself says what may be indexed
    return web.Response(text="\n".join(lines) + "\n", content_type="text/plain")


async def style(request: web.Request) -> web.Response:
    return web.Response(text=assets.STYLE, content_type="text/css")


async def script(request: web.Request) -> web.Response:
    return web.Response(text=assets.SCRIPT, content_type="text/javascript")


async def to_live(request: web.Request) -> web.Response:
    raise web.HTTPFound(f"{request.path}/")


async def live(request: web.Request) -> web.Response:
    found = await opened(request)
    return _html(pages.live_page(found.game, request.app[ROOM].live))


async def board(request: web.Request) -> web.Response:
    found = await opened(request)
    game = found.game
    if not game.has_board:
        raise not_found()
    png = await request.app[ROOM].boards.png(
        (game.id, f"v{game.version}"), game.game_name, game.view
    )
    return _png(png)


def _png(png: bytes) -> web.Response:
    response = web.Response(body=png, content_type="image/png")
    response.headers["Cache-Control"] = "private, max-age=60"
    return response


#: A turn's number as an address or the jump form may give it.
TURN_NUMBER = re.compile(r"[0-9]{1,9}")


def step_of(raw: str, last: int) -> int:
    """A turn's number from the address or the jump form: a whole number from 0 to
    ``last``, else a polite 400 that changes nothing."""
    text = raw.strip()
    # ASCII digits, and few: str.isdigit() also takes "²" (which int() refuses), and
    # int() refuses a number of over 4,300 digits; both were a 500.
    if not TURN_NUMBER.fullmatch(text) or int(text) > last:
        raise refusal(
            web.HTTPBadRequest, "No such turn", f"A turn is a whole number from 0 to {last}."
        )
    return int(text)


async def _turns_of(request: web.Request, found: Opened) -> Turns:
    """The finished game's turns; a polite 404 before the end, or for a record that does
    not replay (the page says so rather than that the store is out of reach)."""
    room = request.app[ROOM]
    try:
        turns = await room.turns.turns(room.store, found.game)
    except Damaged:
        raise refusal(web.HTTPNotFound, "No step-through", NO_REPLAY) from None
    if turns is None:
        raise refusal(web.HTTPNotFound, "Not yet", NOT_OVER)
    return turns


async def turn(request: web.Request) -> web.Response:
    found = await opened(request)
    turns = await _turns_of(request, found)
    step = step_of(request.match_info["step"], len(turns.views) - 1)
    return _html(pages.turn_page(found.game, turns, step))


async def turn_board(request: web.Request) -> web.Response:
    found = await opened(request)
    turns = await _turns_of(request, found)
    if not found.game.has_board:
        raise not_found()
    step = step_of(request.match_info["step"], len(turns.views) - 1)
    boards = request.app[ROOM].boards
    png = await boards.png((found.game.id, f"t{step}"), turns.game_name, turns.views[step])
    return _png(png)


async def jump(request: web.Request) -> web.Response:
    found = await opened(request)
    turns = await _turns_of(request, found)
    step = step_of(request.query.get("turn", ""), len(turns.views) - 1)
    raise web.HTTPFound(str(step))


async def events(request: web.Request) -> web.StreamResponse:
    """The live page's stream: each committed turn's update, while its link opens and
    until the game is over (``bot.web.streams``)."""
    found = await opened(request)
    room = request.app[ROOM]
    seen = request.query.get("v")
    if found.game.over and seen == str(found.game.version):
        return web.Response(status=204)  # it shows the end already: nothing will come
    response = web.StreamResponse(
        headers={
            "Content-Type": "text/event-stream",
            "Cache-Control": "no-cache",
            # nginx: pass each event on at once rather than buffer the stream.
            "X-Accel-Buffering": "no",
        }
    )
    game_id = found.game.id

    async def still_opens() -> bool:
        return await link_opens(room, game_id, found.nonce) is not None

    async with room.stream_for(request):
        queue = room.spectators.join(game_id)
        try:
            # Read again once in the room: a turn committed while the link was being
            # checked is then in this read or in the queue, never in neither.
            now = await room.fresh(game_id)
            if now is not None:
                room.opened(game_id, now)
            await response.prepare(request)
            await response.write(b"retry: 3000\n\n")
            if now is not None and seen != str(now.version):
                # Opened (or reconnected) after a turn the page does not show yet.
                await response.write(now.data)
            if now is None or not now.over:
                await _stream(response, queue, found.nonce, still_opens, room.keepalive_s)
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            room.spectators.leave(game_id, queue)
            room.closed(game_id)
    return response


Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@web.middleware
async def guarded(request: web.Request, handler: Handler) -> web.StreamResponse:
    """The rate limit before anything; the store out of reach is one polite 503."""
    room = request.app[ROOM]
    wait = room.limit.allow(address_of(request, room.trust_proxy))
    if wait > 0:
        raise web.HTTPTooManyRequests(
            text=pages.plain_page("Too many requests", TOO_MANY),
            content_type="text/html",
            headers={"Retry-After": str(max(1, round(wait)))},
        )
    try:
        return await handler(request)
    except StoreError:
        raise refusal(web.HTTPServiceUnavailable, "Try again soon", OUT_OF_REACH) from None


async def _on_prepare(request: web.Request, response: web.StreamResponse) -> None:
    """The headers every answer carries, an event stream's too (sent as it begins)."""
    response.headers.update(SECURITY_HEADERS)
    if not request.get(INDEXABLE):
        response.headers["X-Robots-Tag"] = "noindex, nofollow"


def make_app(room: Room) -> web.Application:
    app = web.Application(middlewares=[guarded])
    app[ROOM] = room
    app.on_response_prepare.append(_on_prepare)
    app.on_shutdown.append(_stop_streams)
    app.router.add_get("/", home)
    app.router.add_get("/robots.txt", robots)
    app.router.add_get("/static/web.css", style)
    app.router.add_get("/static/web.js", script)
    app.router.add_get("/g/{token}", to_live)
    app.router.add_get("/g/{token}/", live)
    # An event stream has no HEAD: its answer is its body.
    app.router.add_get("/g/{token}/events", events, allow_head=False)
    app.router.add_get(r"/g/{token}/board/{version:\d+}.png", board)
    app.router.add_get("/g/{token}/turns/jump", jump)
    app.router.add_get(r"/g/{token}/turns/{step}.png", turn_board)
    app.router.add_get("/g/{token}/turns/{step}", turn)
    app.router.add_get("/l/{token}", to_live)
    app.router.add_get("/l/{token}/", league_routes.league_live)
    app.router.add_get("/l/{token}/events", league_routes.league_events, allow_head=False)
    return app


async def _stop_streams(app: web.Application) -> None:
    with contextlib.suppress(Exception):
        await app[ROOM].spectators.close()
