"""``dispatch store check``: look again at every game flagged damaged, and unflag those
that load and replay.

A game is flagged only for damage (``bot.storage.errors.Damaged``: a row that does not
decode or replay), never for the database being out of reach. A game flagged before that
rule, or whose record a moderator mended, is skipped by background work until someone
looks again: this command does, with the same checks a game meets when it is used (its
state decodes, every seat's view is drawn) and those of ``dispatch store copy`` (set-up
plus its actions give its stored state). The lines it prints name the game and the kind
of damage only, never what the record holds.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from bot.storage.errors import Damaged
from bot.storage.store import Store
from bot.tables.loading import rules_of, safe_view
from bot.tables.records.replay import export_game, replayed_state, stored_state


@dataclass
class CheckReport:
    """The flagged games found healthy (unflagged) and those still damaged, with why."""

    unflagged: list[int] = field(default_factory=list)
    damaged: dict[int, str] = field(default_factory=dict)

    def lines(self) -> list[str]:
        out = [f"game {g}: loads and replays: unflagged" for g in self.unflagged]
        out += [f"game {g}: still damaged ({why})" for g, why in self.damaged.items()]
        out.append(
            f"flagged games checked: {len(self.unflagged) + len(self.damaged)}, "
            f"unflagged: {len(self.unflagged)}, still damaged: {len(self.damaged)}"
        )
        return out


async def check_store(store: Store) -> CheckReport:
    """Re-check every flagged game of ``store``; unflag each that loads and replays."""
    report = CheckReport()
    async with store.read() as db:
        flagged = await db.upkeep.damaged_games()
    for game_id in flagged:
        why = await damage_of(store, game_id)
        if why is not None:
            report.damaged[game_id] = why
            continue
        async with store.write() as db:
            await db.upkeep.clear_damaged(game_id)
        report.unflagged.append(game_id)
    return report


async def damage_of(store: Store, game_id: int) -> str | None:
    """Why the game cannot be used (a player-safe phrase), or None when it loads, every
    seat's view is drawn, and a played game replays to its stored state."""
    async with store.read() as db:
        row = await db.game(game_id)
    if row is None:
        return "not found"
    try:
        rules_game = rules_of(row)
        for role in (None, *rules_game.roles):
            safe_view(row, role)
        if row.status == "lobby":
            return None  # nothing played yet: the state is its set-up, drawn above
        replayed = replayed_state(await export_game(store, game_id))
    except Damaged as exc:
        return exc.detail
    stored = await stored_state(store, game_id)
    if stored is None or json.loads(stored) != replayed:
        return "its replay differs from its stored state"
    return None
