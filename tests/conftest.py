"""Shared fixtures: a temp SQLite file, a controllable clock, a recording front end, and
the toy game registered into ``rules.GAMES`` (only for tests that ask for it, so the
generic rules tests never see it)."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

# The checkout is not installed into the venv; make `bot`, `rules`, `render` importable.
ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import rules  # noqa: E402
from bot.delivery.port import GameInfo, PrivateMessage, SeatInfo, TablePost  # noqa: E402
from bot.errors import DeliveryRetry, DirectMessageClosed  # noqa: E402
from bot.tables.manager import GameManager  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from toy_game import GAME as TOY  # noqa: E402


@pytest.fixture
def toy_game(monkeypatch: pytest.MonkeyPatch) -> object:
    monkeypatch.setitem(rules.GAMES, TOY.name, TOY)
    return TOY


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "dispatch.sqlite3"


class FakeClock:
    """Epoch seconds that only move when a test says so."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@dataclass
class Delivery:
    kind: str  # "table" or "private"
    game: GameInfo
    post: TablePost | None = None
    seat: SeatInfo | None = None
    message: PrivateMessage | None = None


@dataclass
class RecordingFrontEnd:
    """Implements the FrontEnd port and remembers every delivery.

    ``closed_dms``: user ids whose DMs are closed (permanent failure).
    ``transient_failures``: how many next deliveries fail with DeliveryRetry.
    ``crash``: every delivery raises RuntimeError (a front end that is down).
    """

    deliveries: list[Delivery] = field(default_factory=list)
    closed_dms: set[str] = field(default_factory=set)
    transient_failures: int = 0
    crash: bool = False
    attempts: int = 0
    refused: list[str] = field(default_factory=list)

    def _fail(self) -> None:
        self.attempts += 1
        if self.crash:
            raise RuntimeError("front end is down")
        if self.transient_failures > 0:
            self.transient_failures -= 1
            raise DeliveryRetry("rate limited")

    async def post_table(self, game: GameInfo, post: TablePost) -> None:
        self._fail()
        self.deliveries.append(Delivery("table", game, post=post))

    async def send_private(self, game: GameInfo, seat: SeatInfo, message: PrivateMessage) -> None:
        if seat.user_id in self.closed_dms:
            self.attempts += 1
            self.refused.append(seat.user_id)
            raise DirectMessageClosed("50007")
        self._fail()
        self.deliveries.append(Delivery("private", game, seat=seat, message=message))

    @property
    def posts(self) -> list[TablePost]:
        return [d.post for d in self.deliveries if d.post is not None]

    def privates(self, user_id: str | None = None) -> list[PrivateMessage]:
        return [
            d.message
            for d in self.deliveries
            if d.message is not None and (user_id is None or (d.seat and d.seat.user_id == user_id))
        ]

    def clear(self) -> None:
        self.deliveries.clear()


@pytest.fixture
def front_end() -> RecordingFrontEnd:
    return RecordingFrontEnd()


@pytest.fixture
async def manager(
    toy_game: object, db_path: Path, front_end: RecordingFrontEnd, clock: FakeClock
) -> AsyncIterator[GameManager]:
    m = await GameManager.open(db_path, front_end, clock=clock)
    yield m
    await m.close()
