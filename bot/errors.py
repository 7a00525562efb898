"""Typed errors with polite messages a front end may show to players as they are.

Every error a player can cause is a ``DispatchError``; ``str(error)`` is the sentence to
show. Front ends raise the two ``DeliveryError``s to tell the manager how a delivery went.
"""

from __future__ import annotations

import traceback
from collections.abc import Iterable
from typing import ClassVar


class DispatchError(Exception):
    """Base of every user-facing error; the message is written for the player."""

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else self.__class__.__name__


class UnknownGame(DispatchError):
    """A game asked for by a name that is none of the games Dispatch plays."""

    def __init__(self, name: str, available: Iterable[str]) -> None:
        names = ", ".join(sorted(available)) or "none yet"
        super().__init__(f"There is no game called “{name}”. Available games: {names}.")
        self.name = name


class GameNotFound(DispatchError):
    """A game number, channel or record that names no game the user can reach."""

    def __init__(self, what: str = "That game") -> None:
        super().__init__(f"{what} was not found.")


class NoGameInChannel(GameNotFound):
    """A game command in a channel that holds no game."""

    def __init__(self) -> None:
        DispatchError.__init__(self, "There is no game in this channel yet.")


class ChannelBusy(DispatchError):
    """A new game asked for in a channel that already holds one."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            f"This channel already has a game (#{game_id}). Finish or cancel it first, "
            "or start the new one in a thread."
        )
        self.game_id = game_id


class UnknownRole(DispatchError):
    """A side named that is none of this game's; the message lists them."""

    def __init__(self, role: str, roles: Iterable[str]) -> None:
        super().__init__(f"“{role}” is not a side in this game; choose one of: {', '.join(roles)}.")


class SeatTaken(DispatchError):
    """A seat asked for that another player (or Dispatch) already holds."""

    def __init__(self, role: str) -> None:
        super().__init__(f"The {role} seat is already taken.")


class NoFreeSeat(DispatchError):
    """A join to a game whose every seat is taken."""

    def __init__(self) -> None:
        super().__init__("Every seat in this game is already taken.")


class AlreadySeated(DispatchError):
    """A join by a user who already holds a seat of this game."""

    def __init__(self, role: str) -> None:
        super().__init__(f"You are already seated in this game as {role}.")


class NotSeated(DispatchError):
    """An action of a player by a user who holds no seat of this game."""

    def __init__(self) -> None:
        super().__init__("You are not playing in this game.")


class NotCreator(DispatchError):
    """An action for the game's creator (in its lobby) by another user."""

    def __init__(self) -> None:
        super().__init__("Only the player who created this game can do that.")


class BadOptions(DispatchError):
    """A new game's options that the game does not accept; the message says which."""

    def __init__(self, detail: str) -> None:
        super().__init__(f"Those game options were not accepted: {detail}")


class GameNotActive(DispatchError):
    """An action that needs the game in another status (waiting, under way, over):
    the message says which it is in."""

    _WHY: ClassVar[dict[str, str]] = {
        "lobby": "This game has not started yet: it is waiting for players.",
        "finished": "This game is over.",
        "cancelled": "This game was cancelled.",
        "abandoned": "This game was abandoned.",
        "active": "This game is already under way.",
    }

    def __init__(self, status: str) -> None:
        super().__init__(self._WHY.get(status, f"This game is {status}."))
        self.status = status


class NotYourTurn(DispatchError):
    """A decision from a seat the game is not waiting for; the message names those it is."""

    def __init__(self, waiting_for: Iterable[str] = ()) -> None:
        who = ", ".join(waiting_for)
        tail = f" The game is waiting for {who}." if who else ""
        super().__init__(f"It is not your turn.{tail}")


class ChooseRole(DispatchError):
    """A hot-seat user holds several seats and must say which one acts."""

    def __init__(self, roles: Iterable[str]) -> None:
        super().__init__(f"You hold several seats here; say which one acts: {', '.join(roles)}.")


