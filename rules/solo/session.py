"""Setting up a solo session and the small procedures the player calls between rounds.

Everything here works on the plain state and returns nothing; the flow (``steps``)
decides what to ask next. ``settle`` is the one place that stops play to ask the player
the facts of a card just turned face up, then resumes where play was.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.core import IllegalAction, State, goto, heading, log, roll, shuffle
from rules.fate_die.faces import FACES
from rules.solo import cards
from rules.solo.display import (
    SLOTS,
    all_entries,
    deck_in_c,
    deck_of,
    discard,
    doubled_for,
    entries,
    face_up,
    flip_slot,
    hand_difference,
    random_face_up,
    refill,
    reshuffle,
    side_name,
    slot_of,
    standard_fill,
    take,
    target,
)
from rules.solo.sheets import SHEETS, of, sheet

# ------------------------------------------------------------------------------ set-up


def initialise(game: Any, state: State) -> None:
    options = state["options"]
    name = options["playsheet"]
    if name not in SHEETS:
        raise IllegalAction(f"There is no playsheet {name!r}; choose one of {', '.join(SHEETS)}.")
    data = sheet(name)
    state["playsheet"] = name
    sides: list[str] = data["sides"]
    played = options["side"]
    if played != "" and played not in sides:
        raise IllegalAction(f"The side must be one of {', '.join(sides)} (or empty for both).")
    scenario_name = options["scenario"]
    scenarios: dict[str, Any] = data.get("scenarios", {})
    if scenario_name and scenario_name not in scenarios:
        known = ", ".join(scenarios) or "none"
        raise IllegalAction(f"{data['title']} has no scenario {scenario_name!r} (known: {known}).")
    if options["deck_size"] and not 10 <= options["deck_size"] <= 400:
        raise IllegalAction(
            "The deck size must be between 10 and 400 cards (or 0 for the game's own size)."
        )
    scenario: dict[str, Any] = scenarios.get(scenario_name, {})
    state["scenario"] = scenario_name
    state["side_names"] = {**data["side_names"], **scenario.get("sides", {})}
    state["hands"] = _hands(data, options, scenario)
    state["identity"] = {}
    state["library"] = (
        cards.parse_card_list(options["card_list"], data) if options["card_list"] else {}
    )
    state["turn"] = 1
    state["die"] = None
    state["ts"] = None
    state["flow"] = None
    state["exhaust_said"] = False
    state["war_status"] = dict.fromkeys(sides, 0)
    state["commitment"] = dict.fromkeys(sides, "mobilization")
    state["goa_pending"] = False
    state["extra_cards"] = {}
    _decks(state, data)
    shown = [played] if played else list(sides)
    state["displays"] = {}
    for side in shown:
        deck = "shared" if data["deck"] == "single" else side
        diff = hand_difference(state)[side] if data["variable_hand"] else 0
        extra = scenario.get("extra", {}).get(side)
        state["displays"][side] = {
            "deck": deck,
            "slots": {s: [] for s in SLOTS},
            "remaining": state["hands"][side] if data["cards_remaining"] else None,
            "double": list(doubled_for(extra if extra is not None else diff)),
            "no_refill_second": list(scenario.get("no_refill_second", {}).get(side, [])),
            "aside": [],
        }
    heading(state, f"{data['title']}: CDG Solo System session")
    # Guns of August is taken out before the deal, so it can never be dealt into the
    # display by the shuffle, and waits face up on top of the deck afterwards.
    guns = _set_aside_guns_of_august(state, data)
    for side in shown:
        standard_fill(state, side)
    if guns:
        deck = state["decks"]["central_powers"]
        deck["draw"].insert(0, "CP1")
        deck["top_up"] = True
        state["goa_pending"] = True
        log(state, "Guns of August waits face up on top of the Central Powers deck.")
    _modified_setup(state, data)
    for side in shown:
        hand = state["hands"][side]
        log(state, f"{side_name(state, side)} Card Display dealt; Max Hand Size {hand}.")
    state["step"] = "table"
    settle(game, state, "table")


def _hands(
    data: dict[str, Any], options: dict[str, Any], scenario: dict[str, Any]
) -> dict[str, int]:
    sides = data["sides"]
    if data["max_hand"] == "command":
        given = {"blue": options["blue_hand"], "red": options["red_hand"]}
        return {s: int(scenario.get("max_hand", {}).get(s, given[s])) for s in sides}
    hand = int(data["max_hand"])
    if options["eight_card_hands"] and data.get("optional_max_hand"):
        hand = int(data["optional_max_hand"])
    return dict.fromkeys(sides, hand)


def _token_prefix(side: str) -> str:
    return "".join(word[0] for word in side.split("_"))


def _decks(state: State, data: dict[str, Any]) -> None:
    """Build and shuffle the draw deck(s)."""
    state["decks"] = {}
    names = ["shared"] if data["deck"] == "single" else list(data["sides"])
    for deck in names:
        entry: dict[str, Any] = {"draw": [], "top_up": False, "discard": [], "removed": []}
        if cards.managed(data):
            pog = cards.pog_cards()
            every = cards.side_cards(deck)
            entry["draw"] = [c for c in every if pog[c]["commitment"] == "mobilization"]
            entry["out"] = {
                level: [c for c in every if pog[c]["commitment"] == level]
                for level in ("limited", "total")
            }
        else:
            listed = state["library"].get(deck, {})
            size = len(listed) if listed else deck_size(state, data, deck)
            prefix = "k" if deck == "shared" else _token_prefix(deck)
            entry["prefix"] = prefix
            entry["size"] = size
            entry["draw"] = [f"{prefix}{n}" for n in range(1, size + 1)]
        shuffle(state, entry["draw"])
        state["decks"][deck] = entry


def deck_size(state: State, data: dict[str, Any], deck: str) -> int:
    """How many cards a deck of tokens holds: the ``deck_size`` option when given, else the
    game's real card count from the playsheet data (per side for dual decks)."""
    chosen = int(state["options"]["deck_size"])
    if chosen:
        return chosen
    size = data["deck_size"]
    return int(size[deck] if isinstance(size, dict) else size)


