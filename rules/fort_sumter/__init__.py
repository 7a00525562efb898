"""Fort Sumter: The Secession Crisis, 1860-61 (GMT Games, 2018; design Mark Herman).

Roles: ``"unionist"`` (blue) and ``"secessionist"`` (gray). Three rounds of card play and
scoring, then the Final Crisis and final scoring. The rules text is implemented as
written; the map's two unconfirmed spaces (Springfield, Fire-Eaters) and every card we
could not confirm are our own design, marked in ``data/*.json`` (``"source"``).

Files: cards.py (data + checks), board.py (tokens, control, Peace Commissioner),
tracks.py (Crisis Tracks, breaches, bonus boxes), events.py (the event vocabulary),
steps.py (the flow of play), game.py (set-up, views, secrets, invariants),
strategy.py (a simple automated player).

Ambiguities of the rules text and how we resolved them
------------------------------------------------------

1. **When "first player" is evaluated.** The first player is "the player with the current
   highest VP score" (Unionist on a tie) and "may change within a round". We evaluate it
   at the moment a rule calls for it:

   - card play: once, when a round's card play begins (after the objectives are kept).
     That side plays first and the sides then strictly alternate, even if VP change
     mid-round (only a first Final Crisis breach can do that): "alternate" would make no
     sense if the order were re-evaluated after every card;
   - pivotal bonuses: when the bonus phase begins (bonuses do not change VP);
   - objective events: after both objectives have been revealed and scored, once, for
     the order of the two events;
   - Final Crisis: for each pair, when it is revealed (VP cannot change during the Final
     Crisis, so this is the same as evaluating it once).

   The public view always shows the first player as of now.

2. **Who may move the Peace Commissioner on a Tension breach.** The Tension section and
   the Peace Commissioner section say "the first time either Tension zone is breached,
   the opposing player must place" it, and give the second side to breach only its bonus
   tokens; the movement section adds that it can be moved "by ... a subsequent breaching
   of the Tension zone". We read "subsequent" as "after the Commissioner was placed by an
   event": only the FIRST Tension breach of the game (either side) moves the
   Commissioner, wherever it is (an event may have placed it earlier); the second
   Tension breach never does. This keeps both sections true and matches the detailed
   procedure. The placing side may choose the space it already occupies.

3. **A breach with an empty bonus box.** Each zone of each side is breached at most once
   and the boxes start full, so it cannot happen with these rules; the engine still
   counts the breach (for the first-Tension Peace Commissioner and the first-Final-Crisis
   VP loss) and moves only what is in the box. The first Final Crisis breach costs 1 VP
   even at 0: scores may go negative.

4. **When breaches are checked.** "At the conclusion of a strategy card play": after the
   event or the value play is fully done, acting side first, then the other, each in the
   order Escalation > Tension > Final Crisis. Objective events can also take tokens from
   a Crisis Track; we check breaches after each objective event the same way, so a round
   can end with both Final Crisis zones breached by an objective event.

5. **Event Discard (optional, ``options={"event_discard": True}``).** A card whose value
   box is solely your colour, played by the opponent (necessarily for its value), opens
   a window on your very next card play of the same round: instead of playing normally
   you may give up (discard, face up, out of the game) a card of equal or greater value
   to claim it and at once play it for its event. That is your card play for the turn.
   The window closes after your next card play whether you use it or not, and at the end
   of the round's card play (it never reaches the set-aside card or the Final Crisis).
   A claimed card does not open a window for the other side.

6. **When a step cannot be carried out.** "Up to" allows zero: ``done`` (shown as Skip or
   Done) ends the step. A mandatory step ("place 3 in Fort Sumter") goes as far as it can
   and ends by itself when no token is left (pool and track empty), every space is full
   (4 of that side) or blocked by the Peace Commissioner; nothing else happens in its
   place. A step with nothing possible is skipped silently. The same holds for pivotal
   bonuses (skipped when nothing can be moved or removed), Final Crisis removals ("if
   possible": a side with no token in that dimension must remove two from anywhere, or
   as many as it has) and Final Crisis moves.

7. **Tokens for a value play.** Pool first; only when the pool is empty, the Crisis Track
   from its highest space. Bonus tokens earned by a breach reach the pool only when the
   card play has ended, so they cannot be used in the same play.

8. **Pivotal bonuses.** For each pivotal space a side controls when its turn at that
   space comes (pivotal spaces in map order, first player's all first), it has two
   actions within that dimension, each moving or removing any one token of either side
   (two moves, two removals, or one of each). Moving a token is a removal plus a
   placement, so the Peace Commissioner blocks both ends and the 4-per-side limit holds.

9. **Objective scoring.** Both objectives score for whoever controls their space (so
   a side can score the opponent's objective); only a side that controlled its own
   objective's space carries out that objective's event. Both cards then leave the game.

10. **Final Crisis set-up.** The Peace Commissioner is removed, each side takes its
    set-aside cards and is dealt from the strategy deck up to three. Each side orders its
    three cards in one secret decision; pairs are revealed one at a time. Moves "from any
    spaces and/or token pool" never draw from the Crisis Track.

11. **Final scoring.** Final VP are added to the VP of the rounds. The pool bonus needs
    at least three more tokens in pool than the opponent. Ties: Fort Sumter's controller,
    then the side controlling more spaces, then the Unionist.

12. **Hidden information and undo.** Each simultaneous decision (keeping an objective,
    ordering the Final Crisis cards) is one action, so undo (only ever of the acting
    side's newest action) can never touch the other side's choice; dealing, shuffling
    and reveals close the undo window.
"""

from rules.fort_sumter.game import GAME, FortSumter

__all__ = ["GAME", "FortSumter"]
