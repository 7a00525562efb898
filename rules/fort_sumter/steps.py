"""The flow of play of Fort Sumter, as a table of named steps in rulebook order.

Each round: ``deal`` -> ``choose_objective`` (both sides at once, hidden) ->
``play_cards`` / ``value_play`` / ``event`` -> ``card_play_ends`` (breaches, maybe
``tension_peace_commissioner``) -> ``next_card_play`` ... -> ``set_aside`` ->
``pivotal_bonuses`` / ``pivotal_bonus`` -> ``dimension_scoring`` -> ``objective_scoring``
-> ``objective_events`` -> ``final_crisis_check`` -> next round's ``deal``, or
``final_crisis`` -> ``final_crisis_order`` (both at once, hidden) ->
``final_crisis_reveal`` -> ``final_crisis_match`` or ``final_crisis_move`` (per pair) ->
``final_scoring``.

Procedures run on the flow's call stack (``call`` ... ``ret``), each with its own locals:
``breaches`` (with ``tension_peace_commissioner`` when the Commissioner is owed), called
after every card play and every objective event; ``event``; ``pivotal_bonuses`` (with
``pivotal_bonus``); and ``objective_events`` (with ``objective_event_ends``), which calls
an event and then the breaches for each side that scored its objective.
"""

from __future__ import annotations

from itertools import permutations
from typing import TYPE_CHECKING, Any

from rules.core import (
    Actions,
    Arg,
    EventStep,
    State,
    Step,
    begin_event,
    call,
    goto,
    heading,
    local,
    log,
    plural,
    private_log,
    ret,
    seal,
    shuffle,
    telling,
)
from rules.core.log import a_or_an
from rules.fate_die import opponent as fate
from rules.fort_sumter import board
from rules.fort_sumter.board import first_player, in_order, opponent
from rules.fort_sumter.cards import (
    COLOUR,
    DIMENSIONS,
    OBJECTIVES,
    PIVOTAL_SPACES,
    ROLES,
    SPACE_IDS,
    SPACES,
    STRATEGY,
    space_name,
)
from rules.fort_sumter.events import place_peace_commissioner
from rules.fort_sumter.tracks import (
    ROLE_NAMES,
    both_final_crisis_zones_breached,
    breach_due,
    process_breaches,
)

if TYPE_CHECKING:
    from rules.core import Game

CARDS_PER_HAND = 4
OBJECTIVES_DEALT = 2
CARD_PLAYS_PER_ROUND = 3
ROUNDS = 3
FINAL_CRISIS_CARDS = 3
FORT_SUMTER = "fort_sumter"


#: A side's name in the log (``ROLE_NAMES[role]``, looked up without a call of our own).
_name = ROLE_NAMES.__getitem__


def _tokens(n: int) -> str:
    return "1 token" if n == 1 else f"{n} tokens"


def _draw(state: State, deck: str, n: int) -> list[str]:
    cards: list[str] = state[deck][:n]
    del state[deck][:n]
    return cards


# ----------------------------------------------------------------------------- each round


class Deal(Step):
    """Deal four strategy cards and two objective cards to each side."""

    def enter(self, game: Game, state: State) -> None:
        heading(state, f"Round {state['round']}")
        seal(state)
        state["claimable"] = None
        state["played"] = {r: 0 for r in ROLES}
        for role in ROLES:
            state["hands"][role] = _draw(state, "strategy_deck", CARDS_PER_HAND)
            state["objective_offer"][role] = _draw(state, "objective_deck", OBJECTIVES_DEALT)
            if telling(state):
                titles = ", ".join([STRATEGY[c].title for c in state["hands"][role]])
                private_log(state, role, f"You are dealt {titles}.")
        log(state, "Each side is dealt 4 strategy cards and 2 objective cards.")
        fated = fate.fate_role(state)
        if fated is not None:
            fate.deal(state, state["hands"][fated])
            log(state, f"{_name(fated)}'s cards fill its Card Display: A and B face up.")
        goto(game, state, "choose_objective")


class ChooseObjective(Step):
    """Both sides secretly keep one objective; the other goes back into the deck unseen."""

    def active(self, game: Game, state: State) -> tuple[str, ...]:
        objective = state["objective"]
        return tuple([r for r in ROLES if objective[r] is None])

    def prompt(self, game: Game, state: State, role: str) -> str:
        return (
            f"Round {state['round']}: keep one of your two objective cards. At round end both "
            "kept cards are revealed, and whoever controls a card's space scores 1 VP for it, "
            "your opponent too; if you score your own, you also carry out its event. The "
            "other card goes back into the deck unseen."
        )

    def actions(self, game: Game, state: State, role: str) -> Actions:
        return {"keep": list(state["objective_offer"][role])}

    def label(self, game: Game, state: State, role: str, verb: str, arg: Arg) -> str:
        card = OBJECTIVES[str(arg)]
        return f"Keep {card.title}: {card.text}"

    def on_keep(self, game: Game, state: State, role: str, arg: Arg) -> None:
        state["objective"][role] = str(arg)
        if telling(state):
            private_log(state, role, f"You keep the {OBJECTIVES[str(arg)].title} objective.")
            log(state, f"{_name(role)} chooses an objective.")
        if None in state["objective"].values():  # the other side has yet to choose
            return
        for r in ROLES:
            state["objective_deck"].extend(
                [c for c in state["objective_offer"][r] if c != state["objective"][r]]
            )
            state["objective_offer"][r] = []
        shuffle(state, state["objective_deck"])
        log(state, "The unkept objectives are shuffled back into the objective deck.")
        start_card_play(game, state)