class IllegalMove(DispatchError):
    """The rules refused the action; the message comes from the rules engine."""


class NothingToUndo(DispatchError):
    """An undo with no decision of the player's that can still be taken back."""

    def __init__(self) -> None:
        super().__init__("There is nothing you can undo right now.")


class TimeRanOut(DispatchError):
    """A decision that came after the player's clock ran out."""

    def __init__(self) -> None:
        super().__init__(
            "Sorry, your time ran out before this decision arrived, so it was not played: "
            "the game is lost on time."
        )


class StalePrompt(DispatchError):
    """The button or command was built for an older version of the game."""

    def __init__(self, current_version: int, prompt: str) -> None:
        text = "This prompt is out of date."
        if prompt:
            text += f" Now: {prompt}"
        super().__init__(text)
        self.current_version = current_version
        self.prompt = prompt


class NotAllowed(DispatchError):
    """An action the user may not take, here or now: the base of the refusals below, raised
    bare only where none of them fits."""


class BadInput(NotAllowed):
    """A value of the wrong kind or size (text for a number, a list for a word...).

    Raised before anything is read or written, so a refused call changes nothing.
    """


# The common refusals, each its own kind so that callers and tests can tell them apart
# by type; the message is still the one sentence shown to the player.


class ModeratorOnly(NotAllowed):
    """The action is for a moderator (a Discord permission such as Manage Channels or
    Manage Server), or for the game's players and a moderator, and the user is neither."""


class ServerOnly(NotAllowed):
    """A server's setting or list asked for in a direct message, where there is no server."""


class SeatNotHeld(NotAllowed):
    """The user acts, or gives up, a seat of this game that is not theirs (a side named
    by hand, or a choice made for a seat that another player holds)."""

    def __init__(self, role: str) -> None:
        super().__init__(f"You do not hold the {role} seat in this game.")
        self.role = role


class SeatRefused(NotAllowed):
    """A seat cannot be taken or change hands that way: one player holds one seat,
    Dispatch takes a seat only by hand-over, the Fate Die's side only by Dispatch, and
    only the user an offer names may answer it."""


class WrongStage(NotAllowed):
    """The action belongs to another stage of the game: a lobby's (its seats, cancelling
    it) once the game has started, or a finished game's (its export, replay or rematch)
    while it is still played or after it was cancelled."""


class NothingToDecide(NotAllowed):
    """The user owes no decision now, so there is nothing to play, hint or claim."""


class Outdated(BadInput):
    """A button, page, claim or answer made for an earlier state: the game, the seat or
    the question changed since it was shown, so it is refused and changes nothing."""


class PlayedAlone(BadInput):
    """Something only games between players have (a clock, an opponent, ratings, a seat
    passed on) asked of a game played alone."""


class NotYours(NotAllowed):
    """A game's record, replay or pages that are not the user's to see: the same words
    whether the game exists or not, so nothing is learnt from the refusal."""


class VacationRefused(NotAllowed):
    """A vacation the server's rules or the player's own do not allow now: vacations
    turned off, one already running, or none to end."""


class HintRefused(BadInput):
    """A hint asked for where none is given: a rated game, a game with no search, before
    the player's first decision, with nothing to decide now, or while their last hint is
    still being worked out."""


class BadNumber(BadInput):
    """A number refused: text where a whole number belongs, or a value outside the range
    the setting allows (the message names the range)."""


class UnknownWord(BadInput):
    """A word that is none of the few a setting or option takes (a level, lose or claim,
    dm, channel or both, a clock's name...); the message names those it takes."""


class NotOffered(BadInput):
    """A choice or action that is none of those offered now: a mistyped number, or a
    forged or outdated button or select value."""


class Malformed(BadInput):
    """A value of the wrong shape (an id, a message's place, a request, a page key),
    refused before anything is looked up."""