def _set_aside_guns_of_august(state: State, data: dict[str, Any]) -> bool:
    """Paths of Glory with the Guns of August option: take CP1 out of the Central Powers
    deck before the display is dealt; True when it was taken."""
    wanted = data["name"] == "paths_of_glory" and state["options"]["guns_of_august"]
    if not wanted or "central_powers" not in state["displays"]:
        return False
    deck = state["decks"]["central_powers"]
    if "CP1" not in deck["draw"]:
        return False
    deck["draw"].remove("CP1")
    return True


def _modified_setup(state: State, data: dict[str, Any]) -> None:
    """Standard+: the playsheet's own set-up steps."""
    displays = state["displays"]
    options = state["options"]
    if data["name"] == "illusions_of_glory":
        if "allied_powers" in displays:
            choice = options["offensive"]
            number = {"drive_on_east_prussia": 1, "galicia_offensive": 7}.get(choice)
            if number is None:
                raise IllegalAction("The offensive is drive_on_east_prussia or galicia_offensive.")
            title = choice.replace("_", " ").title()
            state["identity"]["offensive"] = {
                "number": number,
                "name": title,
                "value": None,
                "event": True,
                "kind": "plain",
            }
            displays["allied_powers"]["aside"].append({"card": "offensive", "up": True})
            state["extra_cards"]["allied_powers"] = ["offensive"]
            log(state, f"{title} is set aside by the Allied display for turns 1 and 2.")
        if "central_powers" in displays:
            state["identity"]["four_ops"] = {
                "number": None,
                "name": "set-aside 4 Ops card",
                "value": 4,
                "event": True,
                "kind": "plain",
            }
            displays["central_powers"]["aside"].append({"card": "four_ops", "up": True})
            state["extra_cards"]["central_powers"] = ["four_ops"]
            log(
                state,
                "A 4 Ops card is set aside: it refills the first slot the Central Powers empty.",
            )


# ----------------------------------------------------------- identifying flipped cards


def unknown_face_up(state: State) -> str | None:
    """A face-up card whose facts nobody has told yet (display, deck top, aside)."""
    for side in state["displays"]:
        for _slot, entry in all_entries(state, side):
            if entry["up"] and cards.facts(state, entry["card"]) is None:
                return str(entry["card"])
        for entry in state["displays"][side]["aside"]:
            if cards.facts(state, entry["card"]) is None:
                return str(entry["card"])
    return None


RESUME: dict[str, Callable[[Any, State], None]] = {}


