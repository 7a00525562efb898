"""Errors raised by rules engines."""

from __future__ import annotations


class RulesError(Exception):
    """Base class of every error a rules engine raises on purpose."""


class IllegalAction(RulesError):
    """An action that is not among the legal actions of the acting role right now.

    The message is written for the player: short, polite, and free of hidden
    information, because front ends show it as it is.
    """


class MalformedAction(IllegalAction):
    """A request that can never be legal, whatever the moment: a role the game does not
    have, a verb that is not an action word, or an argument of the wrong form (not a
    number or a name, an argument to a verb that takes none, none to one that needs it)."""


class NotAllowedNow(IllegalAction):
    """A well-formed action that the rules do not allow at this moment: not this role's
    turn, a verb or choice not offered now, or the game is over."""


class UnknownGame(RulesError, LookupError):
    """``get_game`` was asked for a name that is not registered."""
