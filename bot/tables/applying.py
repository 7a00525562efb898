"""A decision applied through the rules, in its turn's transaction: its actions, the
``done``s the rules imply after it, and the forced choices taken for the player
(``bot.tables.forced``), all or nothing. Nothing here writes: the turn records what it
returns."""

from __future__ import annotations

import json
import logging
from typing import Any

import rules
from bot import errors
from bot.storage.rows import dumps
from bot.storage.session import Session
from bot.tables import forced
from bot.tables.bot_users import is_bot
from bot.tables.loading import safe_view, state_of
from bot.tables.turn_types import CheckedMove, Table

log = logging.getLogger("dispatch.manager")

#: The rules engine raised on a legal-looking action: a bug, reported, with nothing saved.
RULES_FAILED = errors.IllegalMove(
    "That action could not be applied because of an error in the game rules; nothing "
    "changed. Please report it."
)

#: The most ``done``s sent for a player after one decision (a bound; one is the rule).
MAX_IMPLIED_DONE = 4

#: What a decision made: its actions in order, the state after them, and the player's
#: lines on what was taken for them.
Applied = tuple[list[tuple[str, Any]], dict[str, Any], list[str]]


def implied_done(rules_game: rules.Game, state: dict[str, Any], role: str) -> int:
    """Send ``done`` for ``role`` while the rules say it is a formality (nothing left to
    choose: "place up to 0 tokens more"); each is recorded as its own action, so the game
    replays exactly. Returns how many were sent."""
    sent = 0
    while sent < MAX_IMPLIED_DONE and role in rules_game.active_roles(state):
        if not rules_game.done_implied(state, role):
            break
        rules_game.act(state, role, "done")
        sent += 1
    return sent


async def applied(
    db: Session, table: Table, state: dict[str, Any], role: str, move: CheckedMove
) -> Applied:
    """:func:`apply`, with the forced choices after the move taken for a person who did
    not turn that off (``bot.tables.forced``); never for Dispatch's own seats, and never
    after an undo (the choice taken back would be taken again at once). The player's
    setting is read only when a forced choice was there to take: most moves leave none,
    and a turn's round trips on PostgreSQL are few."""
    if move.verb == "undo" or is_bot(move.user_id):
        return apply(table, state, role, move, take_forced=False)
    actions, after, told = apply(table, state, role, move, take_forced=True)
    if told and await db.settings.forced_setting(move.user_id) != forced.DEFAULT_FORCED:
        # The rules may have changed ``state`` in place: applied again on a fresh parse.
        return apply(table, state_of(table.row), role, move, take_forced=False)
    return actions, after, told


def apply(
    table: Table, state: dict[str, Any], role: str, move: CheckedMove, *, take_forced: bool
) -> Applied:
    """The actions the move makes (the implied ``done``s too, and with ``take_forced``
    the forced choices after it, ``bot.tables.forced``), the state after them and the
    player's lines on what was taken for them; raises ``IllegalMove`` with nothing
    applied when any of them is refused."""
    row, rules_game, verb = table.row, table.rules_game, move.verb
    actions: list[tuple[str, Any]] = []
    try:
        # act may mutate what it is given; `state` is our own parsed copy and is
        # dropped if any action fails, so nothing leaks into the next attempt: a batch
        # is applied whole or not at all.
        after = state
        for part in (move.arg, *move.more):
            if actions and role not in rules_game.active_roles(after):
                raise rules.NotAllowedNow("your part of this decision ended before the last one")
            after = rules_game.act(after, role, verb, part)
            actions.append((verb, part))
        told: list[str] = []
        if verb != "undo":
            actions += [("done", None)] * implied_done(rules_game, after, role)
        if take_forced:
            after, taken, told = forced.take_forced(rules_game, after, role)
            if taken:
                actions += taken
                actions += [("done", None)] * implied_done(rules_game, after, role)
        encoded = dumps(after)
    except rules.IllegalAction as exc:
        # Neither the argument nor the engine's sentence (which lists the player's
        # choices, their hand among them): the server log is no place for hidden cards.
        log.debug("game=%d %s %s refused: %s", row.id, move.user_id, verb, type(exc).__name__)
        if move.more:
            raise errors.IllegalMove(
                f"Those {len(move.more) + 1} choices cannot all be made ({exc}); nothing changed."
            ) from None
        raise errors.IllegalMove(str(exc)) from None
    except Exception as exc:
        # A record the rules cannot read is the game's damage, not this player's move.
        safe_view(row, role)
        log.error(
            "game=%d rules engine failed on %s at v%d\n%s",
            row.id,
            verb,
            row.version,
            errors.withheld(exc),
        )
        raise RULES_FAILED from None
    return actions, json.loads(encoded), told
