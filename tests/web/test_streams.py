"""The live pages' event streams are bounded (bot.web.streams): a few per address and a
ceiling in all, past which a new one is refused politely; a game that is over ends its
stream and is answered 204 afterwards; and a stream looks at its link again now and
then, so a link revoked while no turn comes is told ``gone`` all the same."""

from __future__ import annotations

import asyncio
import html
import json
import re
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from league_helpers import league_path, toy_league
from web_helpers import SETTINGS, link_path, toy_game

from bot.tables.manager import GameManager
from bot.tables.requests import Move
from bot.web.league_links import revoke_league_links
from bot.web.links import revoke_links
from bot.web.room import client_key
from bot.web.serve import WebServer
from bot.web.streams import TOO_MANY_STREAMS, StreamCount
from tests.web.test_live import WAIT_S, next_event

#: Keep-alives this far apart: the link's look comes within a few of them (a wait on the
#: stream ends as soon as it comes; never a sleep).
QUICK_KEEPALIVE_S = 0.02


@pytest.fixture
async def served(manager: GameManager, db_path: Path | str) -> AsyncIterator[WebServer]:
    server = await WebServer.start(db_path, SETTINGS, 0, manager=manager)
    try:
        yield server
    finally:
        await server.close()


async def _until(condition: object, what: str) -> None:
    """Wait (a hang guard, not a sleep) until ``condition()`` holds."""
    assert callable(condition)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT_S
    while not condition():
        assert loop.time() < deadline, f"never: {what}"
        await asyncio.sleep(0.01)


def _from(address: str) -> dict[str, str]:
    return {"X-Forwarded-For": address}


async def _opened(
    http: aiohttp.ClientSession, url: str, address: str = "10.0.0.9"
) -> aiohttp.ClientResponse:
    """A stream opened and past its first line (the server counts it by then)."""
    stream = await http.get(url, headers=_from(address))
    assert stream.status == 200, await stream.text()
    await asyncio.wait_for(stream.content.readline(), WAIT_S)  # retry: ...
    return stream


async def _league_stream(http: aiohttp.ClientSession, page_url: str) -> aiohttp.ClientResponse:
    """The stream a league's page opens (its ``data-events``), opened as ``_opened`` does."""
    page = await (await http.get(page_url)).text()
    events = re.search(r'data-events="([^"]+)"', page)
    assert events, "the league's page opens a stream"
    return await _opened(http, page_url + html.unescape(events[1]))


async def test_streams_past_an_addresss_share_or_the_servers_are_refused_politely(
    manager: GameManager, served: WebServer
) -> None:
    room = served.room
    room.trust_proxy = True  # each stream names its address
    room.streams = StreamCount(per_address=2, total=3)
    room.keepalive_s = QUICK_KEEPALIVE_S  # a closed stream is noticed at once
    game_id = await toy_game(manager)
    path = await link_path(manager, game_id)
    version = (await manager.get_game_info(game_id)).version
    url = f"http://127.0.0.1:{served.port}{path}events?v={version}"
    async with aiohttp.ClientSession() as http:
        first = [await _opened(http, url, "10.0.0.1") for _ in range(2)]
        async with http.get(url, headers=_from("10.0.0.1")) as refused:
            assert refused.status == 429
            assert refused.headers["Retry-After"] == "60"
            assert "Too many live pages" in await refused.text()
        other = await _opened(http, url, "10.0.0.2")
        async with http.get(url, headers=_from("10.0.0.3")) as full:
            assert full.status == 429, "past the server's ceiling, whoever asks"
        first[0].close()
        await _until(lambda: room.streams.of("10.0.0.1") == 1, "the closed stream forgotten")
        again = await _opened(http, url, "10.0.0.1")
        for stream in (first[1], other, again):
            stream.close()
    await _until(lambda: room.streams.open == 0, "every stream forgotten")


async def test_an_ipv6_host_counts_as_one_whatever_address_of_its_64_it_picks(
    manager: GameManager, served: WebServer
) -> None:
    """One host is usually given a /64 and may pick any address in it: counted by
    address, it could take every stream of the server. Its /64 is one client."""
    room = served.room
    room.trust_proxy = True
    room.streams = StreamCount(per_address=2, total=6)
    game_id = await toy_game(manager)
    path = await link_path(manager, game_id)
    version = (await manager.get_game_info(game_id)).version
    url = f"http://127.0.0.1:{served.port}{path}events?v={version}"
    async with aiohttp.ClientSession() as http:
        held = [await _opened(http, url, f"2001:db8:1:2::{n}") for n in (1, 2)]
        async with http.get(url, headers=_from("2001:db8:1:2:ffff::9")) as third:
            assert third.status == 429, "a third stream from the same /64"
        elsewhere = await _opened(http, url, "2001:db8:1:3::1")  # another /64
        mapped = await _opened(http, url, "::ffff:198.51.100.7")  # IPv4, written as IPv6
        assert room.streams.of("198.51.100.7") == 1
        for stream in (*held, elsewhere, mapped):
            stream.close()


def test_the_key_of_an_address() -> None:
    assert client_key("2001:db8:1:2:3:4:5:6") == "2001:db8:1:2::/64"
    assert client_key("[2001:db8:1:2::9]") == "2001:db8:1:2::/64"
    assert client_key("::ffff:10.1.2.3") == "10.1.2.3"
    assert client_key("10.1.2.3") == "10.1.2.3"
    assert client_key("unknown") == "unknown"


