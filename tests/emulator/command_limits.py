"""The limits Discord documents for application commands, checked on a command list the
bot syncs: Discord refuses the whole list (400, code 50035, "Invalid Form Body") when one
field of one command breaks a rule, so a single bad bound makes every command vanish.

``problems(commands)`` lists each broken rule with the path of its field, as Discord's
error body nests them (``0.options.1.max_value``); the emulator refuses a sync that has
any (``refuse_bad_commands``), and a test walks the bot's own command tree with it.

The rules, from Discord's "Application Commands" page and its OpenAPI description:

- names 1-32 characters matching ``^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``, in
  lower case where the letter has one (slash commands and their options; user and message
  commands may use capitals and spaces);
- descriptions 1-100 characters (user and message commands: empty);
- at most 25 options at each level (so at most 25 subcommands or groups), at most 25
  choices, choice names 1-100 characters, string choice values at most 100 characters;
- integer and number bounds and choice values within ±(2**53 - 1);
- ``min_length`` 0-6000 and ``max_length`` 1-6000;
- subcommands hold no subcommands; groups hold only subcommands; a level holds either
  subcommands and groups or other options, not both; required options come first;
  names are unique at their level;
- at most 4000 characters in a command's names, descriptions, choice names and values
  (the longest localisation of each field counted);
- at most 100 slash commands, 5 user and 5 message commands in one list, names unique.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from typing import Any

from aiohttp import web

from .messages import ApiError, json_error

#: Command types.
CHAT_INPUT, USER, MESSAGE = 1, 2, 3
#: Option types.
SUB_COMMAND, SUB_COMMAND_GROUP, STRING, INTEGER = 1, 2, 3, 4
CHANNEL, NUMBER = 7, 10
OPTION_TYPES = range(1, 12)
#: The command itself, as the parent of its options.
TOP = 0
CHOOSABLE = (STRING, INTEGER, NUMBER)
NUMERIC = (INTEGER, NUMBER)

MAX_NAME = 32
MAX_DESCRIPTION = 100
MAX_OPTIONS = 25
MAX_CHOICES = 25
MAX_CHOICE_NAME = 100
MAX_CHOICE_STRING = 100
#: The largest magnitude Discord takes for an integer or number: 2**53 - 1, what a double
#: holds exactly.
MAX_SAFE_INTEGER = 2**53 - 1
MAX_TEXT_LENGTH = 6000
MAX_COMMAND_CHARACTERS = 4000
#: Commands of each type in one list (global, or one guild's).
MAX_COMMANDS = {CHAT_INPUT: 100, USER: 5, MESSAGE: 5}

Path = tuple[str | int, ...]
Problem = tuple[Path, str]


def _script_char(char: str) -> bool:
    """Devanagari or Thai: Discord's name pattern takes their marks as well as letters."""
    point = ord(char)
    return 0x0900 <= point <= 0x097F or 0xA8E0 <= point <= 0xA8FF or 0x0E00 <= point <= 0x0E7F


def _name_char(char: str) -> bool:
    return char in "-_" or unicodedata.category(char)[0] in "LN" or _script_char(char)


def name_problem(name: Any, *, slash: bool = True) -> str | None:
    """Why ``name`` is not a command or option name Discord takes (None: it is)."""
    if not isinstance(name, str) or not 1 <= len(name) <= MAX_NAME:
        return f"Must be between 1 and {MAX_NAME} in length."
    if not slash:
        return None  # user and message commands: any text, capitals and spaces too
    if not all(_name_char(c) for c in name):
        return "Command name is invalid"
    if name != name.lower():
        return "Command name is invalid (lower case only)"
    return None


def _length_problem(text: Any, low: int, high: int) -> str | None:
    if not isinstance(text, str) or not low <= len(text) <= high:
        return f"Must be between {low} and {high} in length."
    return None


def _localized(field: str, value: Any, path: Path, low: int, high: int) -> Iterator[Problem]:
    for locale, text in (value or {}).items():
        why = _length_problem(text, low, high)
        if why:
            yield (*path, f"{field}_localizations", locale), why


