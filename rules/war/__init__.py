"""War Between the States: a Civil War battle card game played like "War" in three columns.

Game: War Between the States, by David and Joe McCord, NewVenture Games, 2016. Edition:
the rulebook text of 2016, the only source.
No deck list is public, so both 72-card decks are designed by this project
(``data/decks.json``, marked ``designed_by``). Roles: ``union`` and ``confederate``.

The decks (72 cards each): the Union has more and steadier mid-value units (infantry
5-7, artillery 6-8) and more materiel Events (blockades, rifles, railroads, recruits);
the Confederacy has stronger commanders (Lee 9, Jackson 8, boosts of +2), more varied
units (2-9) and elan Events (Rebel Yell, strikes, marches). Balance target: with the
same policy (``rules.war.strategy``) on both sides each side wins 48-52% of 2,000 games;
``bench/bench_war.py`` prints the current figure.

The rulebook leaves much open. Our rulings, and why:

1. Opening Events. An Event that comes up among the three opening cards (or from their
   "play another" chains) does not take a column: it goes beside the battlefield and the
   next card of the deck is flipped in its place. Reason: rule 4 says Event cards are
   placed beside the battlefield or followed, never that they fight, and a column of
   nothing but an event would be an odd, empty fight.
2. When Events are followed. Every Event flipped in step 2 is followed right after the
   flip, before reinforcements are drawn (rule 4 only asks "before the conflict is
   resolved"). Reason: players then place reinforcements knowing the whole situation,
   and each battle needs only one round of decisions after the events (pacing).
   "Place beside the battlefield" modifiers last for the battle and go to the Graveyard
   after it, as do directed Events once followed (they too sit beside the battlefield).
3. Event order. The side that flips first alternates: the Union in odd battles, the
   Confederacy in even ones; its Events are followed first, each side's in the order
   they came up. Reason: a fixed first side would be a built-in edge either way.
4. Late cards. Every card that enters after the opening flip (reinforcements, tie-break
   cards, a card an Event marches in, and everything their chains bring) is played to its
   column normally; if it is an Event, the Event is ignored and it counts zero. Reason:
   the text says so for reinforcements and tie-breakers; chained and marched cards are
   treated the same so there is one rule, and no events fire after step 4.
5. "Play another" for a reinforcement is played out at the reveal, after both sides have
   committed: the Union's left to right, then the Confederacy's (no decisions, so the
   order only fixes which card is drawn when).
6. Hidden placements. Until both sides have committed, a side sees only how many
   reinforcements the other has placed, not which card nor which column.
7. Commanders' boosts are printed on the cards (data): +N to each other card of the
   side in the same column, or anywhere on the battlefield, optionally only of one kind.
   Boosts and per-card modifiers never lift an Event above zero; a card and a column
   never count below zero; a flat column modifier needs at least one card there.
8. Resolution. Columns are settled left, centre, right; a settled column's losers go to
   the Graveyard at once and its winners fall back to the Survivors once the whole battle
   is settled (ruling 13). A side with no card in a column where the other has cards
   loses it unopposed, whatever the totals.
9. Ties (rule 6): each side adds the top card of its deck (chains apply; an Event counts
   zero), repeated while tied. If only one side can add a card, the side that cannot add
   loses the tie (it has nothing left to commit). If neither can, both columns fall to
   their Graveyards (mutual destruction).
10. Running out. A deck that is used up is replaced by its Survivors, shuffled, whenever a
    card is needed (rule 7), including in the middle of a battle. A side short of cards
    fills the columns left to right and draws fewer reinforcements (placed in any columns,
    at most one per column).
11. The end. After each battle, a side with no forces alive (nothing in deck, Survivors
    or on the field) loses. If both are wiped out in the same battle the game is a draw.
    Events that bring cards back from the Graveyard make an endless war possible in
    principle, so the war stops after 150 battles, won by the side with more forces alive
    (equal: a draw). In simulation this cap is practically never reached.
12. Undo. A side may take back its own face-down placements, newest first, until it
    commits, whatever the other side did meanwhile; after both commit nothing before the
    reveal can be undone. Other decisions use the core snapshot undo.
13. Survivors wait for the next battle. The rulebook sends winners back to the Survivors
    "to await their next battle", so a card that won a column cannot be reshuffled and
    drawn again to break a tie in a later column of the same battle: the winners are held
    aside until the battle is settled. A side whose deck and Survivors are empty at such
    a tie cannot add a card and gives way (ruling 9), even if it won earlier columns.
"""

from __future__ import annotations

from rules.war.game import GAME, WarBetweenTheStates

__all__ = ["GAME", "WarBetweenTheStates"]
