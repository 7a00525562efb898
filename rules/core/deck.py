"""Decks of cards in the game state: draw from the top, reshuffle the discards into a new
draw pile when it runs out, add cards at the n-th reshuffle, and tell the game when a
reshuffle happens.

A deck lives in a dict of the state (its *holder*) under names the game chooses, so each
game keeps its rulebook's words: War draws from "deck" and reshuffles its "survivors";
Lincoln draws from "deck", reshuffles its "discard", and adds its I cards at the first
reshuffle and its II cards at the second. The top card is the last element of the draw
pile. A drawn card is new information, so drawing closes the undo window.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rules.core.rng import shuffle
from rules.core.types import State
from rules.core.undo import seal

#: Called after a reshuffle with its number (1 for the first): the game's checks, a log line.
OnReshuffle = Callable[[int], None]


@dataclass(frozen=True)
class Piles:
    """Where a deck's piles live in its holder."""

    draw: str = "deck"
    discard: str = "discard"
    #: Key of the count of reshuffles so far; None: not counted (and no additions).
    reshuffles: str | None = None
    #: Key of ``{"1": [...], "2": [...]}``: cards that join the deck at that reshuffle.
    additions: str | None = None


def _pending(holder: dict[str, Any], piles: Piles) -> list[str]:
    """The cards that join the deck at the next reshuffle."""
    if piles.additions is None or piles.reshuffles is None:
        return []
    added: dict[str, list[str]] = holder.get(piles.additions) or {}
    return added.get(str(int(holder.get(piles.reshuffles, 0)) + 1), [])


def can_draw(holder: dict[str, Any], piles: Piles) -> bool:
    """Whether a card can still come: the draw pile, or what a reshuffle would make."""
    return bool(holder[piles.draw] or holder[piles.discard] or _pending(holder, piles))


def reshuffle(
    state: State, holder: dict[str, Any], piles: Piles, on_reshuffle: OnReshuffle | None = None
) -> int:
    """Make a new draw pile of the discards (and the cards due at this reshuffle), shuffled
    under what is left of the old one; returns the reshuffle's number."""
    number = 1
    added: list[str] = []
    if piles.reshuffles is not None:
        number = int(holder.get(piles.reshuffles, 0)) + 1
        holder[piles.reshuffles] = number
        if piles.additions is not None:
            added = list((holder.get(piles.additions) or {}).pop(str(number), []))
    fresh = list(holder[piles.discard]) + added
    holder[piles.discard] = []
    shuffle(state, fresh)
    holder[piles.draw] = fresh + list(holder[piles.draw])
    if on_reshuffle is not None:
        on_reshuffle(number)
    return number


def draw(
    state: State, holder: dict[str, Any], piles: Piles, on_reshuffle: OnReshuffle | None = None
) -> str | None:
    """The top card, reshuffling first when the draw pile is empty; None when no card can
    come at all."""
    if not holder[piles.draw]:
        if not can_draw(holder, piles):
            return None
        reshuffle(state, holder, piles, on_reshuffle)
        if not holder[piles.draw]:
            return None
    seal(state)
    card: str = holder[piles.draw].pop()
    return card


def draw_many(
    state: State,
    holder: dict[str, Any],
    piles: Piles,
    count: int,
    on_reshuffle: OnReshuffle | None = None,
) -> list[str]:
    """Up to ``count`` cards, top first, reshuffling as often as needed."""
    cards: list[str] = []
    for _ in range(count):
        card = draw(state, holder, piles, on_reshuffle)
        if card is None:
            break
        cards.append(card)
    return cards
