"""Lincoln (Martin Wallace, PSC Games with Worthington, 2018).

Roles: ``"union"`` (blue, plays first) and ``"confederate"`` (gray). Each side has its own
deck; a turn is two actions plus any free actions, then the active side refills. The
printed board and cards are not public: ``data/map.json`` and ``data/cards.json`` hold our
reconstruction, every entry marked ``known`` (with the fact it rests on) or ``designed``.

Files: data.py (the data files), board.py (units, control, supply, paths, flags, VP,
Europe captures), piles.py (draw, refill, reshuffles and the Union's VP checks),
events.py (the card-event vocabulary and its interpreter), combat.py (the battle),
steps.py (the turn and every action), game.py (set-up, views, secrets, invariants),
strategy.py (the automated player).

Ambiguities of the rules text and how we resolved them
------------------------------------------------------

1. **Halves and sides.** Outside a battle a half holds units of one side only; a location
   is contested when both sides have units in it (then necessarily in different halves).
   Attacking armies wait in the battle record until the battle is decided.
2. **Control.** Nobody controls a contested location. Otherwise the side with units
   there controls it, else the side whose flag lies there, else its colour. A sole
   occupant of a location of the other colour puts its flag there (while flags are left
   in stock: with none left, control rests on occupation alone); a sole occupant of its own
   colour takes the enemy flag off. A flag stays when its side leaves.
3. **Supply and friendly paths.** A path goes through locations the side controls (any
   half) and through a contested location only when the link in and the link out both use
   the half it occupies. Supply is traced from a supply source the side controls
   (Washington; Richmond or Atlanta); a source the enemy holds supplies nothing.
4. **Deploy into a port by sea.** A controlled port may receive an army (never a fort:
   the text lets a naval card deploy "an army counter" there, and forts follow the
   supply rule) without a supply path when the player also discards a naval card (on
   top of the cost). Only Union cards carry the naval icon, so only the Union can do
   this.
5. **Deploying needs a counter.** A card whose army strength (or fort) has no counter
   left in stock cannot be deployed; ships and politicians cannot be played when the
   marker already stands at that end of its track. Forts: 2 tiles per side (of the 4).
6. **Counters.** 45 unit tiles split Union 8/8/8 and Confederacy 7/7/7 armies of strength
   1/2/3; 18 control tiles shared by both sides.
7. **Move army.** A move to an adjacent location along one link may take some or all
   armies of a location (a group); a move further along friendly links takes one army.
   Where several last links lead into an enemy-occupied destination the player chooses
   the one it attacks along (it decides the half entered and any rail modifier);
   otherwise the first way the path search finds is used (deterministic). Armies leave a
   contested location only by the links of the half they occupy.
8. **Entering a contested location** through the half one's own side occupies joins
   those units without a battle; through the enemy's half it is an attack by rail with no
   defense modifier (the location was already contested).
9. **Entering a location whose only enemy units are forts in the other half** starts no
   battle: no defender can reach the attacked half, so the attackers occupy it and the
   location becomes contested.
10. **Naval movement** (Union only): one naval card per army, and each army sails from
    the port it is in to any other port of its own choosing (Naval Movement: one army
    counter per card, each "to any other port location"; nothing binds the armies of one
    action to one port). Armies bound for the same port land together in its sea half.
    All sail at once; they land port by port in map order, and a landing among enemy
    units is a battle fought out before the next port's landing (the armies bound there
    wait at sea meanwhile). The port's naval defense modifier helps a defender of the
    port's colour, and not inside an already contested location.
11. **Attack in a contested location.** Every army of the attacker in the location
    attacks the enemy's half; the attacker's forts stay out. No modifier applies.
12. **The face-down cards.** The attacker's is required and may be any card (Combat,
    step 2: "one card face down", some of which have leadership); an attacker with an
    empty hand plays none. The defender's is optional and must be a Leadership card
    (step 3: "a Leadership card face down"): one with leadership, or a Benefit that
    strengthens a defender, since a Benefit's own text is the combat modifier it
    brings. Only leadership (and a Benefit of the right kind) counts when revealed.
    Battle cards are discarded afterwards.
13. **Benefits** are the ``strength`` instructions of a card: they count only for the
    card played face down in a battle, for attack or defence as the card says.
14. **Withdrawal.** From a location the defender held alone, its armies go to the other
    half; from an already contested location (or an attack inside one) each army goes to
    a connected location it controls, or whose half entered holds its units, by a link of
    its own half (split as it likes). Withdrawal is only offered when every army has
    such a place. Forts left in the attacked half then fight alone (no defender card);
    with none, the attackers take the half without a battle and the attacker's card is
    discarded unrevealed. No Europe movement without a fight.
15. **Union naval withdrawal and retreat.** A Union army defending in any port (other
    than Washington) may withdraw or retreat to Washington by playing one naval card for
    all of them, while the Union controls Washington; the Union attacker that came by sea
    and lost can only go back to Washington this way, else it is eliminated.
16. **Casualties.** Counters in the battle: the attacking armies; the defender's armies
    and forts in the attacked half. The loser loses half rounded up, the winner half
    rounded down and never more than the loser; loser chooses first. A choice among
    identical counters is made automatically.
17. **Retreats.** A defeated defender's forts cannot retreat and are lost (they count as
    lost counters for Europe). Its armies go one by one to connected friendly locations
    (any half's links). A defeated attacker that came by rail goes back to the location
    it attacked from, into the half it left by; from inside a contested location, to a
    connected friendly location by a link of its own half. No legal path: eliminated.
18. **Europe.** The marker moves toward the winner by the loser's counters lost
    (casualties, forts lost in the retreat, armies eliminated). A Union-coloured location
    under Confederate control is worth one more space toward the Confederacy, moved back
    when the Confederacy loses it (checked after every action). The Confederate end wins
    at once, at any moment.
19. **Reshuffles.** A side whose draw pile is empty when it must draw reshuffles its
    discards, adding its I cards the first time and its II cards the second. The Union
    checks its VP at those two reshuffles (under 2, under 5: the Confederacy wins). When
    the Union must draw a third time from an empty pile, the game ends on its VP (12 or
    more wins). The Confederacy reshuffles as often as needed; with no card anywhere it
    draws nothing.
20. **Immediate ends at turn end** are checked before the refill: Confederate control of
    Washington at the end of a Union turn; Union control of Vicksburg and Richmond at the
    end of a Confederate turn.
21. **Free actions** may be played before, between or after the two actions (never inside
    another action); once both actions are used, a side holding a playable free action is
    asked whether to play it or end the turn.
22. **Hidden information.** Hands, the face-down battle cards until the reveal, deck
    order and the contents of discard piles and removed cards are never in another
    role's view; the log names cards only when they are played face up or revealed.
23. **Pass, and the game must end.** Pass is always one of the actions (Taking Actions
    lists it among the six with no condition). Only the Union's draws bring the end
    nearer, and a Union that passes with a full hand draws nothing, so the game could
    stall for ever. Two safeties leave Pass as it is. Designed (the clock): a Union turn
    in which no card was drawn, by an action or at the refill, ends by discarding the top
    card of the Union draw pile (an empty pile reshuffles first, with its VP check, as
    for a draw), so every Union turn turns the pile by at least one card and a hostile
    Union cannot hold off a losing reshuffle check by passing. A turn that drew (a Draw
    card's action, then a deploy or discard back to a full hand) has turned the pile
    already, so the clock stays still. It runs on any turn without a draw, not only on
    two passes: a Union that only moves with a full hand stalls the pile as surely as
    one that passes. And the automated players never pass while their hand is full (the
    policy discards its weakest card instead; the search leaves such a pass out of its
    tree, ``Game.idle_actions``), since that pass changes nothing.
"""

from rules.lincoln.game import GAME, Lincoln

__all__ = ["GAME", "Lincoln"]
