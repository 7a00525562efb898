"""``/game hint`` (issue 27, section 4): the search's top choices for a player's decision.

Only in a practice game: one dealt from a chosen seed, or one against Dispatch (a seat of
:data:`bot.tables.bot_users.BOT_USERS`). A keyed game between people counts for ratings, and a
hint there would be help from the bot in a game it does not play: refused. A keyed game
against Dispatch counts for ratings too until a hint is asked, so the first hint must come
before the asker's first decision: later it would be a way to take a game going badly out
of the ratings (``practice_refusal``). A game where
hints were asked is *assisted* (each hint is counted in the ``hints`` table, migration
``0015_bot_estimates``) and is never rated (``bot.tables.ratings.unrated_reason``).

The hint is the same information-set search Dispatch plays with (``rules.ai.ismcts``), run
on the asker's own view and never on the full state, so it knows what the player knows
and nothing more: swapping what the opponent really holds changes nothing. It runs the
normal level's budget (``rules.ai.level_iterations``) with a seed made from the game, the
role and the version, so one position always gives the same hint. Each choice is named by
the view's own label for it, with its playouts and the share of them that it won (a draw
or a playout cut at the game's horizon counts its estimated chance). The playouts rank
the choices (``ranked``): they are what Dispatch itself plays by.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import rules
from bot import errors
from bot.storage.rows import GameRow, SeatRow
from bot.tables.bot_users import is_bot
from rules.ai import level_iterations, search, supports_search
from rules.ai.ismcts import describe, view_actions
from rules.core import Arg, View

#: How many of the search's choices a hint shows.
HINT_CHOICES = 3
#: The level whose budget a hint searches with.
HINT_LEVEL = "normal"
#: The seed column of a game dealt from a secret key (as in ``bot.tables.ratings``).
KEYED = -1


@dataclass(frozen=True)
class HintChoice:
    """One of the search's choices: the view's words for it, how many playouts went
    through it and the share of them it won."""

    label: str
    visits: int
    won: float


@dataclass(frozen=True)
class Hint:
    game_id: int
    role: str
    version: int
    iterations: int
    choices: tuple[HintChoice, ...]


def practice_refusal(
    row: GameRow, seats: Sequence[SeatRow], *, decided: int, assisted: bool
) -> str | None:
    """Why a hint is refused in this game (None: it is a practice game, or may be made
    one). ``decided``: the decisions the asker's side has made; ``assisted``: whether a
    hint was asked in it already.

    A keyed game against Dispatch counts for ratings until someone asks for a hint, so a
    hint there is given only while it cannot be a way out of a game going badly: before
    the asker's first decision, or once the game is assisted anyway. Later, the first
    hint would take a losing game out of the ratings."""
    if row.seed != KEYED or len({s.user_id for s in seats}) < len(seats):
        return None  # a practice seed, or one person in several seats: never rated
    if not any(is_bot(s.user_id) for s in seats):
        return (
            "Hints are for practice games only (a chosen seed, or a game against Dispatch): "
            "this game is between players and counts for ratings."
        )
    if assisted or decided == 0:
        return None
    return (
        "This game against Dispatch counts for ratings, and a first hint now would take it "
        "out of them: hints are for a game made practice from its start. Ask for one before "
        "your first decision (the game is then never rated, and you may ask again at any "
        "time), or play a practice game with a chosen seed (/game new seed:)."
    )


def hint_seed(game_id: int, role: str, version: int) -> int:
    """The search seed of a hint: one position of one game always gets the same one."""
    text = f"dispatch hint {game_id} {role} {version}"
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")


def label_of(view: View, verb: str, arg: Arg) -> str:
    """The view's own words for an action (as its buttons say), never an id alone."""
    labels: dict[str, Any] = view.get("labels") or {}
    label = labels.get(verb)
    if isinstance(label, dict):
        text = label.get(str(arg))
        if text:
            return str(text)
    if isinstance(label, str) and label:
        return label if arg is None else f"{label}: {arg}"
    words = verb.replace("_", " ").capitalize()
    return words if arg is None else f"{words} {arg}"


def searchable(game_name: str) -> None:
    """Refuse a game the search cannot play (no hidden-information hooks)."""
    game = rules.get_game(game_name)
    if not supports_search(game):
        raise errors.BadInput(f"{game.title or game.name} has no search to give hints with.")


def compute_hint(
    game_name: str, game_id: int, version: int, view: View, iterations: int | None = None
) -> Hint:
    """The hint for ``view`` (the asker's own view): runs in a worker, off the event loop.
    ``iterations`` replaces the normal level's budget (tests)."""
    game = rules.get_game(game_name)
    role = str(view["role"])
    budget = level_iterations(game, HINT_LEVEL) if iterations is None else iterations
    result = search(game, view, seed=hint_seed(game_id, role, version), iterations=budget)
    listed = {(verb, arg) for _, verb, arg in view_actions(view)}
    rows = [
        row for row in describe(result, top=len(result.root.children)) if row["action"] in listed
    ]
    every = [
        HintChoice(label_of(view, *row["action"]), int(row["visits"]), float(row["mean"]))
        for row in rows
    ]
    choices = tuple(ranked(every)[:HINT_CHOICES])
    return Hint(game_id, role, version, result.iterations, choices)


def ranked(choices: Sequence[HintChoice]) -> list[HintChoice]:
    """The choices best first by playouts, the number that decides (ties: the higher win
    rate). The search spends its playouts on the choices it rates best, and Dispatch plays
    its most-played choice; a win rate over few playouts is noise, so it never decides."""
    return sorted(choices, key=lambda c: (-c.visits, -c.won))


def hint_text(hint: Hint) -> str:
    """The hint as the asker reads it (a few short lines: well within a message)."""
    lines = [
        f"**Hint** for {hint.role}: the search's top choices from your own view, ranked by "
        "playouts (the search gives the most to what it rates best, and Dispatch plays its "
        "most-played choice; a win rate over few playouts is only a guide):"
    ]
    for n, choice in enumerate(ranked(hint.choices), 1):
        lines.append(
            f"{n}. {_clip(choice.label)} — {choice.visits:,} playouts, won {choice.won:.0%}"
        )
    lines.append(
        f"{hint.iterations:,} playouts in all. This game now counts as assisted: it is not rated."
    )
    return "\n".join(lines)


def _clip(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
