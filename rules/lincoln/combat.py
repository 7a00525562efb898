"""Combat, in the order of the rules text: the attacker's armies enter a half, the
defender gathers there, the attacker's face-down card, the defender's choice (withdraw,
or fight with or without a face-down card), the reveal and the sums, casualties chosen
by each side, retreats, control flags, and the Europe track.

``state["battle"]`` is the battle in progress; the attacking armies wait in it
(``"attackers"``) and join the map only if they win. The defending units stay on the map,
in the attacked half.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rules.core import Actions, Arg, State, Step, goto, heading, log, plural, telling
from rules.lincoln import board, piles
from rules.lincoln.board import FORT_VALUE, Unit, describe, sync_captures, unit_key
from rules.lincoln.common import check_europe, finish_action, naval_cards, options
from rules.lincoln.data import (
    ADJACENT,
    CARDS,
    LOCATIONS,
    ROLE_NAMES,
    TOP_THREE,
    card_facts,
    card_name,
    half_name,
    name,
    opponent,
)
from rules.lincoln.events import battle_bonus

if TYPE_CHECKING:
    from rules.core import Game

WASHINGTON = "washington"
#: The half of Washington that Union units reach by sea.
_SEA_HALF = int(LOCATIONS[WASHINGTON]["sea_half"] or 0)


@dataclass(frozen=True)
class Approach:
    """How attacking armies came: ``by`` rail (along ``link``, from ``origin``'s
    ``origin_half``), by sea (``naval``), or from the other half of a contested location
    (``inside``); a battle keeps it for retreats."""

    by: str
    link: int | None = None
    origin: str | None = None
    origin_half: int | None = None


#: A naval landing: no link, no location of origin (ruling 10).
BY_SEA = Approach("naval")


def start_battle(
    game: Game,
    state: State,
    attacker: str,
    location: str,
    half: int,
    attackers: list[Unit],
    approach: Approach,
) -> None:
    """Armies of ``attacker`` enter ``half`` of an enemy-occupied location."""
    by = approach.by
    defender = opponent(attacker)
    was_contested = board.contested(state, location) or by == "inside"
    if telling(state):
        heading(state, f"Battle of {name(location)}")
    # The defender's armies gather in the attacked half; forts stay where they are.
    other = state["board"][location][1 - half]
    gathering = [u for u in other if u["side"] == defender and u["kind"] == "army"]
    for unit in gathering:
        other.remove(unit)
        state["board"][location][half].append(unit)
    how = {"rail": "by rail", "naval": "by sea", "inside": "inside the contested location"}[by]
    if telling(state):
        log(
            state,
            f"{ROLE_NAMES[attacker]} attacks {name(location)} ({half_name(location, half)} half) "
            f"{how} with {_list(attackers)}.",
        )
    defenders = _defenders(state, location, half, defender)
    if not defenders:
        state["board"][location][half].extend(attackers)
        log(
            state,
            f"No {ROLE_NAMES[defender]} unit can fight in that half: the attackers occupy it.",
        )
        board.settle_control(state, location)
        action_done(game, state)
        return
    state["battle"] = {
        "location": location,
        "half": half,
        "attacker": attacker,
        "defender": defender,
        "by": by,
        "link": approach.link,
        "origin": approach.origin,
        "origin_half": approach.origin_half,
        "contested_before": was_contested,
        "attackers": attackers,
        "stage": "attacker_card",
        "cards": {attacker: None, defender: None},
        "revealed": False,
        "forts_alone": False,
        "totals": None,
        "winner": None,
        "owed": {attacker: 0, defender: 0},
        "lost": {attacker: 0, defender: 0},
        "retreating": [],
    }
    goto(game, state, "battle_attacker_card")


def land_next(game: Game, state: State) -> None:
    """Land the armies of a naval movement, port by port (``doing["landings"]``): into a
    port without enemy units they simply land; into one with enemy units they attack, and
    the next port waits for the end of that battle (ruling 10)."""
    doing = state["doing"]
    role = str(state["turn"]["player"])
    while doing["landings"]:
        port, units = doing["landings"].pop(0)
        half = int(LOCATIONS[port]["sea_half"])
        if board.enemy_present(state, role, port) and board.half_side(state, port, half) != role:
            start_battle(game, state, role, port, half, units, BY_SEA)
            return
        state["board"][port][half].extend(units)
        board.take_empty(state, role, port)
    finish_action(game, state)


def action_done(game: Game, state: State) -> None:
    """A battle is over: the action ends, unless armies of the same naval movement are
    still to land (after the Europe captures are brought up to date, and unless the game
    ended meanwhile)."""
    doing = state["doing"]
    if doing is not None and doing.get("landings") and state["outcome"] is None:
        sync_captures(state)
        if not check_europe(game, state):
            land_next(game, state)
        return
    finish_action(game, state)


def _list(units: list[Unit]) -> str:
    return ", ".join(describe(u) for u in units) or "nothing"


def _defenders(state: State, location: str, half: int, defender: str) -> list[Unit]:
    return [u for u in state["board"][location][half] if u["side"] == defender]


def battle_units(state: State, role: str) -> list[Unit]:
    battle = state["battle"]
    if role == battle["attacker"]:
        attackers: list[Unit] = battle["attackers"]
        return attackers
    return _defenders(state, battle["location"], battle["half"], role)


def _hand(state: State, role: str) -> list[str]:
    hand: list[str] = state["piles"][role]["hand"]
    return hand


def _card_label(card: str) -> str:
    data = CARDS[card]
    lead = data["icons"]["leadership"]
    extra = f" ({data['text']})" if data["timing"] == "benefit" else ""
    return f"{data['name']}: leadership {lead}{extra}"


class AttackerCard(Step):
    """2. The attacker must play one card face down."""

    def enter(self, game: Game, state: State) -> None:
        battle = state["battle"]
        if not _hand(state, battle["attacker"]):
            log(state, f"{ROLE_NAMES[battle['attacker']]} has no card to play face down.")
            battle["stage"] = "defender_choice"
            goto(game, state, "battle_defender")

    def active(self, game: Game, state: State) -> tuple[str, ...]:
        return (state["battle"]["attacker"],)

    def prompt(self, game: Game, state: State, role: str) -> str:
        battle = state["battle"]
        return (
            f"Battle of {name(battle['location'])}: play one card face down (required). "
            "Its leadership value (and a Benefit for attackers) adds to your strength."
        )

    def actions(self, game: Game, state: State, role: str) -> Actions:
        return {"card": options(piles.battle_cards(state, role))}

    def label(self, game: Game, state: State, role: str, verb: str, arg: Arg) -> str:
        return _card_label(str(arg))

    def on_card(self, game: Game, state: State, role: str, arg: Arg) -> None:
        battle = state["battle"]
        _hand(state, role).remove(str(arg))
        battle["cards"][role] = str(arg)
        piles.follow_hand(state, role)
        battle["stage"] = "defender_choice"
        log(state, f"{ROLE_NAMES[role]} plays a card face down.")
        goto(game, state, "battle_defender")


def withdraw_places(state: State, role: str, location: str, half: int) -> list[str]:
    """Connected locations the defender may withdraw or retreat to from ``half``: ones it
    controls, or whose half entered holds its units."""
    found: list[str] = []
    for here, there, arrive, _index in ADJACENT[location]:
        if here != half or there in found:
            continue
        if role == "confederate" and there in TOP_THREE:
            continue
        if board.control(state, there) == role or board.half_side(state, there, arrive) == role:
            found.append(there)
    return found


def _arrive(location: str, there: str) -> int:
    for _here, nb, arrive, _index in ADJACENT[location]:
        if nb == there:
            return arrive
    raise KeyError(there)


def sea_escape(state: State, role: str, location: str) -> list[str]:
    """Naval cards that may carry Union units from a port back to Washington."""
    if role != "union" or not LOCATIONS[location]["port"] or location == WASHINGTON:
        return []
    if board.control(state, WASHINGTON) != "union":
        return []
    return naval_cards(state, role)


class DefenderChoice(Step):
    """3. The defender withdraws, or fights (and may play one card face down)."""

    def active(self, game: Game, state: State) -> tuple[str, ...]:
        return (state["battle"]["defender"],)

    def prompt(self, game: Game, state: State, role: str) -> str:
        battle = state["battle"]
        mine = sum(u["strength"] for u in battle_units(state, role) if u["kind"] == "army")
        forts = sum(1 for u in battle_units(state, role) if u["kind"] == "fort")
        theirs = sum(u["strength"] for u in battle["attackers"])
        return (
            f"Battle of {name(battle['location'])}: {ROLE_NAMES[battle['attacker']]} attacks "
            f"with {theirs} strength and a face-down card; you have {mine} in armies"
            + (f" and {plural(forts, 'fort')} (3 each)" if forts else "")
            + ". Fight (with a Leadership card face down, or without) or withdraw."
        )

    def actions(self, game: Game, state: State, role: str) -> Actions:
        battle = state["battle"]
        actions: Actions = {"fight": True}
        cards = piles.battle_cards(state, role, defending=True)
        if cards:
            actions["card"] = options(cards)
        armies = [u for u in battle_units(state, role) if u["kind"] == "army"]
        if armies and _can_withdraw(state, role):
            actions["withdraw"] = True
        sea = sea_escape(state, role, battle["location"]) if armies else []
        if sea:
            actions["sea"] = options(sea)
        return actions

    def label(self, game: Game, state: State, role: str, verb: str, arg: Arg) -> str:
        if verb == "fight":
            return "Fight without a card"
        if verb == "withdraw":
            return "Withdraw"
        if verb == "sea":
            return f"Withdraw to Washington by sea, playing {card_name(str(arg))}"
        return "Fight with " + _card_label(str(arg))

    def on_fight(self, game: Game, state: State, role: str, arg: Arg) -> None:
        log(state, f"{ROLE_NAMES[role]} stands and fights.")
        goto(game, state, "battle_reveal")

    def on_card(self, game: Game, state: State, role: str, arg: Arg) -> None:
        _hand(state, role).remove(str(arg))
        state["battle"]["cards"][role] = str(arg)
        piles.follow_hand(state, role)
        log(state, f"{ROLE_NAMES[role]} stands and fights, playing a card face down.")
        goto(game, state, "battle_reveal")

    def on_withdraw(self, game: Game, state: State, role: str, arg: Arg) -> None:
        battle = state["battle"]
        location, half = battle["location"], battle["half"]
        armies = [u for u in battle_units(state, role) if u["kind"] == "army"]
        if not battle["contested_before"]:
            for unit in armies:
                state["board"][location][half].remove(unit)
                state["board"][location][1 - half].append(unit)
            log(
                state,
                f"{ROLE_NAMES[role]} withdraws {_list(armies)} to the "
                f"{half_name(location, 1 - half)} half of {name(location)}.",
            )
            after_withdrawal(game, state)
            return
        battle["retreating"] = armies
        for unit in armies:
            state["board"][location][half].remove(unit)
        battle["stage"] = "withdraw"
        log(state, f"{ROLE_NAMES[role]} withdraws from {name(location)}.")
        goto(game, state, "battle_retreat")

    def on_sea(self, game: Game, state: State, role: str, arg: Arg) -> None:
        battle = state["battle"]
        piles.discard(state, role, str(arg))
        armies = [u for u in battle_units(state, role) if u["kind"] == "army"]
        for unit in armies:
            state["board"][battle["location"]][battle["half"]].remove(unit)
        state["board"][WASHINGTON][_SEA_HALF].extend(armies)
        log(
            state,
            f"Union withdraws {_list(armies)} to Washington by sea ({card_name(str(arg))}).",
        )
        after_withdrawal(game, state)


def _can_withdraw(state: State, role: str) -> bool:
    battle = state["battle"]
    if not battle["contested_before"]:
        return True
    return bool(withdraw_places(state, role, battle["location"], battle["half"]))


def after_withdrawal(game: Game, state: State) -> None:
    """Forts left behind fight alone; with none, the attackers take the half and the
    attacker's face-down card is discarded unrevealed."""
    battle = state["battle"]
    if _defenders(state, battle["location"], battle["half"], battle["defender"]):
        battle["forts_alone"] = True
        log(state, "The forts left behind fight alone.")
        goto(game, state, "battle_reveal")
        return
    battle["winner"] = battle["attacker"]
    battle["stage"] = "end"
    goto(game, state, "battle_end")


