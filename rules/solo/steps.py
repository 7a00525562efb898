"""The flow of a solo session: the table (between rounds) and the steps of a round.

The one role, ``solo``, is the player at the table. At ``table`` they tell Dispatch what
happens in their game (the automated side's round begins, a new turn, an attack, a
reaction check, a random discard, a reshuffle...); the steps after it follow the
playsheet and stop only where the text leaves a choice to the player.
"""

from __future__ import annotations

from typing import Any

from rules.core import Actions, Arg, State, Step, goto, heading, log, roll
from rules.core.log import a_or_an
from rules.solo import cards, honor
from rules.solo.display import (
    SLOTS,
    all_entries,
    deck_label,
    deck_of,
    discard,
    entries,
    face_down_slots,
    face_up,
    flip_one,
    random_face_up,
    refill,
    side_name,
    slot_of,
    take,
)
from rules.solo.fate import LETTERS, face_title
from rules.solo.fate import allowed as die_allowed
from rules.solo.session import (
    RESUME,
    cards_remaining_down,
    do_reshuffle,
    fate_letters_roll,
    full_reshuffle,
    random_discard,
    reroll_hands,
    settle,
    shrink_hand,
    war_status_reshuffle,
)
from rules.solo.sheets import named, of
from rules.solo.turn import (
    begin_round,
    compute_allowed,
    everything_face_up,
    finish_refill,
    other,
    play,
    purposes,
    roll_die,
    senate_exchange,
)

ROLE = "solo"
YES_NO: list[int | str] = ["yes", "no"]


class SoloStep(Step):
    def active(self, game: Any, state: State) -> tuple[str, ...]:
        return (ROLE,)


def _named_face_up(state: State, side: str, key: str) -> list[str]:
    numbers = named(of(state), key)
    return [c for c in face_up(state, side) if cards.number(state, c) in numbers]


def reaction_cards(state: State) -> list[str]:
    """Face-up cards a reaction check may fire for (For The People's twelve, Caesar's
    surprise and reaction cards)."""
    sheet = of(state)
    keys = ["reaction"] + (["surprise"] if sheet["name"] == "caesar" else [])
    out: list[str] = []
    for side in state["displays"]:
        for key in keys:
            out += [c for c in _named_face_up(state, side, key) if c not in out]
    return out


def card_words(state: State, side: str, card: str) -> str:
    """A card as a button names it: its slot letter and its name."""
    slot = slot_of(state, side, card)
    return f"{slot}: {cards.name(state, card)}" if slot else cards.name(state, card)


def yes_no(arg: Arg, yes: str, no: str) -> str:
    return yes if arg == "yes" else no


def kind_cards(state: State, side: str, kind: str) -> list[str]:
    return [c for c in face_up(state, side) if cards.kind(state, c) == kind]


