"""The words of ``league ...`` at the sandbox, read strictly: what ``league new`` asks
(a game, a format, then ``key=value`` words), a number of days, and a result a moderator
sets. A word that is not understood is refused with what may be typed instead, never
dropped; the ranges themselves are the league desk's to check, so the sandbox and
Discord refuse the same values with the same words."""

from __future__ import annotations

import re
from dataclasses import dataclass

import rules
from bot import errors
from bot.tables.leagues.entrants import Outcome
from bot.tables.leagues.records import FORMATS, LeagueSpec
from bot.terminal.words import number

NEW_USAGE = (
    "`league new <game> <format> [name=<name>] [rounds=<n>] [games=1|2] [clock=<clock>] "
    "[entry=<days>] [round=<days>] [rated=yes|no] [cap=<n>] [dispatch=yes|no]` "
    f"(formats: {', '.join(FORMATS)})"
)

#: The ``key=value`` words of ``league new``, each once.
NEW_KEYS = ("name", "rounds", "games", "clock", "entry", "round", "rated", "cap", "dispatch")

# Days as typed: digits with at most three decimals (never "nan", "1e9" or "²").
_DAYS = re.compile(r"[0-9]{1,4}(\.[0-9]{1,3})?")

_YES = {"yes": True, "no": False}


def days(text: str, what: str) -> float:
    """A number of days typed in plain digits (``7``, ``0.5``), else a refusal."""
    if not _DAYS.fullmatch(text):
        raise errors.BadNumber(f"{what} is a number of days, such as 7 or 0.5, not “{text[:40]}”.")
    return float(text)


def _whole(text: str, what: str) -> int:
    value = number(text)
    if value is None:
        raise errors.BadNumber(f"{what} is a whole number, not “{text[:40]}”.")
    return value


def _yes_no(text: str, key: str) -> bool:
    if text.lower() not in _YES:
        raise errors.UnknownWord(f"`{key}=` takes yes or no, not “{text[:40]}”.")
    return _YES[text.lower()]


def _pairs(words: list[str]) -> dict[str, str]:
    """The ``key=value`` words, each key known and given once."""
    given: dict[str, str] = {}
    for word in words:
        key, sep, value = word.partition("=")
        key = key.lower()
        if not sep or key not in NEW_KEYS:
            raise errors.Usage(f"“{word[:40]}” is not understood here: {NEW_USAGE}.")
        if key in given:
            raise errors.Usage(f"`{key}=` is given twice: give it once.")
        given[key] = value
    return given


def new_league_spec(words: list[str]) -> LeagueSpec:
    """The league ``league new <game> <format> [key=value ...]`` asks for."""
    if len(words) < 2:
        raise errors.Usage(f"Which game and format? {NEW_USAGE}.")
    game_name, league_format = words[0].lower(), words[1].lower()
    if game_name not in rules.GAMES:  # before its title is asked for the default name
        raise errors.UnknownGame(game_name[:40], rules.GAMES)
    given = _pairs(words[2:])
    rounds = given.get("rounds")
    cap = given.get("cap")
    return LeagueSpec(
        name=given["name"] if "name" in given else default_name(game_name, league_format),
        game_name=game_name,
        format=league_format,
        rounds=None if rounds is None else _whole(rounds, "`rounds=`"),
        games_per_tie=_whole(given.get("games", "1"), "`games=`"),
        clock=given.get("clock"),
        entry_days=days(given.get("entry", "7"), "`entry=`"),
        round_days=days(given.get("round", "14"), "`round=`"),
        rated=_yes_no(given.get("rated", "yes"), "rated"),
        cap=None if cap is None else _whole(cap, "`cap=`"),
        dispatch_may_enter=_yes_no(given.get("dispatch", "no"), "dispatch"),
    )


def default_name(game_name: str, league_format: str) -> str:
    """A league's name when none is given: its game and format ("War swiss")."""
    title = str(rules.get_game(game_name).title)
    return f"{title} {league_format.replace('_', ' ')}"[:60]


@dataclass(frozen=True)
class Decision:
    """A result a moderator sets: the game by round and board, how it ended, and why."""

    round: int
    board: int
    outcome: Outcome
    reason: str


DECIDE_USAGE = (
    "`league decide <round> <board> <result> <reason>`, the result one of first-wins, "
    "second-wins, draw, first-forfeits, second-forfeits, or by a side's own word "
    "(north-wins, north-forfeits)"
)

_OUTCOMES = {
    "first": Outcome.FIRST_WINS,
    "second": Outcome.SECOND_WINS,
    "draw": Outcome.DRAW,
    "first-forfeits": Outcome.FIRST_FORFEITS,
    "second-forfeits": Outcome.SECOND_FORFEITS,
}


def outcome_word(word: str, roles: tuple[str, ...]) -> Outcome:
    """A result as typed: by place (``first``) or by the side's own word (``north``)."""
    word = word.lower().replace("_", "-").removesuffix("-wins")
    for place, role in zip(("first", "second"), roles, strict=False):
        if word == role:
            word = place
        elif word == f"{role}-forfeits":
            word = f"{place}-forfeits"
    if word not in _OUTCOMES:
        raise errors.UnknownWord(f"“{word[:40]}” is not a result: {DECIDE_USAGE}.")
    return _OUTCOMES[word]


def decision(words: list[str], roles: tuple[str, ...]) -> Decision:
    """What ``league decide`` asks: every word understood, a reason given."""
    if len(words) < 4:
        raise errors.Usage(f"Which game, what result and why? {DECIDE_USAGE}.")
    round_number, board = number(words[0]), number(words[1])
    if round_number is None or board is None:
        raise errors.BadNumber(f"The round and the board are whole numbers: {DECIDE_USAGE}.")
    outcome = outcome_word(words[2], roles)
    return Decision(round_number, board, outcome, " ".join(words[3:]))