class Reveal(Step):
    """4-5. Reveal the face-down cards, sum the strengths; the defender wins ties."""

    def enter(self, game: Game, state: State) -> None:
        battle = state["battle"]
        battle["revealed"] = True
        attacker, defender = battle["attacker"], battle["defender"]
        for role in (attacker, defender):
            piles.follow_hand(state, role)  # a revealed card leaves the Card Display
        by = battle["by"]
        att_card, def_card = battle["cards"][attacker], battle["cards"][defender]
        attack = sum(u["strength"] for u in battle["attackers"])
        attack += _lead(att_card) + battle_bonus(att_card, "attack", by)
        units = battle_units(state, defender)
        defence = sum(u["strength"] for u in units if u["kind"] == "army")
        defence += FORT_VALUE * sum(1 for u in units if u["kind"] == "fort")
        defence += _lead(def_card) + battle_bonus(def_card, "defend", by)
        modifier = 0
        if not battle["contested_before"]:
            if by == "rail":
                modifier = board.link_modifier(battle["link"], defender)
            elif by == "naval" and LOCATIONS[battle["location"]]["colour"] == defender:
                modifier = int(LOCATIONS[battle["location"]]["naval_defense"])
        defence += modifier
        battle["totals"] = {attacker: attack, defender: defence}
        battle["modifier"] = modifier
        winner = attacker if attack > defence else defender
        loser = opponent(winner)
        battle["winner"] = winner
        for role, card in ((attacker, att_card), (defender, def_card)):
            if card is not None and telling(state):
                log(state, f"{ROLE_NAMES[role]} reveals {_card_label(card)}.")
        mod = f" (defense modifier +{modifier})" if modifier else ""
        log(
            state,
            f"{ROLE_NAMES[attacker]} {attack}, {ROLE_NAMES[defender]} {defence}{mod}: "
            f"{ROLE_NAMES[winner]} wins.",
        )
        lose = (len(battle_units(state, loser)) + 1) // 2
        win = min(len(battle_units(state, winner)) // 2, lose)
        battle["owed"] = {loser: lose, winner: win}
        battle["order"] = [loser, winner]
        battle["stage"] = "casualties"
        goto(game, state, "battle_casualties")


def _lead(card: str | None) -> int:
    return int(CARDS[card]["icons"]["leadership"]) if card else 0


class Casualties(Step):
    """6. Each side removes its own counters: the loser half its counters rounded up, the
    winner half rounded down and never more than the loser."""

    def enter(self, game: Game, state: State) -> None:
        battle = state["battle"]
        for role in battle["order"]:
            units = battle_units(state, role)
            while battle["owed"][role] > 0 and len({unit_key(u) for u in units}) <= 1:
                if not units:
                    battle["owed"][role] = 0
                    break
                self._lose(state, role, unit_key(units[0]))
                units = battle_units(state, role)
        if all(battle["owed"][r] == 0 for r in battle["order"]):
            battle["stage"] = "retreat"
            start_retreat(game, state)

    def active(self, game: Game, state: State) -> tuple[str, ...]:
        battle = state["battle"]
        return tuple(r for r in battle["order"] if battle["owed"][r] > 0)[:1]

    def prompt(self, game: Game, state: State, role: str) -> str:
        battle = state["battle"]
        won = battle["winner"] == role
        return (
            f"Battle of {name(battle['location'])}: you {'won' if won else 'lost'}. Choose "
            f"{plural(battle['owed'][role], 'counter')} to remove as casualties."
        )

    def actions(self, game: Game, state: State, role: str) -> Actions:
        return {"lose": sorted({unit_key(u) for u in battle_units(state, role)})}

    def label(self, game: Game, state: State, role: str, verb: str, arg: Arg) -> str:
        return "Remove a fort" if arg == "fort" else f"Remove a {str(arg)[4:]}-strength army"

    def on_lose(self, game: Game, state: State, role: str, arg: Arg) -> None:
        self._lose(state, role, str(arg))
        self.enter(game, state)

    def _lose(self, state: State, role: str, key: str) -> None:
        battle = state["battle"]
        units = battle_units(state, role)
        unit = next(u for u in units if unit_key(u) == key)
        if role == battle["attacker"]:
            battle["attackers"].remove(unit)
        else:
            state["board"][battle["location"]][battle["half"]].remove(unit)
        board.return_unit(state, unit)
        battle["owed"][role] -= 1
        battle["lost"][role] += 1
        if telling(state):
            log(state, f"{ROLE_NAMES[role]} loses a {describe(unit)}.")


def start_retreat(game: Game, state: State) -> None:
    """7. The loser's surviving units leave the attacked half."""
    battle = state["battle"]
    loser = opponent(battle["winner"])
    location, half = battle["location"], battle["half"]
    if loser == battle["defender"]:
        survivors = _defenders(state, location, half, loser)
        for unit in survivors:
            state["board"][location][half].remove(unit)
        forts = [u for u in survivors if u["kind"] == "fort"]
        for fort in forts:
            board.return_unit(state, fort)
            battle["lost"][loser] += 1
            log(state, f"{ROLE_NAMES[loser]} fort cannot retreat and is lost.")
        battle["retreating"] = [u for u in survivors if u["kind"] == "army"]
    else:
        battle["retreating"] = list(battle["attackers"])
        battle["attackers"] = []
        if battle["by"] == "rail" and battle["retreating"]:
            origin, origin_half = battle["origin"], battle["origin_half"]
            state["board"][origin][origin_half].extend(battle["retreating"])
            log(
                state,
                f"{ROLE_NAMES[loser]} retreats {_list(battle['retreating'])} to {name(origin)}.",
            )
            battle["retreating"] = []
    battle["stage"] = "retreat"
    goto(game, state, "battle_retreat")


def retreat_places(state: State, role: str) -> list[str]:
    """Where the next retreating (or withdrawing) army of ``role`` may go."""
    battle = state["battle"]
    location = battle["location"]
    if role == battle["attacker"]:
        if battle["by"] != "inside":
            return []
        return withdraw_places(state, role, location, int(battle["origin_half"]))
    if battle["stage"] == "withdraw":
        return withdraw_places(state, role, location, battle["half"])
    places: list[str] = []
    for half in (0, 1):
        for place in withdraw_places(state, role, location, half):
            if place not in places:
                places.append(place)
    return places


class Retreat(Step):
    """7. Retreats (and withdrawals to a connected location): one army at a time, to a
    connected friendly location; the Union may instead go to Washington by sea with a
    naval card; an army with no way out is eliminated."""

    def enter(self, game: Game, state: State) -> None:
        battle = state["battle"]
        role = self._role(state)
        while battle["retreating"]:
            if retreat_places(state, role) or self._sea(state, role):
                return
            unit = battle["retreating"].pop(0)
            board.return_unit(state, unit)
            battle["lost"][role] += 1
            log(state, f"{ROLE_NAMES[role]} {describe(unit)} has no way out and is eliminated.")
        if battle["stage"] == "withdraw":
            after_withdrawal(game, state)
            return
        goto(game, state, "battle_end")

    def _role(self, state: State) -> str:
        battle = state["battle"]
        if battle["stage"] == "withdraw":
            return str(battle["defender"])
        return opponent(battle["winner"])

    def _sea(self, state: State, role: str) -> list[str]:
        if state["battle"].get("no_sea"):
            return []
        return sea_escape(state, role, state["battle"]["location"])

    def active(self, game: Game, state: State) -> tuple[str, ...]:
        return (self._role(state),)

    def prompt(self, game: Game, state: State, role: str) -> str:
        battle = state["battle"]
        unit = battle["retreating"][0]
        verb = "withdraw" if battle["stage"] == "withdraw" else "retreat"
        return (
            f"Battle of {name(battle['location'])}: {verb} your {describe(unit)} "
            f"({len(battle['retreating'])} left to move) to a connected friendly location"
            + (
                ", or all of them to Washington by sea with a naval card"
                if self._sea(state, role)
                else ""
            )
            + "."
        )

    def actions(self, game: Game, state: State, role: str) -> Actions:
        actions: Actions = {}
        places = retreat_places(state, role)
        if places:
            actions["to"] = options(places)
        sea = self._sea(state, role)
        if sea:
            actions["sea"] = options(sea)
            if not places:
                actions["stay"] = True
        return actions

    def label(self, game: Game, state: State, role: str, verb: str, arg: Arg) -> str:
        if verb == "sea":
            return f"All to Washington by sea, playing {card_name(str(arg))}"
        if verb == "stay":
            return "Play no naval card (those with no way out are eliminated)"
        return f"To {name(str(arg))}"

    def on_to(self, game: Game, state: State, role: str, arg: Arg) -> None:
        battle = state["battle"]
        unit = battle["retreating"].pop(0)
        there = str(arg)
        state["board"][there][_arrive(battle["location"], there)].append(unit)
        log(state, f"{ROLE_NAMES[role]} {describe(unit)} goes to {name(there)}.")
        self.enter(game, state)

    def on_sea(self, game: Game, state: State, role: str, arg: Arg) -> None:
        battle = state["battle"]
        piles.discard(state, role, str(arg))
        moving, battle["retreating"] = battle["retreating"], []
        state["board"][WASHINGTON][_SEA_HALF].extend(moving)
        log(state, f"Union takes {_list(moving)} to Washington by sea ({card_name(str(arg))}).")
        self.enter(game, state)

    def on_stay(self, game: Game, state: State, role: str, arg: Arg) -> None:
        state["battle"]["no_sea"] = True
        self.enter(game, state)


class BattleEnd(Step):
    """8-9. The winner holds the half; flags; the Europe track moves by the loser's
    counters lost, toward the winner; the battle cards are discarded."""

    def enter(self, game: Game, state: State) -> None:
        battle = state["battle"]
        location, half = battle["location"], battle["half"]
        attacker, defender, winner = battle["attacker"], battle["defender"], battle["winner"]
        if winner == attacker:
            state["board"][location][half].extend(battle["attackers"])
            battle["attackers"] = []
        for role in (attacker, defender):
            card = battle["cards"][role]
            if card is not None:
                state["piles"][role]["discard"].append(card)
        board.settle_control(state, location)
        if battle["origin"]:
            board.settle_control(state, battle["origin"])
        loser = opponent(winner)
        moved = 0
        fought = battle["totals"] is not None
        if fought and battle["lost"][loser]:
            moved = board.move_europe(state, winner, int(battle["lost"][loser]))
            log(state, f"Europe marker moves {moved} toward the {ROLE_NAMES[winner]} side.")
        if not fought:
            text = f"{ROLE_NAMES[defender]} withdrew; {ROLE_NAMES[attacker]} takes the half."
        else:
            totals = battle["totals"]
            text = (
                f"{ROLE_NAMES[winner]} won {totals[winner]}-{totals[loser]}; losses "
                f"{ROLE_NAMES[attacker]} {battle['lost'][attacker]}, "
                f"{ROLE_NAMES[defender]} {battle['lost'][defender]}."
            )
        log(state, text)
        state["last_battle"] = {
            "location": location,
            "attacker": attacker,
            "winner": winner,
            "fought": fought,  # False: the defender withdrew (no totals, no losses)
            "totals": dict(battle["totals"] or {attacker: 0, defender: 0}),
            "losses": dict(battle["lost"]),
            "europe": moved if winner == "confederate" else -moved,
            "text": text,
            "cards": {
                role: card_name(card) if card and battle["revealed"] else None
                for role, card in battle["cards"].items()
            },
        }
        state["battle"] = None
        for role in (attacker, defender):
            piles.follow_hand(state, role)  # a card discarded unrevealed leaves it now
        action_done(game, state)


def battle_view(state: State, role: str | None) -> dict[str, Any] | None:
    """The battle as ``role`` may see it: face-down cards are ``"hidden"`` to everyone but
    their owner until they are revealed."""
    battle = state["battle"]
    if battle is None:
        return None
    shown: dict[str, Any] = {}
    for side in (battle["attacker"], battle["defender"]):
        card = battle["cards"][side]
        if card is None:
            shown[side] = None
        elif battle["revealed"] or side == role:
            shown[side] = card_facts(card)
        else:
            shown[side] = "hidden"
    return {
        "location": battle["location"],
        "half": battle["half"],
        "attacker": battle["attacker"],
        "by": battle["by"],
        "stage": battle["stage"],
        "attacker_card": shown[battle["attacker"]],
        "defender_card": shown[battle["defender"]],
        "attackers": [dict(u) for u in battle["attackers"]],
        "retreating": [dict(u) for u in battle["retreating"]],
        "totals": dict(battle["totals"]) if battle["totals"] else None,
        "winner": battle["winner"],
    }
