"""Every custom_id Dispatch sends, in one table: each kind's letter and fields, and the one
encoder and decoder of them all.

A custom_id carries all a click needs (nothing is kept in memory per message), so a click
still works after a restart and is refused when the game has moved on. Forms (all at most
100 characters, Discord's limit)::

    dsp:a:<game>:<version>:<verb>:<arg>   a button for one action (arg empty for True-verbs)
    dsp:s:<game>:<version>:<verb>:<part>  a select for one verb; the options' values are args
    dsp:j:<game>:<role>                   take a seat in a lobby
    dsp:d:<game>:<role>                   give that open seat to Dispatch; the options'
                                          values are its levels (easy, normal, hard)
    dsp:h:<game>                          "My prompt": show the clicker their private view
    dsp:r:<game>:<sides>                  Rematch (same, swap or random sides) after the end
    dsp:t:<game>:<status|board>           "Show to the table" under an ephemeral look
    dsp:o:<game>:<version>:<verb>:<arg>   a button for one action of a solo session
    dsp:q:<game>:<version>:<verb>:<part>  a select for one verb of a solo session
    dsp:f:<game>:<version>                "Tell the card's facts": the solo facts form
    dsp:x:<game>:<offer>:<accept|decline> answer the offer of a seat (``x``: eXchange)
    dsp:l:<league>                        Join a league, from its lobby post
    dsp:y:<live|mine|server>:<owner>:<o|n>:<key>
                                          a ``/games`` page older (o) or newer (n) than
                                          game <key>, of a user's or a server's games

Args keep their type: an int is written in decimal, a string as itself, or behind a ``'``
when it would otherwise read as an int (or starts with ``'``) or is empty. Ids in the
channel (join, Dispatch, my prompt, offers, pages) carry nothing hidden; action ids only
ever go to the acting player (DM or ephemeral reply). The wire forms are frozen: a button
in a message sent by any earlier version must still decode to the same fields.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot import errors

PREFIX = "dsp"
MAX_CUSTOM_ID = 100

# ASCII digits only: ``\d`` and ``str.isdigit`` also accept "٣" or "²", and ``int`` then
# reads the first and fails on the second.
_INT = re.compile(r"-?[0-9]+")
#: The most digits an int arg may have (2**63 - 1 has 19): longer numbers stay text.
MAX_INT_DIGITS = 19
NUM = r"[0-9]{1,18}"
VERB = r"[a-z][a-z0-9_]{0,31}"
_ROLE = r"[A-Za-z0-9_\-]{1,40}"
_PART = r"\d{1,2}"


class BadCustomId(ValueError):
    """A custom_id Dispatch did not make (forged, truncated, or from another bot)."""


def encode_arg(arg: Any) -> str:
    if arg is None or arg is True:
        return ""
    if isinstance(arg, bool):
        raise BadCustomId(f"cannot encode arg {arg!r}")
    if isinstance(arg, int):
        return str(arg)
    if isinstance(arg, str):
        if arg == "" or arg.startswith("'") or _INT.fullmatch(arg):
            return "'" + arg
        if "\n" in arg:
            raise BadCustomId("an arg may not contain a newline")
        return arg
    raise BadCustomId(f"cannot encode arg {arg!r}")


def decode_arg(text: str) -> int | str | None:
    if text == "":
        return None
    if text.startswith("'"):
        return text[1:]
    if is_int_text(text):
        return int(text)
    return text


def is_int_text(text: str) -> bool:
    return bool(_INT.fullmatch(text)) and len(text.lstrip("-")) <= MAX_INT_DIGITS


def int_text(value: Any) -> str:
    return str(int(value))


@dataclass(frozen=True)
class Field:
    """One part of an id: the attribute of :class:`Parsed` it fills, its pattern on the
    wire, and how a value is written and read back."""

    name: str
    pattern: str
    encode: Callable[[Any], str] = str
    decode: Callable[[str], Any] = str


GAME = Field("game_id", NUM, int_text, int)
VERSION = Field("version", NUM, int_text, int)
ACTION_VERB = Field("verb", VERB)
ARG = Field("arg", r"[^\n]*", encode_arg, decode_arg)
PART = Field("part", _PART, int_text, int)
ROLE = Field("role", _ROLE)


@dataclass(frozen=True)
class Kind:
    """One kind of id: its letter after ``dsp:`` and its fields in order."""

    letter: str
    fields: tuple[Field, ...]

    def pattern(self, *, named: bool = True) -> str:
        parts = [f"(?P<{f.name}>{f.pattern})" if named else f"(?:{f.pattern})" for f in self.fields]
        return ":".join([PREFIX, self.letter, *parts])


#: Every kind of id Dispatch sends, by the name its handler is registered under.
KINDS: dict[str, Kind] = {
    "action": Kind("a", (GAME, VERSION, ACTION_VERB, ARG)),
    "select": Kind("s", (GAME, VERSION, ACTION_VERB, PART)),
    "join": Kind("j", (GAME, ROLE)),
    "dispatch": Kind("d", (GAME, ROLE)),
    "prompt": Kind("h", (GAME,)),
    "rematch": Kind("r", (GAME, Field("sides", "same|swap|random"))),
    "show": Kind("t", (GAME, Field("what", "status|board"))),
    "solo_action": Kind("o", (GAME, VERSION, ACTION_VERB, ARG)),
    "solo_select": Kind("q", (GAME, VERSION, ACTION_VERB, PART)),
    "facts": Kind("f", (GAME, VERSION)),
    "offer": Kind(
        "x", (GAME, Field("offer", NUM, int_text, int), Field("answer", "accept|decline"))
    ),
    "claim": Kind("w", (GAME,)),
    "league_join": Kind("l", (Field("league", NUM, int_text, int),)),
    "page": Kind(
        "y",
        (
            Field("scope", "live|mine|server"),
            Field("owner", "[0-9]{1,20}"),
            Field("older", "o|n", lambda older: "o" if older else "n", lambda text: text == "o"),
            Field("key", "[0-9]{1,19}", int_text, int),
        ),
    ),
}

_PATTERNS = {name: re.compile(kind.pattern()) for name, kind in KINDS.items()}

#: One pattern that matches any id of the table (the template of the abstract
#: ``components.DispatchComponent``, which is never registered: each kind's own is).
ANY_ID = "|".join(f"(?:{kind.pattern(named=False)})" for kind in KINDS.values())


def template(kind: str) -> str:
    """The pattern of every id of ``kind``: the template of that kind's DynamicItem."""
    return KINDS[kind].pattern()


