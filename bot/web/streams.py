"""How many live pages' event streams are open, and how long one trusts its link.

An event stream holds a connection open for as long as its page is: hours, for a tab
left open. Three rules keep them from piling up or outliving their link:

- At most :data:`PER_ADDRESS` streams from one address and :data:`TOTAL` in all; past
  either, a new one is refused with 429 (the page stays as it was loaded, and says to
  reload later). A reader with a few tabs open is far below the first.
- A game or a league that is over sends nothing more: its stream ends after the last
  update, and a stream asked for afterwards is answered 204, which tells the browser not
  to try again.
- Every :data:`LINK_CHECK_EVERY` keep-alives (about ten minutes), a stream looks again
  whether its link still opens its page (one small read); a link revoked, or a server
  that turned its pages off, ends it with ``gone`` even when no turn comes to carry the
  news (a game waiting days on a player, a league between rounds).
"""

from __future__ import annotations

from collections import Counter

#: Streams one address may hold open at once.
PER_ADDRESS = 8
#: Streams the whole server holds open at once.
TOTAL = 2_000
#: Keep-alives (``room.KEEPALIVE_S`` apart) between two looks at a stream's link.
LINK_CHECK_EVERY = 24
#: What a refused stream's page is told (it stays as it was loaded).
TOO_MANY_STREAMS = (
    "Too many live pages are open from your address, or on this server; this page will "
    "not update by itself. Close some, then reload it."
)
#: How long a refused stream's browser is asked to wait, in seconds.
RETRY_AFTER_S = 60


class StreamCount:
    """The streams open now, per address and in all."""

    def __init__(self, per_address: int = PER_ADDRESS, total: int = TOTAL) -> None:
        self.per_address = per_address
        self.total = total
        self._open: Counter[str] = Counter()
        self._total = 0

    def enter(self, address: str) -> bool:
        """Count a new stream from ``address``; False (counted nowhere) when over a limit."""
        if self._open[address] >= self.per_address or self.open >= self.total:
            return False
        self._open[address] += 1
        self._total += 1
        return True

    def leave(self, address: str) -> None:
        self._open[address] -= 1
        self._total -= 1
        if self._open[address] <= 0:
            del self._open[address]

    @property
    def open(self) -> int:
        return self._total

    def of(self, address: str) -> int:
        return self._open[address]
