"""A league's link to its page, given and revoked by the bot (``/league link``), on the
bot's own store, as a game's is (``bot.web.links``): one live link at a time, revoking
turns every link of the league away (404), and the server's page setting holds for it.

The page's process holds no Discord token, so the bot keeps, with the link, the names the
league shows its players by (``names``: their names on the server)."""

from __future__ import annotations

from collections.abc import Mapping

from bot import errors
from bot.config import WebSettings
from bot.storage.store import Store
from bot.tables.leagues.reading import league_here
from bot.web.links import NOT_SET_UP, PAGE_OFF
from bot.web.tokens import make_league_token, new_nonce, new_secret

#: The longest name kept for a player (a server's display name is at most 32).
NAME_MAX = 64


async def give_league_link(
    store: Store,
    settings: WebSettings,
    league_id: int,
    guild_id: str,
    user_id: str,
    names: Mapping[str, str],
) -> str:
    """The address of the league's page (its live link, or a new one), keeping ``names``
    (player → the name the league shows them by) for the page."""
    if settings.url is None:
        raise errors.NotAllowed(NOT_SET_UP)
    async with store.transaction() as db:
        await league_here(db, league_id, guild_id)
        if (await db.web.server(guild_id)).page_off:
            raise errors.NotAllowed(PAGE_OFF)
        secret = settings.secret or await db.web.keep_secret(new_secret())
        nonce = await db.web.league_live_link(league_id)
        if nonce is None:
            nonce = new_nonce()
            await db.web.add_league_link(league_id, nonce, user_id)
        await db.web.keep_names(league_id, {p: n[:NAME_MAX] for p, n in names.items()})
    return f"{settings.url}/l/{make_league_token(secret, league_id, nonce)}/"


async def revoke_league_links(
    store: Store, league_id: int, guild_id: str, user_id: str, *, is_moderator: bool
) -> int:
    """Turn every link of the league away; how many were live. For the league's creator
    and the server's moderators."""
    async with store.transaction() as db:
        league = await league_here(db, league_id, guild_id)
        if not (is_moderator or league.created_by == user_id):
            raise errors.ModeratorOnly(
                "Only the league's creator or a moderator can revoke the link to its page."
            )
        return await db.web.revoke_league_links(league_id)