def start_card_play(game: Game, state: State) -> None:
    """The first player (evaluated now, once per round) leads; then sides alternate."""
    # Last round's revealed objectives and last card stay on show until play resumes.
    state.update(revealed_objectives=None, last_play=None)
    state["turn"] = first_player(state)
    if telling(state):
        log(state, f"{_name(state['turn'])} is first player and plays first this round.")
    to_card_play(game, state)


def to_card_play(game: Game, state: State) -> None:
    """The side whose turn it is plays a card; a side run by the Fate Die rolls first."""
    role = state["turn"]
    if fate.fate_role(state) == role:
        allowed = fate.roll(
            state,
            _name(role),
            lambda c: STRATEGY[c].value,
            lambda c: STRATEGY[c].event_allowed(role),
        )
        face = fate.roll_title(state["fate"])
        titles = ", ".join(STRATEGY[c].title for c in allowed)
        log(state, f"Fate Die for {_name(role)}: {face}. It may play {titles}.")
    goto(game, state, "play_cards")


class PlayCards(Step):
    """Play one strategy card for its event (own colour or both) or for its value."""

    one_chooser = True

    def active(self, game: Game, state: State) -> tuple[str, ...]:
        return (state["turn"],)

    def prompt(self, game: Game, state: State, role: str) -> str:
        number = state["played"][role] + 1
        text = (
            f"Round {state['round']}, your card play {number} of {CARD_PLAYS_PER_ROUND}: "
            "play a strategy card for its event or for its value."
        )
        claim = _claimable(state, role)
        if claim is not None:
            text += (
                f" Event Discard: you may give up a card of value {STRATEGY[claim].value} or "
                f"more to claim {STRATEGY[claim].title} and play it for its event."
            )
        if fate.fate_role(state) == role:
            titles = ", ".join(
                STRATEGY[c].title for c in fate.restrict(state, role, _hand(state, role))
            )
            text += f" The Fate Die allows {titles}."
        return text

    def actions(self, game: Game, state: State, role: str) -> Actions:
        hand: list[Any] = fate.restrict(state, role, state["hands"][role])
        actions: Actions = {}
        allowed = _EVENTS_ALLOWED[role]
        events = [c for c in hand if c in allowed]
        if events:
            actions["event"] = events
        actions["value"] = list(hand)
        claim = _claimable(state, role)
        if claim is not None:
            give = [c for c in hand if STRATEGY[c].value >= STRATEGY[claim].value]
            if give:
                actions["claim"] = give
        return actions

    def label(self, game: Game, state: State, role: str, verb: str, arg: Arg) -> str:
        card = STRATEGY[str(arg)]
        if verb == "event":
            return f"Play {card.title} for its event ({card.value})"
        if verb == "value":
            return f"Play {card.title} for its value: {_tokens(card.value)}"
        claim = STRATEGY[str(_claimable(state, role))]
        return f"Give up {card.title} ({card.value}) to claim {claim.title} for its event"

    def on_event(self, game: Game, state: State, role: str, arg: Arg) -> None:
        card = _play(state, role, str(arg), "event")
        begin_event(game, state, card, role, then="card_play_ends")

    def on_value(self, game: Game, state: State, role: str, arg: Arg) -> None:
        card = _play(state, role, str(arg), "value")
        state["value_play"] = {"card": card, "left": STRATEGY[card].value}
        goto(game, state, "value_play")

    def on_claim(self, game: Game, state: State, role: str, arg: Arg) -> None:
        claimed = str(_claimable(state, role))
        given = str(arg)
        state["hands"][role].remove(given)
        if fate.fate_role(state) == role:
            fate.played(state, given)
        state["out_of_play"]["strategy"].append(given)
        state["played"][role] += 1
        state["last_play"] = {"role": role, "card": claimed, "how": "claimed event"}
        log(
            state,
            f"{_name(role)} gives up {STRATEGY[given].title} to claim "
            f"{STRATEGY[claimed].title} and plays it for its event.",
        )
        begin_event(game, state, claimed, role, then="card_play_ends")


#: The strategy cards whose event each side may play (``StrategyCard.event_allowed``).
_EVENTS_ALLOWED: dict[str, frozenset[str]] = {
    role: frozenset(c for c, card in STRATEGY.items() if card.event_allowed(role)) for role in ROLES
}


def _claimable(state: State, role: str) -> str | None:
    """The card ``role`` may claim under the optional Event Discard rule, if any."""
    claim = state.get("claimable")
    if not state["options"].get("event_discard") or not claim or claim["role"] != role:
        return None
    card: str = claim["card"]
    return card


def _hand(state: State, role: str) -> list[str]:
    hand: list[str] = state["hands"][role]
    return hand


