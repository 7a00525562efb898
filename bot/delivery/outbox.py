"""Outbox rows: the posts and messages of a change, stored as JSON in the same transaction
as the change, read back by ``bot.delivery.courier`` and handed to the front end.

A row is sent with a nonce made from its identity, so a message re-sent after a crash
between sending and marking is posted once (see docs/discord.md, "Delivery").
"""

from __future__ import annotations

from typing import Any

from bot.delivery.port import PrivateMessage, RatingChange, TablePost, View

#: How many lines of the public and private logs a queued view keeps. Boards show only the
#: latest lines and ``log_lines`` carries what is new, while the full log in every queued
#: message would grow the outbox with the square of the game's length.
VIEW_LOG_LINES = 50


def _trimmed(view: View | None) -> View | None:
    if view is None:
        return None
    trimmed = dict(view)
    # The state as the role knows it is for search players (rules.ai), not for messages.
    trimmed.pop("known_state", None)
    for key in ("log", "private_log"):
        lines = view.get(key)
        if isinstance(lines, list) and len(lines) > VIEW_LOG_LINES:
            trimmed[key] = lines[-VIEW_LOG_LINES:]
    return trimmed


def post_payload(post: TablePost) -> dict[str, Any]:
    # Field by field rather than dataclasses.asdict, which deep-copies every view.
    return {
        "kind": post.kind,
        "version": post.version,
        "headline": post.headline,
        "view": _trimmed(post.view),
        "log_lines": list(post.log_lines),
        "mention_user_ids": list(post.mention_user_ids),
        "active_roles": list(post.active_roles),
        "outcome": post.outcome,
        # Only a rated game's end carries the key, so other rows stay as they were.
        **({"ratings": [_change_payload(c) for c in post.ratings]} if post.ratings else {}),
        **({"turned": post.turned} if post.turned else {}),
        **({"claim": True} if post.claim else {}),
    }


def _change_payload(change: RatingChange) -> dict[str, Any]:
    return {
        "role": change.role,
        "player_id": change.player_id,
        "before": change.before,
        "after": change.after,
    }


def _change_from(payload: dict[str, Any]) -> RatingChange:
    return RatingChange(
        role=str(payload["role"]),
        player_id=str(payload["player_id"]),
        before=int(payload["before"]),
        after=int(payload["after"]),
    )


def message_payload(message: PrivateMessage) -> dict[str, Any]:
    return {
        "kind": message.kind,
        "role": message.role,
        "version": message.version,
        "headline": message.headline,
        "view": _trimmed(message.view),
        "log_lines": list(message.log_lines),
        **({"claim": True} if message.claim else {}),
    }


#: How long after a row's first send its nonce is trusted to make a repeat harmless.
#: Discord remembers a nonce for "a few minutes" and publishes no figure: two minutes
#: stays inside any reading of that. Later, delivery first looks for the message.
NONCE_WINDOW_S = 120.0

#: Discord's limit on a message nonce.
NONCE_MAX_LEN = 25


def _base36(n: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        n, r = divmod(n, 36)
        out = digits[r] + out
        if n == 0:
            return out


def delivery_nonce(row_id: int, created_at: float) -> str:
    """The nonce every send of one outbox row carries, e.g. ``dsp42.lx3f9k2a``.

    Discord returns the first message for a repeated nonce (same bot, within a few
    minutes), so a row sent again after a crash between sending and marking posts once.
    The row id alone is unique within one database; the row's creation time (epoch ms)
    keeps a fresh database's row 1 from matching an older database's row 1 when the bot is
    reset and restarted within those minutes. At most 25 characters (Discord's limit) for
    row ids below 10**12 until the year 2200.
    """
    return f"dsp{row_id}.{_base36(max(0, int(created_at * 1000)))}"


def post_from(payload: dict[str, Any], *, nonce: str = "") -> TablePost:
    return TablePost(
        kind=payload["kind"],
        version=int(payload["version"]),
        headline=str(payload.get("headline", "")),
        view=payload.get("view"),
        log_lines=tuple(payload.get("log_lines", ())),
        mention_user_ids=tuple(payload.get("mention_user_ids", ())),
        active_roles=tuple(payload.get("active_roles", ())),
        outcome=payload.get("outcome"),
        ratings=tuple(_change_from(c) for c in payload.get("ratings", ())),
        turned=str(payload.get("turned", "")),
        claim=bool(payload.get("claim", False)),
        nonce=nonce,
    )


def message_from(payload: dict[str, Any], *, nonce: str = "") -> PrivateMessage:
    return PrivateMessage(
        kind=payload["kind"],
        role=str(payload["role"]),
        version=int(payload["version"]),
        headline=str(payload.get("headline", "")),
        view=payload.get("view") or {},
        log_lines=tuple(payload.get("log_lines", ())),
        claim=bool(payload.get("claim", False)),
        nonce=nonce,
    )
