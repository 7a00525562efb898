"""Dispatch's own seats: a room above the game manager that listens to it.

``bots.BotSeats`` hears from the manager (``bot.tables.listeners``) when a decision is
owed by a role Dispatch holds, and plays it through the manager like any player, from
Dispatch's own view only. Nothing in ``bot/tables`` imports this room; a process
subscribes the seats where it is assembled (``BotSeats.attach``: the Discord app, the
sandbox, the tests), and a ``dispatch worker`` (``bot/workers``) plays the jobs it
claims with seats it never attaches.
"""
