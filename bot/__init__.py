"""Dispatch: the async half of the bot, in rooms (see docs/architecture.md).

- ``bot.storage``: the SQLite store and its numbered migrations;
- ``bot.tables``: the ``GameManager`` and the games it runs: lobby, turns and their commit;
- ``bot.delivery``: the front-end port, what players are told, the outbox and its courier;
- ``bot.discord_app`` and ``bot.terminal``: the two front ends.

Front ends implement ``bot.delivery.port.FrontEnd`` and never touch the database or the
rules directly. Nothing here except ``bot.discord_app`` imports discord.
"""