class Table(SoloStep):
    """Between rounds: the player says what happens next at their table."""

    def prompt(self, game: Any, state: State, role: str) -> str:
        return (
            f"Turn {state['turn']}. Roll the Fate Die when an automated side's round "
            "comes, or tell me what happens in your game."
        )

    def actions(self, game: Any, state: State, role: str) -> Actions:
        sheet = of(state)
        displays = state["displays"]
        acts: Actions = {}
        rollable: list[int | str] = [
            s for s, d in displays.items() if d["remaining"] is None or d["remaining"] > 0
        ]
        if rollable:
            acts["roll"] = rollable
        acts["new_turn"] = True
        acts["reshuffle"] = sorted({d["deck"] for d in displays.values()})
        acts["random_discard"] = list(displays)
        if sheet["battle"]:
            acts["attack"] = list(sheet["sides"])
        checks: list[int | str] = list(reaction_cards(state))
        if checks:
            acts["reaction"] = checks
        if sheet["name"] == "caesar" and _named_face_up_anyside(state, "rome", "winter_campaign"):
            acts["winter_campaign"] = True
        strikes: list[int | str] = [s for s in displays if kind_cards(state, s, "first_strike")]
        if strikes:
            acts["first_strike"] = strikes
        if sheet["exhaustion"] == "caesar":
            borrowers: list[int | str] = [
                s
                for s in displays
                if not deck_of(state, s)["draw"]
                and other(state, s) in displays
                and any(not e for e in displays[s]["slots"].values())
            ]
            if borrowers:
                acts["borrow"] = borrowers
        conditional: list[int | str] = [
            c
            for side in displays
            for c in _named_face_up(state, side, "conditional_mandatory")
            if cards.kind(state, c) != "mandatory"
        ]
        if conditional:
            acts["mandatory"] = conditional
        if sheet.get("seppuku"):
            acts["seppuku"] = [s for s in displays if state["hands"][s] > 1]
            acts["end_of_turn"] = list(displays)
        if honor.tracked(state):
            acts.update(honor_actions(state))
        if state["scenario"] == "hellespont":
            acts["leader_lost"] = [s for s in sheet["sides"] if state["hands"][s] > 1]
        if sheet.get("war_status_reshuffle"):
            levels: list[int | str] = [s for s in displays if state["commitment"][s] != "total"]
            if levels:
                acts["commitment"] = levels
        aside = any(e["card"] == "offensive" for d in displays.values() for e in d["aside"])
        if aside and state["turn"] <= sheet.get("set_aside_offensive_until_turn", 0):
            acts["offensive"] = True
        acts["end"] = True
        return {k: v for k, v in acts.items() if v}

    def label(self, game: Any, state: State, role: str, verb: str, arg: Arg) -> str:
        names = {
            "roll": "Roll the Fate Die for {}",
            "random_discard": "Random discard from {}",
            "attack": "{} attacks",
            "first_strike": "{} plays First Strike",
            "borrow": "{} draws from the other display (deck exhausted)",
            "seppuku": "{} loses a leader or command tent",
            "end_of_turn": "End of turn for {}",
            "leader_lost": "{} loses a leader",
            "commitment": "{} raises its war commitment",
            "gain_token": "{} gains an Honor & Fortune token",
            "spend_token": "{} spends an Honor & Fortune token",
            "draw_dragon": "{} draws a Dragon card",
            "play_dragon": "{} plays a Dragon card",
        }
        if verb in names and isinstance(arg, str):
            return names[verb].format(side_name(state, arg))
        if verb == "reshuffle" and isinstance(arg, str):
            return f"Reshuffle the {deck_label(state, arg)}"
        if verb == "mandatory" and isinstance(arg, str):
            return f"{cards.name(state, arg)}: its conditions hold, it is mandatory now"
        if verb == "reaction" and isinstance(arg, str):
            return f"Reaction check: {cards.name(state, arg)}"
        return {
            "new_turn": "New turn",
            "winter_campaign": "Rome plays Winter Campaign",
            "offensive": "Play the set-aside offensive",
            "end": "End the session",
        }.get(verb, super().label(game, state, role, verb, arg))

    def on_roll(self, game: Any, state: State, role: str, arg: Arg) -> None:
        heading(state, f"{side_name(state, str(arg))} round")
        begin_round(game, state, str(arg))

    def on_new_turn(self, game: Any, state: State, role: str, arg: Arg) -> None:
        sheet = of(state)
        if sheet.get("full_reshuffle_after_turn") == state["turn"]:
            full_reshuffle(state)
        state["turn"] += 1
        heading(state, f"Turn {state['turn']}")
        growth = sheet.get("hand_growth", {}).get(str(state["turn"]))
        if growth:
            for side in sheet["sides"]:
                state["hands"][side] = int(growth)
            log(state, f"Max Hand Size rises to {growth}.")
        limit = sheet.get("set_aside_offensive_until_turn")
        if limit and state["turn"] == limit + 1:
            for side, display in state["displays"].items():
                for entry in [e for e in display["aside"] if e["card"] == "offensive"]:
                    display["aside"].remove(entry)
                    discard(state, side, "offensive", removed=True)
                    log(state, "The unused set-aside offensive is removed from the game.")
        if sheet["draw_phase"]:
            state["flow"] = {"sides": list(state["displays"]), "index": 0, "discarded": 0}
            goto(game, state, "draw_phase")
            return
        for side, display in state["displays"].items():
            if display["remaining"] is not None:
                display["remaining"] = state["hands"][side]
        settle(game, state, "table")

    def on_reshuffle(self, game: Any, state: State, role: str, arg: Arg) -> None:
        do_reshuffle(state, str(arg))
        if honor.tracked(state):
            honor.shuffle_dragons(state)  # "Shogun": the Dragon deck too
        settle(game, state, "table")

    def on_random_discard(self, game: Any, state: State, role: str, arg: Arg) -> None:
        side = str(arg)
        _card, slot = random_discard(state, side)
        if slot is not None:
            refill(state, side, slot, "down")
        settle(game, state, "table")

    def on_attack(self, game: Any, state: State, role: str, arg: Arg) -> None:
        attacker = str(arg)
        state["flow"] = {
            "attacker": attacker,
            "order": [attacker, other(state, attacker)],
            "index": 0,
            "played": [],
        }
        heading(state, f"{side_name(state, attacker)} attacks")
        goto(game, state, "battle")

    def on_reaction(self, game: Any, state: State, role: str, arg: Arg) -> None:
        card = str(arg)
        side = next(s for s in state["displays"] if slot_of(state, s, card))
        sheet = of(state)
        slot = slot_of(state, side, card)
        if sheet["name"] == "caesar":
            face, _die = fate_letters_roll(state)
            log(
                state,
                f"Reaction check for {cards.name(state, card)}: "
                f"Fate Die {face_title(state, face)}.",
            )
            if slot in LETTERS[face]:
                take(state, side, card)
                discard(state, side, card)
                surprise = cards.number(state, card) in named(sheet, "surprise")
                refill(state, side, str(slot), "down" if surprise else "up")
                log(
                    state,
                    f"{side_name(state, side)} plays it at once; Cards Remaining does not move.",
                )
            else:
                log(state, "Its slot is not named: it is not played.")
        else:
            die = roll(state, 6)
            if die <= 3:
                take(state, side, card)
                discard(state, side, card)
                refill(state, side, str(slot), "down")
                keeps = cards.number(state, card) in named(sheet, "reaction_keeps_marker")
                if not keeps:
                    cards_remaining_down(state, side)
                log(
                    state,
                    f"Reaction roll {die}: {side_name(state, side)} plays "
                    f"{cards.name(state, card)} for its event.",
                )
            else:
                log(state, f"Reaction roll {die}: {cards.name(state, card)} is not played.")
        settle(game, state, "table")

    def on_winter_campaign(self, game: Any, state: State, role: str, arg: Arg) -> None:
        card = _named_face_up_anyside(state, "rome", "winter_campaign")[0]
        slot = take(state, "rome", card)
        discard(state, "rome", card)
        cards_remaining_down(state, "rome")
        refill(state, "rome", slot, "down")
        log(state, "Rome interrupts with Winter Campaign, without the Fate Die.")
        settle(game, state, "table")

    def on_borrow(self, game: Any, state: State, role: str, arg: Arg) -> None:
        """Caesar, exhausted deck: a card draw of a Surprise or Reaction card takes a random
        face-down card of the other display (a face-up one if none), by the chart."""
        side = str(arg)
        lender = other(state, side)
        pool = "down" if any(not e["up"] for _s, e in all_entries(state, lender)) else "up"
        card = random_face_up(state, lender, pool)
        if card is None:
            log(state, f"{side_name(state, lender)} has no card to give.")
        else:
            entry = next(e for _s, e in all_entries(state, lender) if e["card"] == card)
            take(state, lender, card)
            empty = next(s for s in SLOTS if not state["displays"][side]["slots"][s])
            state["displays"][side]["slots"][empty].append(entry)
            log(
                state,
                f"{side_name(state, side)} draws a random card of the "
                f"{side_name(state, lender)} display into slot {empty}.",
            )
        settle(game, state, "table")

    def on_mandatory(self, game: Any, state: State, role: str, arg: Arg) -> None:
        """For The People #81/#82: their conditions now hold, so they count as mandatory."""
        card = str(arg)
        state["identity"][card] = {**state["identity"][card], "kind": "mandatory"}
        log(state, f"{cards.name(state, card)} now counts as a mandatory card.")

    def on_first_strike(self, game: Any, state: State, role: str, arg: Arg) -> None:
        side = str(arg)
        card = kind_cards(state, side, "first_strike")[0]
        slot = take(state, side, card)
        discard(state, side, card)
        refill(state, side, slot, "down")
        log(state, f"{side_name(state, side)} answers the close combat with First Strike.")
        settle(game, state, "table")

    def on_seppuku(self, game: Any, state: State, role: str, arg: Arg) -> None:
        side = str(arg)
        pool = "up" if face_up(state, side) else "any"
        _card, slot = random_discard(state, side, pool=pool)
        state["hands"][side] -= 1
        log(state, f"{side_name(state, side)} Max Hand Size falls to {state['hands'][side]}.")
        shrink_hand(state, side, slot)
        settle(game, state, "table")

    def on_end_of_turn(self, game: Any, state: State, role: str, arg: Arg) -> None:
        side = str(arg)
        state["flow"] = {"side": side, "stage": "reward"}
        if honor.honor(state)["tokens"][side] <= 2:
            honor.gain_tokens(state, side, 2)  # "2 or fewer": it takes the tokens
            state["flow"]["stage"] = "dragon"
        honor_next(game, state)

    def on_gain_token(self, game: Any, state: State, role: str, arg: Arg) -> None:
        honor.gain_tokens(state, str(arg), 1)

    def on_spend_token(self, game: Any, state: State, role: str, arg: Arg) -> None:
        honor.spend_token(state, str(arg))

    def on_draw_dragon(self, game: Any, state: State, role: str, arg: Arg) -> None:
        honor.draw_dragon(state, str(arg))

    def on_play_dragon(self, game: Any, state: State, role: str, arg: Arg) -> None:
        honor.play_dragon(state, str(arg))

    def on_leader_lost(self, game: Any, state: State, role: str, arg: Arg) -> None:
        side = str(arg)
        state["hands"][side] -= 1
        log(
            state,
            f"A leader is eliminated: {side_name(state, side)} Max Hand Size falls to "
            f"{state['hands'][side]}.",
        )
        reroll_hands(state, lost_second="discard")
        settle(game, state, "table")

    def on_commitment(self, game: Any, state: State, role: str, arg: Arg) -> None:
        war_status_reshuffle(state, str(arg))
        settle(game, state, "table")

    def on_offensive(self, game: Any, state: State, role: str, arg: Arg) -> None:
        display = state["displays"]["allied_powers"]
        display["aside"] = [e for e in display["aside"] if e["card"] != "offensive"]
        discard(state, "allied_powers", "offensive")
        cards_remaining_down(state, "allied_powers")
        log(state, "The Allies forgo the Fate Die and play the set-aside offensive for its event.")
        settle(game, state, "table")

    def on_end(self, game: Any, state: State, role: str, arg: Arg) -> None:
        log(state, "The solo session is closed.")
        game.finish(
            state, None, "the solo session was closed", {"turn": state["turn"]}, code="closed"
        )