def _play(state: State, role: str, card: str, how: str) -> str:
    state["hands"][role].remove(card)
    if fate.fate_role(state) == role:
        fate.played(state, card)
    state["out_of_play"]["strategy"].append(card)
    state["played"][role] += 1
    state["last_play"] = {"role": role, "card": card, "how": how}
    if telling(state):
        log(state, f"{_name(role)} plays {STRATEGY[card].title} for its {how}.")
    return card


class ValuePlay(Step):
    """Add up to the card's value in tokens, one per action, then ``done`` (which front
    ends apply by themselves once no token is left to place: see ``done_implied``)."""

    one_chooser = True

    def done_implied(self, game: Game, state: State, role: str) -> bool:
        return state["value_play"]["left"] <= 0 or not board.placeable(state, role, SPACE_IDS)

    def active(self, game: Game, state: State) -> tuple[str, ...]:
        return (state["turn"],)

    def prompt(self, game: Game, state: State, role: str) -> str:
        play = state["value_play"]
        source = (
            f"{state['pool'][role]} in your pool"
            if state["pool"][role]
            else f"{state['track'][role]} on your Crisis Track"
        )
        return (
            f"{STRATEGY[play['card']].title} for its value: place up to {_tokens(play['left'])} "
            f"more, in any spaces, several in one if you like (tokens left: {source})."
        )

    def actions(self, game: Game, state: State, role: str) -> Actions:
        actions: Actions = {}
        if state["value_play"]["left"] > 0:
            spaces: list[Any] = board.placeable(state, role, SPACE_IDS)
            if spaces:
                actions["place"] = spaces
        actions["done"] = True
        return actions

    def batch(self, game: Game, state: State, role: str) -> dict[str, int]:
        return {"place": state["value_play"]["left"]}

    def repeats(self, game: Game, state: State, role: str, verb: str) -> dict[str, int]:
        left = min(state["value_play"]["left"], board.supply(state, role))
        return {s: min(left, board.room(state, role, s)) for s in SPACE_IDS}

    def label(self, game: Game, state: State, role: str, verb: str, arg: Arg) -> str:
        return f"Place a token in {space_name(str(arg))}" if verb == "place" else "Done"

    def on_place(self, game: Game, state: State, role: str, arg: Arg) -> None:
        board.place(state, role, str(arg))
        state["value_play"]["left"] -= 1
        if telling(state):
            log(state, f"{_name(role)} places a token in {space_name(str(arg))}.")

    def on_done(self, game: Game, state: State, role: str, arg: Arg) -> None:
        goto(game, state, "card_play_ends")


class CardPlayEnds(Step):
    """When a card play has fully ended: Event Discard window, then breaches."""

    def enter(self, game: Game, state: State) -> None:
        role = state["turn"]
        state["value_play"] = None
        played = state["last_play"]
        other = opponent(role)
        # Event Discard: a card solely in the opponent's colour opens their claim window;
        # any earlier window of the player who just played has now lapsed.
        state["claimable"] = None
        if played["how"] != "claimed event" and STRATEGY[played["card"]].colour == COLOUR[other]:
            state["claimable"] = {"role": other, "card": played["card"]}
        if breach_due(state):
            call(game, state, "breaches", then="next_card_play", acting=role)
        else:
            next_card_play(game, state)  # the procedure would return at once


class Breaches(Step):
    """Procedure: process the new breaches of both tracks, ``acting`` side first (locals:
    ``acting``); the Peace Commissioner may be owed."""

    def enter(self, game: Game, state: State) -> None:
        here = local(state)
        chooser = process_breaches(state, here.pop("acting"))
        if chooser is None:
            ret(game, state)
            return
        here["chooser"] = chooser
        goto(game, state, "tension_peace_commissioner")


class TensionPeaceCommissioner(Step):
    """After the first Tension breach of the game, the other side places the Commissioner."""

    one_chooser = True

    def active(self, game: Game, state: State) -> tuple[str, ...]:
        return (local(state)["chooser"],)

    def prompt(self, game: Game, state: State, role: str) -> str:
        return (
            f"{_name(opponent(role))} breached the first Tension zone of the game: place the "
            "Peace Commissioner in any space (it blocks placing and removing tokens there)."
        )

    def actions(self, game: Game, state: State, role: str) -> Actions:
        return {"space": list(SPACE_IDS)}

    def label(self, game: Game, state: State, role: str, verb: str, arg: Arg) -> str:
        return f"Put the Peace Commissioner in {space_name(str(arg))}"

    def on_space(self, game: Game, state: State, role: str, arg: Arg) -> None:
        place_peace_commissioner(state, role, str(arg))
        ret(game, state)


class NextCardPlay(Step):
    """Where the breaches procedure returns after a card play: see ``next_card_play``."""

    def enter(self, game: Game, state: State) -> None:
        next_card_play(game, state)


def next_card_play(game: Game, state: State) -> None:
    """Alternate until both sides have played three cards."""
    if min(state["played"].values()) >= CARD_PLAYS_PER_ROUND:  # both sides
        goto(game, state, "set_aside")
        return
    other = opponent(state["turn"])
    if state["played"][other] < CARD_PLAYS_PER_ROUND:
        state["turn"] = other
    to_card_play(game, state)


