"""The flow of play, step by step as the rulebook numbers it.

    flip            Step 2: each side flips three cards into the columns; "play another"
                    cards chain; an Event that comes up goes beside the battlefield and
                    the column gets the next card instead.
    events          Step 4: the flipped Events are followed, one by one (the interpreter
                    pauses in step "event" when one needs a choice).
    reinforcements  Step 3: each side draws three reinforcements into its hand.
    position        Step 3: each side places them face down, one per column, and commits;
                    when both have committed they are turned face up together.
    resolve         Steps 5 and 6: each column is settled (ties add cards); then the
                    battlefield is cleared, and Step 7 starts the next battle at Step 2.

We follow the flipped Events (step 4) before the reinforcements are drawn (step 3): see
the module docstring of ``rules.war`` for why.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.core import (
    Actions,
    Arg,
    EventStep,
    IllegalAction,
    State,
    Step,
    begin_event,
    goto,
    heading,
    log,
    plural,
    private_log,
)
from rules.core.undo import seal
from rules.war.battle import (
    ADJECTIVE,
    COLUMN_LABELS,
    COLUMNS,
    DESCRIPTIONS,
    EVENTS,
    LATE_DESCRIPTIONS,
    PLAYS_ANOTHER,
    SIDE_NAMES,
    alive,
    column_total,
    draw,
    opponent,
    play_late,
    resolve_battle,
    side,
    stack,
)
from rules.war.cards import SIDES, card, cards

if TYPE_CHECKING:
    from rules.core import Game

REINFORCEMENTS = 3
#: Battles after which the war ends on forces alive (see the module docstring).
BATTLE_CAP = 150


def standing(state: State, role: str) -> str:
    """'left 7 vs 9, centre 5 vs 3, right 6 vs 6' from ``role``'s side of the table."""
    return ", ".join(
        f"{column} {column_total(state, role, column)} vs "
        f"{column_total(state, opponent(role), column)}"
        for column in COLUMNS
    )


def flip_order(state: State) -> tuple[str, str]:
    """Who flips (and follows events) first: the Union in odd battles, the Confederacy in
    even ones, so neither side always moves first."""
    first = SIDES[(state["battle"] - 1) % 2]
    return first, opponent(first)


class Flip(Step):
    """Step 2: three cards face up per side, chains played out, Events set beside."""

    def enter(self, game: Game, state: State) -> None:
        state["battle"] += 1
        heading(state, f"Battle {state['battle']}")
        for role in flip_order(state):
            for column in COLUMNS:
                self.flip_column(state, role, column)
        goto(game, state, "events")

    def flip_column(self, state: State, role: str, column: str) -> None:
        """One opening card for ``column``, and the cards its "play another" calls for."""
        pile = stack(state, column, role)
        verb = "flips"
        while (cid := self.opening_card(state, role)) is not None:
            pile.append(cid)
            log(state, f"{ADJECTIVE[role]} {verb} {DESCRIPTIONS[cid]} on the {column}.")
            if cid not in PLAYS_ANOTHER:
                return
            verb = "plays another:"

    def opening_card(self, state: State, role: str) -> str | None:
        """The next card that can stand in a column: an Event flipped on the way goes
        beside the battlefield (its directions are followed in step 4) and the next card
        is flipped in its place. None when the side has no card left."""
        while (cid := draw(state, role)) in EVENTS:
            side(state, role)["beside"].append(cid)
            state["event_queue"].append([role, cid])
            log(state, f"{ADJECTIVE[role]} flips {card(cid).name}: beside the battlefield.")
        return cid


class FollowEvents(Step):
    """Step 4: follow each flipped Event, in flip order (first flipper's first)."""

    def enter(self, game: Game, state: State) -> None:
        if state["event_queue"]:
            role, cid = state["event_queue"].pop(0)
            begin_event(game, state, cid, role, then="events")
        else:
            goto(game, state, "reinforcements")


