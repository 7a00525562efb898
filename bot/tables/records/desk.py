"""The records desk (``manager.records``): a game's public log, a player's games and
record, the leaderboard, exports and replays.

The rating of a game that ends runs inside the commit that ends it
(``ratings.rated_post``, called by the turn's commit), not here."""

from __future__ import annotations

from typing import Any

from bot import errors
from bot.delivery.courier import mark_damaged
from bot.delivery.notices import public_log
from bot.storage.rows import dumps
from bot.tables import validate
from bot.tables.core import Core
from bot.tables.loading import GameRef, find_row, safe_view
from bot.tables.records import estimates, pages, ratings
from bot.tables.records.replay import (
    export_game,
    not_yours,
    replayed_state,
    stored_state,
    watchable_export,
)
from bot.tables.records.replay_movie import Movie, ReplayCache, drawable, upload_limit
from bot.tables.results import Standing, UserGame


class RecordsDesk:
    """Logs, records, ratings, exports and replays of the core's games."""

    def __init__(self, core: Core) -> None:
        self._core = core
        #: Replays of finished games, drawn off the event loop (``replay_movie``).
        self.replays = ReplayCache()

    async def log(self, game: GameRef, count: int = 20) -> list[str]:
        """The last ``count`` public log lines; for a finished game against Dispatch, then
        where the game turned by Dispatch's own estimates (``estimates``: never before the
        end)."""
        count = validate.count(count)
        pv = await self._core.view_for(game, None)
        lines = public_log(pv.view)
        shown = lines[-count:] if count > 0 else []
        if pv.game.status not in estimates.OVER:
            return shown
        async with self._core.store.read() as db:
            rows = await db.hints.bot_estimates(pv.game.id)
        names = {s.role: s.user_id for s in pv.game.seats}
        return shown + estimates.turning_lines(rows, names)

    async def games_for_user(self, user_id: str) -> list[UserGame]:
        """The user's games being set up or played, with whose turn it is and since when."""
        user_id = validate.user_id(user_id)
        async with self._core.store.read() as db:
            rows = await db.lobby.games_of_user(user_id)
            listed = [(row, await db.seats(row.id)) for row in rows]
        return [pages.user_game(row, seats, user_id) for row, seats in listed]

    async def leaderboard(
        self, guild_id: str | None, game_name: str, limit: int = ratings.LEADERBOARD_SIZE
    ) -> list[Standing]:
        """The best ``limit`` rated players of a game on a server (None: outside one),
        Dispatch's levels among them; read in order from the ratings index."""
        guild_id = validate.guild_id(guild_id)
        game_name = ratings.rated_game(validate.game_name(game_name))
        limit = ratings.leaderboard_size(limit)
        async with self._core.store.read() as db:
            rows = await db.records.leaderboard(ratings.scope_of(guild_id), game_name, limit)
        return [
            Standing(rank, r.player_id, round(r.points), r.games, r.wins)
            for rank, r in enumerate(rows, start=1)
        ]

    # -- finished games and a player's record (``pages``) -----------------------------

    async def finished_page(
        self, scope: str, owner: str, *, older: bool = True, key: int = pages.FIRST
    ) -> pages.Page:
        """A page of finished games of a user ("mine") or a server ("server")."""
        return await pages.page(self._core.store, scope, owner, older=older, key=key)

    async def stats(self, user_id: str, game_name: str | None = None) -> pages.Stats:
        """A player's record in finished games."""
        return await pages.stats(self._core.store, user_id, game_name)

    # -- exports and replays (``replay``, ``replay_movie``) ---------------------------

    async def export(self, game: GameRef) -> dict[str, Any]:
        """Everything needed to replay the game elsewhere: name, options, seed, actions."""
        return await export_game(self._core.store, validate.game_ref(game))

    async def export_for_player(
        self, game: GameRef, *, is_moderator: bool = False, user_id: str | None = None
    ) -> dict[str, Any]:
        """The export as players may have it: only once the game is over.

        During play it would give the key to every shuffle and the face-down choices in
        the action log. A moderator may rescue a game whose record is damaged, unless they
        sit at it (``user_id``): the rescue would show them their opponent's cards and every
        draw to come, should the game be taken up again.
        """
        game = validate.game_ref(game)
        info = await self._core.get_game_info(game)
        live = info.status in ("lobby", "active")
        if live and is_moderator and await self.damage(info.id):
            if user_id is not None and info.roles_of(str(user_id)):
                raise errors.ModeratorOnly(
                    "You play in this game, so its rescue export (which holds the key to "
                    "every shuffle) is for a moderator who does not; nothing was exported."
                )
            live = False
        if live:
            raise errors.WrongStage(
                "The export holds the key to every shuffle and every action, which would "
                "reveal hidden cards, so it is available once the game is over."
            )
        return await self.export(info.id)

    async def export_finished(
        self, game_id: int, user_id: str, guild_id: str | None
    ) -> dict[str, Any]:
        """The export of a finished game by number: one the user played or of this server."""
        store = self._core.store
        return await self.export(await pages.exportable(store, game_id, user_id, guild_id))

    async def damage(self, game: GameRef) -> str | None:
        """Why the game's record cannot be used (None: healthy); marks it when newly found."""
        game = validate.game_ref(game)
        async with self._core.store.read() as db:
            row = await find_row(db, game, live=False)
        if row.damaged:
            return row.damaged
        if row.status != "active":
            return None
        try:
            safe_view(row, None)
        except errors.CorruptGame as exc:
            await mark_damaged(self._core.store, row.id, exc.detail)
            return exc.detail
        return None

    async def replay(self, game: GameRef) -> dict[str, Any]:
        """setup(seed) + every stored action, in order: the state the game must have."""
        return replayed_state(await self.export(game))

    async def check_replay(self, game: GameRef, user_id: str, guild_id: str | None) -> int:
        """The id of the game ``user_id`` (asking on ``guild_id``) may watch again, or a
        polite refusal (``replay.may_see_finished``); quick, for answering before a build."""
        game, user_id = _replay_ref(game), validate.user_id(user_id)
        store, guild_id = self._core.store, validate.guild_id(guild_id)
        data = await watchable_export(store, game, user_id, guild_id)
        return int(drawable(data)["id"])

    async def watch_replay(
        self, game: GameRef, user_id: str, guild_id: str | None, limit: int | None = None
    ) -> Movie:
        """The replay of a game that is over: an animated GIF of the public board after
        each turn and the public log, together within ``limit`` bytes (None: Discord's
        default), drawn in a worker thread and cached (``replay_movie.ReplayCache``)."""
        game, user_id = _replay_ref(game), validate.user_id(user_id)
        limit = upload_limit(limit)
        store, guild_id = self._core.store, validate.guild_id(guild_id)
        data = await watchable_export(store, game, user_id, guild_id)
        return await self.replays.movie(drawable(data), limit)

    async def verify_replay(self, game: GameRef) -> bool:
        """True when replaying the action log gives exactly the stored state."""
        game = validate.game_ref(game)
        replayed = await self.replay(game)
        return await stored_state(self._core.store, game) == dumps(replayed)


def _replay_ref(game: Any) -> GameRef:
    """A game to replay, checked: a number out of range is refused as any number one may
    not see (``replay.not_yours``), so the answer tells nothing about which exist."""
    try:
        return validate.game_ref(game)
    except errors.GameNotFound:
        raise not_yours(game) from None
