"""How the sandbox writes a game's things as lines: a card, a private part of a view, a
side by its name at the table, and whether Dispatch owes a decision."""

from __future__ import annotations

from typing import Any

from bot.delivery.port import GameInfo
from bot.tables.bot_users import is_bot
from bot.tables.records import pages


def card_line(card: Any) -> str:
    """One line for a card (or anything card-like) of any game's view."""
    if not isinstance(card, dict):
        return str(card)
    if isinstance(card.get("card"), dict):  # a placement: {"column": ..., "card": {...}}
        where = ", ".join(f"{v}" for k, v in card.items() if k != "card")
        return f"{where}: {card_line(card['card'])}"
    name = card.get("title") or card.get("name") or card.get("id", "?")
    value = card.get("value")
    head = f"[{value}] {name}" if value is not None else str(name)
    text = card.get("text")
    line = f"{head} — {text}" if text else head
    note = card.get("note")
    return f"{line} ({note})" if note else line


#: Headings for private view keys whose plain name would mislead.
PRIVATE_TITLES = {"hand_size": "hand size (you draw up to it)"}


def private_lines(key: str, value: Any) -> list[str]:
    """A private part of a view, as readable lines (a heading and one line per card)."""
    title = PRIVATE_TITLES.get(key) or key.replace("_", " ")
    if isinstance(value, list):
        if not value:
            return [f"{title}: none"]
        return [f"{title}:", *(f"  · {card_line(item)}" for item in value)]
    if isinstance(value, dict):
        return [f"{title}: {card_line(value)}"]
    return [f"{title}: {value}"]


def side_label(game_name: str, role: str) -> str:
    """A side as the table names it ("Confederacy"), with the word the commands take
    ("confederate") where that differs: a status line that says "confederate" above
    "Waiting for Union and Confederacy" reads as two different sides."""
    name = pages.role_name(game_name, role)
    return name if name.lower() == role.lower() else f"{name} ({role})"


def dispatch_owes(info: GameInfo) -> bool:
    """Whether one of Dispatch's seats owes a decision in this running game now."""
    return info.status == "active" and any(is_bot(user) for user in info.waiting_on)
