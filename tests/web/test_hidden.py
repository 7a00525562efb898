"""Nothing hidden ever reaches the page. Whole games of every kind are played through the
manager with random legal moves (fixed seeds, a fixed chooser); after every move the
live page and the update its event stream is sent are searched for every card hidden at
that moment and for the game's secret key, and once the game is over, every step of
its step-through is searched for what was hidden at that step."""

from __future__ import annotations

import copy
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from playthrough import legal_moves
from web_helpers import SECRET, hidden_words, link_path, names_in

import rules
from bot.delivery.notices import public_log
from bot.storage.read_only import open_read_only
from bot.tables.loading import state_of
from bot.tables.manager import GameManager
from bot.tables.records.replay import export_game
from bot.tables.requests import Move, NewGame
from bot.web.app import Room, make_app
from bot.web.limits import RateLimit

#: Verbs that end a session at once (the solo session's "end"): left alone for the first
#: moves, so that a random session plays some turns before it closes.
ENDING = {"end"}
KEEP_PLAYING = 80
SEATS = ("alice", "bob")


@pytest.fixture
async def unlimited(manager: GameManager, db_path: Path | str) -> AsyncIterator[TestClient]:  # type: ignore[type-arg]
    store = await open_read_only(db_path)
    room = Room(store, RateLimit(1e9, 10**9, lambda: 0.0), secret=SECRET, live=True)
    async with TestClient(TestServer(make_app(room))) as client:
        client.app_room = room  # type: ignore[attr-defined]
        yield client
    await store.close()


async def state_now(manager: GameManager, game_id: int) -> tuple[dict[str, Any], Any]:
    async with manager.store.read() as db:
        row = await db.game(game_id)
    assert row is not None
    return state_of(row), row


def leaked(hidden: set[str], *texts: str) -> list[str]:
    return sorted(word for word in hidden if any(word in text for text in texts))


def choose(game: rules.Game, state: dict[str, Any], chooser: random.Random, n: int) -> Any:
    moves = [m for m in legal_moves(game, state) if m[1] != "undo"]
    if n < KEEP_PLAYING:
        moves = [m for m in moves if m[1] not in ENDING] or moves
    return chooser.choice(moves)


async def step_states(manager: GameManager, game: rules.Game, game_id: int) -> list[Any]:
    """The states the step-through shows, replayed from the stored record (the moves
    played and the forced choices the manager made) and grouped as ``public_turns``
    groups them: a turn ends when who acts changes, or at the end; alone, when the
    public log grows."""
    data = await export_game(manager.store, game_id)
    actions = [(a["role"], a["verb"], a["arg"]) for a in data["actions"]]
    state = game.setup(seed=data["seed"], options=data["options"])
    # A snapshot of each state kept: the rules may change a state in place as they act.
    states = [copy.deepcopy(state)]
    acting = tuple(game.active_roles(state))
    for n, (role, verb, arg) in enumerate(actions, 1):
        state = game.act(state, role, verb, arg)
        now = tuple(game.active_roles(state))
        logged = len(public_log(game.view(state, None))) > len(
            public_log(game.view(states[-1], None))
        )
        if now != acting or n == len(actions) or (game.one_seat and logged):
            states.append(copy.deepcopy(state))
        acting = now
    return states


@pytest.mark.sqlite_only
@pytest.mark.parametrize("name", sorted(rules.GAMES))
async def test_no_page_of_a_whole_game_shows_a_hidden_card(
    name: str, manager: GameManager, unlimited: TestClient
) -> None:
    game = rules.get_game(name)
    seed = 4242
    seat = {role: SEATS[i] for i, role in enumerate(game.roles)}
    opponent = None if game.one_seat else "bob"
    info = await manager.create_game(
        "g1", "c1", "alice", NewGame(name, seat=game.roles[0], opponent_id=opponent, seed=seed)
    )
    path = await link_path(manager, info.id)
    room: Room = unlimited.app_room  # type: ignore[attr-defined]
    chooser = random.Random(seed)
    ever_public: set[str] = set()
    played: list[tuple[str, str, Any]] = []
    while True:
        state, row = await state_now(manager, info.id)
        ever_public |= names_in(game, game.view(state, None))
        hidden = hidden_words(game, state, ever_public)
        page = await (await unlimited.get(path)).text()
        update = await room.fresh(info.id)
        assert update is not None
        found = leaked(hidden, page, update.data.decode())
        assert found == [], f"{name} after {len(played)} actions: {found}"
        if row.status != "active":
            break
        role, verb, arg = choose(game, state, chooser, len(played))
        await manager.act(info.id, seat[role], Move(verb, arg, row.version, role=role))
        played.append((role, verb, arg))
    assert len(played) > 10, f"{name}: a whole game is more than a few moves"

    ever_public = set()
    states = await step_states(manager, game, info.id)
    for step, state in enumerate(states):
        ever_public |= names_in(game, game.view(state, None))
        page = await (await unlimited.get(f"{path}turns/{step}")).text()
        assert f"turn {step} of {len(states) - 1}" in page or step == 0, page[:400]
        found = leaked(hidden_words(game, state, ever_public), page)
        assert found == [], f"{name}, step {step} of the step-through: {found}"
    assert (await unlimited.get(f"{path}turns/{len(states)}")).status == 400
