"""Comparing today's engine with records the old engine left (fixtures frozen from it).

Since those records were written, log lines say counts in words ("3 reinforcements", not
"3 reinforcement(s)"); views carry the running ``score``, the ``batch`` of
multi-choice verbs, their ``repeats`` and ``done_implied``, and the viewer's
``known_state``, the Fate Die's ``fate`` display and option; a value play's prompt no
longer says "one at a time, then Done" (front ends pick several spaces at once and send
the Done). In War, an Event that enters a column late says it is ignored and counts 0
(it used to read only "(event)"), and so does one drawn or placed as a reinforcement;
an Event in a War hand carries a ``note`` saying so.
Fort Sumter's Final Crisis prompts say "an Armaments space" (they read "a Armaments"), and
its last line names the winner's points first ("wins with 7 VP to 3", where it read "wins,
3-7", Unionist first); its objective prompt says the opponent scores a kept card's space
they control (it said only that you score yours).
``as_old`` rewrites a
document of today in the old wording and without the new keys, so everything else of it
must match the old record exactly.
"""

from __future__ import annotations

import re
from typing import Any

_OLD_WORDING = [
    (re.compile(r"commits (\d+) reinforcements?\."), r"commits \1 reinforcement(s)."),
    (re.compile(r"takes (\d+) set-aside cards? and"), r"takes \1 set-aside card(s) and"),
    (
        re.compile(r": (\d+) (\w+) cards? (?:returns|return) to the Survivors\."),
        r": \1 \2 card(s) return to the Survivors.",
    ),
    (re.compile(r": (\d+) (\w+) cards? lost unseen\."), r": \1 \2 card(s) lost unseen."),
    (
        re.compile(r"more, in any spaces, several in one if you like \("),
        "more, one at a time, then Done (",
    ),
    (re.compile(r" \(event: ignored, counts 0\)"), " (event)"),
    (re.compile(r"tokens from an Armaments space, or 2"), "tokens from a Armaments space, or 2"),
    (
        re.compile(r"move that token to an Armaments space:"),
        "move that token to a Armaments space:",
    ),
    (
        re.compile(
            r"At round end both kept cards are revealed, and whoever controls a card's space "
            r"scores 1 VP for it, your opponent too; if you score your own, you also carry "
            r"out its event\."
        ),
        "At round end you score 1 VP if you control its space (and then carry out its event).",
    ),
]

#: Keys views gained after the fixtures were frozen (``known_state``: the state
#: as the viewer knows it, for search players; ``fate``: the display of a side
#: run by the Fate Die, None in the old games; ``plans``: War's whole placements of a
#: battle, offered as one menu).
NEW_VIEW_KEYS = ("score", "batch", "done_implied", "repeats", "known_state", "fate", "plans")


_FORT_SUMTER_RESULT = re.compile(r"(Unionist|Secessionist) wins with (\d+) VP to (\d+) \(")


def _old_result(found: re.Match[str]) -> str:
    winner, won, lost = found.groups()
    unionist, secessionist = (won, lost) if winner == "Unionist" else (lost, won)
    return f"{winner} wins, {unionist}-{secessionist} ("


def old_line(text: str) -> str:
    for pattern, old in _OLD_WORDING:
        text = pattern.sub(old, text)
    return _FORT_SUMTER_RESULT.sub(_old_result, text)


#: Keys a card of a view gained, at any depth (``note``: War's Event in hand).
NEW_CARD_KEYS = ("note",)


def as_old(document: Any, *, view: bool = False) -> Any:
    """``document`` (a state or a view) in the old engine's wording and shape."""
    if view:
        document = _without_card_keys(document)
    if isinstance(document, str):
        return old_line(document)
    if isinstance(document, list):
        return [as_old(x) for x in document]
    if isinstance(document, dict):
        return {
            k: _old_options(v) if k == "options" else as_old(v)
            for k, v in document.items()
            if not (view and k in NEW_VIEW_KEYS)
        }
    return document


def _without_card_keys(document: Any) -> Any:
    if isinstance(document, list):
        return [_without_card_keys(x) for x in document]
    if isinstance(document, dict):
        return {k: _without_card_keys(v) for k, v in document.items() if k not in NEW_CARD_KEYS}
    return document


#: Game options added since the records were frozen, at the value that changes nothing
#: (``fate``: no side run by the Fate Die).
NEW_OPTIONS: dict[str, Any] = {"fate": ""}


def _old_options(options: Any) -> Any:
    if not isinstance(options, dict):
        return as_old(options)
    return {k: v for k, v in options.items() if not (k in NEW_OPTIONS and v == NEW_OPTIONS[k])}
