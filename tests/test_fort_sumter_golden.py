"""Golden playthrough: seed 7 driven by the strategy policy, one record per decision
(step, active roles, the acting role's prompt and legal actions, the action taken with
its button label, the new public log lines), diffed against tests/golden/.

Regenerate after an intended change with ``UPDATE_GOLDEN=1 pytest tests/test_fort_sumter_golden.py``
and review the diff.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from rules.fort_sumter import GAME
from rules.fort_sumter.strategy import choose

GOLDEN = Path(__file__).parent / "golden" / "fort_sumter_seed7.txt"
SEED = 7


def _actions(actions: dict[str, object]) -> str:
    parts = []
    for verb, args in actions.items():
        parts.append(verb if args is True else f"{verb}={','.join(map(str, args))}")  # type: ignore[call-overload]
    return "; ".join(parts)


def playthrough(seed: int = SEED) -> str:
    state = GAME.setup(seed=seed)
    lines = [
        f"Fort Sumter golden playthrough, seed {seed}, both sides by rules.fort_sumter.strategy"
    ]
    lines += [f"  log: {line}" for line in state["log"]]
    number = 0
    while GAME.outcome(state) is None:
        active = GAME.active_roles(state)
        role = active[0]
        view = GAME.view(state, role)
        verb, arg = choose(GAME, view)
        labels = view["labels"][verb]
        label = labels if isinstance(labels, str) else labels[str(arg)]
        number += 1
        lines.append(f"[{number}] {state['step']} (active: {', '.join(active)})")
        lines.append(f"  prompt: {view['prompt']}".replace("\n", " / "))
        lines.append(f"  actions: {_actions(view['actions'])}")
        lines.append(f"  {role}: {verb}{'' if arg is None else ' ' + str(arg)} ({label})")
        before = len(state["log"])
        state = GAME.act(state, role, verb, arg)
        lines += [f"  log: {line}" for line in state["log"][before:]]
    lines.append(f"outcome: {json.dumps(GAME.outcome(state), sort_keys=True)}")
    return "\n".join(lines) + "\n"


def test_golden_playthrough_seed_7() -> None:
    text = playthrough()
    if os.environ.get("UPDATE_GOLDEN") == "1" or not GOLDEN.exists():
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(text, encoding="utf-8")
    assert text == GOLDEN.read_text(encoding="utf-8")
