"""Message nonces on create-message, as Discord's API description and docs state them.

``POST /channels/{id}/messages`` takes ``nonce`` (an int64, or a string of at most 25
characters) and ``enforce_nonce`` (bool). The nonce is echoed on the created message (the
response and MESSAGE_CREATE). With ``enforce_nonce: true``, a create whose nonce the same
author used within the past few minutes creates nothing: Discord returns the message made
the first time, or 404 "Unknown Message" if that message was deleted since (the API
maintainers confirmed the latter is intended: the point is a safe retry, not a re-post).
Without ``enforce_nonce`` nothing is deduplicated.

Discord does not publish the window ("a few minutes"); ``window_s`` is injectable so a
test can watch it expire. The key is (author, nonce), not the channel: Discord's docs name
only the author, and the wider key is the stricter test of a bot's nonces.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

INT64 = 2**63
MAX_NONCE_LEN = 25
#: How long the emulator remembers an enforced nonce (Discord: "a few minutes").
DEFAULT_WINDOW_S = 180.0


class InvalidNonce(ValueError):
    """The request's nonce or enforce_nonce is not what the API accepts (a 400)."""


@dataclass
class CreateRecord:
    """One create-message request that passed validation, for tests to inspect."""

    channel_id: int
    author_id: int
    nonce: str | int | None
    enforce_nonce: bool
    message_id: int
    #: True when an enforced nonce matched: no new message was made.
    repeat: bool


def checked_nonce(body: dict[str, Any]) -> tuple[str | int | None, bool]:
    """(nonce, enforce) from a create body; InvalidNonce for what Discord refuses."""
    nonce = body.get("nonce")
    enforce = body.get("enforce_nonce")
    if enforce is not None and not isinstance(enforce, bool):
        raise InvalidNonce("enforce_nonce: Must be a boolean.")
    if isinstance(nonce, bool) or not isinstance(nonce, (str, int, type(None))):
        raise InvalidNonce("nonce: Must be an integer or a string.")
    if isinstance(nonce, int) and not -INT64 <= nonce < INT64:
        raise InvalidNonce("nonce: Must be a 64-bit integer.")
    if isinstance(nonce, str) and len(nonce) > MAX_NONCE_LEN:
        raise InvalidNonce(f"nonce: Must be {MAX_NONCE_LEN} or fewer in length.")
    return nonce, bool(enforce)


@dataclass
class NonceLedger:
    """Enforced nonces seen recently: (author id, nonce) -> (message id, when)."""

    window_s: float = DEFAULT_WINDOW_S
    clock: Callable[[], float] = time.monotonic
    seen: dict[tuple[int, str], tuple[int, float]] = field(default_factory=dict)
    creates: list[CreateRecord] = field(default_factory=list)

    def earlier(self, author_id: int, nonce: str | int | None) -> int | None:
        """The message an enforced nonce already made within the window, if any."""
        if nonce is None:
            return None
        entry = self.seen.get((author_id, str(nonce)))
        if entry is None or self.clock() - entry[1] > self.window_s:
            return None
        return entry[0]

    def remember(self, author_id: int, nonce: str | int | None, message_id: int) -> None:
        if nonce is not None:
            self.seen[(author_id, str(nonce))] = (message_id, self.clock())
