"""The spectator page's fixtures: the page's own read-only store and application on the
database of the test's manager (the bot's side, which writes)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer
from web_helpers import SECRET

from bot.storage.read_only import open_read_only
from bot.tables.manager import GameManager
from bot.web.app import Room, make_app
from bot.web.limits import RateLimit


@pytest.fixture
async def room(manager: GameManager, db_path: Path | str, clock: object) -> AsyncIterator[Room]:
    store = await open_read_only(db_path, clock)  # type: ignore[arg-type]
    yield Room(store, RateLimit(4.0, 40, clock), secret=SECRET)  # type: ignore[arg-type]
    await store.close()


@pytest.fixture
async def client(room: Room) -> AsyncIterator[TestClient]:  # type: ignore[type-arg]
    async with TestClient(TestServer(make_app(room))) as test_client:
        yield test_client
