"""Delivery: the front-end port, what the players are told after a change, the outbox that
keeps it across crashes, the courier that hands it to the front end, and reminders. Below
the tables, which hand it what it reads (``reading``).

- ``port``: the ``FrontEnd`` a front end implements, and what it is handed;
- ``notices`` and ``routes``: what the players are told, and where each hears of a turn;
- ``outbox`` and ``courier``: how it is stored, and handed over in order with retries;
- ``unreachable``: what the players are told when the table refuses posts;
- ``reminders``, ``retention``: nudges to a late player, and delivered rows pruned;
- ``reading``: how delivery reads a stored game; ``images``: rendering off the event loop.
"""