def resumes(name: str) -> Callable[[Callable[[Any, State], None]], Callable[[Any, State], None]]:
    """Register a function play may resume at after the player told a card's facts."""

    def register(func: Callable[[Any, State], None]) -> Callable[[Any, State], None]:
        RESUME[name] = func
        return func

    return register


@resumes("table")
def to_table(game: Any, state: State) -> None:
    state["ts"] = None
    goto(game, state, "table")


def settle(game: Any, state: State, resume: str) -> None:
    """Ask for the facts of any face-up unknown card, then resume at ``resume``."""
    card = unknown_face_up(state)
    if card is not None:
        state["asking"] = {"card": card, "answers": {}, "resume": resume}
        goto(game, state, "identify")
        return
    state["asking"] = None
    RESUME[resume](game, state)


def record_facts(state: State, card: str, facts: dict[str, Any]) -> None:
    state["identity"][card] = facts
    if facts.get("number") is not None:
        deck = state["displays"][owner_side(state, card)]["deck"]
        state["library"].setdefault(deck, {})[str(facts["number"])] = dict(facts)


def owner_side(state: State, card: str) -> str:
    for side in state["displays"]:
        if slot_of(state, side, card) or any(
            e["card"] == card for e in state["displays"][side]["aside"]
        ):
            return str(side)
    raise ValueError(card)


def forget_returned(state: State) -> None:
    """A token shuffled back into a deck is anonymous again: next time it is another card."""
    for deck in state["decks"].values():
        for card in deck["draw"]:
            state["identity"].pop(card, None)


# ------------------------------------------------------------------- small procedures


def cards_remaining_down(state: State, side: str) -> None:
    display = state["displays"][side]
    if display["remaining"] is not None and display["remaining"] > 0:
        display["remaining"] -= 1


def random_discard(state: State, side: str, *, pool: str = "up") -> tuple[str | None, str | None]:
    """Discard one card of ``side`` picked by the Random Card Selection chart, slide its
    Cards Remaining one toward zero and refill face down. With no face-up card the marker
    still slides (Washington's War). Where the playsheet says the side must have Cards
    Remaining (Washington's War), a side at 0 loses nothing. Returns (card, the slot it
    left)."""
    who = side_name(state, side)
    if (
        of(state).get("random_discard_needs_remaining")
        and state["displays"][side]["remaining"] == 0
    ):
        # Washington's War, random discards: the side must have Cards Remaining.
        log(state, f"{who} has no Cards Remaining: no card is discarded.")
        return None, None
    card = random_face_up(state, side, pool)
    if card is None:
        if state["displays"][side]["remaining"] is None:
            log(state, f"{who} has no face-up card to discard.")
        else:
            cards_remaining_down(state, side)
            log(state, f"{who} has no face-up card to discard; Cards Remaining slides one.")
        return None, None
    slot = take(state, side, card)
    discard(state, side, card)
    if cards.kind(state, card) == "mandatory":
        # 6.34.B: a picked mandatory event is played, not discarded.
        log(
            state,
            f"{who}: {cards.name(state, card)} is mandatory, so it is played for its "
            "event instead of discarded.",
        )
    else:
        log(state, f"{who} discards {cards.name(state, card)} at random.")
    cards_remaining_down(state, side)
    return card, slot


def flip_whole_display(state: State, side: str) -> None:
    """Mata Hari / Cloak and Dagger: every face-down card of the display, deck top too."""
    for slot in SLOTS:
        flip_slot(state, side, slot)


def reroll_hands(state: State, *, lost_second: str) -> None:
    """Re-apply the variable hand size table after a Max Hand Size change.

    Slots that no longer hold two cards lose their second card: ``lost_second`` says
    whether it is discarded (Hellespont) or kept for the caller (returned elsewhere).
    Slots that now hold two get a face-down card from the deck.
    """
    diff = hand_difference(state)
    for side, display in state["displays"].items():
        new = list(doubled_for(diff[side]))
        for slot in [s for s in display["double"] if s not in new]:
            display["double"].remove(slot)
            cards_in = display["slots"][slot]
            if len(cards_in) > 1 and lost_second == "discard":
                gone = cards_in.pop()
                discard(state, side, gone["card"])
                log(state, f"{side_name(state, side)} discards the second card of slot {slot}.")
        for slot in [s for s in new if s not in display["double"]]:
            display["double"].append(slot)
            refill(state, side, slot, "down")
            log(state, f"{side_name(state, side)} adds a face-down card to slot {slot}.")