def _named(item: dict[str, Any], path: Path, *, slash: bool = True) -> Iterator[Problem]:
    why = name_problem(item.get("name"), slash=slash)
    if why:
        yield (*path, "name"), why
    low = 1 if slash else 0
    for locale, text in (item.get("name_localizations") or {}).items():
        why = name_problem(text, slash=slash)
        if why:
            yield (*path, "name_localizations", locale), why
    high = MAX_DESCRIPTION if slash else 0
    why = _length_problem(item.get("description", ""), low, high)
    if why:
        yield (*path, "description"), why
    yield from _localized("description", item.get("description_localizations"), path, 1, high)


def _bound_problem(value: Any) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return "Must be a number."
    if abs(value) > MAX_SAFE_INTEGER:
        return f"Must be between -{MAX_SAFE_INTEGER} and {MAX_SAFE_INTEGER}."
    return None


def _choices(option: dict[str, Any], path: Path) -> Iterator[Problem]:
    choices = option.get("choices") or []
    if len(choices) > MAX_CHOICES:
        yield (*path, "choices"), f"Must be {MAX_CHOICES} or fewer in length."
    if choices and option.get("autocomplete"):
        yield (*path, "autocomplete"), "Autocomplete cannot be set with choices."
    for n, choice in enumerate(choices):
        at = (*path, "choices", n)
        why = _length_problem(choice.get("name"), 1, MAX_CHOICE_NAME)
        if why:
            yield (*at, "name"), why
        yield from _localized("name", choice.get("name_localizations"), at, 1, MAX_CHOICE_NAME)
        value = choice.get("value")
        if option["type"] == STRING:
            why = _length_problem(value, 0, MAX_CHOICE_STRING)
        else:
            why = _bound_problem(value)
        if why:
            yield (*at, "value"), why


def _bounds(option: dict[str, Any], path: Path) -> Iterator[Problem]:
    kind = option["type"]
    for key in ("min_value", "max_value"):
        if option.get(key) is None:
            continue
        why = _bound_problem(option[key]) if kind in NUMERIC else "Not allowed for this type."
        if why:
            yield (*path, key), why
    for key, low in (("min_length", 0), ("max_length", 1)):
        value = option.get(key)
        if value is None:
            continue
        if kind != STRING:
            yield (*path, key), "Not allowed for this type."
        elif isinstance(value, bool) or not isinstance(value, int):
            yield (*path, key), "Must be an integer."
        elif not low <= value <= MAX_TEXT_LENGTH:
            yield (*path, key), f"Must be between {low} and {MAX_TEXT_LENGTH}."


def _option(option: dict[str, Any], path: Path, depth: int) -> Iterator[Problem]:
    kind = option.get("type")
    if kind not in OPTION_TYPES:
        yield (*path, "type"), "Value is not a valid option type."
        return
    yield from _named(option, path)
    if kind in (SUB_COMMAND, SUB_COMMAND_GROUP):
        if kind == SUB_COMMAND_GROUP and depth > 0:
            yield (*path, "type"), "A subcommand group cannot be nested."
        yield from _level(option.get("options") or [], path, depth + 1, kind)
        return
    if option.get("choices") and kind not in CHOOSABLE:
        yield (*path, "choices"), "Not allowed for this type."
    if kind in CHOOSABLE:
        yield from _choices(option, path)
    yield from _bounds(option, path)


