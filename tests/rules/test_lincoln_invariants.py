"""Lincoln random play: invariants after every action over many seeds, and every game
ends. Invariants: all 119 cards accounted for once, counters within their stock, no half
holding both sides outside a battle, no Confederate unit in the top three, tracks on
their track, and every deployment placed where supply (or a naval card) allows."""

from __future__ import annotations

import random

import pytest

from rules.lincoln import GAME, board
from rules.lincoln.data import CARDS, LOCATIONS

SEEDS = range(200)


def _play(seed: int) -> dict:
    chooser = random.Random(seed)
    state = GAME.setup(seed=seed)
    for _ in range(20_000):
        if GAME.outcome(state) is not None:
            return state
        role = GAME.active_roles(state)[0]
        legal = GAME.legal_actions(state, role)
        verb = chooser.choice(sorted(v for v in legal if v != "undo"))
        args = legal[verb]
        arg = None if args is True else chooser.choice(args)
        if state["step"] == "place" and verb == "at" and state["doing"]["kind"] == "deploy":
            supplied = board.supplied(state, role)
            naval = [c for c in state["piles"][role]["hand"] if CARDS[c]["icons"]["naval"]]
            assert arg in supplied or (LOCATIONS[arg]["port"] and naval), (seed, arg)
            assert board.control(state, arg) == role
        state = GAME.act(state, role, verb, arg, record_undo=False)
        problems = GAME.invariants(state)
        assert problems == [], (seed, verb, arg, problems)
        for loc in LOCATIONS:
            for half in state["board"][loc]:
                for unit in half:
                    assert unit["kind"] in ("army", "fort")
                    assert unit["strength"] in ((1, 2, 3) if unit["kind"] == "army" else (0,))
    raise AssertionError(f"seed {seed}: no end after 20,000 actions")


@pytest.mark.parametrize("block", range(4))
def test_random_play_keeps_every_invariant_and_always_ends(block: int) -> None:
    codes = set()
    for seed in SEEDS[block::4]:
        final = _play(seed)
        outcome = GAME.outcome(final)
        assert outcome is not None and outcome["winner"] in ("union", "confederate")
        codes.add(outcome["code"])
    assert len(codes) >= 3, codes  # random play reaches several different endings