async def test_an_event_stream_has_no_head(manager: GameManager, served: WebServer) -> None:
    """A HEAD answer has no body, and a stream's answer is its body: HEAD is refused
    rather than answered with events after the headers."""
    game_id = await toy_game(manager)
    path = await link_path(manager, game_id)
    league = await toy_league(manager, guild="g2")
    league_events = f"{await league_path(manager, league.id, guild='g2')}events"
    async with aiohttp.ClientSession() as http:
        for events in (f"{path}events", league_events):
            async with http.head(f"http://127.0.0.1:{served.port}{events}") as answer:
                assert answer.status == 405
    assert served.room.streams.open == 0


async def test_a_game_that_is_over_ends_its_stream_and_asks_for_no_other(
    manager: GameManager, served: WebServer
) -> None:
    game_id = await toy_game(manager)
    path = await link_path(manager, game_id)
    base = f"http://127.0.0.1:{served.port}{path}events"
    start = (await manager.get_game_info(game_id)).version
    async with aiohttp.ClientSession() as http:
        stream = await _opened(http, f"{base}?v={start}")
        await manager.act(game_id, "alice", Move("add", 2, start))
        await manager.resign(game_id, "bob")
        kind, data = await next_event(stream.content)
        assert kind == "turn" and data["over"], data
        # The last update, then the end of the stream: the page stops listening.
        assert await asyncio.wait_for(stream.content.read(), WAIT_S) == b""
        assert served.room.streams.open == 0
        end = (await manager.get_game_info(game_id)).version
        # A page that shows the end is told nothing will come: no stream, no retry.
        async with http.get(f"{base}?v={end}") as after:
            assert after.status == 204
        # One that does not is sent the end first, then the stream ends.
        async with http.get(f"{base}?v={start}") as late:
            assert late.status == 200
            kind, data = await next_event(late.content)
            assert kind == "turn" and data["over"] and data["version"] == end
            assert await asyncio.wait_for(late.content.read(), WAIT_S) == b""
    assert served.room.streams.open == 0


async def test_a_link_revoked_while_no_turn_comes_is_told_gone(
    manager: GameManager, served: WebServer
) -> None:
    served.room.keepalive_s = QUICK_KEEPALIVE_S
    game_id = await toy_game(manager)
    path = await link_path(manager, game_id)
    version = (await manager.get_game_info(game_id)).version
    url = f"http://127.0.0.1:{served.port}{path}events?v={version}"
    async with aiohttp.ClientSession() as http:
        stream = await _opened(http, url)
        await revoke_links(manager.store, game_id, "alice", is_moderator=False)
        kind, _ = await next_event(stream.content)  # no turn was played meanwhile
        assert kind == "gone"
        assert (await manager.get_game_info(game_id)).version == version
        async with http.get(url) as again:
            assert again.status == 404


async def test_a_leagues_link_revoked_between_rounds_is_told_gone(
    manager: GameManager, served: WebServer
) -> None:
    served.room.keepalive_s = QUICK_KEEPALIVE_S
    league = await toy_league(manager)
    path = await league_path(manager, league.id)
    base = f"http://127.0.0.1:{served.port}"
    async with aiohttp.ClientSession() as http:
        stream = await _league_stream(http, base + path)
        await revoke_league_links(manager.store, league.id, "g1", "mod", is_moderator=True)
        kind, _ = await next_event(stream.content)
        assert kind == "gone"


async def test_a_league_that_is_over_ends_its_stream_and_asks_for_no_other(
    manager: GameManager, served: WebServer
) -> None:
    """A league over (finished here, as cancelled would be) sends nothing more."""
    league = await toy_league(manager)
    path = await league_path(manager, league.id)
    base = f"http://127.0.0.1:{served.port}"
    async with aiohttp.ClientSession() as http:
        stream = await _league_stream(http, base + path)
        for _ in range(3):  # three rounds, a game each: the league ends with the last
            (game,) = (await manager.leagues.round(league.id, "g1")).games
            assert game.game_id is not None
            await manager.resign(game.game_id, game.second)
        assert (await manager.leagues.info(league.id, "g1")).status == "finished"
        data: dict[str, object] = {}
        while True:  # each game's end is told; after the last, the stream ends
            line = await asyncio.wait_for(stream.content.readline(), WAIT_S)
            if not line:
                break
            if line.startswith(b"data: "):
                data = json.loads(line.removeprefix(b"data: "))
        over = await (await http.get(base + path)).text()
        assert "data-events" not in over and "The league is over." in over
        async with http.get(f"{base}{path}events?d={data['digest']}") as after:
            assert after.status == 204
    assert served.room.streams.open == 0


def test_the_count_refuses_past_either_limit_and_forgets_what_closed() -> None:
    count = StreamCount(per_address=2, total=3)
    assert count.enter("a") and count.enter("a")
    assert not count.enter("a"), "a third from one address"
    assert count.enter("b")
    assert not count.enter("c"), "a fourth in all"
    assert (count.open, count.of("a"), count.of("c")) == (3, 2, 0)
    count.leave("a")
    assert count.enter("c")
    for address in ("a", "b", "c"):
        count.leave(address)
    assert count.open == 0 and count.of("a") == 0
    assert "reload" in TOO_MANY_STREAMS
