"""Each feature's cog registers the DynamicItems of its own buttons and selects: once the
client is set up, every kind of custom id in the frozen table is answered by exactly one
DynamicItem class, whose template matches that kind's ids and no other's; a cog unloaded
takes its kinds with it."""

from __future__ import annotations

import re
from typing import Any

from bot.discord_app import custom_ids as ids
from tests.discord.test_custom_ids import SENT_BEFORE
from tests.discord_helpers import catch_errors, table


def registered_templates(bot: Any) -> list[re.Pattern[str]]:
    """The templates of the DynamicItems the client answers clicks with (discord.py keeps
    them in its view store, which has no public listing)."""
    return list(bot._connection._view_store._dynamic_items)


def kinds_answered(template: re.Pattern[str]) -> set[str]:
    return {kind for custom_id, kind, _ in SENT_BEFORE if template.fullmatch(custom_id)}


async def test_each_kind_has_exactly_one_dynamic_item_once_the_client_is_set_up(tmp_path):
    assert {kind for _, kind, _ in SENT_BEFORE} == set(ids.KINDS)  # a sample of every kind
    with catch_errors():
        async with table(tmp_path, "alice", "bob") as t:
            templates = registered_templates(await t.start())
    answered = [kinds_answered(template) for template in templates]
    assert all(len(kinds) == 1 for kinds in answered), answered
    assert sorted(kind for kinds in answered for kind in kinds) == sorted(ids.KINDS)
    for custom_id, kind, _ in SENT_BEFORE:
        assert sum(1 for t in templates if t.fullmatch(custom_id)) == 1, (custom_id, kind)


async def test_a_cog_unloaded_takes_its_kinds_with_it(tmp_path):
    with catch_errors():
        async with table(tmp_path, "alice", "bob") as t:
            bot = await t.start()
            await bot.unload_extension("bot.discord_app.cogs.history")
            templates = registered_templates(bot)
    answered = set().union(*(kinds_answered(template) for template in templates))
    assert answered == set(ids.KINDS) - {"page"}
