"""``/game replay``: a game that is over, watched again.

Who may see which game is checked first (``bot.tables.replay.may_see_finished``), so a
refusal is for the asker alone; the movie is then posted to the channel, within the
upload limit Discord gives the interaction (``Interaction.filesize_limit``: the server's,
by its boosts; ``/game`` is not offered in DMs).
"""

from __future__ import annotations

import io
from typing import Any

import discord

from bot.discord_app import formatting
from bot.discord_app.interactions import manager_of, user_id
from bot.tables.records.replay_movie import Movie

#: Sent with the movie: no one is pinged by a replay.
NO_PINGS = discord.AllowedMentions.none()


def upload_limit_of(interaction: discord.Interaction[Any]) -> int:
    """The largest upload Discord takes with this interaction's answers."""
    return int(interaction.filesize_limit)


def replay_text(title: str, movie: Movie) -> str:
    """The line posted with a replay: what it shows and how it was fitted."""
    shown = f"{movie.frames} positions"
    if movie.frames < movie.turns:
        shown = f"{movie.frames} of {movie.turns} positions (sampled to fit)"
    return (
        f"Replay of game #{movie.game_id} ({title}): the public board after each turn, "
        f"{shown}, {movie.width} px wide; the public log is attached."
    )


def replay_alt(title: str, movie: Movie) -> str:
    """The replay's alt text: what it shows, and how the game ended (the log's last
    line, public: the result)."""
    lines = [line for line in movie.log_text.splitlines() if line.strip()]
    return formatting.alt_text(
        f"Animated replay of game #{movie.game_id} ({title}): the public board after each "
        f"of {movie.frames} positions",
        lines[-1] if lines else "",
    )


async def post_replay(interaction: discord.Interaction[Any], number: int | None) -> None:
    """Refuse politely (for the asker alone), or build the replay and post it here."""
    manager = manager_of(interaction)
    guild = str(interaction.guild_id) if interaction.guild_id else None
    ref: int | str = number if number is not None else str(interaction.channel_id)
    game_id = await manager.records.check_replay(ref, user_id(interaction), guild)
    # Drawing a long game takes a few seconds: Discord is told at once.
    await interaction.response.defer(thinking=True)
    movie = await manager.records.watch_replay(
        game_id, user_id(interaction), guild, upload_limit_of(interaction)
    )
    info = await manager.get_game_info(game_id)
    files = [
        discord.File(
            io.BytesIO(movie.gif),
            filename=f"dispatch-replay-{game_id}.gif",
            description=replay_alt(info.title, movie),
        ),
        discord.File(
            io.BytesIO(movie.log_text.encode()), filename=f"dispatch-replay-{game_id}-log.txt"
        ),
    ]
    await interaction.followup.send(
        replay_text(info.title, movie), files=files, allowed_mentions=NO_PINGS
    )
