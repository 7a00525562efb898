"""A round of the automated side: roll the Fate Die, flip, list the allowed cards, play
one, refill, move Cards Remaining; with each playsheet's changes to that sequence."""

from __future__ import annotations

from typing import Any

from rules.core import State, goto, log
from rules.fate_die.faces import FLIPS
from rules.solo import cards, honor
from rules.solo.display import (
    SLOTS,
    all_entries,
    card_count,
    deck_of,
    discard,
    entries,
    face_down_slots,
    face_up,
    flip_slot,
    random_face_up,
    refill,
    side_name,
    slot_of,
    take,
)
from rules.solo.fate import LETTERS, allowed, face_title, roll_face
from rules.solo.session import (
    cards_remaining_down,
    flip_whole_display,
    forget_returned,
    random_discard,
    resumes,
    settle,
)
from rules.solo.sheets import named, of

REROLL_CAP = 30

#: How the log names a purpose.
PURPOSE_WORDS = {
    "ops": "Operations",
    "ap": "Activity Points",
    "sr": "Strategic Redeployment",
    "rp": "Replacement Points",
    "event": "its event",
    "order": "ordering units",
}


def other(state: State, side: str) -> str:
    a, b = of(state)["sides"]
    return str(b if side == a else a)


def begin_round(game: Any, state: State, side: str) -> None:
    """The automated side's round starts: the checks that skip the die, else a roll."""
    sheet = of(state)
    ts: dict[str, Any] = {"side": side, "face": None, "revealed": [], "rerolls": 0}
    state["ts"] = ts
    who = side_name(state, side)
    first_cp_round = state["goa_pending"] and side == "central_powers"
    if first_cp_round:
        state["goa_pending"] = False  # Guns of August waits for this round only
    if first_cp_round and card_on_top(state, side, "CP1"):
        log(
            state,
            "First Central Powers round: no Fate Die; Guns of August is played for its event.",
        )
        ts.update(no_die=True, allowed=["CP1"], only_event=True)
        show_no_die(state)
        goto(game, state, "choose")
        return
    if sheet["mandatory"] == "before_zero":
        mandatory = [c for c in face_up(state, side) if _is_mandatory(state, c, side)]
        remaining = state["displays"][side]["remaining"]
        if mandatory and remaining is not None and remaining <= len(mandatory):
            log(state, f"{who} must play its face-up mandatory card now: no Fate Die.")
            ts.update(no_die=True, allowed=mandatory, only_event=True)
            show_no_die(state)
            goto(game, state, "choose")
            return
    if (
        sheet["exhaustion"] == "caesar"
        and not deck_of(state, side)["draw"]
        and card_count(state, side) <= 4
    ):
        log(
            state,
            f"{who}'s deck is exhausted with 4 cards or fewer left: all are turned face "
            "up and any may be played, without the Fate Die.",
        )
        for slot in SLOTS:
            flip_slot(state, side, slot)
        ts.update(no_die=True, every=True)
        state["die"] = {"side": side, "face": None, "allowed": [], "pending": True}
        settle(game, state, "after_flip")
        return
    roll_die(game, state)


def card_on_top(state: State, side: str, card: str) -> bool:
    deck = deck_of(state, side)
    return bool(deck["draw"]) and deck["draw"][0] == card and bool(deck["top_up"])


def roll_die(game: Any, state: State) -> None:
    ts = state["ts"]
    side = ts["side"]
    face = roll_face(state)
    ts["face"] = face
    # the display shows this roll at once, even while its turned cards are being told
    state["die"] = {"side": side, "face": face, "allowed": [], "pending": True}
    log(state, f"Fate Die for {side_name(state, side)}: {face_title(state, face)}.")
    for slot in FLIPS[face]:
        ts["revealed"] += flip_slot(state, side, slot)
    settle(game, state, "flip_more" if face == "event_low" else "after_flip")


@resumes("flip_more")
def flip_more(game: Any, state: State) -> None:
    """'Flip any one face-down card until two are face up': the player chooses which."""
    side = state["ts"]["side"]
    if len(face_up(state, side)) < 2 and face_down_slots(state, side):
        goto(game, state, "flip_one")
    else:
        after_flip(game, state)


def _is_mandatory(state: State, card: str, side: str) -> bool:
    if cards.kind(state, card) == "mandatory":
        return True
    # For The People: Red River Campaign is mandatory only when the Union holds it
    return side == "union" and cards.number(state, card) in named(of(state), "union_mandatory")


