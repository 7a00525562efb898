"""A solo session's record replays: the session is set up with its dicts in the order
the store gives them back (keys sorted), so a session read back from the store between
moves acts exactly as its replay from the set-up, which never reads a state back. Found
where a discard follows a new turn: the draw phase took the sides in the dict's order."""

from __future__ import annotations

import json

from bot.storage.rows import dumps
from bot.tables.manager import GameManager
from bot.tables.records.replay import export_game, replayed_state, stored_state
from bot.tables.requests import Move, NewGame
from rules.solo import GAME

#: Moves of the session (seed 4242) that found it: a new turn, then a discard at once.
MOVES = [
    ("random_discard", "central_powers"),
    ("new_turn", None),
    ("done", None),
    ("commitment", "allied_powers"),
    ("random_discard", "central_powers"),
    ("random_discard", "central_powers"),
    ("random_discard", "allied_powers"),
    ("reshuffle", "central_powers"),
    ("new_turn", None),
]


async def test_a_discard_after_a_new_turn_replays(manager: GameManager) -> None:
    info = await manager.create_game("g1", "c1", "alice", NewGame("solo", seed=4242))
    for verb, arg in MOVES:
        await manager.act(info.id, "alice", Move(verb, arg))
    view = await manager.view_for(info.id, "alice")
    discards = view.view["actions"].get("discard")
    assert discards, "the new turn's draw phase asks for a discard"
    await manager.act(info.id, "alice", Move("discard", discards[0]))
    await manager.act(info.id, "alice", Move("roll", "allied_powers"))
    data = await export_game(manager.store, info.id)
    assert dumps(replayed_state(data)) == await stored_state(manager.store, info.id)


def test_a_session_acts_alike_read_back_or_not() -> None:
    """The rules alone: the same actions, with the state read back from its stored
    (sorted) form before each or never, reach the same state."""
    in_memory = GAME.setup(seed=4242, options={})
    read_back = json.loads(dumps(GAME.setup(seed=4242, options={})))
    # The actions those moves recorded: the first new turn's second "done" was forced.
    recorded = [*MOVES[:3], ("done", None), *MOVES[3:]]
    for verb, arg in recorded:
        in_memory = GAME.act(in_memory, "solo", verb, arg)
        read_back = json.loads(dumps(GAME.act(read_back, "solo", verb, arg)))
    assert in_memory["flow"]["sides"] == read_back["flow"]["sides"]
    assert dumps(in_memory) == dumps(read_back)
