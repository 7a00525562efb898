"""On PostgreSQL a process's sessions run side by side on the pool: a click, the courier,
the background pass and the bot seats do not queue behind each other (SQLite, with its
one connection, takes them in turn). A game's transactions still run one at a time."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot.storage.store import POOL_SIZE, Store


@pytest.fixture
async def pg_store(pg_url: str) -> AsyncIterator[Store]:
    store = await Store.open(pg_url)
    yield store
    await store.close()


async def test_sessions_of_one_process_are_open_at_once(pg_store: Store) -> None:
    opened = asyncio.Event()
    held = 0

    async def session() -> None:
        nonlocal held
        async with pg_store.read() as db:
            await db._one("SELECT 1 AS n")
            held += 1
            if held == POOL_SIZE:
                opened.set()
            await opened.wait()  # each stays open until all are: none waits for another

    async with asyncio.timeout(10):
        await asyncio.gather(*(session() for _ in range(POOL_SIZE)))
    assert held == POOL_SIZE


async def test_one_games_transactions_still_take_turns(pg_store: Store) -> None:
    order: list[str] = []
    first_in = asyncio.Event()

    async def first() -> None:
        async with pg_store.transaction(game=7):
            order.append("first in")
            first_in.set()
            await asyncio.sleep(0.2)  # the other waits on the game's lock meanwhile
            order.append("first out")

    async def second() -> None:
        await first_in.wait()
        async with pg_store.transaction(game=7):
            order.append("second in")

    async with asyncio.timeout(10):
        await asyncio.gather(first(), second())
    assert order == ["first in", "first out", "second in"]
