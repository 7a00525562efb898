"""The manager's front door: every value a caller hands in is checked here, once.

Front ends (Discord, the sandbox, tests) pass what players typed or what a payload held,
and a payload can hold anything: text for a number, a list for a word, a number too large
for SQLite. Each helper returns the value in the form the rest of the bot expects or
raises a polite ``DispatchError`` (mostly ``BadInput``) before anything is read or
written, so a refused call changes nothing and never ends in a traceback.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from bot import errors
from bot.tables import card_csv, clocks
from bot.tables.clocks import Control
from bot.tables.loading import GameRef

#: SQLite stores integers in 64 bits: a larger game id cannot name a row.
MAX_GAME_ID = 2**63 - 1
#: The largest whole number Discord's integer options carry (and JSON keeps exactly).
MAX_SEED = 2**53 - 1
#: Ints that a game lists as args, or that a version counts, stay well inside 64 bits.
MAX_INT = 2**63 - 1
#: Channel, guild and user ids: Discord snowflakes are about 20 digits; sandbox names shorter.
MAX_ID_LENGTH = 100
#: Verbs are short words ("card", "place", "done"); roles are ids such as "union".
MAX_WORD_LENGTH = 40
#: An arg is a card, space or column id; the longest fits a 100-character custom_id.
MAX_ARG_LENGTH = 200
MAX_OPTIONS = 50
MAX_OPTION_TEXT = 200
#: Option texts longer than ``MAX_OPTION_TEXT`` because they come from a file, not a typed
#: field: a CDG Solo System card list, which a session must keep whole (a game is its
#: name, options, seed and actions, so replays and exports need the list itself). It is
#: read strictly here too, whoever passes it (``bot.tables.card_csv``).
LONG_OPTIONS = {"card_list": card_csv.MAX_BYTES}
#: The reminder interval of a channel, in hours: from 6 minutes to 30 days.
MIN_REMINDER_HOURS = 0.1
MAX_REMINDER_HOURS = 24.0 * 30


def _is_int(value: Any) -> bool:
    # bool is a subclass of int, but True is not a game id, a seed or a version.
    return isinstance(value, int) and not isinstance(value, bool)


def _storable(text: str) -> bool:
    """Text SQLite can hold: a lone surrogate (only reachable from Python) cannot be encoded."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _short_text(value: Any, limit: int) -> bool:
    return isinstance(value, str) and 0 < len(value) <= limit and _storable(value)


def game_ref(ref: Any) -> GameRef:
    """A game id (1 to 2**63 - 1) or a channel id; anything else is no game at all."""
    if _is_int(ref):
        if not 1 <= ref <= MAX_GAME_ID:
            raise errors.GameNotFound("That game")
        return int(ref)
    if _short_text(ref, MAX_ID_LENGTH):
        return str(ref)
    if isinstance(ref, str):
        raise errors.NoGameInChannel()
    raise errors.GameNotFound("That game")


def game_id(value: Any) -> int:
    """A game's number (1 to 2**63 - 1); anything else names no game."""
    if not _is_int(value) or not 1 <= value <= MAX_GAME_ID:
        raise errors.GameNotFound("That game")
    return int(value)


#: A Discord snowflake as text: the channel and message ids a live prompt is kept by.
_SNOWFLAKE = re.compile(r"[0-9]{1,20}")


def message_place(value: Any) -> tuple[str, str] | None:
    """Where a message is: (channel id, message id), each a Discord id in digits, or None
    for nowhere. A list is taken for a tuple (JSON has no tuples)."""
    if value is None:
        return None
    if isinstance(value, tuple | list) and len(value) == 2:
        channel, message = value
        if all(isinstance(v, str) and _SNOWFLAKE.fullmatch(v) for v in (channel, message)):
            return str(channel), str(message)
    raise errors.Malformed("That is not a message's place (a channel id and a message id).")


def user_id(value: Any, what: str = "player") -> str:
    if not _short_text(value, MAX_ID_LENGTH):
        raise errors.Malformed(f"That {what} is not recognised (a {what} id is a short text).")
    return str(value)


def optional_user_id(value: Any, what: str = "player") -> str | None:
    return None if value is None else user_id(value, what)


def channel_id(value: Any) -> str:
    if not _short_text(value, MAX_ID_LENGTH):
        raise errors.Malformed("That channel is not recognised (a channel id is a short text).")
    return str(value)


def guild_id(value: Any) -> str | None:
    if value is None:
        return None
    if not _short_text(value, MAX_ID_LENGTH):
        raise errors.Malformed("That server is not recognised (a server id is a short text).")
    return str(value)


def game_name(value: Any) -> str:
    if not _short_text(value, MAX_WORD_LENGTH):
        raise errors.Malformed("Name the game by its short name, e.g. war.")
    return str(value)


def role(value: Any, what: str = "side") -> str | None:
    """A role id, or None for "the usual one"; only the shape is checked here."""
    if value is None:
        return None
    if not _short_text(value, MAX_WORD_LENGTH):
        raise errors.Malformed(f"That is not a {what} in this game: name it, e.g. north.")
    return str(value)


