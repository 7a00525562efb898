"""``/game hint``: the search's top choices for a player's decision.

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
role and the version, so one position always gives the same hint. It is Dispatch's own
player (``rules.ai.SearchPlayer``), so the first choice shown is the move Dispatch would
make there by its own rule, ``policy_margin`` included. Each choice is named by the view's
own label for it, with its playouts and their average result: the share won where the
playouts play to the end, an average of the game's estimate where they stop at a horizon
(Lincoln), and the text says which. The others follow by playouts, and those the search
cannot tell from the first (``indistinguishable``: within noise of it) share its rank, so
noise is never shown as a ranking (``ranked``; the rule is in ``docs/ai.md``).
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import rules
from bot import errors
from bot.storage.rows import GameRow, SeatRow
from bot.tables.bot_users import is_bot
from rules.ai import SearchPlayer, level_iterations, supports_search
from rules.ai.ismcts import Node, view_actions
from rules.core import Arg, View

#: How many of the search's choices a hint shows.
HINT_CHOICES = 3
#: The level whose budget a hint searches with.
HINT_LEVEL = "normal"
#: How many standard errors apart two choices' averages must be for the search to tell
#: them apart (about 95% two-sided): closer, a hint shows them as equal.
NOISE_Z = 2.0
#: The seed column of a game dealt from a secret key (as in ``bot.tables.records.ratings``).
KEYED = -1


@dataclass(frozen=True)
class HintChoice:
    """One of the search's choices: the view's words for it, how many playouts went
    through it and their average result (the share won, or in a game whose playouts
    stop at a horizon, the average estimate); ``equal``: the search cannot tell it from
    the first choice (:func:`indistinguishable`)."""

    label: str
    visits: int
    won: float
    equal: bool = False


@dataclass(frozen=True)
class Hint:
    game_id: int
    role: str
    version: int
    iterations: int
    choices: tuple[HintChoice, ...]
    #: The game's playout horizon (its playouts are scored by an estimate), or None.
    horizon: int | None = None
    #: When Dispatch's choice is the game's own plan kept over the most played one: the
    #: margin by which another must average more to overrule it (``policy_margin``).
    plan_margin: float | None = None
    #: Choices past the shown ones that the search cannot tell from the first.
    more_equal: int = 0


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
        raise errors.HintRefused(f"{game.title or game.name} has no search to give hints with.")


def compute_hint(
    game_name: str, game_id: int, version: int, view: View, iterations: int | None = None
) -> Hint:
    """The hint for ``view`` (the asker's own view): runs in a worker, off the event loop.
    ``iterations`` replaces the normal level's budget (tests).

    The search is Dispatch's own player (``SearchPlayer``), so its first choice is the
    move Dispatch would make here, by the same rule: the most played, or in a game with a
    ``policy_margin`` the game's own plan unless the most played averaged that much more."""
    game = rules.get_game(game_name)
    role = str(view["role"])
    budget = level_iterations(game, HINT_LEVEL) if iterations is None else iterations
    player = SearchPlayer(game, role, seed=hint_seed(game_id, role, version), iterations=budget)
    chosen = player.choose(view)
    assert player.last is not None  # a fresh player always searches its first decision
    children = player.last.root.children
    every = [
        (HintChoice(label_of(view, verb, arg), *_tally(children[(role, verb, arg)])), (verb, arg))
        for _, verb, arg in view_actions(view)
        if (role, verb, arg) in children and children[(role, verb, arg)].visits
    ]
    first = next(choice for choice, action in every if action == chosen)
    others = [choice for choice, action in every if action != chosen]
    order = ranked(first, others)
    return Hint(
        game_id,
        role,
        version,
        player.last.iterations,
        tuple(order[:HINT_CHOICES]),
        horizon=game.playout_horizon,
        plan_margin=game.policy_margin if player.deferred else None,
        more_equal=sum(c.equal for c in order[HINT_CHOICES:]),
    )


def _tally(node: Node) -> tuple[int, float]:
    return node.visits, node.reward / node.visits


def ranked(first: HintChoice, others: Sequence[HintChoice]) -> list[HintChoice]:
    """``first`` (Dispatch's choice), then the choices the search cannot tell from it,
    then the rest; each group by playouts (ties: the higher share won), as the search
    spends the most on what it rates best. Each of ``others`` comes back marked ``equal``
    when :func:`indistinguishable` from ``first``."""
    marked = [
        dataclasses.replace(c, equal=indistinguishable(first, c))
        for c in sorted(others, key=lambda c: (-c.visits, -c.won))
    ]
    ties = [c for c in marked if c.equal]
    return [
        dataclasses.replace(first, equal=bool(ties)),
        *ties,
        *(c for c in marked if not c.equal),
    ]


def indistinguishable(a: HintChoice, b: HintChoice) -> bool:
    """Whether the search's playouts cannot tell ``a`` from ``b``: their averages differ
    by no more than :data:`NOISE_Z` standard errors of the difference. A playout's result
    lies in [0, 1], so its variance is at most p(1 - p) for its mean p; p is taken with
    one playout won and one lost added (a choice won every time in three playouts is no
    certainty), which keeps the bound above zero."""
    spread = _variance_bound(a) / a.visits + _variance_bound(b) / b.visits
    return abs(a.won - b.won) <= NOISE_Z * math.sqrt(spread)


def _variance_bound(choice: HintChoice) -> float:
    p = (choice.won * choice.visits + 1) / (choice.visits + 2)
    return p * (1 - p)


def hint_text(hint: Hint) -> str:
    """The hint as the asker reads it (a few short lines: well within a message). Choices
    the search cannot tell apart share the first rank ("1="), so noise is never shown as
    a ranking."""
    lines = [
        f"**Hint** for {hint.role}: from your own view, the move Dispatch (normal) would make here "
        "first (the search's most played choice"
        + _plan_words(hint)
        + "), then the others by playouts; **1=** marks choices the search cannot tell apart:"
    ]
    for n, choice in enumerate(hint.choices, 1):
        rank = "1=" if choice.equal else f"{n}."
        lines.append(
            f"{rank} {_clip(choice.label)} — {choice.visits:,} playouts, "
            f"{_number_word(hint)} {choice.won:.0%}"
        )
    if hint.more_equal:
        lines.append(f"…and {hint.more_equal} more the search cannot tell apart from the first.")
    lines.append(_number_meaning(hint))
    lines.append(
        f"{hint.iterations:,} playouts in all. This game now counts as assisted: it is not rated."
    )
    return "\n".join(lines)


def _plan_words(hint: Hint) -> str:
    if hint.plan_margin is None:
        return ""
    points = round(100 * hint.plan_margin)
    return f", or as here the game's own plan, kept unless another scored {points} points more"


def _number_word(hint: Hint) -> str:
    return "won" if hint.horizon is None else "scored"


def _number_meaning(hint: Hint) -> str:
    """What the percentage is in this game: never a chance of winning against you."""
    if hint.horizon is None:
        return (
            "The percentage is the share of the search's random playouts (to the game's "
            "end) that this choice won: a guide to how it went in random play, not your "
            "chance of winning."
        )
    return (
        f"The percentage is not a share of games won: the search's playouts stop after "
        f"{hint.horizon} actions, and each is scored by the game's estimate of your "
        "chance from there; it is their average."
    )


def _clip(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
