"""A prompt's freshness: whether a button drawn at an older version still asks the same
question of its seat (see migration 0002)."""

from __future__ import annotations

import hashlib
from typing import Any

from bot.delivery.port import View
from bot.storage.rows import SeatRow, dumps

#: What a prompt's buttons stand for: if none of it changed, an older button still asks
#: the same question.
DECISION_KEYS = ("step", "prompt", "actions", "labels", "private_log")


def decision_digest(view: View) -> str:
    decision = {key: view.get(key) for key in DECISION_KEYS}
    return hashlib.sha256(dumps(decision).encode()).hexdigest()


def fresh(expected_version: Any, seat: SeatRow, version: int) -> bool:
    """Whether a button drawn at ``expected_version`` still stands for this seat's decision.

    It must not come from the future (a forged id), and this seat's decision must not have
    changed since: the other side acting in a simultaneous step does not outdate it, but
    the seat's own action always does, so a double click never applies twice.
    """
    try:
        drawn_at = int(expected_version)
    except (TypeError, ValueError):
        return False
    return seat.prompt_version <= drawn_at <= version
