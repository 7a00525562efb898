"""A ``games`` row built in memory, for tests of what reads one (a game's views, its
state brought up to date): the fields a stored game has, each overridable."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from bot.storage.rows import GameRow


def game_row(game_name: str, state: dict[str, Any] | None = None, **fields: Any) -> GameRow:
    """Game #1 of ``game_name``, active, holding ``state`` (``{}`` when None); ``fields``
    replace any others."""
    row = GameRow(
        id=1,
        guild_id="g1",
        channel_id="c1",
        game_name=game_name,
        options_json="{}",
        seed=-1,
        status="active",
        state_json=json.dumps(state if state is not None else {}),
        version=1,
        creator_id="alice",
        hotseat=False,
        active_roles=(),
        posted_log=0,
        created_at=0.0,
        updated_at=0.0,
        turn_started_at=None,
    )
    return dataclasses.replace(row, **fields)
