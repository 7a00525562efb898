"""The statements of the spectator page (migration 0027, ``db.web`` of a session): its
links, each server's say over it, and the secret its links are signed with.

The page's own process only reads these (its store is read-only,
``bot.storage.read_only``); the bot writes them when ``/game link`` is asked for."""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage.statements.base import Statements


@dataclass(frozen=True)
class WebServer:
    """A server's say over the pages of its games (both off unless a moderator chose)."""

    page_off: bool = False
    indexable: bool = False


class WebStatements(Statements):
    """Links to a game's page, servers' settings, the signing secret."""

    __slots__ = ()

    async def secret(self) -> str | None:
        row = await self._one("SELECT secret FROM web_secret WHERE id = 1")
        return str(row[0]) if row else None

    async def keep_secret(self, secret: str) -> str:
        """Store ``secret`` unless one is already kept; the secret kept either way."""
        await self._run(
            "INSERT INTO web_secret (id, secret) VALUES (1, ?) ON CONFLICT (id) DO NOTHING",
            (secret,),
        )
        return await self.secret() or secret

    async def live_link(self, game_id: int) -> str | None:
        """The nonce of the game's link that is not revoked, if any (the newest)."""
        row = await self._one(
            "SELECT nonce FROM web_links WHERE game_id = ? AND revoked_at IS NULL"
            " ORDER BY created_at DESC LIMIT 1",
            (game_id,),
        )
        return str(row[0]) if row else None

    async def live_nonces(self, game_id: int) -> list[str]:
        """Every link of the game that still opens (a page already open checks its own
        against them at each update)."""
        rows = await self._all(
            "SELECT nonce FROM web_links WHERE game_id = ? AND revoked_at IS NULL", (game_id,)
        )
        return [str(r[0]) for r in rows]

    async def indexable_links(self) -> list[tuple[int, str]]:
        """(game, nonce) of every live link of a server that allows indexing."""
        rows = await self._all(
            "SELECT l.game_id, l.nonce FROM web_links l JOIN games g ON g.id = l.game_id"
            " JOIN web_servers s ON s.guild_id = g.guild_id"
            " WHERE l.revoked_at IS NULL AND s.indexable = 1 AND s.page_off = 0"
            " ORDER BY l.game_id"
        )
        return [(int(r[0]), str(r[1])) for r in rows]

    async def add_link(self, game_id: int, nonce: str, by_user: str) -> None:
        await self._run(
            "INSERT INTO web_links (nonce, game_id, created_by, created_at) VALUES (?, ?, ?, ?)",
            (nonce, game_id, by_user, self.now),
        )

    async def link_opens(self, game_id: int, nonce: str) -> bool:
        """Whether ``nonce`` is a link of ``game_id`` that was not revoked."""
        row = await self._one(
            "SELECT 1 FROM web_links WHERE nonce = ? AND game_id = ? AND revoked_at IS NULL",
            (nonce, game_id),
        )
        return row is not None

    async def revoke_links(self, game_id: int) -> int:
        """Revoke every live link of the game; how many there were."""
        rows = await self._all(
            "UPDATE web_links SET revoked_at = ? WHERE game_id = ? AND revoked_at IS NULL"
            " RETURNING nonce",
            (self.now, game_id),
        )
        return len(rows)

    async def server(self, guild_id: str) -> WebServer:
        row = await self._one(
            "SELECT page_off, indexable FROM web_servers WHERE guild_id = ?", (guild_id,)
        )
        return WebServer(bool(row[0]), bool(row[1])) if row else WebServer()

    async def set_server(self, guild_id: str, setting: WebServer) -> None:
        await self._run(
            "INSERT INTO web_servers (guild_id, page_off, indexable) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET page_off = excluded.page_off,"
            " indexable = excluded.indexable",
            (guild_id, int(setting.page_off), int(setting.indexable)),
        )

    # -- a league's page (migration 0028) ----------------------------------------------

    async def league_live_link(self, league_id: int) -> str | None:
        """The nonce of the league's link that is not revoked, if any (the newest)."""
        row = await self._one(
            "SELECT nonce FROM web_league_links WHERE league_id = ? AND revoked_at IS NULL"
            " ORDER BY created_at DESC LIMIT 1",
            (league_id,),
        )
        return str(row[0]) if row else None

    async def add_league_link(self, league_id: int, nonce: str, by_user: str) -> None:
        await self._run(
            "INSERT INTO web_league_links (nonce, league_id, created_by, created_at)"
            " VALUES (?, ?, ?, ?)",
            (nonce, league_id, by_user, self.now),
        )

    async def league_link_opens(self, league_id: int, nonce: str) -> bool:
        """Whether ``nonce`` is a link of ``league_id`` that was not revoked."""
        row = await self._one(
            "SELECT 1 FROM web_league_links"
            " WHERE nonce = ? AND league_id = ? AND revoked_at IS NULL",
            (nonce, league_id),
        )
        return row is not None

    async def live_league_nonces(self, league_id: int) -> list[str]:
        rows = await self._all(
            "SELECT nonce FROM web_league_links WHERE league_id = ? AND revoked_at IS NULL",
            (league_id,),
        )
        return [str(r[0]) for r in rows]

    async def league_nonces_of_game(self, game_id: int) -> list[str]:
        """The live links of the league game ``game_id`` is played in (a league's page
        links each of its games with a nonce drawn from its own, ``tokens.game_nonce``)."""
        rows = await self._all(
            "SELECT l.nonce FROM web_league_links l"
            " JOIN league_games g ON g.league_id = l.league_id"
            " WHERE g.game_id = ? AND l.revoked_at IS NULL AND g.page_revoked_at IS NULL",
            (game_id,),
        )
        return [str(r[0]) for r in rows]

    async def revoke_league_game_page(self, game_id: int) -> None:
        """The links a league's page made for ``game_id`` no longer open it (its own
        links are ``revoke_links``'s)."""
        await self._run(
            "UPDATE league_games SET page_revoked_at = ? WHERE game_id = ?"
            " AND page_revoked_at IS NULL",
            (self.now, game_id),
        )

    async def league_pages_revoked(self, league_id: int) -> set[int]:
        """The games of ``league_id`` whose page its links no longer open."""
        rows = await self._all(
            "SELECT game_id FROM league_games WHERE league_id = ? AND game_id IS NOT NULL"
            " AND page_revoked_at IS NOT NULL",
            (league_id,),
        )
        return {int(r[0]) for r in rows}

    async def league_of_game(self, game_id: int) -> int | None:
        row = await self._one(
            "SELECT league_id FROM league_games WHERE game_id = ? LIMIT 1", (game_id,)
        )
        return int(row[0]) if row else None

    async def revoke_league_links(self, league_id: int) -> int:
        rows = await self._all(
            "UPDATE web_league_links SET revoked_at = ? WHERE league_id = ?"
            " AND revoked_at IS NULL RETURNING nonce",
            (self.now, league_id),
        )
        return len(rows)

    async def keep_names(self, league_id: int, names: dict[str, str]) -> None:
        """The names the league shows its players by, kept for its page."""
        for player, name in names.items():
            await self._run(
                "INSERT INTO web_league_names (league_id, player, name) VALUES (?, ?, ?)"
                " ON CONFLICT (league_id, player) DO UPDATE SET name = excluded.name",
                (league_id, player, name),
            )

    async def names(self, league_id: int) -> dict[str, str]:
        rows = await self._all(
            "SELECT player, name FROM web_league_names WHERE league_id = ?", (league_id,)
        )
        return {str(r[0]): str(r[1]) for r in rows}
