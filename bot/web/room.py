"""What the page's routes share: the room they serve from (its read-only store, how it
hears of changes, the caches), the update a change sends the live pages, and the answers
every route gives alike (the one 404, a page of HTML, an event stream's updates)."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import ipaddress
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field

from aiohttp import web

from bot.storage.errors import StoreError
from bot.storage.statements.web import WebServer
from bot.storage.store import Store
from bot.web import pages
from bot.web.changes import Spectators
from bot.web.league_page import league_update
from bot.web.limits import RateLimit
from bot.web.reading import Boards, TurnsCache, read_public
from bot.web.streams import LINK_CHECK_EVERY, RETRY_AFTER_S, TOO_MANY_STREAMS, StreamCount
from bot.web.tokens import game_nonce

#: Seconds between two comments on an idle event stream, so that proxies keep it open.
KEEPALIVE_S = 25.0
NOT_FOUND = "This link does not open a game's page: it may have been revoked, or mistyped."


#: What an update names that is no part of what a commit changes on the page: the
#: version, and the board's address, which carries it (the board itself is drawn from the
#: public view, which ``Update.shows`` digests instead); and the clocks' words, which
#: change with the minutes, so that a commit open to undo is never sent for its clock
#: line alone (the clocks go out with the next update that shows a change).
UNSEEN = ("version", "board", "clocks")


@dataclass(frozen=True)
class Update:
    """What a change of a game sends its live pages: the event's bytes, the links that
    still open it, and whether its server still shows it."""

    data: bytes
    nonces: frozenset[str]
    shown: bool
    #: A digest of what the pages see of it, less the version: equal for two commits that
    #: change nothing shown (a decision its player may still take back, and its undo).
    shows: str = ""
    #: The game's version it shows.
    version: int = 0
    #: The game is over: nothing will come after this update.
    over: bool = False


@dataclass
class Room:
    """What the application serves from: a read-only store, and how it hears of turns."""

    store: Store
    limit: RateLimit
    #: The links' secret when ``DISPATCH_WEB_SECRET`` gives it; else read from the store.
    secret: str | None = None
    #: Whether the pages are told of committed turns (else they say to reload).
    live: bool = False
    #: Take the client's address from X-Forwarded-For (behind a reverse proxy).
    trust_proxy: bool = False
    boards: Boards = field(default_factory=Boards)
    turns: TurnsCache = field(default_factory=TurnsCache)
    #: The event streams open now (``bot.web.streams``).
    streams: StreamCount = field(default_factory=StreamCount)
    #: Seconds between two keep-alives of an idle stream.
    keepalive_s: float = KEEPALIVE_S
    spectators: Spectators = field(init=False)
    #: What the open pages of each watched game were last sent (``Update.shows``, with
    #: the links and the server's setting): a commit that changes none of it sends
    #: nothing, so that not even its moment reaches the pages.
    sent: dict[int, tuple[str, frozenset[str], bool]] = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        self.spectators = Spectators(self.update, self.league_of)

    async def league_of(self, game_id: int) -> int | None:
        async with self.store.read() as db:
            return await db.web.league_of_game(game_id)

    async def signing_secret(self) -> str | None:
        if self.secret is None:
            async with self.store.read() as db:
                self.secret = await db.web.secret()
        return self.secret

    async def update(self, game_id: int) -> bytes | None:
        """An update's bytes with what decides who may still receive it, packed for the
        spectators' queues (``Spectators`` passes the bytes on as they are)."""
        if game_id < 0:  # a league's pages (``Spectators.heard_league``)
            made = await league_update(self.store, -game_id)
            found = (
                None
                if made is None
                else Update(made.data, frozenset(made.nonces), made.shown, over=made.over)
            )
        else:
            found = await self.fresh(game_id)
            if found is not None and self._already_sent(game_id, found):
                return None
        return None if found is None else _pack(found)

    def opened(self, game_id: int, now: Update) -> None:
        """A page's stream opened on ``game_id`` and was sent ``now`` (or shows it): when
        it is the first open there, what later commits are compared with."""
        self.sent.setdefault(game_id, (now.shows, now.nonces, now.shown))

    def closed(self, game_id: int) -> None:
        """A page's stream on ``game_id`` closed: with none left open there, nothing is
        remembered of what they were sent."""
        if not self.spectators.watching(game_id):
            self.sent.pop(game_id, None)

    def _already_sent(self, game_id: int, found: Update) -> bool:
        seen = (found.shows, found.nonces, found.shown)
        if self.sent.get(game_id) == seen:
            return True
        if self.spectators.watching(game_id):
            self.sent[game_id] = seen
        return False

    async def fresh(self, game_id: int) -> Update | None:
        game = await read_public(self.store, game_id)
        if game is None:
            return None
        async with self.store.read() as db:
            nonces = await db.web.live_nonces(game_id)
            leagues = await db.web.league_nonces_of_game(game_id)
            server = await db.web.server(game.guild_id) if game.guild_id else WebServer()
        secret = await self.signing_secret() if leagues else None
        if secret is not None:  # the links a league's page made for the game
            nonces += [game_nonce(secret, nonce, game_id) for nonce in leagues]
        shown = pages.update(game)
        data = pages.event("turn", shown)
        seen = {k: v for k, v in shown.items() if k not in UNSEEN}
        seen["view"] = game.view  # the board is drawn from it
        shows = hashlib.sha256(json.dumps(seen, sort_keys=True).encode()).hexdigest()
        return Update(
            data, frozenset(nonces), not server.page_off, shows, game.version, over=game.over
        )

    @contextlib.asynccontextmanager
    async def stream_for(self, request: web.Request) -> AsyncIterator[None]:
        """Count an event stream while it is open, or refuse it (429) past the limits
        (``bot.web.streams``)."""
        address = address_of(request, self.trust_proxy)
        if not self.streams.enter(address):
            raise web.HTTPTooManyRequests(
                text=pages.plain_page("Too many live pages", TOO_MANY_STREAMS),
                content_type="text/html",
                headers={"Retry-After": str(RETRY_AFTER_S)},
            )
        try:
            yield
        finally:
            self.streams.leave(address)