def honor_actions(state: State) -> Actions:
    """Samurai: what the player may tell about tokens and Dragon cards."""
    counts = honor.honor(state) if state.get("honor") else None
    sides: list[int | str] = list(state["displays"])
    tokens = counts["tokens"] if counts else {}
    dragons = counts["dragons"] if counts else {}
    return {
        "gain_token": sides,
        "spend_token": [s for s in sides if tokens.get(s, 0) > 0],
        "draw_dragon": sides,
        "play_dragon": [s for s in sides if dragons.get(s, 0) > 0],
    }


def honor_next(game: Any, state: State) -> None:
    """End of turn, after the reward: ask about discarding a Dragon card for a token when
    the side played none this turn and holds one; then back to the table."""
    flow = state["flow"]
    side = flow["side"]
    counts = honor.honor(state)
    if flow["stage"] == "reward":
        goto(game, state, "honor")
        return
    if flow["stage"] == "dragon" and not counts["played"][side] and counts["dragons"][side]:
        goto(game, state, "honor")
        return
    counts["played"][side] = False  # a new turn begins for the side
    state["flow"] = None
    settle(game, state, "table")


def _named_face_up_anyside(state: State, side: str, key: str) -> list[str]:
    if side not in state["displays"]:
        return []
    return _named_face_up(state, side, key)


