"""The spectator page: a game's public board, log, turn and clocks on the web, live as
turns are committed, and a finished game's step-through (docs/web.md).

It sits beside the front ends, above the tables, and reads through a read-only store of
its own (``bot.storage.read_only``); only ``view(state, None)`` reaches it.

- ``tokens``: a link's signed, unguessable token.
- ``links``: a link given and revoked, a server's say over the page (the bot's side,
  which writes).
- ``reading``: what a page is drawn from (``PublicGame``), the step-through's public
  views, and the boards drawn from them.
- ``pages`` and ``assets``: the HTML, the style and the little script.
- ``changes``: the live pages of each game, and how a committed turn reaches them.
- ``limits``: the per-address rate limit.
- ``app``: the aiohttp application, its routes and the rules every answer keeps.
- ``serve``: the server in the bot's process or alone (``dispatch web``).
"""