def _level(options: list[dict[str, Any]], path: Path, depth: int, parent: int) -> Iterator[Problem]:
    """The options of a command, a group or a subcommand: their count, their kinds, their
    order (required first) and unique names."""
    at = (*path, "options")
    if len(options) > MAX_OPTIONS:
        yield at, f"Must be {MAX_OPTIONS} or fewer in length."
    nested = [o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in options]
    if parent == SUB_COMMAND and any(nested):
        yield at, "A subcommand cannot hold subcommands."
    elif parent == SUB_COMMAND_GROUP and not all(nested):
        yield at, "A subcommand group holds subcommands only."
    elif any(nested) and not all(nested):
        yield at, "Subcommands cannot be mixed with other options."
    names = [o.get("name") for o in options]
    if len(set(map(str, names))) != len(names):
        yield at, "Option names must be unique."
    plain = [o for o, is_nested in zip(options, nested, strict=True) if not is_nested]
    required = [bool(o.get("required")) for o in plain]
    if required != sorted(required, reverse=True):
        yield at, "Required options must be placed before non-required options."
    for n, option in enumerate(options):
        yield from _option(option, (*at, n), depth)


def _longest(item: dict[str, Any], field: str) -> int:
    localised = (item.get(f"{field}_localizations") or {}).values()
    texts = [item.get(field) or "", *localised]
    return max(len(str(t)) for t in texts)


def characters(item: dict[str, Any]) -> int:
    """The characters Discord counts toward a command's 4000: names, descriptions, and
    choice names and values, through every option, the longest localisation of each."""
    total = _longest(item, "name") + _longest(item, "description")
    for choice in item.get("choices") or []:
        total += _longest(choice, "name") + len(str(choice.get("value", "")))
    return total + sum(characters(o) for o in item.get("options") or [])


def command_problems(command: dict[str, Any], path: Path = ()) -> list[Problem]:
    """Every documented limit one command breaks."""
    kind = command.get("type") or CHAT_INPUT
    if kind not in MAX_COMMANDS:
        return [((*path, "type"), "Value is not a valid command type.")]
    slash = kind == CHAT_INPUT
    found = list(_named(command, path, slash=slash))
    options = command.get("options") or []
    if not slash and options:
        found.append(((*path, "options"), "Only slash commands take options."))
    found += _level(options, path, 0, TOP)
    if characters(command) > MAX_COMMAND_CHARACTERS:
        found.append((path, f"Command exceeds maximum size ({MAX_COMMAND_CHARACTERS})"))
    return found


def problems(commands: Any) -> list[Problem]:
    """Every documented limit a command list (one bulk sync) breaks."""
    if not isinstance(commands, list) or not all(isinstance(c, dict) for c in commands):
        return [((), "Must be an array of commands.")]
    found: list[Problem] = []
    for kind, most in MAX_COMMANDS.items():
        of_kind = [c for c in commands if (c.get("type") or CHAT_INPUT) == kind]
        if len(of_kind) > most:
            found.append(((), f"Maximum number of application commands of type {kind} ({most})"))
        names = [str(c.get("name")) for c in of_kind]
        if len(set(names)) != len(names):
            found.append(((), "Application command names must be unique"))
    for n, command in enumerate(commands):
        found += command_problems(command, (n,))
    return found


def form_errors(found: list[Problem]) -> dict[str, Any]:
    """The problems nested by field, as Discord's "errors" of an Invalid Form Body."""
    tree: dict[str, Any] = {}
    for path, message in found:
        node = tree
        for key in path:
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append({"code": "BASE_TYPE_INVALID", "message": message})
    return tree


class InvalidFormBody(ApiError):
    """Discord's refusal of a body that breaks a documented limit, with the fields named."""

    def __init__(self, found: list[Problem]) -> None:
        super().__init__(400, 50035, "Invalid Form Body")
        self.found = found

    def response(self) -> web.Response:
        return json_error(self.status, self.code, self.message, form_errors(self.found))


def refuse_bad_commands(world: Any, commands: Any) -> None:
    """Refuse a command list (a bulk sync) as Discord does when it breaks a limit; the
    problems are kept in ``world.invalid_bodies`` so a test can show them."""
    found = problems(commands)
    if found:
        shown = [".".join(map(str, path)) + f": {why}" for path, why in found]
        world.invalid_bodies.append(("bulk_overwrite_commands", shown))
        raise InvalidFormBody(found)