class FlipOne(SoloStep):
    """Face "event or lowest": the player turns one face-down card at a time."""

    def prompt(self, game: Any, state: State, role: str) -> str:
        return "Fewer than two cards are face up: choose a slot whose face-down card to turn."

    def actions(self, game: Any, state: State, role: str) -> Actions:
        return {"flip": list(face_down_slots(state, state["ts"]["side"]))}

    def label(self, game: Any, state: State, role: str, verb: str, arg: Arg) -> str:
        return f"Turn the face-down card in slot {arg}"

    def on_flip(self, game: Any, state: State, role: str, arg: Arg) -> None:
        ts = state["ts"]
        card = flip_one(state, ts["side"], str(arg))
        if card:
            ts["revealed"].append(card)
        settle(game, state, "flip_more")


VALUES: list[int | str] = list(range(0, 7))


class Identify(SoloStep):
    """A card came face up and its facts are not known: the player tells them."""

    def _question(self, state: State) -> str:
        asking = state["asking"]
        for q in of(state)["questions"]:
            if q not in asking["answers"]:
                return str(q)
        return ""

    def prompt(self, game: Any, state: State, role: str) -> str:
        q = self._question(state)
        side = side_name(state, _owner(state, state["asking"]["card"]))
        where = slot_of(state, _owner(state, state["asking"]["card"]), state["asking"]["card"])
        place = f"slot {where}" if where else "beside the display"
        return {
            "number": f"{a_or_an(side)[0].upper()}{a_or_an(side)[1:]} card is face up in "
            f"{place}: which card number is it?",
            "value": f"What is its {of(state)['value_word']} value?",
            "event": "Does it have an event you could play?",
            "kind": "What kind of card is it?",
        }[q]

    def actions(self, game: Any, state: State, role: str) -> Actions:
        q = self._question(state)
        if q == "number":
            deck = deck_of(state, _owner(state, state["asking"]["card"]))
            taken = {
                cards.number(state, c) for side in state["displays"] for c in face_up(state, side)
            }
            deck_name = state["displays"][_owner(state, state["asking"]["card"])]["deck"]
            listed = {int(n) for n in state["library"].get(deck_name, {})}
            numbers = sorted(set(range(1, deck["size"] + 1)) | listed)
            return {
                "number": [n for n in numbers if n not in taken],
                "unnumbered": True,
            }
        if q == "value":
            return {"value": VALUES}
        if q == "event":
            return {"event": YES_NO}
        return {"kind": list(of(state)["kinds"])}

    def label(self, game: Any, state: State, role: str, verb: str, arg: Arg) -> str:
        if verb == "number":
            return f"#{arg}"
        if verb == "unnumbered":
            return "It has no number"
        if verb == "event":
            return "Yes, it has an event" if arg == "yes" else "No event"
        if verb == "kind":
            return str(arg).replace("_", " ").capitalize()
        if verb == "value":
            return f"{arg} {of(state)['value_word']}"
        return str(arg)

    def on_number(self, game: Any, state: State, role: str, arg: Arg) -> None:
        asking = state["asking"]
        asking["answers"]["number"] = arg
        card = asking["card"]
        deck_name = state["displays"][_owner(state, card)]["deck"]
        known = state["library"].get(deck_name, {}).get(str(arg))
        if known is not None:
            state["identity"][card] = dict(known)
            settle(game, state, asking["resume"])
            return
        self._maybe_done(game, state)

    def on_unnumbered(self, game: Any, state: State, role: str, arg: Arg) -> None:
        state["asking"]["answers"]["number"] = None
        self._maybe_done(game, state)

    def on_value(self, game: Any, state: State, role: str, arg: Arg) -> None:
        state["asking"]["answers"]["value"] = arg
        self._maybe_done(game, state)

    def on_event(self, game: Any, state: State, role: str, arg: Arg) -> None:
        state["asking"]["answers"]["event"] = arg == "yes"
        self._maybe_done(game, state)

    def on_kind(self, game: Any, state: State, role: str, arg: Arg) -> None:
        state["asking"]["answers"]["kind"] = arg
        self._maybe_done(game, state)

    def _maybe_done(self, game: Any, state: State) -> None:
        if self._question(state):
            return
        asking = state["asking"]
        answers = asking["answers"]
        kind = answers.get("kind", "plain")
        facts = {
            "number": answers.get("number"),
            "name": "",
            "value": answers.get("value"),
            "event": bool(answers.get("event")) or kind in ("tactic", "first_strike"),
            "kind": kind,
        }
        card = asking["card"]
        state["identity"][card] = facts
        if facts["number"] is not None:
            deck = state["displays"][_owner(state, card)]["deck"]
            state["library"].setdefault(deck, {})[str(facts["number"])] = dict(facts)
        settle(game, state, asking["resume"])