class SetAside(Step):
    """Each side's fourth card goes face down to its Final Crisis space."""

    def enter(self, game: Game, state: State) -> None:
        for role in ROLES:
            state["set_aside"][role].extend(state["hands"][role])
            state["hands"][role] = []
        if fate.fate_role(state) is not None:
            fate.sync(state, [])
        state["claimable"] = None
        log(state, "Each side sets its remaining card aside, face down, for the Final Crisis.")
        call(game, state, "pivotal_bonuses", then="dimension_scoring")


# ------------------------------------------------------------------------ end of the round


class PivotalBonuses(Step):
    """Procedure: first player, then the other, a bonus for each pivotal space controlled.

    Locals: the side ``order``, whose turn (``index``), the pivotal spaces still to check
    for that side (``queue``), and the bonus under way: its ``space``, actions ``left``,
    and the token picked up to move (``moving``, ``"space:side"``)."""

    def enter(self, game: Game, state: State) -> None:
        order = in_order(first_player(state))
        local(state).update(
            order=list(order),
            index=0,
            queue=list(PIVOTAL_SPACES),
            space=None,
            left=0,
            moving=None,
        )
        next_pivotal_bonus(game, state)


#: The spaces of each space's dimension (a pivotal bonus acts within them).
_DIMENSION_OF_SPACE: dict[str, tuple[str, ...]] = {
    s: DIMENSIONS[SPACES[s].dimension].spaces for s in SPACE_IDS
}
#: The bonus token ``space:side`` of each space and side, and back.
_TOKEN: dict[tuple[str, str], str] = {(s, side): f"{s}:{side}" for s in SPACE_IDS for side in ROLES}
_TOKEN_PARTS: dict[str, tuple[str, str]] = {token: parts for parts, token in _TOKEN.items()}
#: Each space's ``(side, token)`` pairs, sides in ``ROLES`` order.
_SIDE_TOKENS: dict[str, tuple[tuple[str, str], ...]] = {
    s: tuple((side, _TOKEN[s, side]) for side in ROLES) for s in SPACE_IDS
}


def _bonus_tokens(state: State) -> list[str]:
    """``space:side`` for every token in the bonus dimension that may be picked up (each
    space's tokens of either side, in map order, as ``board.removable`` has them)."""
    where, blocked_space = state["spaces"], state["peace_commissioner"]
    return [
        token
        for s in _DIMENSION_OF_SPACE[local(state)["space"]]
        if s != blocked_space
        for side, token in _SIDE_TOKENS[s]
        if where[s][side]  # a count, so true when above 0
    ]


def _any_bonus_token(state: State) -> bool:
    """Whether ``_bonus_tokens`` lists any token, found without listing them (asked as
    each bonus begins and after each of its actions)."""
    where, blocked_space = state["spaces"], state["peace_commissioner"]
    return any(
        where[s][side]
        for s in _DIMENSION_OF_SPACE[local(state)["space"]]
        if s != blocked_space
        for side in ROLES
    )


def _bonus_targets(state: State, token: str) -> list[str]:
    source, side = _TOKEN_PARTS[token]
    return board.with_room(state, side, _DIMENSION_OF_SPACE[source], source)


def _movable_bonus_tokens(state: State, tokens: list[str], spaces: tuple[str, ...]) -> list[Any]:
    """The bonus ``tokens`` that may be moved: a token can move when its side has room in
    some space of the dimension other than its own. So every token of a side with room
    in two spaces or more, none of a side with room nowhere, and with room in one space
    only, every token but those already there (looked at side by side, not token by
    token: a bonus lists its tokens at each of its actions)."""
    movable: list[Any] = list(tokens)
    for side in ROLES:
        room = board.with_room(state, side, spaces, None)
        if len(room) > 1:
            continue
        stuck = {_TOKEN[room[0], side]} if room else {_TOKEN[s, side] for s in spaces}
        movable = [t for t in movable if t not in stuck]
    return movable


def next_pivotal_bonus(game: Game, state: State) -> None:
    """Find the next pivotal space the side in turn controls, or return to scoring."""
    bonus = local(state)
    while bonus["index"] < len(bonus["order"]):
        role = bonus["order"][bonus["index"]]
        while bonus["queue"]:
            pivotal = bonus["queue"].pop(0)
            if board.controller(state, pivotal) != role:
                continue
            bonus.update(space=pivotal, left=2, moving=None)
            if _any_bonus_token(state):
                if telling(state):
                    log(state, f"{_name(role)} controls {space_name(pivotal)}: pivotal bonus.")
                goto(game, state, "pivotal_bonus")
                return
        bonus["index"] += 1
        bonus["queue"] = list(PIVOTAL_SPACES)
    ret(game, state)


