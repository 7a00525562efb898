"""``dispatch store copy --to postgresql://...``: move a SQLite store into PostgreSQL.

The target must be an empty PostgreSQL database (it is migrated here). Every table is
copied by the store (``bot.storage.bulk_copy``: one snapshot of the file, COPY, the
identity sequences moved past the copied ids), then every game is replayed from its
actions and compared with the state copied beside them: any difference is reported and
the command fails.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot import errors
from bot.storage.bulk_copy import CopyRefused, copy_tables
from bot.storage.engines import is_postgres_url
from bot.storage.store import Store
from bot.tables.loading import rules_or_none
from bot.tables.records.replay import export_game, replayed_state, stored_state


@dataclass
class CopyReport:
    rows: dict[str, int] = field(default_factory=dict)
    replayed: int = 0
    not_replayable: int = 0
    mismatches: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        out = [f"{table}: {count} rows" for table, count in self.rows.items()]
        out.append(f"games replayed from their actions and matching: {self.replayed}")
        if self.not_replayable:
            out.append(f"games not replayable here (rules unknown or lobby): {self.not_replayable}")
        out += [f"MISMATCH: {m}" for m in self.mismatches]
        return out


async def copy_store(source: Path, url: str) -> CopyReport:
    """Copy ``source`` (a SQLite file) into the PostgreSQL database at ``url``."""
    if not source.exists():
        raise CopyRefused(f"there is no database file at {source}")
    if not is_postgres_url(url):
        raise CopyRefused("--to takes a PostgreSQL URL: postgresql://user:password@host/db")
    target = await Store.open(url)
    report = CopyReport()
    try:
        report.rows = await copy_tables(source, target)
        await _replay_all(target, report)
    finally:
        await target.close()
    return report


async def _replay_all(store: Store, report: CopyReport) -> None:
    async with store.read() as db:
        games = await db.upkeep.game_statuses()
    for game_id, status in games:
        if status == "lobby":
            report.not_replayable += 1
            continue
        data: dict[str, Any] = await export_game(store, game_id)
        if rules_or_none(str(data["game"])) is None:
            report.not_replayable += 1
            continue
        try:
            replayed = replayed_state(data)
            stored = await stored_state(store, game_id)
        except errors.DispatchError as exc:
            report.mismatches.append(f"game {game_id}: {exc}")
            continue
        if stored is None or json.loads(stored) != replayed:
            report.mismatches.append(f"game {game_id}: its replay differs from its stored state")
        else:
            report.replayed += 1
