"""The CDG Solo System: a Fate Die assistant for solitaire play of card-driven games.

System: CDG Solo System, playsheets by Stuka Joe, Ken Kuhn, Chris Crane and Shane Avery,
GMT Games 2022 (the playsheets' text; facts beyond it from public descriptions of the
system). Seven playsheets, kept as data in ``data/``:
Washington's War, Caesar: Rome vs Gaul, Paths of Glory, Illusions of Glory, For The
People, Commands & Colors: Ancients, Commands & Colors: Samurai. Two more, designed by
Dispatch in the same form, run a side of our own Fort Sumter and Lincoln as the Fate Die
opponent (``rules.fate_die.opponent``; they are not offered to the assistant).

One role, ``solo``: the player at the table. A side run by the system keeps its "hand"
as a Card Display of five slots A-E (``display``); the Fate Die (``fate``) says which
cards it may play; the player answers the few choices the text leaves to them and tells
Dispatch what happens on the board (``steps``). Options: ``playsheet``, ``side`` (empty:
the system runs both sides, as the playsheets' opposed procedures assume), ``scenario``
(C&C), ``deck_size``/``card_list`` (games without a public card list),
``eight_card_hands``, ``guns_of_august`` (Paths of Glory), ``offensive`` (Illusions of
Glory), ``blue_hand``/``red_hand`` (C&C command levels).

Ambiguities of the text and our rulings:

1. Standard set-up is not in the text (it is in the system's own summary, which we do
   not have): A and B face up, C, D, E face down, per the public reference note.
   "Standard+" is that plus the sheet's Modified Setup section.
2. Paths and Illusions of Glory say "flip the top card of the deck in slot C" and refill
   "keeping face up" or "maintaining facing": we read slot C as the top of the draw deck.
   C is flipped in place and played from there; any other emptied slot takes the deck's
   top card with its facing (so "keep face up" after C was flipped is the same rule).
3. Washington's War "Ops card" vs "Event card": a card told with value 0 is an Event
   card and never counts for "lowest Ops". Its "discard an Event card" option on the
   first two faces may discard any face-up Event card of the display.
4. "Lowest" ties: every tied card is listed; the player picks. Caesar counts 0 and 1 AP
   as equal. For C&C ("lowest order-count", which depends on the board) every face-up
   candidate is listed and the prompt asks for the one ordering fewest units now.
5. "Flip any one face-down card until two are face up": the player chooses each slot;
   in a slot holding two cards only the first face-down card turns.
6. The Random Card Selection chart covers 1-5 face-up cards counted A to E (first card of
   a double slot first). With more than five (double slots), the chart picks a slot
   among those holding face-up cards, then a card within it.
7. A card played from a double slot is replaced face down so the slot holds two again,
   except in the C&C scenarios' no-refill slots, which then hold one for good.
8. Mandatory cards (Washington's War): each one revealed by the die's flips, or drawn face
   up as a replacement, is played for its event at once with no marker move, repeatedly;
   For The People: once per flip, more revealed mandatory cards than Cards Remaining go
   back into the deck (shuffled) and their slots are redrawn face up; when Cards Remaining
   is no more than the face-up mandatory cards, the round plays one of them without a die.
9. Deck exhaustion: Paths/Illusions of Glory reshuffle the discards at once when a draw
   finds the deck empty (the host game's rule), and only when discards are empty too do
   slots stay empty and Cards Remaining drop to 4; a die with nothing playable then is an
   Automatic Operation of 1 Ops (no marker move). Caesar: a side with an empty deck and 4
   cards or fewer turns all face up and plays any, no die. Elsewhere an empty deck leaves
   the slot empty until the player calls a reshuffle.
10. Reshuffles discard face-down display cards and shuffle the discard pile with the
   draw deck (the host games' meaning of "reshuffle the discard pile back"). I Am
   Spartacus and Shogun are the same procedure on the one shared deck, both displays.
11. Paths of Glory's Mata Hari is #17 in the card list (the playsheet says #22): we follow
   the card list. Its effect, and Cloak and Dagger's, apply when played as an event.
   War status points of events are summed per side; the commitment change itself (and so
   the War Status Reshuffle with the new cards) is the player's call (verb commitment).
12. Caesar's reaction check rolls the Fate Die and fires if the face names the card's
   slot: "event or lowest" names no slot, "C or lowest" names C only. A face-up surprise
   or reaction card is also playable by the active side whatever the die says, but only
   one the die itself allows (its slot named, or lowest) may be discarded as unwanted
   (7.5.4: "only ... if the card is playable as a result of the Fate Die roll").
13. Named card effects (Washington's War random discards, For The People's random
   removals, Mata Hari) fire when the card is played for its event. Washington's War's
   random discards (its "Random Discard" section: the opposing side "must have Cards
   Remaining") take nothing from a side whose Cards Remaining is 0, whether a named card
   or the player (verb random_discard) calls them. For The People's
   Emancipation Proclamation (#81) and Foreign Intervention (#82) become mandatory only
   when their conditions hold: the player says so (verb mandatory, offered while either
   is face up), and from then on they count as mandatory cards. #81 is then a "First
   Opportunity Mandatory Card" (its "Mandatory Cards" section): a face naming its slot
   allows it alone, for its event; "event or lowest" names no slot (as in ruling 12).
   Red River Campaign (#14) is always mandatory on the Union display.
14. Reaction cards (For The People) are checked when the player says their requirements
   hold (verb reaction); 1-3 plays them. Battle (Washington's War) and combat (Paths /
   Illusions) cards: played combat cards do not move Cards Remaining (they are not the
   round's card); a Washington's War Event discarded for +1 does.
15. Cards Remaining resets at "new_turn" (the host game's deal). Caesar's end of turn 3
   reshuffles every strategy card and deals the displays again.
16. Samurai seppuku / command tent: with no face-up card the chart picks among all cards.
   If the slot that stops being double holds only one card, nothing moves and the display
   simply holds one card fewer. Dragon cards and Honor & Fortune tokens are counted
   (``honor.py``): per side the tokens and Dragon cards held, and the Dragon deck's draw
   and discards, reshuffled with the "Shogun" reshuffle or when a draw finds it empty.
   The end of turn gives a side holding 2 tokens or fewer its 2 tokens without asking
   (End of Turn section); a scenario's starting counts are the player's to enter.
17. Illusions of Glory: the set-aside offensive may be played on an Allied round of turns
   1-2 (it moves Cards Remaining, being that round's card) and is removed at the start of
   turn 3. The set-aside 4 Ops card refills the first slot the Central Powers empty.
18. Games without a card list: cards are anonymous tokens until turned face up; the player
   then gives the card number (or none), and, if the number is new, its value, event and
   kind. Numbered facts are remembered per deck; a token shuffled back is anonymous again.
   Each deck holds the game's real number of cards (``deck_size`` in the playsheet data,
   with its source), so card numbers run up to it (For The People's #130) and decks run
   out when the game's do (Caesar's turns 3 and 6). The ``deck_size`` option (0: the
   game's own) overrides it; an imported list sets it to the list's length.
19. C&C unplayable results: "no card can be played" is the player's call (verb
   unplayable); five face-up unplayable cards start the slot-A search.
20. Caesar, exhausted deck: when a Surprise or Reaction card makes its side draw (verb
   borrow), the chart picks among the other display's face-down cards (face-up ones if it
   has none), counted A to E; the card keeps its facing in the drawer's first empty slot.
21. Who goes first (Washington's War 5.3.A, For The People 3.31): the view says whether
   the British / Confederate display shows a face-up Campaign card (kind "campaign");
   the player applies the host game's rule.
22. Illusions of Glory has no card list, so its War Status Reshuffle (verb commitment)
   reshuffles and deals the display again but adds no new tokens: the new physical cards
   simply join the anonymous deck.
23. Playsheet flow: the player tells Dispatch when an automated side's round begins (verb
   roll), when a turn ends (new_turn) and what happens on the board (attack, reaction,
   reshuffle...); Dispatch never guesses the host game's sequence of play.
24. Illusions of Glory's "Reaction Cards" heading carries no text in the playsheet, so
   nothing is added for it; its #38, #45, #52 and #55 only remind the player (in the log)
   to decide the inactive side's answer. Samurai's Dragon cards are the player's to keep.
25. C&C sides are called blue and red; a scenario renames them. The side that carries the
   extra cards is the one whose second cards the text says not to refill (Carthaginian,
   Pompeian, Athenian: red) with the difference the text gives (4, 3, 4); the growing
   side's display is untouched, as the text says to refill it as normal. Hellespont's
   hand sizes are not in the text: set them with blue_hand (Craterus) and red_hand
   (Eumenes, the larger). Tedorigawa's 6 (Oda, blue) and 5 (Uesugi, red) are.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any, ClassVar

from mypy_extensions import mypyc_attr

from rules.core import Game, State, Step, View
from rules.solo import cards, honor
from rules.solo.display import SLOTS, all_entries, deck_label, entries, face_up, slot_of
from rules.solo.fate import face_title
from rules.solo.session import initialise
from rules.solo.sheets import SHEETS, of
from rules.solo.steps import ROLE, STEPS


@mypyc_attr(allow_interpreted_subclasses=True)
class SoloSystem(Game):
    name = "solo"
    title = "CDG Solo System"
    roles = (ROLE,)
    one_seat = True
    outcome_codes = frozenset({"closed"})
    role_names: ClassVar[dict[str, str]] = {ROLE: "Solo player"}
    state_version = 1
    steps: ClassVar[dict[str, Step]] = STEPS
    renderer: ClassVar[str | None] = "render.solo"
    policy: ClassVar[str | None] = "rules.solo.policy"
    default_options: ClassVar[dict[str, Any]] = {
        "playsheet": "paths_of_glory",
        "side": "",
        "scenario": "",
        "deck_size": 0,
        "card_list": "",
        "eight_card_hands": False,
        "guns_of_august": False,
        "offensive": "drive_on_east_prussia",
        "blue_hand": 5,
        "red_hand": 5,
    }
    summary = (
        "The CDG Solo System runs one or both sides of a card-driven game for a solitaire "
        "player. Each side's hand is a Card Display of slots A-E. On its round, roll the "
        "Fate Die: it turns some cards face up and names the cards the side may play; you "
        "pick one and its purpose, the slot is refilled and Cards Remaining moves. Playsheets: "
        + ", ".join(SHEETS)
        + "."
    )

    def initialise(self, state: State) -> None:
        initialise(self, state)
        # Every dict of the session in the order the store gives it back (its keys
        # sorted): the rules take the sides, slots and decks in their dicts' order, and a
        # session read back from the store must act exactly as one replayed in memory
        # from its set-up, or its record would not replay.
        in_stored_order = json.loads(json.dumps(state, sort_keys=True))
        state.clear()
        state.update(in_stored_order)

    def public_view(self, state: State) -> View:
        sheet = of(state)
        displays = {}
        # The playsheet's order of sides, whatever order the state's dict keeps.
        for side in [s for s in sheet["sides"] if s in state["displays"]]:
            display = state["displays"][side]
            slots = {}
            for slot in SLOTS:
                slots[slot] = [_shown(state, e) for e in entries(state, side, slot)]
            displays[side] = {
                "name": state["side_names"][side],
                "slots": slots,
                "double": list(display["double"]),
                "max_hand": state["hands"][side],
                "remaining": display["remaining"],
                "aside": [_shown(state, e) for e in display["aside"]],
            }
        decks = {
            name: {
                "label": deck_label(state, name),
                "draw": len(deck["draw"]),
                "discard": len(deck["discard"]),
                "discard_top": _shown(state, {"card": deck["discard"][-1], "up": True})
                if deck["discard"]
                else None,
                "removed": len(deck["removed"]),
            }
            for name, deck in state["decks"].items()
        }
        last = _last_die(state)
        return {
            "playsheet": sheet["name"],
            "title": sheet["title"],
            "value_word": sheet["value_word"],
            "deck_in_slot_c": bool(sheet["deck_in_slot_c"]),
            "board_values": sheet["lowest"] == "board",
            "scenario": state["scenario"],
            "turn": state["turn"],
            "displays": displays,
            "decks": decks,
            "die": last,
            "war_status": dict(state["war_status"]) if sheet.get("war_status_reshuffle") else {},
            "honor": honor.view(state),
            "campaign_face_up": _campaign_face_up(state),
        }

    def catalogue(self) -> list[dict[str, Any]]:
        return [
            {"id": cid, "name": f["name"], "text": f"{f['value']} Ops, SR {f['sr']}", **f}
            for cid, f in cards.pog_cards().items()
        ]

    def invariants(self, state: State) -> list[str]:
        return invariants(state)


def _last_die(state: State) -> dict[str, Any] | None:
    """The last Fate Die (or die-less round) as the table sees it. ``allowed`` names each
    allowed card with its slot letter while it is still on the display; ``allowed_ids``
    are those of them face up now (to ring them: a card since turned face down, or dealt
    again, is not named by id); ``pending``: the roll's newly turned cards are still being
    told, so what it allows is not known yet."""
    die = state["die"]
    if not die:
        return None
    side = die["side"]
    up = set(face_up(state, side)) if side in state["displays"] else set()
    named_cards = []
    for card in die["allowed"]:
        slot = slot_of(state, side, card) if card in up else None
        named_cards.append(
            f"{slot}: {cards.name(state, card)}" if slot else cards.name(state, card)
        )
    return {
        "side": side,
        "face": die["face"],
        "title": face_title(state, die["face"]) if die["face"] else "",
        "allowed": named_cards,
        "allowed_ids": [c for c in die["allowed"] if c in up],
        "pending": bool(die.get("pending")),
    }


def _campaign_face_up(state: State) -> bool | None:
    """Washington's War 5.3.A / For The People 3.31: a face-up Campaign card on the named
    side's display settles who goes first without a Fate Die roll. None: not this sheet."""
    side = of(state).get("who_goes_first")
    if not side or side not in state["displays"]:
        return None
    return any(
        cards.kind(state, e["card"]) == "campaign" and e["up"] for _s, e in all_entries(state, side)
    )