class PivotalBonus(Step):
    """Within the dimension: two actions, each moving or removing any one token."""

    one_chooser = True

    def active(self, game: Game, state: State) -> tuple[str, ...]:
        bonus = local(state)
        return (bonus["order"][bonus["index"]],)

    def prompt(self, game: Game, state: State, role: str) -> str:
        bonus = local(state)
        dimension = DIMENSIONS[SPACES[bonus["space"]].dimension].name
        if bonus["moving"]:
            source, side = bonus["moving"].split(":")
            return f"Move the {_name(side)} token from {space_name(source)} to:"
        return (
            f"Pivotal bonus for controlling {space_name(bonus['space'])}: in the {dimension} "
            f"spaces, move or remove any token, either side's ({bonus['left']} of 2 left), "
            "or Done."
        )

    def actions(self, game: Game, state: State, role: str) -> Actions:
        bonus = local(state)
        if bonus["moving"]:
            targets: list[Any] = _bonus_targets(state, bonus["moving"])
            return {"to": targets}
        tokens: list[Any] = _bonus_tokens(state)
        actions: Actions = {}
        if tokens:
            movable = _movable_bonus_tokens(state, tokens, _DIMENSION_OF_SPACE[bonus["space"]])
            if movable:
                actions["move"] = movable
            actions["remove"] = tokens
        actions["done"] = True
        return actions

    def label(self, game: Game, state: State, role: str, verb: str, arg: Arg) -> str:
        if verb == "done":
            return "Done"
        if verb == "to":
            return f"Move it to {space_name(str(arg))}"
        space, side = str(arg).split(":")
        return f"{verb.title()} a {_name(side)} token from {space_name(space)}"

    def on_move(self, game: Game, state: State, role: str, arg: Arg) -> None:
        local(state)["moving"] = str(arg)

    def on_to(self, game: Game, state: State, role: str, arg: Arg) -> None:
        bonus = local(state)
        source, side = _TOKEN_PARTS[bonus["moving"]]
        board.move(state, side, source, str(arg))
        if telling(state):
            log(
                state,
                f"{_name(role)} moves a {_name(side)} token from {space_name(source)} "
                f"to {space_name(str(arg))}.",
            )
        bonus["moving"] = None
        self._spent(game, state)

    def on_remove(self, game: Game, state: State, role: str, arg: Arg) -> None:
        space, side = _TOKEN_PARTS[str(arg)]
        board.remove(state, side, space)
        if telling(state):
            log(state, f"{_name(role)} removes a {_name(side)} token from {space_name(space)}.")
        self._spent(game, state)

    def on_done(self, game: Game, state: State, role: str, arg: Arg) -> None:
        next_pivotal_bonus(game, state)

    def _spent(self, game: Game, state: State) -> None:
        bonus = local(state)
        bonus["left"] -= 1
        if bonus["left"] <= 0 or not _any_bonus_token(state):
            next_pivotal_bonus(game, state)


class DimensionScoring(Step):
    """1 VP for each Crisis Dimension a side controls (all three spaces)."""

    def enter(self, game: Game, state: State) -> None:
        scored = False
        for dimension in DIMENSIONS.values():
            owner = board.dimension_controller(state, dimension.id)
            if owner is not None:
                state["vp"][owner] += 1
                scored = True
                if telling(state):
                    log(state, f"{_name(owner)} controls the {dimension.name} dimension: +1 VP.")
        if not scored:
            log(state, "Nobody controls a whole Crisis Dimension.")
        goto(game, state, "objective_scoring")


class ObjectiveScoring(Step):
    """Reveal both objectives; whoever controls each objective's space scores 1 VP."""

    def enter(self, game: Game, state: State) -> None:
        revealed = {r: state["objective"][r] for r in ROLES}
        seal(state)
        state["revealed_objectives"] = revealed
        for role in ROLES:
            state["objective"][role] = None
            state["out_of_play"]["objective"].append(revealed[role])
        for role in ROLES:
            card = OBJECTIVES[revealed[role]]
            owner = board.controller(state, card.space)
            if owner is not None:
                state["vp"][owner] += 1
            if telling(state):
                result = "nobody controls it"
                if owner is not None:
                    result = f"{_name(owner)} controls it: +1 VP"
                log(state, f"{_name(role)} reveals the {card.title} objective; {result}.")
        # First player evaluated after this scoring, once, for the order of the events.
        queue = [
            r
            for r in in_order(first_player(state))
            if board.controller(state, OBJECTIVES[revealed[r]].space) == r
        ]
        call(game, state, "objective_events", then="final_crisis_check", queue=queue)


class ObjectiveEvents(Step):
    """Procedure: a side that scored its own objective carries out its event, first
    player first (locals: the sides still to go, ``queue``, and the ``actor`` now)."""

    def enter(self, game: Game, state: State) -> None:
        here = local(state)
        if not here["queue"]:
            log(state, "Both objective cards leave the game.")
            ret(game, state)
            return
        role = here["queue"].pop(0)
        here["actor"] = role
        card = state["revealed_objectives"][role]
        if telling(state):
            log(state, f"{_name(role)} carries out the {OBJECTIVES[card].title} objective event.")
        begin_event(game, state, card, role, then="objective_event_ends")


class ObjectiveEventEnds(Step):
    """An objective event may have drawn tokens from a Crisis Track: check breaches."""

    def enter(self, game: Game, state: State) -> None:
        call(game, state, "breaches", then="objective_events", acting=local(state)["actor"])