@dataclass(frozen=True)
class Parsed:
    """A decoded custom_id: its kind and the fields that kind has (the others None)."""

    kind: str
    game_id: int = 0
    version: int | None = None
    verb: str | None = None
    arg: int | str | None = None
    role: str | None = None
    part: int | None = None
    sides: str | None = None
    what: str | None = None
    offer: int | None = None
    answer: str | None = None
    scope: str | None = None
    owner: str | None = None
    older: bool | None = None
    key: int | None = None
    league: int | None = None


def encode(kind: str, *values: Any) -> str:
    """The id of ``kind`` with its fields' ``values`` in order; :class:`BadCustomId` when a
    value does not fit its field or the id would be too long."""
    form = KINDS[kind]
    if len(values) != len(form.fields):
        raise BadCustomId(f"{kind} takes {len(form.fields)} fields")
    try:
        texts = [f.encode(v) for f, v in zip(form.fields, values, strict=True)]
    except (TypeError, ValueError) as exc:
        raise BadCustomId(f"cannot encode {kind} {values!r}") from exc
    custom_id = ":".join([PREFIX, form.letter, *texts])
    if len(custom_id) > MAX_CUSTOM_ID:
        raise BadCustomId(f"custom_id longer than {MAX_CUSTOM_ID}: {custom_id[:40]}...")
    if not _PATTERNS[kind].fullmatch(custom_id):
        raise BadCustomId(f"cannot encode {kind} {values!r}")
    return custom_id