def _owner(state: State, card: str) -> str:
    for side, display in state["displays"].items():
        if slot_of(state, side, card) or any(e["card"] == card for e in display["aside"]):
            return str(side)
    raise ValueError(card)


class Choose(SoloStep):
    """The Fate Die has spoken: the player says which allowed card the side plays."""

    def prompt(self, game: Any, state: State, role: str) -> str:
        ts = state["ts"]
        who = side_name(state, ts["side"])
        if ts.get("no_die"):
            return f"{who} plays one of these cards, without the Fate Die."
        lead = f"Fate Die: {face_title(state, ts['face'])}."
        if of(state)["lowest"] == "board" and ts["face"] in ("c_low", "event_low"):
            lead += " Among face-up cards, the lowest is the one ordering fewest units now."
        return f"{lead} Which card does {who} play? Ties are yours to break."

    def actions(self, game: Any, state: State, role: str) -> Actions:
        sheet = of(state)
        ts = state["ts"]
        side = ts["side"]
        acts: Actions = {"played": list(ts["allowed"])}
        if ts.get("no_die"):
            return acts
        if sheet["c_low_discard_event"] and ts["face"] in ("c_low", "event_low"):
            events: list[int | str] = [c for c in face_up(state, side) if cards.is_event(state, c)]
            if events:
                acts["discard"] = events
        if sheet["exchange_discard"] and not ts.get("exchanged"):
            pile = deck_of(state, side)["discard"]
            if pile and cards.is_event(state, pile[-1]):
                ops: list[int | str] = [
                    c
                    for c in ts["allowed"]
                    if (cards.value(state, c) or 0) > 0 and not cards.is_event(state, c)
                ]
                if ops:
                    acts["exchange"] = ops
        if sheet["name"] == "caesar" and ts["face"] and not ts.get("surprise_dropped"):
            # 7.5.4: only a Surprise card the die itself made playable, not one playable
            # whatever the die says (ruling 12).
            by_die = die_allowed(state, side, ts["face"])
            dropped: list[int | str] = [c for c in by_die if cards.kind(state, c) == "surprise"]
            if dropped:
                acts["drop_surprise"] = dropped
        if (
            side == "gaul"
            and "rome" in state["displays"]
            and not ts.get("senate")
            and any(
                cards.number(state, c) in named(sheet, "senate_outraged") for c in ts["allowed"]
            )
        ):
            acts["senate"] = True
        if sheet["unplayable_reroll"]:
            acts["unplayable"] = True
        return acts

    def label(self, game: Any, state: State, role: str, verb: str, arg: Arg) -> str:
        if isinstance(arg, str):
            slot = slot_of(state, state["ts"]["side"], arg)
            word = {
                "played": "Play",
                "discard": "Discard",
                "exchange": "Exchange",
                "drop_surprise": "Drop",
            }.get(verb, verb)
            return f"{word} {slot}: {cards.name(state, arg)}"
        return {
            "senate": "Exchange via Senate Outraged",
            "unplayable": "No card can be played",
        }.get(verb, verb)

    def on_played(self, game: Any, state: State, role: str, arg: Arg) -> None:
        state["ts"]["card"] = str(arg)
        goto(game, state, "purpose")

    def on_discard(self, game: Any, state: State, role: str, arg: Arg) -> None:
        """Washington's War: discard an Event card instead of playing one."""
        side = state["ts"]["side"]
        card = str(arg)
        slot = take(state, side, card)
        discard(state, side, card)
        cards_remaining_down(state, side)
        refill(state, side, slot, "down")
        log(state, f"{side_name(state, side)} discards {cards.name(state, card)}.")
        settle(game, state, "table")

    def on_exchange(self, game: Any, state: State, role: str, arg: Arg) -> None:
        """Washington's War 6.32.C: an allowed Ops card swaps with the top discarded Event."""
        ts = state["ts"]
        side = ts["side"]
        card = str(arg)
        pile = deck_of(state, side)["discard"]
        event = pile.pop()
        slot = take(state, side, card)
        pile.append(card)
        state["displays"][side]["slots"][slot].append({"card": event, "up": True})
        ts["exchanged"] = True
        log(
            state,
            f"{side_name(state, side)} exchanges {cards.name(state, card)} for the "
            f"discarded {cards.name(state, event)}.",
        )
        ts["allowed"] = compute_allowed(state)
        if event not in ts["allowed"]:
            ts["allowed"].append(event)

    def on_drop_surprise(self, game: Any, state: State, role: str, arg: Arg) -> None:
        """Caesar 7.5.4: an unwanted face-up Surprise card the Fate Die made playable (its
        slot is one the face names, or it is the lowest card) is discarded and replaced
        face up; the replacement may be played at once."""
        ts = state["ts"]
        side = ts["side"]
        card = str(arg)
        slot = take(state, side, card)
        discard(state, side, card)
        ts["surprise_dropped"] = True
        placed = refill(state, side, slot, "up")
        log(state, f"{side_name(state, side)} discards the unwanted {cards.name(state, card)}.")
        ts["allowed"] = [c for c in ts["allowed"] if c != card] + placed
        settle(game, state, "back_to_choose")

    def on_senate(self, game: Any, state: State, role: str, arg: Arg) -> None:
        senate_exchange(state)
        settle(game, state, "back_to_choose")

    def on_unplayable(self, game: Any, state: State, role: str, arg: Arg) -> None:
        ts = state["ts"]
        side = ts["side"]
        if everything_face_up(state, side):
            first = entries(state, side, "A")[0]["card"]
            take(state, side, first)
            discard(state, side, first)
            log(
                state,
                "Five unplayable face-up cards: slot A is discarded and cards are drawn "
                "until one can be played.",
            )
            state["flow"] = {"searching": True}
            _search_draw(game, state)
            return
        log(state, "No card can be played: the Fate Die is rolled again.")
        roll_die(game, state)


