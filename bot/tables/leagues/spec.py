"""A league asked for, checked value by value: each bad value is refused with a typed
refusal that says what it takes, before anything is written."""

from __future__ import annotations

import math
import unicodedata
from typing import Any

import rules
from bot import errors
from bot.tables import validate
from bot.tables.leagues.records import FORMATS, LeagueSpec

NAME_MAX = 60
ROUNDS = (1, 20)
ENTRY_DAYS = (0.5, 60.0)
ROUND_DAYS = (1.0, 90.0)
CAP = (2, 1000)


def checked(spec: Any) -> LeagueSpec:
    """``spec`` with every value checked (the game's name as ``rules.GAMES`` keys it,
    the clock as written), or a refusal naming the first bad one."""
    if not isinstance(spec, LeagueSpec):
        raise errors.Malformed("A league is asked for with its name, game and format.")
    return LeagueSpec(
        name=_name(spec.name),
        game_name=_game(spec.game_name),
        format=_format(spec.format),
        rounds=_rounds(spec.format, spec.rounds),
        games_per_tie=_games_per_tie(spec.format, spec.games_per_tie),
        clock=_clock(spec.clock),
        entry_days=_days(spec.entry_days, ENTRY_DAYS, "The entry deadline"),
        round_days=_days(spec.round_days, ROUND_DAYS, "A round's deadline"),
        rated=validate.flag(spec.rated, "rated"),
        cap=_cap(spec.cap),
        dispatch_may_enter=validate.flag(spec.dispatch_may_enter, "dispatch_may_enter"),
    )


#: Characters a name may not hold: they hide, or turn the rest of a post backwards
#: (a joiner inside an emoji is kept: it draws one picture of several).
HIDING = frozenset("\u200b\u2060\ufeff\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _name(value: Any) -> str:
    text = value.strip() if isinstance(value, str) else ""
    if not 1 <= len(text) <= NAME_MAX or any(_category(c) == "Cc" for c in text):
        raise errors.BadInput(f"A league's name is one line of 1 to {NAME_MAX} characters.")
    if any(c in HIDING or _category(c) == "Cs" for c in text):
        raise errors.BadInput(
            "A league's name is shown in every post: write it without invisible or "
            "direction-changing characters."
        )
    if all(c.isspace() or _category(c) == "Cf" for c in text):
        raise errors.BadInput("A league's name needs a letter, a digit or a sign to be seen.")
    return text


def _category(char: str) -> str:
    """Its Unicode category: Cc a control code (a line end, a NUL), Cs a lone surrogate
    (which no store can encode), Cf a character drawn as nothing."""
    return unicodedata.category(char)


def _game(value: Any) -> str:
    name = validate.game_name(value).strip().lower()
    game = rules.GAMES.get(name)
    if game is None:
        raise errors.UnknownGame(str(value), rules.GAMES.keys())
    if game.one_seat or len(game.roles) != 2:
        raise errors.PlayedAlone(
            f"{game.title or game.name} is not a game of two sides, so it has no leagues."
        )
    return str(game.name)


def _format(value: Any) -> str:
    if value not in FORMATS:
        raise errors.UnknownWord(f"A league's format is one of: {', '.join(FORMATS)}.")
    return str(value)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _rounds(format: str, value: Any) -> int | None:
    low, high = ROUNDS
    if format != "swiss":
        if value is not None:
            raise errors.BadNumber("Only a Swiss takes a number of rounds.")
        return None
    if not _whole(value) or not low <= value <= high:
        raise errors.BadNumber(f"A Swiss is played over {low} to {high} rounds: say how many.")
    return int(value)


def _games_per_tie(format: str, value: Any) -> int:
    if not _whole(value) or value not in (1, 2):
        raise errors.BadNumber("A tie is one game, or two (one on each side).")
    if format != "elimination" and value != 1:
        raise errors.BadNumber("Only an elimination plays its ties as two games.")
    return int(value)


def _clock(value: Any) -> str | None:
    if value is None:
        return None
    control = validate.clock(value)
    return control.written() if control is not None else "none"


def _days(value: Any, bounds: tuple[float, float], what: str) -> float:
    low, high = bounds
    number = float(value) if isinstance(value, int | float) and not isinstance(value, bool) else -1
    if not math.isfinite(number) or not low <= number <= high:
        raise errors.BadNumber(f"{what} is from {low:g} to {high:g} days.")
    return number


def _cap(value: Any) -> int | None:
    low, high = CAP
    if value is None:
        return None
    if not _whole(value) or not low <= value <= high:
        raise errors.BadNumber(f"A league's cap is from {low} to {high} players.")
    return int(value)