def parse(custom_id: str) -> Parsed:
    """Decode any Dispatch custom_id; :class:`BadCustomId` for anything else."""
    if not isinstance(custom_id, str) or len(custom_id) > MAX_CUSTOM_ID:
        raise BadCustomId("not a Dispatch component")
    for kind, pattern in _PATTERNS.items():
        match = pattern.fullmatch(custom_id)
        if match:
            values = {f.name: f.decode(match[f.name]) for f in KINDS[kind].fields}
            return Parsed(kind=kind, **values)
    raise BadCustomId("not a Dispatch component")


def is_ours(custom_id: str) -> bool:
    try:
        parse(custom_id)
    except BadCustomId:
        return False
    return True


# ------------------------------------------------------ the builders of each kind's id


def action_id(game_id: int, version: int, verb: str, arg: Any = None) -> str:
    return encode("action", game_id, version, verb, arg)


def select_id(game_id: int, version: int, verb: str, part: int = 0) -> str:
    return encode("select", game_id, version, verb, part)


def join_id(game_id: int, role: str) -> str:
    return encode("join", game_id, role)


def dispatch_id(game_id: int, role: str) -> str:
    return encode("dispatch", game_id, role)


def prompt_id(game_id: int) -> str:
    return encode("prompt", game_id)


def rematch_id(game_id: int, sides: str) -> str:
    return encode("rematch", game_id, sides)


def show_id(game_id: int, what: str) -> str:
    return encode("show", game_id, what)


def solo_action_id(game_id: int, version: int, verb: str, arg: Any = None) -> str:
    return encode("solo_action", game_id, version, verb, arg)


def solo_select_id(game_id: int, version: int, verb: str, part: int = 0) -> str:
    return encode("solo_select", game_id, version, verb, part)


def facts_id(game_id: int, version: int) -> str:
    return encode("facts", game_id, version)


def offer_id(game_id: int, offer: int, answer: str) -> str:
    return encode("offer", game_id, offer, answer)


def claim_id(game_id: int) -> str:
    return encode("claim", game_id)


def league_join_id(league_id: int) -> str:
    return encode("league_join", league_id)


def page_id(scope: str, owner: str, older: bool, key: int) -> str:
    return encode("page", scope, owner, older, key)


# ------------------------------------------------- the /game play action text

#: Longer than any choice the autocomplete offers (a 100-character value at most).
PLAY_TEXT_MAX = 300
PICK_FROM_LIST = "Pick one of the offered actions from the list (start typing to see them)."


def play_value(version: int, verb: str, arg: Any = None) -> str:
    """The value ``/game play`` autocomplete offers for one action: ``version:verb:arg``."""
    return f"{int(version)}:{verb}:{encode_arg(arg)}"


def parse_play_value(text: str) -> tuple[int, str, int | str | None]:
    """Read back ``version:verb:arg`` as typed or picked; a malformed one is refused politely.

    The arg is written as in a custom_id (see ``encode_arg``), so a picked value round-trips.
    """
    if not isinstance(text, str) or len(text) > PLAY_TEXT_MAX:
        raise errors.NotOffered(PICK_FROM_LIST)
    version_text, _, rest = text.partition(":")
    verb, sep, arg_text = rest.partition(":")
    if not sep or not verb:
        raise errors.NotOffered(PICK_FROM_LIST)
    if not re.fullmatch(NUM, version_text):
        raise errors.NotOffered(
            f"“{version_text[:20]}” is not a prompt number (it is written in digits 0-9). "
            + PICK_FROM_LIST
        )
    if not re.fullmatch(VERB, verb):
        raise errors.NotOffered(f"“{verb[:40]}” is not an action. " + PICK_FROM_LIST)
    if _INT.fullmatch(arg_text) and not is_int_text(arg_text):
        raise errors.NotOffered("That number is too large to be one of your choices.")
    return int(version_text), verb, decode_arg(arg_text)
