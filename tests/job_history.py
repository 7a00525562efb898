"""Every ``bot_jobs`` row a test database ever held, for checks that read jobs after
their game ended (the chaos run, the worker processes).

The store deletes a game's jobs when it ends and a live game's old finished ones
(``db.bot_jobs.drop_bot_jobs``, ``prune_bot_jobs``), so "each move of Dispatch applied once,
from its job" cannot be read from ``bot_jobs`` afterwards. :func:`keep_job_history`
installs, in the test's own database only, a trigger that copies each row into
``bot_jobs_history`` as it is deleted, with the status it had then; :func:`job_history`
reads a game's jobs from both, so the check sees every job of the game's life.
"""

from __future__ import annotations

from bot.storage.rows import BotJobRow, read_bot_job
from bot.storage.store import Store

COLUMNS = (
    "game_id, role, version, level, status, attempts, claimed_by, lease_until,"
    " created_at, finished_at"
)
_OLD = ", ".join(f"OLD.{c.strip()}" for c in COLUMNS.split(","))

_HISTORY_TABLE = (
    "CREATE TABLE bot_jobs_history (seq INTEGER PRIMARY KEY, game_id BIGINT, role TEXT,"
    " version BIGINT, level TEXT, status TEXT, attempts BIGINT, claimed_by TEXT,"
    " lease_until DOUBLE PRECISION, created_at DOUBLE PRECISION, finished_at DOUBLE PRECISION)"
)
_SQLITE_TRIGGER = (
    "CREATE TRIGGER keep_bot_jobs BEFORE DELETE ON bot_jobs BEGIN"
    f" INSERT INTO bot_jobs_history ({COLUMNS}) VALUES ({_OLD}); END"
)
_PG_SEQ = "CREATE SEQUENCE bot_jobs_history_seq"
_PG_DEFAULT = (
    "ALTER TABLE bot_jobs_history ALTER COLUMN seq SET DEFAULT nextval('bot_jobs_history_seq')"
)
_PG_FUNCTION = (
    "CREATE FUNCTION keep_bot_job() RETURNS trigger LANGUAGE plpgsql AS $body$ BEGIN"
    f" INSERT INTO bot_jobs_history ({COLUMNS}) VALUES ({_OLD}); RETURN OLD; END $body$"
)
_PG_TRIGGER = (
    "CREATE TRIGGER keep_bot_jobs BEFORE DELETE ON bot_jobs"
    " FOR EACH ROW EXECUTE FUNCTION keep_bot_job()"
)


async def keep_job_history(store: Store) -> None:
    """From now on, every ``bot_jobs`` row deleted is kept in ``bot_jobs_history``."""
    if store.dialect == "postgresql":
        statements = [_PG_SEQ, _HISTORY_TABLE, _PG_DEFAULT, _PG_FUNCTION, _PG_TRIGGER]
    else:
        statements = [_HISTORY_TABLE, _SQLITE_TRIGGER]
    async with store.transaction() as db:
        for sql in statements:
            await db._run(sql)


async def job_history(store: Store, game_id: int) -> list[BotJobRow]:
    """The game's jobs, deleted ones (in the order they went) then those still there."""
    async with store.read() as db:
        gone = await db._all(
            f"SELECT {COLUMNS} FROM bot_jobs_history WHERE game_id = ? ORDER BY seq",
            (game_id,),
        )
        live = await db.bot_jobs.of_game(game_id)
    kept = [read_bot_job(r) for r in gone]
    return kept + live
