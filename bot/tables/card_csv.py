"""A CSV card list read strictly, line by line, before the CDG Solo System engine sees it.

The engine (``rules.solo.cards.parse_card_list``) turns a list into card facts. A list a
group uploads comes from a spreadsheet or a hostile hand, and the engine's lenient reading
took some of it the wrong way: the same number twice (the later row won), a carriage
return alone (a raw ``_csv.Error``), an unterminated quote (the rest of the file became one
name), numbers such as ``٣``, ``１２``, ``1_000`` or ``+7`` (``int`` reads them all), NUL and
ANSI escapes in names. Here each of those is refused with the line that holds it, as a
spreadsheet numbers lines (the header is line 1), and nothing is kept.

Rulings on imported lists:

- A card number appears once per deck (per side where each side has its own deck); a
  repeat is refused naming both lines, since which row is right is the group's call.
- One record per line: a field may not run over a line end (names have no line breaks),
  so a quote left open is refused on the line where it opened.
- Numbers and values are plain ASCII digits; a value is 0 to 6, as the facts form asks.
- No control characters anywhere (NUL, ESC of ANSI escapes, tabs, a lone CR), nor the
  invisible direction overrides that make a name read otherwise than it is stored.
- No cell starts with ``=``, ``+`` or ``-``: a spreadsheet that opens the list again
  (kept whole in the session's options, so in its export too) would run it as a formula
  (``=HYPERLINK(...)``). A name may hold ``@everyone``, ``<@id>`` or ``**``: a front end
  shows names as plain text (Discord's escapes them, so no one is mentioned), and so a
  refusal quoting a field (``bot.discord_app.cogs.solo``).

No discord import: the Discord cog, the sandbox and ``validate.options`` use it.
"""

from __future__ import annotations

import csv
import re
import unicodedata
from collections.abc import Sequence

from bot import errors

#: A card list larger than this is refused before it is read (the biggest host deck has
#: about 130 cards; a line of a real list is some 40 bytes).
MAX_BYTES = 64_000
COLUMNS = ("number", "name", "value", "event", "kind", "side")
MAX_NAME = 80
MAX_NUMBER = 9999
VALUES = range(0, 7)
YES = frozenset({"1", "yes", "y", "true", "t", "x"})
NO = frozenset({"0", "no", "n", "false", "f", ""})
_DIGITS = re.compile(r"[0-9]{1,4}")
#: Invisible characters that change how text around them reads (bidirectional overrides).
_DIRECTION = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f")

Row = dict[str, str]


def _refuse(line: int, why: str) -> errors.CardListRefused:
    return errors.CardListRefused(f"Line {line}: {why}")


#: Signs that make a spreadsheet read a cell as a formula.
FORMULA_SIGNS = ("=", "+", "-")


def _shown(text: str) -> str:
    """A typed field quoted back in a refusal: short, and already free of control codes."""
    return f"“{text[:20]}”"


def lines_of(text: str) -> list[str]:
    """The physical lines (``\\r\\n`` or ``\\n`` ends); a lone CR or a control character is
    refused on its line. A byte-order mark at the start is dropped."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise errors.CardListRefused(f"That card list is too large (at most {MAX_BYTES} bytes).")
    lines = text.removeprefix("\ufeff").split("\n")
    for number, line in enumerate(lines, start=1):
        body = line.removesuffix("\r")
        if "\r" in body:
            raise _refuse(
                number,
                "it holds a carriage return alone (an old Mac line end); save the file "
                "with ordinary line ends.",
            )
        for char in body:
            category = unicodedata.category(char)
            if category in ("Cc", "Cs") or char in _DIRECTION:
                raise _refuse(
                    number,
                    f"it holds an invisible control character (U+{ord(char):04X}); "
                    "a card list has plain text only.",
                )
        lines[number - 1] = body
    return lines


def fields_of(line: str, number: int) -> list[str]:
    """One line's fields; a quote left open (or stray) is refused on this line."""
    try:
        fields = next(csv.reader([line], strict=True), [])
    except csv.Error:
        raise _refuse(
            number,
            'a quote (") is not closed on this line; close it, or leave quotes out.',
        ) from None
    return [field.strip() for field in fields]


