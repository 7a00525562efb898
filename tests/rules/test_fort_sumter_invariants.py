"""Fort Sumter conservation invariants over thousands of random games.

After every action: 25 tokens per side accounted for (Crisis Track + Escalation/Tension
boxes + its share of the Final Crisis box + pool + map), never more than 4 tokens of a
side in a space, all 40 strategy and 12 objective cards accounted for; every game ends
with a winner. Uniformly random legal actions (with an occasional undo), half of the
games with the optional Event Discard rule.
"""

from __future__ import annotations

import random

import pytest

from rules.fort_sumter import GAME
from rules.fort_sumter.board import MAX_PER_SPACE

GAMES_PER_CHUNK = 250
CHUNKS = 12  # 3,000 games in all
MAX_ACTIONS = 2_000


def _play(seed: int, event_discard: bool) -> tuple[dict[str, object], int]:
    chooser = random.Random(seed)
    state = GAME.setup(seed=seed, options={"event_discard": event_discard})
    for number in range(MAX_ACTIONS):
        if GAME.outcome(state) is not None:
            return state, number
        role = chooser.choice(GAME.active_roles(state))
        legal = GAME.legal_actions(state, role)
        verbs = sorted(legal)
        if "undo" in legal and chooser.random() > 0.03:
            verbs.remove("undo")
        verb = chooser.choice(verbs)
        args = legal[verb]
        state = GAME.act(state, role, verb, None if args is True else chooser.choice(args))
        problems = GAME.invariants(state)
        assert problems == [], f"seed {seed} action {number}: {problems}"
        for space in state["spaces"].values():
            assert max(space.values()) <= MAX_PER_SPACE
    raise AssertionError(f"seed {seed}: no end after {MAX_ACTIONS} actions")


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_games_keep_every_token_and_card_and_end_with_a_winner(chunk: int) -> None:
    first = 10_000 + chunk * GAMES_PER_CHUNK
    winners = {"unionist": 0, "secessionist": 0}
    for seed in range(first, first + GAMES_PER_CHUNK):
        state, _ = _play(seed, event_discard=seed % 2 == 1)
        outcome = GAME.outcome(state)
        assert outcome is not None and outcome["winner"] in winners
        assert set(outcome["score"]) == set(winners) and outcome["reason"]
        winners[outcome["winner"]] += 1
    assert all(winners.values()), "random play should let both sides win sometimes"