class FinalCrisisCheck(Step):
    """After round 3, or a round that ends with both Final Crisis zones breached."""

    def enter(self, game: Game, state: State) -> None:
        if both_final_crisis_zones_breached(state):
            log(state, "Both Final Crisis zones are breached: the Final Crisis begins.")
            goto(game, state, "final_crisis")
        elif state["round"] >= ROUNDS:
            goto(game, state, "final_crisis")
        else:
            state["round"] += 1
            goto(game, state, "deal")


# -------------------------------------------------------------------------- Final Crisis


class FinalCrisis(Step):
    """Remove the Peace Commissioner; take the set-aside cards, deal up to three."""

    def enter(self, game: Game, state: State) -> None:
        heading(state, "Final Crisis")
        state["phase"] = "final_crisis"
        if state["peace_commissioner"] is not None:
            log(state, "The Peace Commissioner leaves the map.")
            state["peace_commissioner"] = None
        seal(state)
        for role in ROLES:
            cards = state["set_aside"][role]
            state["set_aside"][role] = []
            dealt = _draw(state, "strategy_deck", max(0, FINAL_CRISIS_CARDS - len(cards)))
            state["hands"][role] = cards + dealt
            if telling(state):
                log(
                    state,
                    f"{_name(role)} takes {plural(len(cards), 'set-aside card')} and is dealt "
                    f"{len(dealt)}.",
                )
        state["final_crisis"] = {
            "order": {r: None for r in ROLES},
            "revealed": {r: [] for r in ROLES},
            "pair": 0,
            "mode": None,
            "resolve": [],
            "left": 0,
            "moving": None,
            "removed": 0,
        }
        goto(game, state, "final_crisis_order")


def _dimension_of(card: str) -> str:
    return STRATEGY[card].fc_dimension


class FinalCrisisOrder(Step):
    """Both sides secretly order their three cards (one decision each)."""

    def active(self, game: Game, state: State) -> tuple[str, ...]:
        order = state["final_crisis"]["order"]
        return tuple([r for r in ROLES if order[r] is None])

    def prompt(self, game: Game, state: State, role: str) -> str:
        return (
            "Final Crisis: secretly choose the order of your three cards. Only each card's "
            "Crisis Dimension counts; the cards are revealed in pairs."
        )

    def actions(self, game: Game, state: State, role: str) -> Actions:
        hand = state["hands"][role]
        return {"order": [",".join(p) for p in permutations(hand)]}

    def label(self, game: Game, state: State, role: str, verb: str, arg: Arg) -> str:
        cards = str(arg).split(",")
        return ", ".join(
            f"{n}. {STRATEGY[c].title} ({DIMENSIONS[_dimension_of(c)].name})"
            for n, c in enumerate(cards, 1)
        )

    def on_order(self, game: Game, state: State, role: str, arg: Arg) -> None:
        fc = state["final_crisis"]
        fc["order"][role] = str(arg).split(",")
        state["hands"][role] = []
        if telling(state):
            order = self.label(game, state, role, "order", arg)
            private_log(state, role, f"Your Final Crisis order: {order}.")
            log(state, f"{_name(role)} has ordered its Final Crisis cards.")
        if all(fc["order"][r] is not None for r in ROLES):
            goto(game, state, "final_crisis_reveal")


class FinalCrisisReveal(Step):
    """Reveal the next pair at once; same dimension: both must remove, else both may move."""

    def enter(self, game: Game, state: State) -> None:
        fc = state["final_crisis"]
        if not all(fc["order"][r] for r in ROLES):
            goto(game, state, "final_scoring")
            return
        seal(state)
        fc["pair"] += 1
        cards = {r: fc["order"][r].pop(0) for r in ROLES}
        for role in ROLES:
            fc["revealed"][role].append(cards[role])
        same = _dimension_of(cards["unionist"]) == _dimension_of(cards["secessionist"])
        fc["mode"] = "match" if same else "differ"
        if telling(state):
            shown = "; ".join(
                f"{_name(r)} {STRATEGY[cards[r]].title} "
                f"({DIMENSIONS[_dimension_of(cards[r])].name})"
                for r in ROLES
            )
            log(state, f"Final Crisis pair {fc['pair']}: {shown}.")
            log(
                state,
                "Same dimension: each side must remove tokens."
                if same
                else "Different dimensions: each side may move tokens into its card's dimension.",
            )
        fc["resolve"] = list(in_order(first_player(state)))
        next_final_crisis_resolver(game, state, fresh=True)


def _fc_card(state: State, role: str) -> str:
    card: str = state["final_crisis"]["revealed"][role][-1]
    return card


#: The spaces of each strategy card's Crisis Dimension (what counts in the Final Crisis).
_FC_SPACES: dict[str, tuple[str, ...]] = {
    c: DIMENSIONS[card.fc_dimension].spaces for c, card in STRATEGY.items()
}