class DrawReinforcements(Step):
    """Step 3: each side draws three cards (or what it has left) into its hand."""

    def enter(self, game: Game, state: State) -> None:
        for role in SIDES:
            here = side(state, role)
            for _ in range(REINFORCEMENTS):
                cid = draw(state, role)
                if cid is None:
                    break
                here["hand"].append(cid)
            here["committed"] = not here["hand"]
            if here["hand"]:
                drawn = ", ".join(map(LATE_DESCRIPTIONS.__getitem__, here["hand"]))
                private_log(state, role, f"Battle {state['battle']}: you draw {drawn}.")
        goto(game, state, "position")


#: Each card's placement args, "column:card" for every column in order: ready-made, as
#: the placements are listed before every decision of step 3.
_PLACE_ARGS: dict[str, tuple[str, ...]] = {
    cid: tuple(f"{column}:{cid}" for column in COLUMNS) for cid in cards()
}


def placements(hand: list[str], placed: list[list[str]]) -> list[int | str]:
    """Every "column:card" a side may place: each card of its hand on each column it has
    not yet reinforced, card by card. Before the first placement every column is free,
    and the args come ready-made."""
    if not placed:
        return [arg for cid in hand for arg in _PLACE_ARGS[cid]]
    taken = {column for column, _ in placed}
    return [f"{column}:{cid}" for cid in hand for column in COLUMNS if column not in taken]


#: The sides still to commit, by the (Union, Confederate) commit flags.
_UNCOMMITTED: dict[tuple[bool, bool], tuple[str, ...]] = {
    (union, confederate): tuple(
        role for role, done in zip(SIDES, (union, confederate), strict=True) if not done
    )
    for union in (False, True)
    for confederate in (False, True)
}


class PositionReinforcements(Step):
    """Step 3: one face-down reinforcement per column, then commit; both revealed together."""

    def enter(self, game: Game, state: State) -> None:
        if not self.active(game, state):
            self.reveal(game, state)

    def active(self, game: Game, state: State) -> tuple[str, ...]:
        """The sides that have not committed. Asked several times per action, so the
        answer for each pair of commit flags is worked out once."""
        sides = state["sides"]
        return _UNCOMMITTED[sides["union"]["committed"], sides["confederate"]["committed"]]

    def actions(self, game: Game, state: State, role: str) -> Actions:
        here = state["sides"][role]
        if here["hand"]:
            return {"place": placements(here["hand"], here["placed"])}
        return {"done": True}

    def prompt(self, game: Game, state: State, role: str) -> str:
        here = side(state, role)
        opening = f"Battle {state['battle']}. Your columns: {standing(state, role)}."
        placed = "; ".join(
            f"{LATE_DESCRIPTIONS[cid]} on the {column}" for column, cid in here["placed"]
        )
        if not here["hand"]:
            return f"{opening} Placed face down: {placed}. Commit them with done (or undo)."
        count = len(here["hand"])
        words = {1: "reinforcement", 2: "two reinforcements", 3: "three reinforcements"}
        what = words.get(count, f"{count} reinforcements")
        if here["placed"]:
            return (
                f"{opening} Placed so far: {placed}. Place your other {what} face down, "
                "one per column."
            )
        if count == 1:
            return f"{opening} Place your reinforcement face down in one column."
        return f"{opening} Place your {what} face down, one per column."

    def label(self, game: Game, state: State, role: str, verb: str, arg: Arg) -> str:
        if verb == "done":
            return "Commit reinforcements"
        column, cid = str(arg).split(":", 1)
        # An Event placed here counts 0 (rule 4 note): the button says so.
        return f"{LATE_DESCRIPTIONS[cid]} → {COLUMN_LABELS[column]}"

    def on_place(self, game: Game, state: State, role: str, arg: Arg) -> None:
        column, cid = str(arg).split(":", 1)
        here = side(state, role)
        here["hand"].remove(cid)
        here["placed"].append([column, cid])

    def on_done(self, game: Game, state: State, role: str, arg: Arg) -> None:
        here = side(state, role)
        here["committed"] = True
        log(state, f"{ADJECTIVE[role]} commits {plural(len(here['placed']), 'reinforcement')}.")
        if not self.active(game, state):
            self.reveal(game, state)

    def take_back(self, state: State, role: str) -> None:
        """Undo: the newest face-down placement of ``role`` returns to its hand."""
        here = side(state, role)
        if here["committed"] or not here["placed"]:
            raise IllegalAction("You have no placement to take back.")
        _, cid = here["placed"].pop()
        here["hand"].append(cid)

    def reveal(self, game: Game, state: State) -> None:
        """Both sides turn their reinforcements face up together; "play another" chains."""
        seal(state)
        for role in SIDES:
            here = side(state, role)
            for column in COLUMNS:
                for placed_column, cid in here["placed"]:
                    if placed_column == column:
                        play_late(state, role, column, cid, "reinforces with")
            here["placed"] = []
            here["committed"] = False
        goto(game, state, "resolve")


