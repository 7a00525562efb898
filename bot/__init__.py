"""Dispatch: the async half of the bot, in rooms (see docs/architecture.md).

- ``bot.storage``: the store on SQLite or PostgreSQL, its migrations and its errors;
- ``bot.tables``: the ``GameManager``, a core with a desk per feature, and the turn;
- ``bot.delivery``: the front-end port, what players are told, the outbox and its courier;
- ``bot.dispatch_players`` and ``bot.workers``: Dispatch's own seats, which play through
  the manager;
- ``bot.discord_app`` and ``bot.terminal``: the two front ends;
- ``bot.process``: a long-running process's clean stop and sign of life;
- ``bot.tools``: what a host runs once, such as ``dispatch compile-rules``.

Front ends implement ``bot.delivery.port.FrontEnd`` and never touch the database or the
rules directly. Nothing here except ``bot.discord_app`` imports discord.
"""