def address_of(request: web.Request, trust_proxy: bool) -> str:
    """Who the client is, for the limits: its address (behind a trusted reverse proxy, the
    last address the proxy added to X-Forwarded-For: the one it saw; those before it are
    the client's to forge), an IPv6 one by its /64 (:func:`client_key`)."""
    if trust_proxy:
        forwarded = request.headers.get("X-Forwarded-For", "")
        last = forwarded.rsplit(",", 1)[-1].strip()
        if last:
            return client_key(last)
    return client_key(request.remote or "unknown")


def client_key(address: str) -> str:
    """An IPv4 address as it is; an IPv6 one by its /64, the block one host is usually
    given and may pick any address of (counted each on its own, one host could take every
    stream and every request of the limits); an IPv4 one written as IPv6 as IPv4."""
    try:
        ip = ipaddress.ip_address(address.strip("[]"))
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def _pack(update: Update) -> bytes:
    # The nonces ride ahead of the event, one line, after two marks (shown, over); a
    # stream strips them off.
    marks = ("+" if update.shown else "-") + ("!" if update.over else ".")
    return (marks + ",".join(sorted(update.nonces))).encode() + b"\n" + update.data


def _unpack(packed: bytes) -> Update:
    head, _, data = packed.partition(b"\n")
    text = head.decode()
    nonces = frozenset(filter(None, text[2:].split(",")))
    return Update(data, nonces, text[:1] == "+", over=text[1:2] == "!")


ROOM: web.AppKey[Room] = web.AppKey("room", Room)


def refusal(kind: type[web.HTTPException], title: str, text: str) -> web.HTTPException:
    """An answer of ``kind`` (404, 400...) as a short page saying why."""
    return kind(text=pages.plain_page(title, text), content_type="text/html")


def not_found() -> web.HTTPException:
    return refusal(web.HTTPNotFound, "Not found", NOT_FOUND)


def _html(text: str) -> web.Response:
    response = web.Response(text=text, content_type="text/html", charset="utf-8")
    response.headers["Cache-Control"] = "no-store"
    return response


#: Whether a stream's link still opens its page (looked at again now and then).
StillOpens = Callable[[], Awaitable[bool]]


async def _stream(
    response: web.StreamResponse,
    queue: asyncio.Queue[bytes],
    nonce: str,
    still_opens: StillOpens,
    keepalive_s: float = KEEPALIVE_S,
) -> None:
    """Write each update to the page until its game is over, its link stops opening it,
    or the server stops; a keep-alive comment when idle, and a look at the link every
    ``LINK_CHECK_EVERY`` of them."""
    idle = 0
    while True:
        try:
            packed = await asyncio.wait_for(queue.get(), keepalive_s)
        except TimeoutError:
            idle += 1
            if idle % LINK_CHECK_EVERY == 0 and not await _opens(still_opens):
                await response.write(pages.event("gone", {}))
                return
            await response.write(b": still here\n\n")
            continue
        if not packed:
            return  # the server is stopping
        update = _unpack(packed)
        if nonce not in update.nonces or not update.shown:
            await response.write(pages.event("gone", {}))
            return
        await response.write(update.data)
        if update.over:
            return  # nothing more will come; the page stops listening


async def _opens(still_opens: StillOpens) -> bool:
    """The link's look: a database out of reach revokes nothing (the next look decides)."""
    try:
        return await still_opens()
    except StoreError:
        return True
