"""States stored by the old engine (version 1, before the call stack) are upgraded when
loaded and then play on exactly as the old engine would have played them.

``fixtures/old_states_v1.json`` was written by ``fixtures/make_old_states.py`` running the
old engine: a state frozen at a moment that exercises each converted key (the Peace
Commissioner owed after a card play and after an objective event, a pivotal bonus with a
token picked up, an objective event and a strategy event waiting for a decision, undo
snapshots), the actions the old engine then took (undo included), and a digest of every
view it showed along the way.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from rules import get_game
from tests.legacy import as_old

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "old_states_v1.json"
CASES = json.loads(FIXTURE.read_text())


def as_the_old_engine_wrote_it(outcome: Any) -> Any:
    """An outcome without the reason code the old engine did not have;
    everything else of it must match."""
    if isinstance(outcome, dict):
        return {key: value for key, value in outcome.items() if key != "code"}
    return outcome


def views_digest(game: Any, state: dict[str, Any]) -> str:
    views = [game.view(state, None)] + [game.view(state, role) for role in game.roles]
    for view in views:
        view["outcome"] = as_the_old_engine_wrote_it(view.get("outcome"))
    old = [as_old(view, view=True) for view in views]
    return hashlib.sha256(json.dumps(old, sort_keys=True).encode()).hexdigest()


@pytest.mark.parametrize(
    ("name", "label"), [(name, label) for name, cases in CASES.items() for label in cases]
)
def test_an_old_state_plays_on_as_the_old_engine_played_it(name: str, label: str) -> None:
    game = get_game(name)
    case = CASES[name][label]
    state = json.loads(json.dumps(case["state"]))
    assert state["version"] == 1
    game.upgrade(state)
    assert state["version"] == game.state_version
    assert json.loads(json.dumps(state)) == state
    assert views_digest(game, state) == case["digests"][0]
    for number, (role, verb, arg) in enumerate(case["actions"], 1):
        state = game.act(state, role, verb, arg)
        assert views_digest(game, state) == case["digests"][number], (label, number, verb)
    assert as_the_old_engine_wrote_it(game.outcome(state)) == case["outcome"]
    if case["outcome"] is not None:
        assert game.outcome(state)["code"] not in ("", "unrecorded")  # type: ignore[index]


def test_an_upgraded_state_is_left_alone_by_a_second_upgrade() -> None:
    game = get_game("fort_sumter")
    state = json.loads(json.dumps(CASES["fort_sumter"]["objective event waiting"]["state"]))
    once = json.loads(json.dumps(game.upgrade(state)))
    assert game.upgrade(state) == once
    fresh = game.setup(seed=3)
    assert game.upgrade(json.loads(json.dumps(fresh))) == fresh


def _row(game_name: str, state: dict[str, Any]) -> Any:
    from tests.row_helpers import game_row

    return game_row(game_name, state, guild_id=None, channel_id="c", seed=1, version=5)


def test_the_bot_upgrades_a_stored_state_when_it_loads_it() -> None:
    from bot import errors
    from bot.tables.loading import state_of

    case = CASES["war"]["event waiting for a column"]
    state = state_of(_row("war", case["state"]))
    assert state["version"] == get_game("war").state_version and "events" not in state
    assert views_digest(get_game("war"), state) == case["digests"][0]
    future = dict(case["state"], version=99)
    with pytest.raises(errors.CorruptGame):
        state_of(_row("war", future))
