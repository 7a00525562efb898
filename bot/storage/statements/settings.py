"""The statements of settings (``db.settings`` of a session): a player's (where their turn
is announced, forced choices), a channel's (reminders), a server's (a thread per game,
the default clock), and the solo card lists imported for a server or a player."""

from __future__ import annotations

from collections.abc import Iterable

from bot.storage.queries import hot_sql
from bot.storage.statements.base import Statements


class SettingStatements(Statements):
    """Player, channel and server settings, and imported solo card lists."""

    __slots__ = ()

    async def notify_prefs(self, user_ids: Iterable[str]) -> dict[str, str]:
        """Where each of these users wants their turn announced (absent: the default)."""
        users = list(dict.fromkeys(user_ids))
        if not users:
            return {}
        marks = ", ".join("?" for _ in users)
        rows = await self._all(
            f"SELECT user_id, notify FROM user_settings WHERE user_id IN ({marks})", users
        )
        return {r["user_id"]: r["notify"] for r in rows}

    async def set_notify(self, user_id: str, notify: str) -> None:
        await self._run(
            "INSERT INTO user_settings (user_id, notify) VALUES (?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET notify = excluded.notify",
            (user_id, notify),
        )

    async def forced_setting(self, user_id: str) -> str:
        """Whether forced choices are taken for this user ("auto", the default) or they
        are asked ("ask")."""
        row = await self._one("SELECT forced FROM user_settings WHERE user_id = ?", (user_id,))
        return str(row["forced"]) if row is not None else "auto"

    async def set_forced(self, user_id: str, forced: str) -> None:
        await self._run(
            "INSERT INTO user_settings (user_id, forced) VALUES (?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET forced = excluded.forced",
            (user_id, forced),
        )

    async def reminder_hours(self, channel_id: str, default: float) -> float:
        r = await self._one(hot_sql("reminder_hours"), (channel_id,))
        return float(r[0]) if r else default

    async def set_reminder_hours(self, channel_id: str, guild_id: str | None, hours: float) -> None:
        await self._run(
            "INSERT INTO channel_settings (channel_id, guild_id, reminder_hours) VALUES (?, ?, ?)"
            " ON CONFLICT (channel_id) DO UPDATE SET reminder_hours = excluded.reminder_hours",
            (channel_id, guild_id, hours),
        )

    async def threads_setting(self, guild_id: str) -> bool | None:
        """Whether ``/game new`` opens a thread per game on this server (None: never set)."""
        r = await self._one("SELECT threads FROM thread_settings WHERE guild_id = ?", (guild_id,))
        return bool(r[0]) if r else None

    async def set_threads_setting(self, guild_id: str, on: bool) -> None:
        await self._run(
            "INSERT INTO thread_settings (guild_id, threads) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET threads = excluded.threads",
            (guild_id, int(on)),
        )

    async def default_clock(self, guild_id: str) -> str | None:
        """A server's default clock for new games (None: never set)."""
        r = await self._one("SELECT clock FROM clock_defaults WHERE guild_id = ?", (guild_id,))
        return str(r[0]) if r else None

    async def set_default_clock(self, guild_id: str, clock: str) -> None:
        await self._run(
            "INSERT INTO clock_defaults (guild_id, clock) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET clock = excluded.clock",
            (guild_id, clock),
        )

    async def solo_card_list(self, scope: str, playsheet: str) -> tuple[str, int] | None:
        """The CSV card list imported for ``playsheet`` in ``scope``, and its card count."""
        r = await self._one(
            "SELECT csv, cards FROM solo_card_lists WHERE scope = ? AND playsheet = ?",
            (scope, playsheet),
        )
        return (str(r["csv"]), int(r["cards"])) if r else None

    async def set_solo_card_list(
        self, scope: str, playsheet: str, csv: str, cards: int, user_id: str
    ) -> None:
        await self._run(
            "INSERT INTO solo_card_lists (scope, playsheet, csv, cards, imported_by, imported_at)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (scope, playsheet) DO UPDATE SET"
            " csv = excluded.csv, cards = excluded.cards, imported_by = excluded.imported_by,"
            " imported_at = excluded.imported_at",
            (scope, playsheet, csv, cards, user_id, self.now),
        )

    async def delete_solo_card_list(self, scope: str, playsheet: str) -> bool:
        """Forget the card list of ``playsheet`` in ``scope``; False when there was none.
        Sessions that started with it keep their copy (it is in their options)."""
        where = (scope, playsheet)
        if await self.solo_card_list(*where) is None:
            return False
        await self._run("DELETE FROM solo_card_lists WHERE scope = ? AND playsheet = ?", where)
        return True