def _fc_options(state: State, role: str) -> Actions:
    fc = state["final_crisis"]
    actions: Actions = {}
    if fc["mode"] == "match":
        # (Each list below is made fresh by ``board``, so it is listed as it is.)
        if fc["removed"] == 0:
            one: list[Any] = board.removable(state, role, _FC_SPACES[_fc_card(state, role)])
            if one:
                actions["remove"] = one
        anywhere: list[Any] = board.removable(state, role, SPACE_IDS)
        if anywhere:
            actions["remove_any"] = anywhere
        return actions
    if fc["moving"] is not None:
        targets: list[Any] = _fc_targets(state, role, fc["moving"])
        return {"to": targets}
    if fc["left"] > 0:
        # A token can move when some space other than its own has room for it: any
        # token when two spaces have room, none when no space has.
        room = _fc_targets(state, role, None)
        if room:
            sources: list[Any] = board.removable(state, role, SPACE_IDS)
            if len(room) == 1 and room[0] in sources:
                sources.remove(room[0])
            if state["pool"][role] > 0:
                sources.insert(0, "pool")  # the pool first, then the spaces in map order
            if sources:
                actions["from"] = sources
    actions["done"] = True
    return actions


def _fc_targets(state: State, role: str, source: str | None) -> list[str]:
    card = state["final_crisis"]["revealed"][role][-1]  # ``_fc_card``
    return board.with_room(state, role, _FC_SPACES[card], source)


def _fc_can_move(state: State, role: str) -> bool:
    """Whether ``role`` has a token to move into its card's dimension: ``from`` in
    ``_fc_options`` while no token is picked up and moves are left (asked after every
    move, so answered without listing the tokens)."""
    room = _fc_targets(state, role, None)
    if not room:
        return False
    if state["pool"][role] > 0:
        return True  # a token from the pool may go to any space with room
    if len(room) > 1:  # any token has some space other than its own
        return board.any_removable(state, role, SPACE_IDS)
    sources = board.removable(state, role, SPACE_IDS)
    return len(sources) > 1 or (len(sources) == 1 and sources[0] != room[0])


def _fc_must_act(state: State, role: str) -> bool:
    """Whether the pair asks anything of ``role`` as its turn begins (``fc["left"]`` 2,
    nothing picked up or removed yet): a token to remove when the dimensions match (one
    from the card's dimension is one from anywhere), a token to move when they differ."""
    if state["final_crisis"]["mode"] == "match":
        return board.any_removable(state, role, SPACE_IDS)
    return _fc_can_move(state, role)


def next_final_crisis_resolver(game: Game, state: State, fresh: bool = False) -> None:
    """Hand the pair's obligation to the next side (first player first), skipping a side
    that can do nothing; when both are done, reveal the next pair."""
    fc = state["final_crisis"]
    if not fresh:
        fc["resolve"].pop(0)
    while fc["resolve"]:
        role = fc["resolve"][0]
        fc.update(left=2, moving=None, removed=0)
        if _fc_must_act(state, role):
            goto(
                game, state, "final_crisis_match" if fc["mode"] == "match" else "final_crisis_move"
            )
            return
        if telling(state):
            verb = "remove" if fc["mode"] == "match" else "move"
            log(state, f"{_name(role)} has no token it can {verb}.")
        fc["resolve"].pop(0)
    goto(game, state, "final_crisis_reveal")


class _FinalCrisisStep(Step):
    one_chooser = True

    def active(self, game: Game, state: State) -> tuple[str, ...]:
        return (state["final_crisis"]["resolve"][0],)

    def actions(self, game: Game, state: State, role: str) -> Actions:
        return _fc_options(state, role)


class FinalCrisisMatch(_FinalCrisisStep):
    """Remove one own token from a space of the dimension, or two from anywhere."""

    def prompt(self, game: Game, state: State, role: str) -> str:
        dimension = DIMENSIONS[_dimension_of(_fc_card(state, role))].name
        if state["final_crisis"]["removed"]:
            return "Final Crisis: remove your second token from any space."
        return (
            "Final Crisis, same dimension: remove 1 of your tokens from "
            f"{a_or_an(dimension)} space, or 2 of your tokens from any spaces."
        )

    def label(self, game: Game, state: State, role: str, verb: str, arg: Arg) -> str:
        if verb == "remove":
            dimension = DIMENSIONS[SPACES[str(arg)].dimension].name
            return f"Remove 1 token from {space_name(str(arg))} (the {dimension} option)"
        which = "second of 2" if state["final_crisis"]["removed"] else "first of 2"
        return f"Remove a token from {space_name(str(arg))} ({which}, from anywhere)"

    def on_remove(self, game: Game, state: State, role: str, arg: Arg) -> None:
        board.remove(state, role, str(arg))
        if telling(state):
            log(state, f"{_name(role)} removes its token from {space_name(str(arg))}.")
        next_final_crisis_resolver(game, state)

    def on_remove_any(self, game: Game, state: State, role: str, arg: Arg) -> None:
        fc = state["final_crisis"]
        board.remove(state, role, str(arg))
        fc["removed"] += 1
        if telling(state):
            log(state, f"{_name(role)} removes its token from {space_name(str(arg))}.")
        if fc["removed"] >= 2 or not board.any_removable(state, role, SPACE_IDS):
            next_final_crisis_resolver(game, state)


