"""War Between the States: a golden playthrough, seed 7, both sides played by the policy.

Each decision is written as text: who is active, the prompt the actor sees, the action,
and the public and private log lines it produced. The test diffs the result against
``tests/golden/war_seed7.txt``; run with ``UPDATE_GOLDEN=1`` to write it anew after an
intended change of rules, data or policy (and read the diff before committing it).
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

from rules.war import GAME
from rules.war.strategy import choose

GOLDEN = Path(__file__).with_name("golden") / "war_seed7.txt"
SEED = 7


def playthrough(seed: int = SEED) -> str:
    state = GAME.setup(seed=seed)
    out = [f"# War Between the States, seed {seed}", ""]
    out += [f"  | {line}" for line in state["log"]]
    seen = len(state["log"])
    private_seen = {role: len(state["private_log"][role]) for role in GAME.roles}
    for role in GAME.roles:
        out += [f"  ({role}) {line}" for line in state["private_log"][role]]
    number = 0
    while GAME.outcome(state) is None:
        number += 1
        active = GAME.active_roles(state)
        role = active[0]
        view = GAME.view(state, role)
        verb, arg = choose(GAME, view)
        label = view["labels"].get(verb)
        shown = label if isinstance(label, str) else (label or {}).get(str(arg), "")
        out.append("")
        out.append(f"## {number}. active: {', '.join(active)}")
        out.append(f"prompt ({role}): {view['prompt']}")
        out.append(f"action ({role}): {verb}" + ("" if arg is None else f" {arg}") + f"  [{shown}]")
        GAME.act(state, role, verb, arg)
        out += [f"  | {line}" for line in state["log"][seen:]]
        seen = len(state["log"])
        for who in GAME.roles:
            lines = state["private_log"][who][private_seen[who] :]
            out += [f"  ({who}) {line}" for line in lines]
            private_seen[who] = len(state["private_log"][who])
    out += ["", f"outcome: {GAME.outcome(state)}", ""]
    return "\n".join(out)


def test_golden_playthrough_seed_7() -> None:
    actual = playthrough()
    if os.environ.get("UPDATE_GOLDEN") == "1":
        GOLDEN.write_text(actual, encoding="utf-8")
    expected = GOLDEN.read_text(encoding="utf-8")
    if actual != expected:
        diff = "\n".join(
            difflib.unified_diff(
                expected.splitlines(), actual.splitlines(), "golden", "now", lineterm="", n=2
            )
        )
        raise AssertionError(f"the seed-7 playthrough changed:\n{diff[:6000]}")
