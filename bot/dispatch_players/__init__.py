"""Dispatch's own players: a room above the game manager that listens to it.

``bots.BotSeats`` hears from the manager (``bot.tables.listeners``) when a decision is
owed by a role Dispatch holds, and plays it through the manager like any player, from
Dispatch's own view only. Nothing in ``bot/tables`` imports this room; a process
subscribes the seats where it is assembled (``BotSeats.attach``: the Discord app, the
sandbox, the tests), and a ``dispatch worker`` (``bot/workers``) plays the jobs it
claims with seats it never attaches.

The room by concern: ``bots.py`` the seats as a listener (nudges, the background pass,
retries, closing); ``jobs.py`` the moves owed as jobs claimed with a lease, and playing
one; ``searching.py`` a search asked of the game's worker; ``processes.py`` the worker
processes themselves; ``decision.py`` the decision made there (search limits, the
safety cap, the players kept through a turn); ``turn_replay.py`` the turn so far read
back from the log; ``seeding.py`` the seed of the searches; ``estimates.py`` the
estimates kept of each move; ``speed.py`` the machine's speed probe;
``manager_protocol.py`` what the room uses of the manager.
"""
