"""The machinery every rules engine shares: the contract, flow table, RNG, undo, log, events."""

from rules.core.errors import IllegalAction, MalformedAction, NotAllowedNow, RulesError, UnknownGame
from rules.core.events import (
    EventGame,
    EventStep,
    Op,
    Param,
    begin_event,
    current_frame,
    instruction_problems,
    run_events,
)
from rules.core.flow import Step, call, goto, local, ret, returned
from rules.core.game import Game
from rules.core.log import heading, log, plural, private_log, telling
from rules.core.rng import choice, randbelow, roll, shuffle
from rules.core.types import Actions, Arg, Outcome, State, View
from rules.core.undo import seal

__all__ = [
    "Actions",
    "Arg",
    "EventGame",
    "EventStep",
    "Game",
    "IllegalAction",
    "MalformedAction",
    "NotAllowedNow",
    "Op",
    "Outcome",
    "Param",
    "RulesError",
    "State",
    "Step",
    "UnknownGame",
    "View",
    "begin_event",
    "call",
    "choice",
    "current_frame",
    "goto",
    "heading",
    "instruction_problems",
    "local",
    "log",
    "plural",
    "private_log",
    "randbelow",
    "ret",
    "returned",
    "roll",
    "run_events",
    "seal",
    "shuffle",
    "telling",
]
