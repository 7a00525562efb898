"""``/games`` pages and ``/stats`` on Discord: the page text, its
Previous/Next buttons (persistent ``DynamicItem``s) and the record's text.

custom_id form (in ``custom_ids``, at most 100 characters)::

    dsp:y:<live|mine|server>:<owner>:<o|n>:<key>
        the page of games older (o) than game <key> or newer (n) than it: the asker's
        games being played (live) or finished (mine), owner their user id, or the games
        finished on a server (server), owner the server's id

Keyset pages: the key is a game number, so a page costs the same however many games
there are. A click from anyone but the asker (mine) or outside that server (server), or
onto a page that no longer holds any game, is refused politely and changes nothing.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import discord

from bot import errors
from bot.discord_app import formatting
from bot.discord_app.components import DispatchComponent
from bot.discord_app.custom_ids import Parsed, page_id
from bot.discord_app.interactions import handling, manager_of, reply, user_id
from bot.storage.finished_pages import FinishedGame
from bot.tables.records import pages
from bot.tables.records.pages import Page, Stats
from rules.core.log import plural

STALE = "That page no longer holds any game; run /games again."
HEADS = {
    "live": "Your games being played, everywhere",
    "mine": "Your finished games, newest first",
    "server": "Finished games on this server, newest first",
}
NO_GAMES = {
    "live": "You are not seated in any game. Start one with /game new "
    "(your finished games: /games show:finished).",
    "mine": "You have no finished games yet. Start one with /game new.",
    "server": "No game has been finished on this server yet.",
}


def _link(game: FinishedGame) -> str:
    if game.guild_id:
        return f"https://discord.com/channels/{game.guild_id}/{game.channel_id}"
    return f"<#{game.channel_id}>"


def _sides(game: FinishedGame, viewer: str | None) -> str:
    mine = [role for role, user in game.seats if user == viewer]
    others = [(role, user) for role, user in game.seats if user != viewer]
    named = [f"{formatting.mention(u)} ({pages.role_name(game.game_name, r)})" for r, u in others]
    as_ = ", ".join(pages.role_name(game.game_name, r) for r in mine)
    if mine and others:
        return f"as {as_} vs " + ", ".join(named)
    if mine and len(game.seats) == 1:  # a solo session: nobody to be against
        return f"as {as_}"
    return ", ".join(named) or "hot-seat"


def row_text(game: FinishedGame, viewer: str | None) -> str:
    """One finished game: number, date, game, sides, result and reason, and its link."""
    when = discord.utils.format_dt(datetime.fromtimestamp(game.finished_at, tz=UTC), "d")
    result = pages.result_for(game, viewer, formatting.mention)
    reason = formatting.clip(formatting.escape(game.reason), 100)
    title = formatting.escape(pages.game_title(game.game_name))
    return (
        f"#{game.id} {when} {title} {_sides(game, viewer)}: **{result}** ({reason}) · {_link(game)}"
    )


def page_embed(page: Page, viewer: str) -> discord.Embed:
    """The page as an embed: ten rows of up to ~300 characters fit its 4,096."""
    viewer_id = viewer if page.scope == "mine" else None
    rows = "\n".join(row_text(g, viewer_id) for g in page.finished())
    if page.scope == "live":
        # Within a page, the games where it is your turn come first.
        live = sorted(page.live(), key=lambda g: (not g.my_turn, g.since or 0))
        rows = "\n".join(
            formatting.game_line(g.game, user_id=viewer, my_turn=g.my_turn, since_at=g.since)
            for g in live
        )
    embed = discord.Embed(title=HEADS[page.scope], colour=formatting.COLOUR_TABLE)
    embed.description = formatting.clip(rows, formatting.EMBED_DESCRIPTION_MAX)
    return embed


def page_view(page: Page) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for older, key in ((False, page.newer), (True, page.older)):
        made = discord.ui.Button[Any](
            label="Next (older)" if older else "Previous (newer)",
            style=discord.ButtonStyle.secondary,
            custom_id=page_id(page.scope, page.owner, older, key or 0),
            disabled=key is None,
        )
        view.add_item(PageButton(made))
    return view


def page_owner(interaction: discord.Interaction[Any], scope: str) -> str:
    """Whose games a page lists: the asker's own, or the server's (not in a DM)."""
    if scope == "server":
        if interaction.guild_id is None:
            raise errors.BadInput("A server's games are listed in that server, not in a DM.")
        return str(interaction.guild_id)
    return user_id(interaction)


async def send_first_page(interaction: discord.Interaction[Any], scope: str) -> None:
    owner = page_owner(interaction, scope)
    page = await manager_of(interaction).records.finished_page(scope, owner)
    if not page.games:
        await reply(interaction, NO_GAMES[scope])
        return
    await reply(
        interaction,
        embed=page_embed(page, user_id(interaction)),
        view=page_view(page),
        allowed_mentions=discord.AllowedMentions.none(),
    )


class PageButton(DispatchComponent, kind="page"):
    """Previous (newer games) or Next (older games) under a ``/games`` page."""

    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        await on_page(interaction, self.click)


#: This module's kinds, registered by the history cog.
ITEMS: tuple[type[DispatchComponent], ...] = (PageButton,)


async def on_page(interaction: discord.Interaction[Any], click: Parsed) -> None:
    """Previous (newer games) or Next (older games) under a ``/games`` page: that page,
    in place, for its asker (or in its server) alone."""
    scope, owner = str(click.scope), str(click.owner)
    async with handling(interaction, 0, "page"):
        if page_owner(interaction, scope) != owner:
            raise errors.NotYours("These pages are someone else's; run /games yourself.")
        page = await manager_of(interaction).records.finished_page(
            scope, owner, older=bool(click.older), key=int(click.key or 0)
        )
        if not page.games:
            raise errors.Outdated(STALE)
        await interaction.response.edit_message(
            embed=page_embed(page, user_id(interaction)),
            view=page_view(page),
            allowed_mentions=discord.AllowedMentions.none(),
        )


def _tally_lines(stats: Stats) -> list[str]:
    lines = []
    for (game_name, role), tally in sorted(stats.by_side.items()):
        side = pages.role_name(game_name, role)
        title = formatting.escape(pages.game_title(game_name))
        lines.append(f"{title} as {side}: {tally.text()}")
    lines.append(f"On time: {stats.on_time.text()}")
    if stats.median_turn_s is not None:
        lines.append(
            f"Median time per turn: {pages.duration(stats.median_turn_s)}"
            f" (over {stats.turns} turn{'s' if stats.turns != 1 else ''})"
        )
    for level, tally in stats.against_levels.items():
        lines.append(f"Against Dispatch ({level}): {tally.text()}")
    return lines


def stats_text(stats: Stats) -> str:
    which = ""
    if stats.game_name:
        which = f" of {formatting.escape(pages.game_title(stats.game_name))}"
    who = formatting.mention(stats.user_id)
    if not stats.games:
        return f"{who} has no finished games{which} yet."
    head = f"**Record of {who}**: {plural(stats.games, 'finished game')}{which}"
    return formatting.clip("\n".join([head, *_tally_lines(stats)]), formatting.CONTENT_MAX)