class Resolve(Step):
    """Steps 5 and 6: settle each column, left to right; clear the field; next battle."""

    def enter(self, game: Game, state: State) -> None:
        summaries = resolve_battle(state)
        for summary in summaries:
            log(state, result_line(summary))
        for role in SIDES:
            here = side(state, role)
            here["graveyard"].extend(here["beside"])
            here["beside"] = []
        state["modifiers"] = []
        state["last_battle"] = {"battle": state["battle"], "columns": summaries}
        if not self.war_is_over(game, state):
            goto(game, state, "flip")

    def war_is_over(self, game: Game, state: State) -> bool:
        """Step 7's check after each battle (ruling 11): log the forces alive and end the
        war if a side has none left or the battle cap is reached."""
        forces = {role: alive(state, role) for role in SIDES}
        standing_line = ", ".join([f"{SIDE_NAMES[r]} {forces[r]}" for r in SIDES])
        log(state, f"Forces alive: {standing_line}.")
        ending = self.ending(state, forces)
        if ending is None:
            return False
        winner, reason, code = ending
        score: dict[str, Any] = {**forces, "battles": state["battle"]}
        game.finish(state, winner, reason, score, code=code)
        log(state, f"# {game.status(state)}")
        return True

    def ending(self, state: State, forces: dict[str, int]) -> tuple[str | None, str, str] | None:
        """``(winner, reason, code)`` when the war ends after this battle, else None."""
        if not any(forces.values()):
            return None, "both armies were destroyed in the same battle", "mutual_destruction"
        if not forces["union"] or not forces["confederate"]:
            winner = "union" if forces["union"] else "confederate"
            loser = SIDE_NAMES[opponent(winner)]
            return winner, f"the {loser} has no forces left", "no_forces"
        if state["battle"] >= BATTLE_CAP:
            if forces["union"] == forces["confederate"]:
                return None, f"after {BATTLE_CAP} battles the armies are even", "battle_cap"
            winner = max(SIDES, key=lambda r: forces[r])
            return winner, f"after {BATTLE_CAP} battles it has more forces alive", "battle_cap"
        return None


def result_line(summary: dict[str, Any]) -> str:
    """The log line of one settled column."""
    label = COLUMN_LABELS[summary["column"]]
    sides = summary["sides"]
    winner = summary["winner"]
    how = summary["how"]
    if how == "empty":
        return f"{label}: no cards."
    if how == "both fell":
        both = f"{sides['union']['total']} to {sides['confederate']['total']}"
        return f"{label}: both sides fall ({both})."
    assert winner is not None
    if how == "unopposed":
        return f"{label}: {SIDE_NAMES[winner]} unopposed."
    return (
        f"{label}: {SIDE_NAMES[winner]} wins "
        f"{sides[winner]['total']} to {sides[opponent(winner)]['total']}."
    )


STEPS: dict[str, Step] = {
    "flip": Flip(),
    "events": FollowEvents(),
    "event": EventStep(),
    "reinforcements": DrawReinforcements(),
    "position": PositionReinforcements(),
    "resolve": Resolve(),
}
