"""A game's link to its page, given and revoked by the bot (``/game link``, the
sandbox's ``link``), on the bot's own store: the one part of the page that writes, and
it runs in the bot, never in the page's read-only server.

A game has one live link at a time: asking again gives the same link, revoking turns
every link of the game away (404), the one its league's page made for it included, and
asking after that gives a new one. A server's
moderators may turn the page off for all its games, or let search engines index it.
"""

from __future__ import annotations

from bot import errors
from bot.config import WebSettings
from bot.storage.statements.web import WebServer
from bot.storage.store import Store
from bot.web.tokens import make_token, new_nonce, new_secret

NOT_SET_UP = (
    "The spectator page is not set up on this bot (its host sets DISPATCH_WEB_URL; "
    "see docs/web.md)."
)
PAGE_OFF = "This server's moderators have turned the spectator page off for its games."


async def give_link(store: Store, settings: WebSettings, game_id: int, user_id: str) -> str:
    """The address of the game's page; its live link, or a new one when it has none."""
    if settings.url is None:
        raise errors.NotAllowed(NOT_SET_UP)
    async with store.transaction(game=game_id) as db:
        row = await db.game(game_id)
        if row is None:
            raise errors.GameNotFound(f"Game #{game_id}")
        if row.guild_id and (await db.web.server(row.guild_id)).page_off:
            raise errors.NotAllowed(PAGE_OFF)
        secret = settings.secret or await db.web.keep_secret(new_secret())
        nonce = await db.web.live_link(game_id)
        if nonce is None:
            nonce = new_nonce()
            await db.web.add_link(game_id, nonce, user_id)
    return f"{settings.url}/g/{make_token(secret, game_id, nonce)}/"


async def revoke_links(store: Store, game_id: int, user_id: str, *, is_moderator: bool) -> int:
    """Turn every link of the game away; how many were live. For its players and
    moderators only."""
    async with store.transaction(game=game_id) as db:
        seats = await db.seats(game_id)
        played = await db.seat_changes.seat_passed(game_id, user_id) is not None
        if not (is_moderator or played or any(s.user_id == user_id for s in seats)):
            raise errors.ModeratorOnly(
                "Only the game's players or a moderator can revoke the link to its page."
            )
        # The link a league's page made for the game goes too; the league's page and
        # its other games' links stay.
        await db.web.revoke_league_game_page(game_id)
        return await db.web.revoke_links(game_id)


async def linked_by_a_league(store: Store, game_id: int) -> bool:
    """Whether a league's live link opens the game's page: its page links each of its
    games with a link drawn from its own, until ``/league link revoke`` turns the
    league's away or ``/game link revoke`` the game's."""
    async with store.read() as db:
        return bool(await db.web.league_nonces_of_game(game_id))


async def server_page(
    store: Store, guild_id: str | None, *, page: bool | None, indexing: bool | None
) -> WebServer:
    """A server's say over its games' pages, changed where ``page`` or ``indexing`` is
    given (the caller checked the asker is a moderator)."""
    if guild_id is None:
        raise errors.ServerOnly("The spectator page's settings are a server's: set them there.")
    async with store.transaction() as db:
        now = await db.web.server(guild_id)
        chosen = WebServer(
            page_off=now.page_off if page is None else not page,
            indexable=now.indexable if indexing is None else indexing,
        )
        await db.web.set_server(guild_id, chosen)
    return chosen


def server_words(setting: WebServer) -> str:
    page = "off" if setting.page_off else "on"
    indexed = "may" if setting.indexable else "may not"
    return (
        f"The spectator page is {page} for this server's games; search engines {indexed} index it."
    )
