"""The actions a player may take, as the sandbox lists them and reads them back: numbered
in the rules' order (or under their own number, for a question answered by one), each
described by its label, and a typed ``<verb> [arg]`` checked against the list."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import rules
from bot import errors
from bot.delivery.port import View
from bot.tables.prompts import decision_digest
from rules.core.events import EventGame

Action = tuple[str, Any]


def legal_actions(view: View) -> list[Action]:
    """Every listed action, numbered in the order the rules list them."""
    listed: list[Action] = []
    for verb, args in (view.get("actions") or {}).items():
        if isinstance(args, list):
            listed.extend((verb, arg) for arg in args)
        elif args:
            listed.append((verb, None))
    return listed


#: Questions whose answer is itself a number (a solo card's number, its value): their
#: choices are listed under that number, so `20` answers #20 and `3` a value of 3, whatever
#: numbers are used up; the other actions (unnumbered, undo) are then typed by name.
ANSWERED_BY_NUMBER: dict[str, tuple[str, ...]] = {"solo": ("number", "value")}

#: A list as shown: the key typed for each action (None: typed by name only).
Menu = list[tuple[str | None, Action]]


def _whole(arg: Any) -> bool:
    return isinstance(arg, int) and not isinstance(arg, bool) and arg >= 0


def keyed_verb(view: View, game_name: str) -> str | None:
    """The verb whose choices are picked by their own number now, if any."""
    listed = view.get("actions") or {}
    for verb in ANSWERED_BY_NUMBER.get(game_name, ()):
        args = listed.get(verb)
        if isinstance(args, list) and args and all(_whole(a) for a in args):
            return verb
    return None


def menu_of(view: View, game_name: str) -> Menu:
    """The listed actions with the number that picks each: counted from 1 in the rules'
    order, or, for a question answered by a number, that number itself."""
    actions = legal_actions(view)
    keyed = keyed_verb(view, game_name)
    if keyed is None:
        return [(str(i), action) for i, action in enumerate(actions, 1)]
    return [(str(a[1]) if a[0] == keyed else None, a) for a in actions]


@dataclass(frozen=True)
class Shown:
    """The list last shown to a player: a number typed means what it said, and only while
    the player's decision is still the one it was shown for (nothing shifts under the
    fingers). Another side's move meanwhile (Dispatch's face-down choice in a step both
    sides take at once) moves the game on without changing the list: ``digest`` tells."""

    game_id: int
    user: str
    version: int
    menu: Menu
    #: ``prompts.decision_digest`` of the view the list was drawn from.
    digest: str

    def still_stands(self, game_id: int, user: str, view: View) -> bool:
        """Whether a number typed now still means what this list said."""
        same_place = (self.game_id, self.user) == (game_id, user)
        return same_place and decision_digest(view) == self.digest

    def pick(self, key: str) -> Action | None:
        return next((action for k, action in self.menu if k == key), None)

    def refusal(self, typed: int) -> str:
        keys = [int(k) for k, _a in self.menu if k is not None]
        if keys != list(range(1, len(keys) + 1)):  # listed under their own numbers
            return (
                f"{typed} is not one of the choices now: they are listed under their own "
                f"number, from {min(keys)} to {max(keys)}, leaving out those already used."
            )
        return f"Choose a number from 1 to {len(keys)}."


def describe(view: View, action: Action) -> str:
    verb, arg = action
    text = verb if arg is None else f"{verb} {arg}"
    label = (view.get("labels") or {}).get(verb)
    if isinstance(label, dict):
        label = label.get(str(arg))
    if isinstance(label, str) and label and label.lower() != text.lower():
        text += f" — {label}"
    return text


def game_verbs(name: str) -> frozenset[str]:
    """Every action word of a game, whether legal now or not, so that a real action typed
    at the wrong moment is told "not now" rather than "unknown": the ``on_<verb>``
    handlers of its steps (``Step.handlers``, see ``rules.core.flow``), the verbs its
    event ops declare (``Op.verbs``, see ``rules.core.events``), and ``undo``. A game built
    otherwise (a test's toy, not a ``rules.Game``) offers only ``undo`` here."""
    game = rules.GAMES.get(name)
    verbs = {"undo"}
    if isinstance(game, rules.Game):
        for step in game.steps.values():
            verbs.update(step.handlers)
    if isinstance(game, EventGame):
        for op in game.event_ops.values():
            verbs.update(op.verbs)
    return frozenset(verbs)


#: At most this many choices are spelled out in a refusal; the numbered list has them all.
MAX_CHOICES_SHOWN = 12


def choices_text(args: list[Any]) -> str:
    """The choices of a verb, or the first of them and how many more."""
    shown = ", ".join(str(a) for a in args[:MAX_CHOICES_SHOWN])
    more = len(args) - MAX_CHOICES_SHOWN
    if more > 0:
        shown += f" and {more} more (type the number of one from the list)"
    return shown


def named_action(view: View, words: list[str], verbs: frozenset[str]) -> Action:
    """The action ``<verb> [arg]`` names, checked against the listed actions, or a refusal
    that says what is wrong and what may be typed instead (nothing is changed)."""
    listed = view.get("actions") or {}
    verb = words[0].lower()
    typed = " ".join(words[1:])
    if verb not in listed:
        if verb in verbs:
            now = ", ".join(f"`{v}`" for v in listed)
            raise errors.NotOffered(f"`{verb}` is not possible now; you may: {now}, or a number.")
        raise errors.Usage(
            f"Unknown command or action “{words[0][:40]}”. Type a number, or `help`."
        )
    args = listed[verb]
    if not isinstance(args, list):
        if typed:
            raise errors.Usage(f"`{verb}` takes nothing after it: type `{verb}` alone.")
        return verb, None
    if not typed:
        raise errors.Usage(f"`{verb}` needs one of: {choices_text(args)}.")
    for arg in args:
        if str(arg) == typed:
            return verb, arg
    # "Fort_Pickens" or "fort pickens" for fort_pickens: only when it names one choice.
    key = typed.lower().replace(" ", "_")
    near = [arg for arg in args if str(arg).lower() == key]
    if len(near) == 1:
        return verb, near[0]
    raise errors.NotOffered(
        f"“{typed[:40]}” is not one of the choices for `{verb}` now; "
        f"you may choose: {choices_text(args)}."
    )
