"""Toy Twenty-One: a tiny game with the rules contract, for manager and sandbox tests.

Roles north and south. On your turn ``add`` 1-3 to a shared counter (or play your hidden
``bonus`` once it is there), then confirm with ``done`` or take it back with ``undo``.
Every fourth turn both players secretly ``pick`` 0-3 at the same time; the picks are
revealed together and added. Whoever brings the counter to the target (21) wins; after a
secret round, the higher pick wins (equal picks: a draw).

Hidden information, so leak tests mean something: each role has a secret ``codeword``
(drawn from the seeded generator) and a ``bonus`` value, and picks stay hidden until both
are made. The lower picker of a secret round draws a new codeword: a private reveal to
a player who may not be the one acting.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

from rules import IllegalAction

_MASK = (1 << 64) - 1
_WORDS = ("amber", "birch", "cobalt", "delta", "ember", "fjord", "garnet", "harbor")


def _draw(state: dict[str, Any], n: int) -> int:
    rng: int = (state["rng"] * 6364136223846793005 + 1442695040888963407) & _MASK
    state["rng"] = rng
    return (rng >> 33) % n


def _codeword(state: dict[str, Any]) -> str:
    return f"{_WORDS[_draw(state, len(_WORDS))]}-{1000 + _draw(state, 9000)}"


class ToyGame:
    name = "toy"
    title = "Toy Twenty-One"
    roles = ("north", "south")
    role_names: ClassVar[dict[str, str]] = {"north": "North", "south": "South"}
    #: What the bot asks of every game (``rules.Game``), declared as a real game does.
    one_seat = False
    #: No board of its own, so there is no replay of it to watch.
    renderer: ClassVar[str | None] = None
    outcome_codes = frozenset({"target", "level", "higher"})

    def setup(self, seed: int | str, options: dict[str, Any] | None = None) -> dict[str, Any]:
        # A key (hex text, as the bot draws for unseeded games) or a chosen int seed.
        seed = int(seed[:16], 16) if isinstance(seed, str) else int(seed)
        options = dict(options or {})
        target = options.pop("target", 21)
        if options or not isinstance(target, int) or target < 1:
            raise IllegalAction("Toy Twenty-One only takes a positive 'target'.")
        state: dict[str, Any] = {
            "version": 1,
            "rng": (int(seed) * 2654435761 + 12345) & _MASK,
            "target": target,
            "counter": 0,
            "step": "add",
            "turn": "north",
            "turns": 0,
            "picks": {"north": None, "south": None},
            "last_picks": None,
            "codeword": {},
            "bonus": {},
            "log": ["Toy Twenty-One begins."],
            "private_log": {"north": [], "south": []},
            "undo": [],
            "outcome": None,
        }
        for role in self.roles:
            state["codeword"][role] = _codeword(state)
            state["bonus"][role] = 1 + _draw(state, 3)
            state["private_log"][role].append(f"Your codeword is {state['codeword'][role]}.")
        return state

    # -- the contract ---------------------------------------------------------------

    def active_roles(self, state: dict[str, Any]) -> tuple[str, ...]:
        if state["outcome"] is not None:
            return ()
        if state["step"] == "secret":
            return tuple(r for r in self.roles if state["picks"][r] is None)
        return (state["turn"],)

    def outcome(self, state: dict[str, Any]) -> dict[str, Any] | None:
        outcome: dict[str, Any] | None = state["outcome"]
        return outcome

    def _actions(self, state: dict[str, Any], role: str | None) -> dict[str, Any]:
        if role is None or role not in self.active_roles(state):
            return {}
        step = state["step"]
        if step == "add":
            actions: dict[str, Any] = {"add": [1, 2, 3]}
            if state["bonus"].get(role):
                actions["bonus"] = True
            return actions
        if step == "confirm":
            actions = {"done": True}
            if state["undo"]:
                actions["undo"] = True
            return actions
        return {"pick": [0, 1, 2, 3]}

    def upgrade(self, state: dict[str, Any]) -> dict[str, Any]:
        """Stored states are brought up to date on loading; version 1 is the only one."""
        return state

    def view(self, state: dict[str, Any], role: str | None) -> dict[str, Any]:
        actions = self._actions(state, role)
        prompts = {
            "add": "Add 1-3 to the counter, or play your bonus.",
            "confirm": "Confirm your turn with done, or undo.",
            "secret": "Pick a secret number from 0 to 3.",
        }
        view: dict[str, Any] = {
            "game": self.name,
            "counter": state["counter"],
            "target": state["target"],
            "step": state["step"],
            "turn": state["turn"],
            "picked": {r: state["picks"][r] is not None for r in self.roles},
            "last_picks": state["last_picks"],
            "active": list(self.active_roles(state)),
            "prompt": prompts.get(state["step"], "") if actions else "",
            "actions": actions,
            "log": list(state["log"]),
            "private_log": [],
            "outcome": state["outcome"],
        }
        if role is not None:
            view["codeword"] = state["codeword"][role]
            view["bonus"] = state["bonus"].get(role)
            view["my_pick"] = state["picks"][role]
            view["private_log"] = list(state["private_log"][role])
        return view

    def act(self, state: dict[str, Any], role: str, verb: str, arg: Any = None) -> dict[str, Any]:
        actions = self._actions(state, role)
        if not actions:
            raise IllegalAction("It is not your turn.")
        if verb not in actions:
            raise IllegalAction(f"'{verb}' is not possible now; you may: {', '.join(actions)}.")
        legal = actions[verb]
        if legal is True:
            if arg not in (None, ""):
                raise IllegalAction(f"'{verb}' takes no argument.")
        else:
            match = [a for a in legal if a == arg or str(a) == str(arg)]
            if not match:
                raise IllegalAction(f"'{verb} {arg}' is not possible now.")
            arg = match[0]
        getattr(self, f"_do_{verb}")(state, role, arg)
        return state

    # -- the steps ------------------------------------------------------------------

    def _do_add(self, state: dict[str, Any], role: str, n: int) -> None:
        snapshot = json.loads(json.dumps({k: v for k, v in state.items() if k != "undo"}))
        state["undo"] = [{"role": role, "state": snapshot}]
        state["counter"] += n
        state["log"].append(f"{self.role_names[role]} adds {n}: the counter is {state['counter']}.")
        state["step"] = "confirm"

    def _do_bonus(self, state: dict[str, Any], role: str, _arg: None) -> None:
        value = state["bonus"][role]
        state["counter"] += value
        state["log"].append(
            f"{self.role_names[role]} plays a bonus of {value}: the counter is {state['counter']}."
        )
        # A new bonus is drawn from the generator: new information, so no undo.
        state["bonus"][role] = 1 + _draw(state, 3)
        state["private_log"][role].append(f"Your new bonus is {state['bonus'][role]}.")
        state["undo"] = []
        state["step"] = "confirm"

    def _do_undo(self, state: dict[str, Any], role: str, _arg: None) -> None:
        before = state["undo"].pop()["state"]
        state.clear()
        state.update(before)
        state["undo"] = []

    def _do_done(self, state: dict[str, Any], role: str, _arg: None) -> None:
        state["undo"] = []
        state["turns"] += 1
        if state["counter"] >= state["target"]:
            self._finish(
                state, role, f"{self.role_names[role]} reached {state['target']}", "target"
            )
            return
        state["turn"] = "south" if role == "north" else "north"
        state["step"] = "secret" if state["turns"] % 4 == 0 else "add"
        if state["step"] == "secret":
            state["log"].append("Secret round: both players pick a number.")

    def _do_pick(self, state: dict[str, Any], role: str, n: int) -> None:
        state["picks"][role] = n
        if any(p is None for p in state["picks"].values()):
            return
        picks = dict(state["picks"])
        state["last_picks"] = picks
        state["picks"] = {r: None for r in self.roles}
        state["counter"] += sum(picks.values())
        state["log"].append(
            f"Secret picks revealed: North {picks['north']}, South {picks['south']}; "
            f"the counter is {state['counter']}."
        )
        high = max(self.roles, key=lambda r: picks[r])
        low = min(self.roles, key=lambda r: picks[r])
        if picks["north"] != picks["south"]:
            state["codeword"][low] = _codeword(state)
            state["private_log"][low].append(f"Your new codeword is {state['codeword'][low]}.")
        if state["counter"] >= state["target"]:
            if picks["north"] == picks["south"]:
                self._finish(state, None, "the secret round ended level", "level")
            else:
                self._finish(state, high, f"{self.role_names[high]} picked higher", "higher")
            return
        state["step"] = "add"

    def done_implied(self, state: dict[str, Any], role: str) -> bool:
        """``done`` is never a mere formality here: a player always confirms."""
        return False

    def _finish(self, state: dict[str, Any], winner: str | None, reason: str, code: str) -> None:
        state["outcome"] = {
            "winner": winner,
            "code": code,
            "reason": reason,
            "score": {"counter": state["counter"]},
        }
        state["step"] = "over"
        state["log"].append(f"Game over: {reason}.")


GAME = ToyGame()