def shrink_hand(state: State, side: str, emptied: str | None) -> None:
    """Samurai (seppuku, command tent) and Tedorigawa: ``side``'s Max Hand Size fell by one
    and ``emptied`` is the slot its lost card left. If it still holds more (or as many)
    cards, the emptied slot takes the second card of the slot that stops being double,
    keeping its facing; if it now holds fewer, the slot is refilled from the deck and the
    other side's display grows by the table."""
    display = state["displays"][side]
    new = doubled_for(hand_difference(state)[side])
    losing = [s for s in display["double"] if s not in new]
    for slot in losing:
        display["double"].remove(slot)
        second = display["slots"][slot][1:] if len(display["slots"][slot]) > 1 else []
        short = emptied and len(display["slots"][emptied]) < target(state, side, emptied)
        if second and short and emptied != slot:
            display["slots"][slot].remove(second[0])
            display["slots"][emptied].append(second[0])
            log(state, f"The second card of slot {slot} moves to slot {emptied}.")
        elif second:
            # nowhere to move it (no slot was emptied): the hand shrinks by this card
            display["slots"][slot].remove(second[0])
            discard(state, side, second[0]["card"])
            log(state, f"The second card of slot {slot} is discarded.")
    if emptied and len(display["slots"][emptied]) < target(state, side, emptied) and not losing:
        refill(state, side, emptied, "down")
    reroll_hands(state, lost_second="discard")


def war_status_reshuffle(state: State, side: str) -> None:
    """Paths/Illusions of Glory: a new commitment level adds its cards to the side's deck;
    the display is emptied into the deck, shuffled, and dealt again as at set-up."""
    level = {"mobilization": "limited", "limited": "total"}[state["commitment"][side]]
    state["commitment"][side] = level
    deck = deck_of(state, side)
    deck["draw"].extend(deck.get("out", {}).pop(level, []))
    display = state["displays"][side]
    for slot in SLOTS:
        deck["discard"].extend(e["card"] for e in display["slots"][slot])
        display["slots"][slot] = []
    deck["draw"].extend(deck["discard"])
    deck["discard"] = []
    deck["top_up"] = False
    shuffle(state, deck["draw"])
    forget_returned(state)
    standard_fill(state, side)
    log(
        state,
        f"{side_name(state, side)} reaches {level.title()} War: its cards join the deck, "
        "the display is reshuffled and dealt again.",
    )


def full_reshuffle(state: State) -> None:
    """Caesar, end of turn 3: every strategy card (displays and discards) back into the
    deck, shuffled, displays dealt again."""
    deck = state["decks"]["shared"]
    for display in state["displays"].values():
        for slot in SLOTS:
            deck["draw"].extend(e["card"] for e in display["slots"][slot])
            display["slots"][slot] = []
    deck["draw"].extend(deck["discard"])
    deck["discard"] = []
    shuffle(state, deck["draw"])
    forget_returned(state)
    for side in state["displays"]:
        standard_fill(state, side)
    log(state, "End of turn 3: every strategy card is reshuffled and the displays dealt again.")


def do_reshuffle(state: State, deck_name: str) -> None:
    reshuffle(state, deck_name)
    forget_returned(state)


def fate_letters_roll(state: State) -> tuple[str, int]:
    """A Fate Die roll for a reaction check (Caesar): the face and the d6 behind it."""
    die = roll(state, 6)
    return FACES[die - 1], die


def face_up_kind(state: State, side: str, kinds: tuple[str, ...]) -> list[str]:
    return [c for c in face_up(state, side) if cards.kind(state, c) in kinds]


def numbered(state: State, side: str, numbers: list[int]) -> list[str]:
    """Face-up cards of ``side`` whose number is one of ``numbers``."""
    return [c for c in face_up(state, side) if cards.number(state, c) in numbers]


def slot_cards(state: State, side: str, slot: str) -> list[str]:
    return [e["card"] for e in entries(state, side, slot)]


def uses_deck_c(state: State) -> bool:
    return deck_in_c(state)


def sheet_flag(state: State, key: str) -> Any:
    return of(state).get(key)
