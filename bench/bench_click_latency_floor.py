"""Floor of button-click latency: a bare discord.py client that only acknowledges clicks.

Run:  python bench/bench_click_latency_floor.py [--clicks 300]

Latency is measured by the loopback emulator, from queueing INTERACTION_CREATE on the
gateway socket to receiving the interaction callback (see tests/emulator/latency.py).
Whatever the real bot adds on top of this number is its own processing cost.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from pathlib import Path

import discord

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.emulator.latency import measure_click_latency


class AckClient(discord.Client):
    """Acknowledges every component click with a deferred update (type 6)."""

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type is discord.InteractionType.component:
            await interaction.response.defer()


def make_client() -> discord.Client:
    return AckClient(intents=discord.Intents.default())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=300)
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    stats = asyncio.run(measure_click_latency(make_client, args.clicks))
    print(
        f"bare discord.py client, {stats['clicks']} sequential clicks ({stats['failures']} failed)"
    )
    for key in ("median_ms", "p90_ms", "p99_ms", "mean_ms", "min_ms", "max_ms"):
        print(f"  {key:<10} {stats[key]:8.3f}")
    print(f"  total      {stats['total_s']:8.3f} s")


if __name__ == "__main__":
    main()