@resumes("after_flip")
def after_flip(game: Any, state: State) -> None:
    sheet = of(state)
    ts = state["ts"]
    side = ts["side"]
    display = state["displays"][side]
    on_display = set(face_up(state, side))
    revealed = [c for c in ts["revealed"] if c in on_display]
    if sheet["mandatory"] == "immediate":
        for card in revealed:
            if _is_mandatory(state, card, side):
                slot = take(state, side, card)
                discard(state, side, card)
                log(
                    state,
                    f"Mandatory {cards.name(state, card)} is revealed and played for its "
                    "event at once; Cards Remaining does not move.",
                )
                ts["revealed"] = refill(state, side, slot, "up")
                settle(game, state, "after_flip")
                return
    if sheet["mandatory"] == "before_zero" and not ts.get("over_done"):
        mandatory = [c for c in revealed if _is_mandatory(state, c, side)]
        remaining = display["remaining"]
        if remaining is not None and len(mandatory) > remaining:
            ts["over_done"] = True
            deck = deck_of(state, side)
            vacated = []
            for card in mandatory:
                vacated.append(take(state, side, card))
                deck["draw"].append(card)
            from rules.core import shuffle

            shuffle(state, deck["draw"])
            forget_returned(state)
            ts["revealed"] = []
            for slot in vacated:
                ts["revealed"] += refill(state, side, slot, "up")
            log(
                state,
                "More mandatory cards were revealed than Cards Remaining: they go back "
                "into the deck and the slots are redrawn face up.",
            )
            settle(game, state, "after_flip")
            return
    ts["revealed"] = []
    choices = compute_allowed(state)
    forced = first_opportunity(state, side, ts["face"], choices)
    if forced:
        choices = forced[:1]
        ts["only_event"] = True
        log(
            state,
            f"{cards.name(state, forced[0])} is a first-opportunity mandatory card in a slot "
            "the Fate Die names: it must be played for its event now.",
        )
    if (
        ts["face"]
        and sheet["surprise_only_reroll"]
        and choices
        and all(cards.kind(state, c) == "surprise" for c in choices)
        and any(cards.kind(state, e["card"]) != "surprise" for _s, e in all_entries(state, side))
        and ts["rerolls"] < REROLL_CAP
    ):
        ts["rerolls"] += 1
        log(state, "Only Surprise cards are allowed: the Fate Die is rolled again.")
        roll_die(game, state)
        return
    if not choices:
        if ts["face"] and sheet["unplayable_reroll"] and ts["rerolls"] < REROLL_CAP:
            ts["rerolls"] += 1
            log(state, "The Fate Die allows no card: rolled again.")
            roll_die(game, state)
            return
        if sheet["exhaustion"] == "pog" and not deck_of(state, side)["draw"]:
            log(
                state,
                f"No playable card and an empty deck: {side_name(state, side)} takes an "
                "Automatic Operation with an Ops value of 1.",
            )
        else:
            log(state, f"The Fate Die allows {side_name(state, side)} no card this round.")
        state["die"] = {"side": side, "face": ts["face"], "allowed": []}
        settle(game, state, "table")
        return
    ts["allowed"] = choices
    state["die"] = {"side": side, "face": ts["face"], "allowed": list(choices)}
    goto(game, state, "choose")


def show_no_die(state: State) -> None:
    """A round played without the Fate Die: the display says so, not the last roll."""
    ts = state["ts"]
    state["die"] = {"side": ts["side"], "face": None, "allowed": list(ts["allowed"])}


def first_opportunity(state: State, side: str, face: str | None, choices: list[str]) -> list[str]:
    """For The People, Emancipation Proclamation (#81) once its conditions hold (ruling 13):
    a "First Opportunity Mandatory Card" that "must be played in any round when its slot
    appears" in the Fate Die result. Only a face naming lettered slots names its slot
    (ruling 12's reading: "event or lowest" names none)."""
    if not face:
        return []
    numbers = named(of(state), "first_opportunity")
    return [
        c
        for c in choices
        if cards.number(state, c) in numbers
        and _is_mandatory(state, c, side)
        and slot_of(state, side, c) in LETTERS[face]
    ]


def compute_allowed(state: State) -> list[str]:
    ts = state["ts"]
    side = ts["side"]
    sheet = of(state)
    if ts.get("every") or ts.get("senate"):
        choices = face_up(state, side)
    else:
        choices = allowed(state, side, ts["face"])
    extra = named(sheet, "surprise") + named(sheet, "reaction") if sheet["name"] == "caesar" else []
    for card in face_up(state, side):
        if cards.number(state, card) in extra and card not in choices:
            choices.append(card)  # Caesar: face-up surprise/reaction cards are always playable
    return choices


def purposes(state: State, card: str) -> list[str]:
    sheet = of(state)
    ts = state["ts"] or {}
    if ts.get("only_event"):
        return ["event"]
    out = []
    value = cards.value(state, card)
    for purpose in sheet["purposes"]:
        if purpose == "event":
            if cards.is_event(state, card):
                out.append(purpose)
        elif purpose == "discard":
            continue
        elif sheet["lowest"] == "board" or (value or 0) > 0:
            out.append(purpose)
    return out or ["event"]


