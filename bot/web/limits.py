"""Requests per address, held to a token bucket each: a burst of ``burst`` requests,
then ``rate`` a second. The clock is handed in (tests move it by hand)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

#: The most addresses remembered; past it, those whose bucket has refilled are forgotten
#: (they are as if never seen), so a flood of addresses cannot grow the table for ever.
MAX_ADDRESSES = 10_000


@dataclass
class Bucket:
    tokens: float
    at: float


class RateLimit:
    """One bucket per address."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float]) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self._buckets: dict[str, Bucket] = {}

    def allow(self, address: str) -> float:
        """0 when the request may go on (its token taken), else the seconds to wait."""
        now = self.clock()
        bucket = self._buckets.get(address)
        if bucket is None:
            if len(self._buckets) >= MAX_ADDRESSES:
                self._forget_full(now)
            bucket = self._buckets[address] = Bucket(float(self.burst), now)
        bucket.tokens = min(self.burst, bucket.tokens + (now - bucket.at) * self.rate)
        bucket.at = now
        if bucket.tokens >= 1:
            bucket.tokens -= 1
            return 0.0
        return (1 - bucket.tokens) / self.rate

    def _forget_full(self, now: float) -> None:
        full = [
            address
            for address, bucket in self._buckets.items()
            if bucket.tokens + (now - bucket.at) * self.rate >= self.burst
        ]
        for address in full:
            del self._buckets[address]