def _shown(state: State, entry: dict[str, Any]) -> dict[str, Any]:
    """A card as anyone may see it: face-down cards show nothing but their back."""
    if not entry["up"]:
        return {"up": False}
    known = cards.facts(state, entry["card"])
    facts = known or {}
    return {
        "up": True,
        "told": known is not None,
        "card": entry["card"],
        "name": cards.name(state, entry["card"]),
        "value": facts.get("value"),
        "event": facts.get("event"),
        "kind": facts.get("kind"),
        **({"sr": facts["sr"]} if "sr" in facts else {}),
        **({"removed_after_event": True} if facts.get("removed_after_event") else {}),
    }


def expected_cards(state: State, deck_name: str) -> list[str]:
    """Every card that belongs to a deck (tokens, or the Paths of Glory cards of a side)."""
    deck = state["decks"][deck_name]
    extra = list(state["extra_cards"].get(deck_name, []))
    if "prefix" in deck:
        return [f"{deck['prefix']}{n}" for n in range(1, deck["size"] + 1)] + extra
    return cards.side_cards(deck_name)


def invariants(state: State) -> list[str]:
    """Broken conservation rules: every card is in exactly one place, slots hold one or
    two cards, markers stay in range, the allowed cards of the last die are real."""
    broken: list[str] = []
    for deck_name, deck in state["decks"].items():
        seen: Counter[str] = Counter(deck["draw"] + deck["discard"] + deck["removed"])
        for level in deck.get("out", {}).values():
            seen.update(level)
        for side, display in state["displays"].items():
            if display["deck"] != deck_name:
                continue
            for slot in SLOTS:
                seen.update(e["card"] for e in display["slots"][slot])
                if len(display["slots"][slot]) > (2 if slot in display["double"] else 1):
                    broken.append(f"{side} slot {slot} holds more cards than its size")
            seen.update(e["card"] for e in display["aside"])
            if of(state)["deck_in_slot_c"] and display["slots"]["C"]:
                broken.append(f"{side} slot C holds cards though the deck sits there")
            remaining = display["remaining"]
            if remaining is not None and not 0 <= remaining <= max(state["hands"][side], 8):
                broken.append(f"{side} Cards Remaining {remaining} is off the track")
        expected = Counter(expected_cards(state, deck_name))
        if seen != expected:
            missing = sorted((expected - seen).elements())[:3]
            extra = sorted((seen - expected).elements())[:3]
            broken.append(f"deck {deck_name}: cards unaccounted for {missing}, extra {extra}")
    if not state["decks"]:
        broken.append("no deck")
    for side in state["displays"]:
        for _slot, entry in all_entries(state, side):
            if (
                entry["up"]
                and cards.facts(state, entry["card"]) is None
                and state["step"] != "identify"
            ):
                broken.append(f"face-up card {entry['card']} has no facts outside identify")
    return broken


GAME = SoloSystem()

__all__ = ["GAME", "SoloSystem", "invariants"]