def _search_draw(game: Any, state: State) -> None:
    side = state["ts"]["side"]
    placed = refill(state, side, "A", "up")
    if not placed:
        log(state, "The deck is empty: the round ends without a card.")
        settle(game, state, "table")
        return
    settle(game, state, "search")


def _back_to_choose(game: Any, state: State) -> None:
    ts = state["ts"]
    ts["allowed"] = [c for c in ts["allowed"] if slot_of(state, ts["side"], c)]
    if not ts["allowed"]:
        settle(game, state, "table")
        return
    goto(game, state, "choose")


RESUME["back_to_choose"] = _back_to_choose
RESUME["search"] = lambda game, state: goto(game, state, "search")


class Search(SoloStep):
    """C&C, five unplayable cards: each card drawn into slot A is checked by the player."""

    def prompt(self, game: Any, state: State, role: str) -> str:
        card = entries(state, state["ts"]["side"], "A")[0]["card"]
        return f"Can {cards.name(state, card)} be played for any allowable purpose?"

    def actions(self, game: Any, state: State, role: str) -> Actions:
        return {"playable": YES_NO}

    def label(self, game: Any, state: State, role: str, verb: str, arg: Arg) -> str:
        return yes_no(arg, "Yes: it is played", "No: discard it and draw the next")

    def on_playable(self, game: Any, state: State, role: str, arg: Arg) -> None:
        ts = state["ts"]
        side = ts["side"]
        card = entries(state, side, "A")[0]["card"]
        if arg == "yes":
            ts["allowed"] = [card]
            ts["card"] = card
            ts["face"] = None  # slot A is refilled face down after the play
            goto(game, state, "purpose")
            return
        take(state, side, card)
        discard(state, side, card)
        _search_draw(game, state)


