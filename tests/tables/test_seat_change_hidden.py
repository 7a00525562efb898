"""A seat that changes hands while the other side's decisions may still be taken back:
the new holder's welcome shows the game as the seat may know it (``seat_view``), as the
waiting side's own prompt does, never the decision still open to undo."""

from __future__ import annotations

import copy
import json

from conftest import RecordingFrontEnd

import rules
from bot.tables.manager import GameManager
from bot.tables.requests import Move, NewGame


async def test_a_seat_handed_over_while_north_may_undo_shows_the_new_holder_no_add(
    manager: GameManager, front_end: RecordingFrontEnd
) -> None:
    """South (waiting) offers its seat to a second account of its own while North's add
    may still be taken back: the welcome shows the counter as it stood before."""
    info = await manager.create_game(
        "g1", "c1", "alice", NewGame("toy", seat="north", opponent_id="bob", seed=5)
    )
    added = await manager.act(info.id, "alice", Move("add", 2, info.version))
    # What bob may know through /game hand: the game before the add.
    assert (await manager.view_for(info.id, "bob")).view["counter"] == 0
    offer = await manager.seat_changes.offer(info.id, "bob", "bob_alt")
    await manager.seat_changes.answer(info.id, offer.id, "bob_alt", accept=True)
    await manager.deliver_due(info.id)
    [welcome] = front_end.privates("bob_alt")
    assert welcome.version == added.version
    assert welcome.view["counter"] == 0, welcome.view["counter"]
    assert "North adds 2" not in json.dumps(welcome.view)


async def test_a_card_played_for_its_event_never_reaches_the_waiting_sides_new_holder(
    manager: GameManager, front_end: RecordingFrontEnd
) -> None:
    """Fort Sumter: the side to play picks a card for its event (open to undo until it is
    confirmed); the waiting side hands its seat to a second account, whose welcome must
    not name the card (taken back, it would be known to be in that hand)."""
    info = await manager.create_game(
        "g1", "c1", "alice", NewGame("fort_sumter", seat="unionist", opponent_id="bob", seed=4)
    )
    users = {s.role: s.user_id for s in info.seats}
    version = info.version
    for _ in range(40):  # both keep an objective, until a card can be played for its event
        game = await manager.get_game_info(info.id)
        role = game.active_roles[0]
        pv = await manager.view_for(info.id, users[role], role=role)
        actions = pv.view["actions"]
        if "event" in actions:
            break
        verb = next(v for v in actions if v != "undo")
        arg = None if actions[verb] is True else actions[verb][0]
        version = (
            await manager.act(info.id, users[role], Move(verb, arg, version, role=role))
        ).version
    assert "event" in actions
    rules_game = rules.get_game("fort_sumter")
    state = await manager.records.replay(info.id)

    def stays_open(card: str) -> bool:
        after = rules_game.act(copy.deepcopy(state), role, "event", card)
        return bool(after["undo"]) and role in rules_game.active_roles(after)

    card = next(c for c in actions["event"] if stays_open(c))
    played = await manager.act(info.id, users[role], Move("event", card, version, role=role))
    assert "undo" in played.view["actions"], "the event play is open to undo"
    waiting = next(r for r in users if r != role)
    assert waiting not in played.active_roles
    line = next(x for x in played.view["log"][::-1] if "for its event" in x)
    # The waiting side's own prompt does not show it, nor does the welcome.
    assert line not in json.dumps((await manager.view_for(info.id, users[waiting])).view)
    offer = await manager.seat_changes.offer(info.id, users[waiting], "alt")
    await manager.seat_changes.answer(info.id, offer.id, "alt", accept=True)
    await manager.deliver_due(info.id)
    [welcome] = front_end.privates("alt")
    assert line not in json.dumps(welcome.view), line
