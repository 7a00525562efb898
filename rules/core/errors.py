"""Errors raised by rules engines."""

from __future__ import annotations


class RulesError(Exception):
    """Base class of every error a rules engine raises on purpose."""


class IllegalAction(RulesError):
    """An action that is not among the legal actions of the acting role right now.

    The message is written for the player: short, polite, and free of hidden
    information, because front ends show it as it is.
    """


class UnknownGame(RulesError, LookupError):
    """``get_game`` was asked for a name that is not registered."""
