"""The game log: short public lines of plain text, and private lines per role.

Conventions every front end understands:
- a line starting with ``"# "`` is a heading (a new round, battle, phase);
- everything else is one event, written with names a player recognises, never with
  Discord or other formatting.

Private events (a card you drew, the objective you kept) go to ``private_log`` of that
role only; the public log never carries hidden information.

A search's playout (``Game.playout``) reads no log, so it marks its state *quiet* (the
key :data:`QUIET`) while it plays: nothing is written to either log then, and the lines
that cost most to compose (the ones every turn writes) are not even composed: their
call sites ask :func:`telling` first. Apart from the lines, a quiet game goes exactly as
a told one.
"""

from __future__ import annotations

from rules.core.types import State

#: The key that marks a playout's state quiet (its presence; the value is ignored).
QUIET = "quiet"


def telling(state: State) -> bool:
    """Whether log lines are kept in ``state`` (not a quiet playout's): a call site whose
    line costs something to compose asks this first."""
    return QUIET not in state


def log(state: State, text: str) -> None:
    if QUIET not in state:
        state["log"].append(text)


def heading(state: State, text: str) -> None:
    if QUIET not in state:
        state["log"].append(f"# {text}")


def plural(count: int, word: str, many: str | None = None) -> str:
    """``"1 card"``, ``"3 cards"``: log lines name counts as a person would."""
    return f"{count} {word if count == 1 else (many or word + 's')}"


#: Words starting with a vowel letter that are said with a consonant ("a Union card",
#: "a European army"); any other vowel start takes "an" ("an American card").
_CONSONANT_SOUNDS = ("uni", "use", "usu", "uti", "eu", "one")


def a_or_an(word: str) -> str:
    """``word`` with its indefinite article, as a person would say it: side names are
    written into sentences ("A American card" read wrong)."""
    lower = word.lower()
    vowel = lower[:1] in ("a", "e", "i", "o", "u") and not lower.startswith(_CONSONANT_SOUNDS)
    return f"{'an' if vowel else 'a'} {word}"


def private_log(state: State, role: str, text: str) -> None:
    if QUIET not in state:
        state["private_log"].setdefault(role, []).append(text)