PURPOSE_LABELS = {
    "ops": "Operations",
    "ap": "Activity Points",
    "sr": "Strategic Redeployment",
    "rp": "Replacement Points",
    "event": "Event",
    "order": "Order units",
}


class Purpose(SoloStep):
    def prompt(self, game: Any, state: State, role: str) -> str:
        return f"For what purpose is {cards.name(state, state['ts']['card'])} played?"

    def label(self, game: Any, state: State, role: str, verb: str, arg: Arg) -> str:
        return PURPOSE_LABELS.get(str(arg), str(arg))

    def actions(self, game: Any, state: State, role: str) -> Actions:
        return {"purpose": list(purposes(state, state["ts"]["card"]))}

    def on_purpose(self, game: Any, state: State, role: str, arg: Arg) -> None:
        play(game, state, state["ts"]["card"], str(arg))


class River(SoloStep):
    """Tedorigawa: after an Oda command card, are 3 or more Oda units across the river?"""

    def prompt(self, game: Any, state: State, role: str) -> str:
        return "Are there 3 or more Oda units on the Uesugi side of the Tedori River?"

    def actions(self, game: Any, state: State, role: str) -> Actions:
        return {"across": YES_NO}

    def label(self, game: Any, state: State, role: str, verb: str, arg: Arg) -> str:
        return yes_no(arg, "Yes, 3 or more Oda units are across", "No, fewer than 3")

    def on_across(self, game: Any, state: State, role: str, arg: Arg) -> None:
        if arg == "yes":
            finish_refill(game, state)
            return
        ts = state["ts"]
        state["hands"]["blue"] -= 1
        log(state, f"Oda's Max Hand Size falls to {state['hands']['blue']}.")
        shrink_hand(state, "blue", ts["slot"])
        settle(game, state, "table")


class Battle(SoloStep):
    """An attack: first the attacker, then the defender, may commit face-up cards."""

    def _side(self, state: State) -> str:
        flow = state["flow"]
        return str(flow["order"][flow["index"]])

    def prompt(self, game: Any, state: State, role: str) -> str:
        side = side_name(state, self._side(state))
        if of(state)["battle"] == "battle":
            return f"Does {side} play a Battle card or discard an Event card for this battle?"
        return f"Which face-up Combat cards does {side} play in this combat? Then done."

    def actions(self, game: Any, state: State, role: str) -> Actions:
        side = self._side(state)
        acts: Actions = {"done": True}
        if side not in state["displays"]:
            return acts
        display = state["displays"][side]
        if of(state)["battle"] == "battle":
            if display["remaining"] == 0:
                return acts
            battle: list[int | str] = list(kind_cards(state, side, "battle"))
            events: list[int | str] = [
                c
                for c in face_up(state, side)
                if cards.is_event(state, c) and cards.kind(state, c) != "battle"
            ]
            if battle:
                acts["battle"] = battle
            if events:
                acts["discard"] = events
        else:
            combat: list[int | str] = list(kind_cards(state, side, "combat"))
            if combat:
                acts["combat"] = combat
        return acts

    def label(self, game: Any, state: State, role: str, verb: str, arg: Arg) -> str:
        side = self._side(state)
        who = side_name(state, side)
        if verb == "done":
            return f"{who} plays no more cards" if arg is None else "Done"
        words = card_words(state, side, str(arg))
        return {
            "battle": f"{who} plays {words} in the battle",
            "discard": f"{who} discards {words} for +1",
            "combat": f"{who} plays {words} as a Combat card",
        }.get(verb, words)

    def _lift(self, state: State, card: str) -> str:
        side = self._side(state)
        slot = take(state, side, card)
        facts = cards.facts(state, card) or {}
        discard(state, side, card, removed=bool(facts.get("removed_after_event")))
        state["flow"]["played"].append([side, slot])
        return slot

    def on_battle(self, game: Any, state: State, role: str, arg: Arg) -> None:
        self._lift(state, str(arg))
        log(
            state,
            f"{side_name(state, self._side(state))} plays {cards.name(state, str(arg))} "
            "in the battle; Cards Remaining does not move.",
        )
        self.on_done(game, state, role, None)

    def on_discard(self, game: Any, state: State, role: str, arg: Arg) -> None:
        self._lift(state, str(arg))
        cards_remaining_down(state, self._side(state))
        log(
            state,
            f"{side_name(state, self._side(state))} discards {cards.name(state, str(arg))} "
            "for +1 in the battle.",
        )
        self.on_done(game, state, role, None)

    def on_combat(self, game: Any, state: State, role: str, arg: Arg) -> None:
        self._lift(state, str(arg))
        log(
            state,
            f"{side_name(state, self._side(state))} plays {cards.name(state, str(arg))} "
            "as a Combat card.",
        )

    def on_done(self, game: Any, state: State, role: str, arg: Arg) -> None:
        flow = state["flow"]
        flow["index"] += 1
        if flow["index"] < 2:
            return
        facing = "down" if of(state)["battle"] == "battle" else "maintain"
        for side, slot in flow["played"]:
            refill(state, side, slot, facing)
        state["flow"] = None
        settle(game, state, "table")