class NotInPlaysheet(BadInput):
    """A solo session's playsheet, side, scenario or word that the playsheets do not
    have; the message lists those they do."""


class CardListRefused(BadInput):
    """A solo session's card list that is not accepted (too large, not UTF-8 CSV, a bad
    line, or not wanted by the playsheet); the message names the first fault."""


class Usage(BadInput):
    """A command of the text sandbox typed with words it does not take; the message
    shows how it is typed."""


class UnknownLeague(NotAllowed):
    """A league number that names no league of the server the command was typed in (a
    league of another server is refused in the same words)."""

    def __init__(self, league_id: object) -> None:
        super().__init__(f"There is no league #{league_id} on this server.")
        self.league_id = league_id


class LeagueRefused(NotAllowed):
    """A league's entry or act refused as things stand: the league is full, past its
    entry deadline, already started or over, the player already in it (or not in it),
    Dispatch not allowed to enter, too few entrants to start, a result already set."""


class CorruptGame(DispatchError):
    """A stored game cannot be loaded; only that game is affected."""

    def __init__(self, game_id: int, detail: str) -> None:
        super().__init__(
            f"Game #{game_id} cannot continue: its saved record is damaged ({detail}). "
            "Nothing was changed. A moderator can export it with /game export or end it "
            "with /game abandon to free the channel."
        )
        self.game_id = game_id
        self.detail = detail


class SaveFailed(DispatchError):
    """The database refused a read or a write (disk full, locked too long, read-only)."""

    def __init__(self, writing: bool = True) -> None:
        what = "save that" if writing else "read the game records"
        super().__init__(
            f"Sorry, Dispatch could not {what} just now, so nothing changed. "
            "Please try again in a moment."
        )


class DeliveryError(Exception):
    """Raised by a front end from ``post_table`` / ``send_private``."""


class DirectMessageClosed(DeliveryError):
    """Permanent: the player does not accept direct messages (Discord error 50007)."""


#: Why a channel refuses the table's posts, as Discord answered: the players' notice
#: names this one cause, and what fixes it (empty: not known, so every cause is listed).
CHANNEL_DELETED = "deleted"  # 404 Unknown Channel (10003)
NO_ACCESS = "no access"  # 403 Missing Access (50001): no View Channel
NO_PERMISSION = "no permission"  # 403 Missing Permissions (50013)
THREAD_LOCKED = "thread locked"  # 400 Thread is archived (50083), locked by a moderator
THREAD_ARCHIVED = "thread archived"  # 400 Thread is archived (50083), and not reopened


class TableUnreachable(DeliveryError):
    """Permanent until someone fixes the channel: Dispatch may not post there (Discord's
    403 Missing Access or Missing Permissions, 404 Unknown Channel, a locked thread).
    ``cause`` is which (one of the names above; empty when not known) and ``missing`` the
    permissions the front end found lacking there, as Discord's menus name them."""

    def __init__(self, detail: str, cause: str = "", missing: tuple[str, ...] = ()) -> None:
        super().__init__(detail)
        self.cause = cause
        self.missing = missing


class DeliveryRetry(DeliveryError):
    """Transient: try again later (rate limit, outage). Any other exception counts too."""


class SeatPassed(NotSeated):
    """The user held a seat of this game that has since changed hands:
    their old buttons and commands are refused with who plays it now."""

    def __init__(self, seat: str, holder: str) -> None:
        DispatchError.__init__(
            self, f"The {seat} seat is no longer yours: {holder} plays it now. Nothing changed."
        )


def withheld(exc: BaseException) -> str:
    """A crash for the log: where it happened (the traceback's frames) and its type, not
    its message, which may name a card in someone's hand (whoever reads the host's log
    may be a player)."""
    frames = "".join(traceback.format_tb(exc.__traceback__))
    return f"Traceback (most recent call last):\n{frames}{type(exc).__name__}: (message withheld)"
