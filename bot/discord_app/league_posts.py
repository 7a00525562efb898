"""What a league says on Discord: its standings as an embed (beside the table's picture),
and its posts (a round's games, the final standings) cut into messages Discord takes.

An embed holds at most 25 fields of 1,024 characters and 6,000 characters in all, and a
message 2,000 characters naming at most 100 users to ping: a Swiss of a few hundred
players is past every one of these, so the standings stop with a line that says how many
more there are (the whole table is in ``/league export``), and a long round post goes
out as several messages, each player pinged once, in the first message that names them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import discord

from bot.discord_app import formatting
from bot.tables.bot_users import is_bot
from bot.tables.leagues.standings import Standing
from render.league_table import number

#: Discord's limits on an embed, and on the users one message may ping.
FIELDS_MAX = 25
EMBED_TOTAL_MAX = 6000
USERS_PER_MESSAGE = 100
#: Kept free of the embed's 6,000 for its title, footer and the "and N more" line.
EMBED_RESERVE = 600
#: Players in one field of the standings.
ROWS_PER_FIELD = 10
#: Users named on one line of a post's closing line of mentions (well within 2,000).
MENTIONS_PER_ROW = 50
#: The standings picture's file name, as the embed refers to it.
TABLE_FILE = "standings.png"


def who(player: str) -> str:
    """A player as a post names them: a mention, or a Dispatch level's name."""
    return player if is_bot(player) else formatting.mention(player)


def standing_line(standing: Standing, sides: tuple[str, str]) -> str:
    """A player's line: rank, who, points, tiebreaks and the record on each side."""
    out = " (withdrawn)" if standing.withdrawn else ""
    return (
        f"**{standing.rank}.** {who(standing.player)}{out}: **{number(standing.points)}**"
        f" · Bch {number(standing.buchholz)} · SB {number(standing.sonneborn_berger)}"
        f" · {sides[0]} {standing.first} · {sides[1]} {standing.second}"
    )


def _fields(lines: Sequence[str]) -> tuple[list[tuple[int, str]], int]:
    """``lines`` packed into field values within Discord's limits: each value with the
    index of its first line, and how many lines did not fit."""
    values: list[tuple[int, str]] = []
    current: list[str] = []
    start = total = 0
    for index, line in enumerate(lines):
        line = formatting.clip(line, formatting.FIELD_MAX)
        longer = len("\n".join([*current, line])) > formatting.FIELD_MAX
        if current and (longer or len(current) >= ROWS_PER_FIELD):
            values.append((start, "\n".join(current)))
            current, start = [], index
        if total + len(line) + 1 > EMBED_TOTAL_MAX - EMBED_RESERVE or len(values) >= FIELDS_MAX - 1:
            if current:
                values.append((start, "\n".join(current)))
            return values, len(lines) - index
        current.append(line)
        total += len(line) + 1
    if current:
        values.append((start, "\n".join(current)))
    return values, 0


def standings_embed(
    title: str, standings: Sequence[Standing], sides: tuple[str, str], *, picture: bool
) -> discord.Embed:
    """The standings as an embed, truncated politely within Discord's limits; with
    ``picture``, the table's image (attached as :data:`TABLE_FILE`) under it."""
    embed = discord.Embed(title=formatting.clip(title, 256), colour=formatting.COLOUR_END)
    lines = [standing_line(s, sides) for s in standings]
    values, left = _fields(lines)
    for start, value in values:
        name = "Standings" if start == 0 else f"From {start + 1}"
        embed.add_field(name=name, value=value, inline=False)
    if left:
        embed.add_field(
            name="More", value=f"and {left} more (the whole table is in /league export)"
        )
    if not standings:
        embed.description = "No entrants yet."
    embed.set_footer(
        text="Points, then Buchholz (Bch), Sonneborn-Berger (SB), head-to-head, rating."
    )
    if picture:
        embed.set_image(url=f"attachment://{TABLE_FILE}")
    return embed


@dataclass(frozen=True)
class Message:
    """One message of a post: its text and the users it pings."""

    content: str
    pings: tuple[str, ...]

    def allowed_mentions(self) -> discord.AllowedMentions:
        users = [discord.Object(id=int(u)) for u in self.pings]
        return discord.AllowedMentions(everyone=False, roles=False, users=users, replied_user=False)


def _pingable(user_ids: Iterable[str]) -> list[str]:
    return [u for u in dict.fromkeys(user_ids) if u.isascii() and u.isdigit()]


def messages(headline: str, lines: Sequence[str], mention: Sequence[str]) -> list[Message]:
    """A post's ``headline`` and ``lines`` as messages of at most 2,000 characters, each
    pinging at most 100 users: every user of ``mention`` exactly once, in the first
    message that names them (a user named by no line is named on a last line), and no
    one else, whoever else the lines name."""
    owed = _pingable(mention)
    named = "\n".join(lines)
    unnamed = [u for u in owed if formatting.mention(u) not in named]
    rows = [formatting.clip(line, formatting.CONTENT_MAX) for line in lines]
    for at in range(0, len(unnamed), MENTIONS_PER_ROW):
        rows.append(formatting.mentions(unnamed[at : at + MENTIONS_PER_ROW]))
    out: list[Message] = []
    current = formatting.clip(headline, formatting.CONTENT_MAX)
    pings: list[str] = [u for u in owed if formatting.mention(u) in current]
    done = set(pings)
    for row in rows:
        new = [u for u in owed if u not in done and formatting.mention(u) in row]
        too_long = len(current) + 1 + len(row) > formatting.CONTENT_MAX
        if current and (too_long or len(pings) + len(new) > USERS_PER_MESSAGE):
            out.append(Message(current, tuple(pings)))
            current, pings = "", []
        current = f"{current}\n{row}" if current else row
        pings.extend(new)
        done.update(new)
    if current:
        out.append(Message(current, tuple(pings)))
    return out
