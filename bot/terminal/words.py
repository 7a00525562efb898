"""The words typed at the sandbox, read strictly: the players at its keyboard, a number
in plain digits, a command's optional count, and the words after ``new <game>``. A word
that is not understood is refused with what may be typed instead, never dropped."""

from __future__ import annotations

import re

from bot import errors
from bot.tables import validate
from bot.tables.bot_users import bot_user

PLAYERS = ("alice", "bob")
GUILD = "sandbox"

# Digits 0-9 only, and not too many: ``str.isdigit`` also accepts "²", which ``int`` then
# refuses, and a number thousands of digits long is too long for ``int`` to read.
_NUMBER = re.compile(r"[0-9]{1,30}")


def number(text: str | None) -> int | None:
    """A whole number typed in plain digits, else None."""
    return int(text) if text is not None and _NUMBER.fullmatch(text) else None


def count_arg(args: list[str], usage: str) -> int | None:
    """The optional count a command takes (``auto 20``, ``log 5``): None when none was
    given; anything but a positive whole number is refused with ``usage``."""
    if not args:
        return None
    count = number(args[0])
    if count is None or count < 1 or len(args) > 1:
        raise errors.Usage(usage)
    return count


NEW_USAGE = (
    "`new <game> [seed]`, `new <game> [seed] dispatch [level] [fate]` or `new <game> [seed] open`"
)


def new_game_words(
    words: list[str], first: str = PLAYERS[0]
) -> tuple[int | None, str | None, bool]:
    """The words after ``new <game>``, typed by ``first`` (who takes the first side): the
    seed, who takes the second side (the other player at the keyboard by default; None:
    it stays open, a lobby), and whether the Fate Die runs Dispatch's cards. Every word
    must be understood: one that is not (a second seed, ``fate`` without ``dispatch``) is
    refused, never dropped."""
    seed: int | None = None
    opponent: str | None = PLAYERS[1] if first == PLAYERS[0] else PLAYERS[0]
    fate = False
    level: str | None = None
    seated = False
    for word in (w.lower() for w in words):
        if word == "open" and opponent is not None and not seated:
            opponent = None
        elif word == "dispatch" and not seated and opponent is not None:
            seated = True
        elif word in ("open", "dispatch"):
            raise errors.Usage(
                "`open` leaves the second side for later and `dispatch` gives it to "
                f"Dispatch now: one or the other, once ({NEW_USAGE})."
            )
        elif seated and word == "fate" and not fate:
            fate = True
        elif seated and level is None and word != "fate" and number(word) is None:
            level = word
        elif not seated and seed is None and number(word) is not None:
            seed = number(word)
        elif word == "fate" and not seated:
            raise errors.Usage(
                "The Fate Die runs Dispatch's cards, so `fate` comes after `dispatch`: "
                "`new fort_sumter 7 dispatch easy fate`."
            )
        elif not seated and seed is None:
            raise errors.BadNumber(
                f"The seed must be a whole number from 0 to {validate.MAX_SEED}, "
                f"not “{word[:40]}” ({NEW_USAGE})."
            )
        else:
            raise errors.Usage(f"“{word[:40]}” is not understood here: {NEW_USAGE}.")
    if seated:
        opponent = bot_user(level)
    return seed, opponent, fate


def without_comment(line: str) -> str:
    """``line`` up to a comment: a ``#`` that begins a word (at the start or after a space)
    outside quotes, as in a shell, so that a script's lines may say what they do
    (``7   # the seventh action``). A ``#`` inside a word or in quotes is kept."""
    quote = ""
    for at, char in enumerate(line):
        if quote:
            quote = "" if char == quote else quote
        elif char in "\"'":
            quote = char
        elif char == "#" and (at == 0 or line[at - 1].isspace()):
            return line[:at]
    return line
