"""``copy_json``, the deep copy of every determinization and undo snapshot: a copy equal
to the original in value, types and key order, sharing no dict or list with it."""

from __future__ import annotations

import json

from rules import get_game
from rules.core.undo import _walk, copy_json


def containers(value, found=None):
    found = [] if found is None else found
    if isinstance(value, dict | list):
        found.append(value)
        for item in value.values() if isinstance(value, dict) else value:
            containers(item, found)
    return found


def test_a_copy_of_a_game_state_is_equal_in_value_type_and_key_order_and_shares_nothing():
    game = get_game("lincoln")
    state = game.setup(seed=5)
    state["extra"] = {"z": 1, "a": [True, False, None, 2.5, -(2**70), "é", {}], 3: "int key"}
    copied = copy_json(state)
    assert copied == state and copied == _walk(state)
    assert json.dumps(copied) == json.dumps(state)  # key order too
    assert type(copied["extra"]["a"][0]) is bool and type(copied["extra"]["a"][3]) is float
    originals = {id(c) for c in containers(state)}
    assert not originals & {id(c) for c in containers(copied)}
    copied["board"]["washington"][0].append({"changed": True})
    assert state == game.setup(seed=5) | {"extra": state["extra"]}


def test_scalars_come_back_as_they_are():
    for value in (None, 1, "text", 2.5, True):
        assert copy_json(value) is value


def test_something_that_is_not_json_data_is_shared_not_refused():
    class Marker:
        pass

    marker = Marker()
    original = {"list": [1, marker], "n": 2}
    copied = copy_json(original)
    assert copied == original and copied is not original
    assert copied["list"] is not original["list"] and copied["list"][1] is marker