class DrawPhase(SoloStep):
    """Paths/Illusions of Glory: one face-up Combat card may go per card remaining, then
    Cards Remaining resets and A, B, D, E are filled face down."""

    def _side(self, state: State) -> str:
        flow = state["flow"]
        return str(flow["sides"][flow["index"]])

    def prompt(self, game: Any, state: State, role: str) -> str:
        return (
            f"Draw Strategy Card Phase for {side_name(state, self._side(state))}: discard "
            "face-up Combat cards (one per card remaining), then done."
        )

    def actions(self, game: Any, state: State, role: str) -> Actions:
        side = self._side(state)
        acts: Actions = {"done": True}
        remaining = state["displays"][side]["remaining"] or 0
        combat: list[int | str] = [
            c
            for c in face_up(state, side, ("A", "B", "D", "E"))
            if cards.kind(state, c) == "combat"
        ]
        if combat and state["flow"]["discarded"] < remaining:
            acts["discard"] = combat
        return acts

    def label(self, game: Any, state: State, role: str, verb: str, arg: Arg) -> str:
        side = self._side(state)
        if verb == "done":
            return f"Done discarding: reset the {side_name(state, side)} display"
        return f"Discard {card_words(state, side, str(arg))}"

    def on_discard(self, game: Any, state: State, role: str, arg: Arg) -> None:
        side = self._side(state)
        take(state, side, str(arg))
        discard(state, side, str(arg))
        state["flow"]["discarded"] += 1
        log(state, f"{side_name(state, side)} discards {cards.name(state, str(arg))}.")

    def on_done(self, game: Any, state: State, role: str, arg: Arg) -> None:
        side = self._side(state)
        state["displays"][side]["remaining"] = state["hands"][side]
        for slot in ("A", "B", "D", "E"):
            refill(state, side, slot, "down")
        flow = state["flow"]
        flow["index"] += 1
        flow["discarded"] = 0
        if flow["index"] >= len(flow["sides"]):
            state["flow"] = None
            settle(game, state, "table")


class Honor(SoloStep):
    """Samurai, end of turn: a Dragon card or 2 Honor & Fortune tokens (the side takes the
    tokens while it holds 2 or fewer), then perhaps a Dragon card discarded for a token."""

    def prompt(self, game: Any, state: State, role: str) -> str:
        flow = state["flow"]
        side = side_name(state, flow["side"])
        counts = honor.honor(state)
        if flow["stage"] == "reward":
            held = counts["tokens"][flow["side"]]
            return (
                f"{side} holds {held} Honor & Fortune tokens: it draws a Dragon card or "
                "gains 2 tokens, your choice."
            )
        held = counts["dragons"][flow["side"]]
        return (
            f"{side} played no Dragon card this turn: does it discard one of its {held} "
            "for a token?"
        )

    def actions(self, game: Any, state: State, role: str) -> Actions:
        if state["flow"]["stage"] == "reward":
            return {"reward": ["dragon", "tokens"]}
        return {"dragon_discard": YES_NO}

    def label(self, game: Any, state: State, role: str, verb: str, arg: Arg) -> str:
        if verb == "reward":
            return "Draw a Dragon card" if arg == "dragon" else "Gain 2 Honor & Fortune tokens"
        return yes_no(arg, "Yes, discard a Dragon card for a token", "No, keep its Dragon cards")

    def on_reward(self, game: Any, state: State, role: str, arg: Arg) -> None:
        flow = state["flow"]
        if arg == "dragon":
            honor.draw_dragon(state, flow["side"])
        else:
            honor.gain_tokens(state, flow["side"], 2)
        flow["stage"] = "dragon"
        honor_next(game, state)

    def on_dragon_discard(self, game: Any, state: State, role: str, arg: Arg) -> None:
        flow = state["flow"]
        if arg == "yes":
            honor.discard_dragon_for_token(state, flow["side"])
        flow["stage"] = "done"
        honor_next(game, state)


STEPS: dict[str, Step] = {
    "table": Table(),
    "flip_one": FlipOne(),
    "identify": Identify(),
    "choose": Choose(),
    "search": Search(),
    "purpose": Purpose(),
    "river": River(),
    "battle": Battle(),
    "draw_phase": DrawPhase(),
    "honor": Honor(),
}

__all__ = ["ROLE", "SLOTS", "STEPS"]