def flag(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise errors.UnknownWord(f"“{name}” must be true or false.")
    return value


def seed(value: Any) -> int | None:
    """A creator-chosen seed: a whole number from 0 to 2**53 - 1, or None for a random one."""
    if value is None:
        return None
    if not _is_int(value) or not 0 <= value <= MAX_SEED:
        raise errors.BadNumber(f"The seed must be a whole number from 0 to {MAX_SEED}.")
    return int(value)


def options(value: Any) -> dict[str, Any]:
    """Game options: short text keys with JSON scalar values (the game checks the rest)."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise errors.BadOptions("give them as key=value pairs (or a JSON object).")
    if len(value) > MAX_OPTIONS:
        raise errors.BadOptions(f"there can be at most {MAX_OPTIONS} of them.")
    checked: dict[str, Any] = {}
    for key, item in value.items():
        if not _short_text(key, MAX_WORD_LENGTH):
            raise errors.BadOptions("each option needs a short name.")
        if key in LONG_OPTIONS and isinstance(item, str) and _storable(item):
            if len(item) > LONG_OPTIONS[key]:
                raise errors.BadOptions(f"“{key}” is too long (at most {LONG_OPTIONS[key]}).")
            if item:
                item = card_csv.clean_text(item)[0]  # as an import keeps it
        elif not _option_value_ok(item):
            raise errors.BadOptions(
                f"“{key}” needs a plain value: a number, true or false, or a short text."
            )
        checked[str(key)] = item
    return checked


def parse_options(text: str | None) -> dict[str, Any]:
    """``key=value, key=value`` or a JSON object; values typed as int, float, bool or str.

    The one reading of typed game options, shared by ``/game new``, ``/solo new`` and the
    sandbox (no discord import here), so every front end takes the same words."""
    text = (text or "").strip()
    if not text:
        return {}
    if text.startswith("{"):
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise errors.BadOptions(f"not valid JSON ({exc})") from None
        if not isinstance(data, dict):
            raise errors.BadOptions("give a JSON object")
        return data
    options: dict[str, Any] = {}
    for part in text.replace(";", ",").split(","):
        if not part.strip():
            continue
        key, sep, raw = part.partition("=")
        if not sep:
            raise errors.BadOptions(f"“{part.strip()}” is not key=value")
        raw = raw.strip()
        value: Any = raw
        if raw.lower() in ("true", "yes", "on"):
            value = True
        elif raw.lower() in ("false", "no", "off"):
            value = False
        else:
            for kind in (int, float):
                try:
                    value = kind(raw)
                    break
                except ValueError:
                    continue
        options[key.strip()] = value
    return options


def _option_value_ok(item: Any) -> bool:
    if item is None or isinstance(item, bool):
        return True
    if isinstance(item, int):
        return abs(item) <= MAX_SEED  # what JSON readers keep exactly
    if isinstance(item, float):
        return math.isfinite(item)
    if isinstance(item, str):
        return len(item) <= MAX_OPTION_TEXT and _storable(item)
    return False


def verb(value: Any) -> str:
    if not _short_text(value, MAX_WORD_LENGTH):
        raise errors.NotOffered("That is not an action: choose one of the actions offered to you.")
    return str(value)


def arg(value: Any) -> int | str | None:
    """What an action acts on: nothing, a whole number, or a short text (a card, a space)."""
    if value is None:
        return None
    if _is_int(value):
        if abs(value) > MAX_INT:
            raise errors.NotOffered("That number is too large for any action.")
        return int(value)
    if isinstance(value, str):
        if len(value) > MAX_ARG_LENGTH or not _storable(value):
            raise errors.NotOffered("That is not one of the choices offered to you.")
        return value
    raise errors.NotOffered("That is not one of the choices offered to you.")


#: The most choices one interaction may carry (Discord's selects hold 25 options).
MAX_BATCH = 25


def more_args(values: Any) -> tuple[int | str | None, ...]:
    """Further args of one multi-choice decision: each checked like ``arg``; no repeats
    (a select returns each option once, so a repeat was not sent by a select)."""
    if isinstance(values, str | bytes) or not isinstance(values, list | tuple):
        raise errors.NotOffered("That is not one of the choices offered to you.")
    if len(values) > MAX_BATCH - 1:
        raise errors.BadNumber(f"At most {MAX_BATCH} choices can be made at once.")
    return tuple(arg(value) for value in values)


#: What a malformed version becomes: older than any game, so the manager answers "this
#: prompt is out of date" with the current prompt, the most useful thing to tell the player.
NEVER_FRESH = -1


def version(value: Any) -> int | None:
    """The game version a button or command was built for (None: act on the current one)."""
    if value is None:
        return None
    if not _is_int(value) or not 0 <= value <= MAX_INT:
        return NEVER_FRESH
    return int(value)


def count(value: Any) -> int:
    if not _is_int(value):
        raise errors.BadNumber("The number of lines must be a whole number.")
    return int(value)


def reminder_hours(value: Any) -> float | None:
    """A channel's reminder interval in hours (None: read the setting, do not change it)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise errors.BadNumber("Reminder hours must be a number, e.g. 24 or 1.5.")
    try:
        hours = float(value)
    except OverflowError:  # an int beyond any float
        hours = math.inf
    if not (math.isfinite(hours) and MIN_REMINDER_HOURS <= hours <= MAX_REMINDER_HOURS):
        raise errors.BadNumber(
            f"Reminders can be set between {MIN_REMINDER_HOURS:g} hours (6 minutes) "
            f"and {MAX_REMINDER_HOURS:g} hours (30 days)."
        )
    return hours


def clock(value: Any) -> Control | None:
    """A time control: a preset (none, relaxed, standard, fast) or written
    like ``3d+1d/7d``; None for none. Refused politely otherwise (``clocks.parse``)."""
    if value is None:
        return None
    return clocks.parse(value)