class FinalCrisisMove(_FinalCrisisStep):
    """Move up to two own tokens from spaces and/or pool into the card's dimension."""

    def prompt(self, game: Game, state: State, role: str) -> str:
        fc = state["final_crisis"]
        dimension = DIMENSIONS[_dimension_of(_fc_card(state, role))].name
        if fc["moving"] is not None:
            return f"Final Crisis: move that token to {a_or_an(dimension)} space:"
        return (
            f"Final Crisis, different dimensions: you may move up to {_tokens(fc['left'])} from "
            f"your pool or any spaces into {dimension} spaces, one at a time, then Done."
        )

    def label(self, game: Game, state: State, role: str, verb: str, arg: Arg) -> str:
        if verb == "done":
            return "Done"
        if verb == "to":
            return f"Move it to {space_name(str(arg))}"
        return (
            "Take a token from your pool"
            if arg == "pool"
            else f"Take a token from {space_name(str(arg))}"
        )

    def on_from(self, game: Game, state: State, role: str, arg: Arg) -> None:
        state["final_crisis"]["moving"] = str(arg)

    def on_to(self, game: Game, state: State, role: str, arg: Arg) -> None:
        fc = state["final_crisis"]
        source, target = fc["moving"], str(arg)
        if source == "pool":
            board.place(state, role, target)
            if telling(state):
                log(state, f"{_name(role)} moves a token from its pool to {space_name(target)}.")
        else:
            board.move(state, role, source, target)
            if telling(state):
                log(
                    state,
                    f"{_name(role)} moves a token from {space_name(source)} "
                    f"to {space_name(target)}.",
                )
        fc["moving"] = None
        fc["left"] -= 1
        if fc["left"] <= 0 or not _fc_can_move(state, role):
            next_final_crisis_resolver(game, state)

    def on_done(self, game: Game, state: State, role: str, arg: Arg) -> None:
        next_final_crisis_resolver(game, state)


class FinalScoring(Step):
    """Dimensions, Fort Sumter and the pool bonus; ties: Fort Sumter, spaces, Unionist."""

    def enter(self, game: Game, state: State) -> None:
        heading(state, "Final scoring")
        vp = state["vp"]
        told = telling(state)  # a search's playout ends here: no line is composed for it
        for dimension in DIMENSIONS.values():
            owner = board.dimension_controller(state, dimension.id)
            if owner is not None:
                vp[owner] += 1
                if told:
                    log(state, f"{_name(owner)} controls the {dimension.name} dimension: +1 VP.")
        sumter = board.controller(state, FORT_SUMTER)
        if sumter is not None:
            vp[sumter] += 1
            if told:
                log(state, f"{_name(sumter)} controls Fort Sumter: +1 VP.")
        for role in ROLES:
            if state["pool"][role] - state["pool"][opponent(role)] >= 3:
                vp[role] += 1
                if told:
                    log(state, f"{_name(role)} has at least 3 more tokens in its pool: +1 VP.")
        winner, code, reason = decide_winner(state)
        state["phase"] = "over"
        if told:
            # The winner's points first: "wins, 3-7" read as if the winner scored 3.
            won, lost = vp[winner], vp[opponent(winner)]
            log(state, f"{_name(winner)} wins with {won} VP to {lost} ({reason}).")
        game.finish(state, winner, reason, {r: vp[r] for r in ROLES}, code=code)


def decide_winner(state: State) -> tuple[str, str, str]:
    """The winner, the outcome's code, and its reason in words."""
    vp = state["vp"]
    u, s = vp["unionist"], vp["secessionist"]
    if u != s:
        return ("unionist" if u > s else "secessionist"), "vp", "most victory points"
    sumter = board.controller(state, FORT_SUMTER)
    if sumter is not None:
        return sumter, "tie_fort_sumter", "tied on VP; controls Fort Sumter"
    counts = {r: board.spaces_controlled(state, r) for r in ROLES}
    if counts["unionist"] != counts["secessionist"]:
        winner = max(ROLES, key=lambda r: counts[r])
        return winner, "tie_spaces", "tied on VP; controls the most spaces"
    return (
        "unionist",
        "tie_unionist",
        "tied on VP, Fort Sumter and spaces; the Unionist wins ties",
    )


STEPS: dict[str, Step] = {
    "deal": Deal(),
    "choose_objective": ChooseObjective(),
    "play_cards": PlayCards(),
    "value_play": ValuePlay(),
    "event": EventStep(),
    "card_play_ends": CardPlayEnds(),
    "breaches": Breaches(),
    "tension_peace_commissioner": TensionPeaceCommissioner(),
    "next_card_play": NextCardPlay(),
    "set_aside": SetAside(),
    "pivotal_bonuses": PivotalBonuses(),
    "pivotal_bonus": PivotalBonus(),
    "dimension_scoring": DimensionScoring(),
    "objective_scoring": ObjectiveScoring(),
    "objective_events": ObjectiveEvents(),
    "objective_event_ends": ObjectiveEventEnds(),
    "final_crisis_check": FinalCrisisCheck(),
    "final_crisis": FinalCrisis(),
    "final_crisis_order": FinalCrisisOrder(),
    "final_crisis_reveal": FinalCrisisReveal(),
    "final_crisis_match": FinalCrisisMatch(),
    "final_crisis_move": FinalCrisisMove(),
    "final_scoring": FinalScoring(),
}
