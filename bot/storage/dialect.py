"""The store's SQL, written once in SQLite's form, in PostgreSQL's words.

Every statement of the store is written with ``?`` placeholders in SQL both engines
accept. For PostgreSQL it is split into tokens that know what a ``?`` or a word may be
part of (``'...'`` strings with their ``''``, ``E'...'`` strings, ``"..."`` identifiers,
``--`` and ``/* */`` comments, ``$tag$...$tag$`` dollar quotes): only a ``?`` outside
them is a placeholder (numbered ``$1..$n`` in order), and only words outside them are
translated (``group_concat(`` to ``string_agg(``, ``char(10)`` to ``chr(10)``, the two
functions without a portable spelling).

A statement's translation is kept (``Template``, cached per statement text): the store's
statements are constants, and the few built at run time (an ``IN (?, ?...)`` list) vary
only in their number of placeholders, so the cache holds them all (``CACHE_SIZE``).

Migrations are translated by the same tokens (``migration_in_postgresql_words``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

#: How many statement texts the translations are kept for. The store sends a few hundred
#: different texts (tests/storage/test_dialect_statements.py counts them and holds this to them).
CACHE_SIZE = 2048

#: The tables whose rows have an ``id`` identity column: an insert into one returns its
#: new id on PostgreSQL with ``RETURNING id``. Held to the migrated schema by
#: tests/storage/test_dialect_statements.py.
TABLES_WITH_ID = frozenset(
    {
        "games",
        "outbox",
        "timers",
        "seat_changes",
        "seat_offers",
        "leagues",
        "league_games",
        "league_audit",
        "league_posts",
    }
)

_TOKEN = re.compile(
    r"""
      (?P<string>(?<![\w$])[eE]'(?:[^'\\]|\\.|'')*'|'(?:[^']|'')*')
    | (?P<identifier>"(?:[^"]|"")*")
    | (?P<comment>--[^\n]*|/\*.*?\*/)
    | (?P<dollar>(?<![\w$])\$(?P<tag>(?:[A-Za-z_]\w*)?)\$.*?\$(?P=tag)\$)
    | (?P<placeholder>\?)
    | (?P<word>(?:[^'"?$/\-eE]|[eE](?!'))+|.)
    """,
    re.VERBOSE | re.DOTALL,
)

#: The two functions without a portable spelling: SQLite's name, PostgreSQL's.
_WORD_REWRITES = (
    (re.compile(r"\bgroup_concat\s*\(", re.IGNORECASE), "string_agg("),
    (re.compile(r"\bchar\(10\)", re.IGNORECASE), "chr(10)"),
)
_INSERT_INTO = re.compile(r"^\s*INSERT\s+(?:OR\s+\w+\s+)?INTO\s+(\w+)", re.IGNORECASE)
_RETURNING = re.compile(r"\bRETURNING\b", re.IGNORECASE)


@dataclass(frozen=True)
class Token:
    kind: str  # string, identifier, comment, dollar, placeholder or word
    text: str


def tokens(sql: str) -> list[Token]:
    """``sql`` split into tokens; an unterminated quote or comment is one word character
    at a time (the server refuses the statement, as it would have)."""
    out: list[Token] = []
    for match in _TOKEN.finditer(sql):
        kind = match.lastgroup or "word"  # the outermost group that matched
        if out and kind == "word" and out[-1].kind == "word":
            out[-1] = Token("word", out[-1].text + match.group())
        else:
            out.append(Token(kind, match.group()))
    return out


@dataclass(frozen=True)
class Template:
    """A statement in PostgreSQL's words, cut at its placeholders: ``parts`` are the text
    around them, so there are ``len(parts) - 1`` placeholders."""

    parts: tuple[str, ...]

    @property
    def placeholders(self) -> int:
        return len(self.parts) - 1

    def numbered(self) -> str:
        """The statement with ``$1..$n`` for its placeholders."""
        return self.fill(f"${n}" for n in range(1, len(self.parts)))

    def fill(self, values: Iterable[str]) -> str:
        """The statement with each placeholder replaced by the next of ``values`` (text
        that must already be SQL: a ``$n``, or a literal)."""
        out = [self.parts[0]]
        for value, part in zip(values, self.parts[1:], strict=True):
            out.append(value)
            out.append(part)
        return "".join(out)


def _translated_word(text: str) -> str:
    for pattern, new in _WORD_REWRITES:
        text = pattern.sub(new, text)
    return text


@functools.lru_cache(maxsize=CACHE_SIZE)
def template(sql: str) -> Template:
    """``sql`` (SQLite's form) in PostgreSQL's words, cut at its placeholders."""
    parts: list[str] = []
    current: list[str] = []
    for token in tokens(sql):
        if token.kind == "placeholder":
            parts.append("".join(current))
            current = []
        elif token.kind == "word":
            current.append(_translated_word(token.text))
        else:
            current.append(token.text)
    parts.append("".join(current))
    return Template(tuple(parts))


@functools.lru_cache(maxsize=CACHE_SIZE)
def to_postgres(sql: str) -> str:
    """The statement in PostgreSQL's words with ``$1, $2...`` for its placeholders."""
    return template(sql).numbered()


@functools.lru_cache(maxsize=CACHE_SIZE)
def insert_returning_id(sql: str) -> str:
    """An insert in PostgreSQL's words that returns its row's ``id``: ``RETURNING id`` is
    added where the statement has no RETURNING of its own and its table has an ``id``
    (``TABLES_WITH_ID``), before any trailing comment or semicolon (which would swallow
    or end it)."""
    numbered = to_postgres(sql)
    toks = tokens(sql)
    # The statement's code: its words, and its identifiers as names (a quoted table).
    words = " ".join(t.text.strip('"') for t in toks if t.kind in ("word", "identifier"))
    insert = _INSERT_INTO.match(words)
    if insert is None or insert.group(1).lower() not in TABLES_WITH_ID or _RETURNING.search(words):
        return numbered
    tail = _tail_length(toks)
    if tail == 0:
        return numbered + " RETURNING id"
    return numbered[:-tail].rstrip() + " RETURNING id" + numbered[-tail:]


def _tail_length(toks: Sequence[Token]) -> int:
    """How many characters at the statement's end are comments, spaces and semicolons."""
    length = 0
    for token in reversed(toks):
        if token.kind == "comment" or (token.kind == "word" and not token.text.strip("; \t\r\n")):
            length += len(token.text)
            continue
        if token.kind == "word":
            text = token.text
            length += len(text) - len(text.rstrip("; \t\r\n"))
        break
    return length


_WIDTHS = (
    (
        re.compile(r"\bINTEGER\s+PRIMARY\s+KEY\s+AUTOINCREMENT\b", re.IGNORECASE),
        "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
    ),
    (re.compile(r"\)\s*WITHOUT\s+ROWID\b", re.IGNORECASE), ")"),
    (re.compile(r"\bINTEGER\b", re.IGNORECASE), "BIGINT"),
    (re.compile(r"\bREAL\b", re.IGNORECASE), "DOUBLE PRECISION"),
)


def migration_in_postgresql_words(sql: str) -> str:
    """A migration written for SQLite in PostgreSQL's words, outside its strings and
    comments: its column types at SQLite's widths (SQLite's INTEGER holds 8 bytes and its
    REAL is a double, PostgreSQL's INTEGER 4 and REAL 4, so a seed, a user's id or an
    epoch in seconds written by the one would not fit the other), SQLite's
    ``INTEGER PRIMARY KEY AUTOINCREMENT`` as an identity column (never reusing an id,
    as AUTOINCREMENT promises), and ``WITHOUT ROWID`` (SQLite's storage choice) dropped."""
    out = []
    for token in tokens(sql):
        text = token.text
        if token.kind == "word":
            for pattern, new in _WIDTHS:
                text = pattern.sub(new, text)
        out.append(text)
    return "".join(out)
