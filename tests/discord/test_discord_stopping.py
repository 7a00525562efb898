"""While the bot stops (SIGTERM, a restart, an update), a click or a command that arrives
is answered at once, "restarting", and changes nothing: one begun then might be cut off
with its interaction unanswered. What was in flight when the stop began still finishes
(tests/process/test_graceful_stop.py)."""

from __future__ import annotations

import gc
import warnings

from bot.discord_app.components import RESTARTING
from tests.discord.test_discord_e2e import last_prompt, start_game
from tests.discord_helpers import catch_errors, choices_of, register_test_game, table


async def test_what_arrives_while_stopping_is_answered_restarting_and_changes_nothing(tmp_path):
    register_test_game()
    with catch_errors() as errors_seen:
        async with table(tmp_path, "alice", "bob") as t:
            game_id = await start_game(t)
            manager = t.bot.manager
            before = await manager.records.export(game_id)
            prompt = last_prompt(t, "alice")
            cid, value = choices_of(prompt)[0]

            t.bot.stopping = True  # what close() sets first
            click = await t.press("alice", prompt, cid, value)
            assert click.ephemeral and RESTARTING in click.text
            command = await t.slash("bob", "game status")
            assert command.ephemeral and RESTARTING in command.text
            assert await manager.records.export(game_id) == before
            assert all(r.callback_type is not None for r in t.emu.interactions)

            t.bot.stopping = False  # a bot that did not stop after all takes it as usual
            again = await t.press("alice", prompt, cid, value)
            assert RESTARTING not in again.text
            assert await manager.records.export(game_id) != before
    assert errors_seen.all_errors() == []


async def test_an_event_after_the_close_makes_no_handler_that_never_runs(tmp_path):
    """discord.py lets go of its loop as it closes: an event dispatched after it (a
    socket's last words) must not leave a handler's coroutine made and never awaited."""
    register_test_game()
    async with table(tmp_path, "alice", "bob") as t:
        await t.start()
    assert t.bot.is_closed()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        t.bot.dispatch("interaction", None)  # a handler of its own: on_interaction
        gc.collect()
    assert [str(w.message) for w in caught if "never awaited" in str(w.message)] == []