def header_of(fields: Sequence[str], number: int) -> list[str]:
    names = [field.lower() for field in fields]
    if "number" not in names:
        raise errors.CardListRefused(
            "A card list needs a header row with at least a 'number' column."
        )
    for name in names:
        if name not in COLUMNS:
            raise _refuse(
                number, f"there is no column {_shown(name)}; columns: {', '.join(COLUMNS)}."
            )
        if names.count(name) > 1:
            raise _refuse(number, f"the column {_shown(name)} is named twice.")
    return names


def whole(text: str, line: int, what: str, low: int, high: int) -> int:
    """A number in plain ASCII digits from ``low`` to ``high``, or a refusal."""
    if not _DIGITS.fullmatch(text) or not low <= int(text) <= high:
        raise _refuse(
            line,
            f"the {what} {_shown(text)} is not a number from {low} to {high} "
            "written in plain digits 0-9, such as 17.",
        )
    return int(text)


def check_row(row: Row, line: int, kinds: Sequence[str], sides: Sequence[str]) -> None:
    """One card's fields; the first wrong one is named."""
    whole(row.get("number", ""), line, "number", 1, MAX_NUMBER)
    if row.get("value"):
        whole(row["value"], line, "value", VALUES.start, VALUES.stop - 1)
    for column, text in row.items():
        if text.startswith(FORMULA_SIGNS):
            raise _refuse(
                line,
                f"the {column} {_shown(text)} starts with “{text[0]}”, which a spreadsheet "
                "runs as a formula; write it without that sign.",
            )
    if len(row.get("name", "")) > MAX_NAME:
        raise _refuse(line, f"the name is longer than {MAX_NAME} characters.")
    if row.get("event", "").lower() not in YES | NO:
        raise _refuse(line, "'event' must be yes or no.")
    kind = row.get("kind", "").lower()
    if kinds and kind and kind not in kinds:
        raise _refuse(line, f"the kind must be one of {', '.join(kinds)}.")
    side = row.get("side", "").lower().replace(" ", "_")
    if sides and side not in sides:
        raise _refuse(line, f"the side must be one of {', '.join(sides)}.")


def rows_of(
    text: str, kinds: Sequence[str] = (), sides: Sequence[str] | None = None
) -> list[tuple[int, Row]]:
    """Every card of a list, each with its line, checked. ``kinds`` are checked when given;
    ``sides``: those of a playsheet with a deck per side, ``()`` for one shared deck (the
    side column is then ignored), None when the playsheet is not known (a number is then
    once per side named). Raises ``BadInput``."""
    lines = lines_of(text)
    header: list[str] | None = None
    rows: list[tuple[int, Row]] = []
    seen: dict[tuple[str, int], int] = {}
    for number, line in enumerate(lines, start=1):
        fields = fields_of(line, number)
        if not any(fields):
            continue  # a blank line
        if header is None:
            header = header_of(fields, number)
            continue
        if len(fields) > len(header):
            raise _refuse(number, f"it has {len(fields)} fields, the header {len(header)}.")
        row = dict(zip(header, fields, strict=False))
        check_row(row, number, kinds, sides or ())
        deck = row.get("side", "").lower().replace(" ", "_") if sides != () else ""
        key = (deck, int(row["number"]))
        if key in seen:
            raise _refuse(
                number,
                f"card #{key[1]} is listed already on line {seen[key]}; each card number "
                "may appear once, so keep the right one of lines "
                f"{seen[key]} and {number}.",
            )
        seen[key] = number
        rows.append((number, row))
    if header is None:
        raise errors.CardListRefused(
            "A card list needs a header row with at least a 'number' column."
        )
    if not rows:
        raise errors.CardListRefused("The card list has no cards in it.")
    return rows


def clean_text(
    text: str, kinds: Sequence[str] = (), sides: Sequence[str] | None = None
) -> tuple[str, int]:
    """The list as it is kept (checked, with plain ``\\n`` line ends) and its card count.

    Only the header and the card lines are kept: a line of empty fields (``,,,,``, as a
    spreadsheet exports a row it once formatted) is blank here, and the engine, which
    reads every row that has commas, would refuse it as a card numbered ''."""
    count = len(rows_of(text, kinds, sides))
    kept = [line for n, line in enumerate(lines_of(text), start=1) if any(fields_of(line, n))]
    return "\n".join(kept).strip(), count