def play(game: Any, state: State, card: str, purpose: str) -> None:
    """The chosen card is played: off the display, Cards Remaining, refill, its effects."""
    of(state)
    ts = state["ts"]
    side = ts["side"]
    who = side_name(state, side)
    slot = take(state, side, card)
    facts = cards.facts(state, card) or {}
    removed = purpose == "event" and bool(facts.get("removed_after_event"))
    discard(state, side, card, removed=removed)
    what = PURPOSE_WORDS.get(purpose, purpose)
    log(
        state,
        f"{who} plays {cards.name(state, card)} (slot {slot}) for {what}"
        + (", then it is removed from the game." if removed else "."),
    )
    if not ts.get("marker_moved"):
        cards_remaining_down(state, side)
    if purpose == "event" and facts.get("war_status"):
        state["war_status"][side] += int(facts["war_status"])
    if (
        slot in state["displays"][side]["no_refill_second"]
        and slot in state["displays"][side]["double"]
    ):
        state["displays"][side]["double"].remove(slot)  # C&C scenarios: the hand shrinks
    ts["slot"] = slot
    ts["card"] = card
    ts["purpose"] = purpose
    if state["scenario"] == "tedorigawa" and side == "blue":
        goto(game, state, "river")
        return
    finish_refill(game, state)


def finish_refill(game: Any, state: State) -> None:
    sheet = of(state)
    ts = state["ts"]
    side, slot, card, purpose = ts["side"], ts["slot"], ts["card"], ts["purpose"]
    facing = sheet["faces"][ts["face"]]["refill"] if ts["face"] else "down"
    if cards.kind(state, card) == "order_one_unit":
        facing = "up"
        if honor.tracked(state):
            honor.draw_dragon(state, side)  # Order One Unit: a Dragon card, face up
    aside = state["displays"][side]["aside"]
    four_ops = [e for e in aside if e["card"] == "four_ops"]
    if four_ops and slot != "C":
        aside.remove(four_ops[0])
        state["displays"][side]["slots"][slot].append({"card": "four_ops", "up": True})
        log(state, "The set-aside 4 Ops card fills the emptied slot, face up.")
    refill(state, side, slot, facing)
    _effects(state, side, card, purpose)
    settle(game, state, "table")


def _effects(state: State, side: str, card: str, purpose: str) -> None:
    """What a named card does to the displays when played."""
    sheet = of(state)
    num = cards.number(state, card)
    opponent = other(state, side)
    shown = opponent in state["displays"]
    if purpose == "event" and card in named(sheet, "flip_opponent") and shown:
        flip_whole_display(state, opponent)
        log(
            state,
            f"Every face-down card of the {side_name(state, opponent)} display, and the "
            "top card of its deck, is turned face up.",
        )
    random_hit = named(sheet, "random_discard") + named(sheet, "random_removal")
    if purpose == "event" and num in random_hit and shown:
        _gone, slot = random_discard(state, opponent)
        if slot is not None:
            refill(state, opponent, slot, "down")
    if num in named(sheet, "inactive_side_decides") and purpose == "event":
        log(state, "You decide for the other side whether it removes a unit or concedes the VP.")


def senate_exchange(state: State) -> None:
    """Caesar #42: Gaul swaps the card for a Rome face-up card picked with the chart,
    then may play any face-up card; the marker moves only once."""
    ts = state["ts"]
    gaul_card = next(
        c for c in ts["allowed"] if cards.number(state, c) in named(of(state), "senate_outraged")
    )
    rome_card = random_face_up(state, "rome")
    ts["senate"] = True
    if rome_card is None:
        log(state, "Rome has no face-up card to take.")
    else:
        gaul_slot = slot_of(state, "gaul", gaul_card)
        rome_slot = slot_of(state, "rome", rome_card)
        assert gaul_slot is not None and rome_slot is not None
        for entry in state["displays"]["gaul"]["slots"][gaul_slot]:
            if entry["card"] == gaul_card:
                entry["card"] = rome_card
        for entry in state["displays"]["rome"]["slots"][rome_slot]:
            if entry["card"] == rome_card:
                entry["card"] = gaul_card
        log(
            state,
            f"Senate Outraged: Gaul takes {cards.name(state, rome_card)} from Rome in exchange.",
        )
    ts["allowed"] = compute_allowed(state)


def everything_face_up(state: State, side: str) -> bool:
    return all(e["up"] for _s, e in all_entries(state, side)) and card_count(state, side) >= 5


def slot_label(state: State, side: str, card: str) -> str:
    slot = slot_of(state, side, card) or "?"
    return f"{slot}: {cards.name(state, card)}"


def cards_in(state: State, side: str, slot: str) -> list[str]:
    return [e["card"] for e in entries(state, side, slot)]
