"""Every statement the store can send (gathered from its source, ``tests/store_statements.py``)
in PostgreSQL's words is one PostgreSQL parses and plans, with as many parameters as the
statement has ``?`` for SQLite and as its call gives values; an insert that asks for its
row's id gets it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import aiosqlite
import asyncpg
import pytest
from store_statements import Statement, every_statement

from bot.delivery.retention import PRUNE_BATCH
from bot.storage import dialect
from bot.storage.dialect import insert_returning_id, template, to_postgres
from bot.storage.migrate import migrate

#: Fewer than this and the gathering missed the store's statements (there were 218).
FLOOR = 200


@pytest.fixture(scope="module")
def statements() -> list[Statement]:
    found = every_statement()
    assert len(found) >= FLOOR, f"only {len(found)} statements gathered: the gatherer broke"
    return found


def _postgres_text(statement: Statement) -> str:
    return insert_returning_id(statement.sql) if statement.insert else to_postgres(statement.sql)


async def test_every_statement_prepares_on_postgresql(
    statements: list[Statement], pg_url: str
) -> None:
    conn = await asyncpg.connect(pg_url)
    wrong: list[str] = []
    try:
        for statement in statements:
            try:
                prepared = await conn.prepare(_postgres_text(statement))
            except asyncpg.PostgresError as exc:
                wrong.append(f"{statement.where}: {exc}")
                continue
            count = len(prepared.get_parameters())
            if count != template(statement.sql).placeholders:
                wrong.append(f"{statement.where}: {count} parameters, not as many as its ?")
            if statement.values is not None and count != statement.values:
                wrong.append(f"{statement.where}: {count} parameters, {statement.values} values")
            returned = [a.name for a in prepared.get_attributes()]
            if statement.insert and returned != ["id"]:
                wrong.append(f"{statement.where}: the insert returns {returned}, not its id")
    finally:
        await conn.close()
    assert wrong == [], "\n".join(wrong)


#: What a statement the store sends on PostgreSQL alone names (SQLite refuses it).
POSTGRESQL_ONLY = ("FOR UPDATE SKIP LOCKED", "pg_", "WITH queued AS")


async def test_every_statement_has_as_many_placeholders_for_sqlite(
    statements: list[Statement], tmp_path: Path
) -> None:
    """SQLite counts the statement's placeholders itself: binding as many values as the
    tokenizer found is refused when they differ."""
    wrong: list[str] = []
    async with aiosqlite.connect(tmp_path / "counts.sqlite3") as db:
        await migrate(db)
        for statement in statements:
            values = (None,) * template(statement.sql).placeholders
            try:
                await db.execute_fetchall("EXPLAIN " + statement.sql, values)
            except sqlite3.OperationalError as exc:
                if not any(word in statement.sql for word in POSTGRESQL_ONLY):
                    wrong.append(f"{statement.where}: {exc}")
            except sqlite3.ProgrammingError as exc:
                wrong.append(f"{statement.where}: {exc}")
    assert wrong == [], "\n".join(wrong)


async def test_the_tables_whose_inserts_return_an_id_are_the_schemas(pg_url: str) -> None:
    conn = await asyncpg.connect(pg_url)
    try:
        rows = await conn.fetch(
            "SELECT table_name FROM information_schema.columns WHERE column_name = 'id'"
            " AND is_identity = 'YES' AND table_schema = current_schema()"
        )
    finally:
        await conn.close()
    assert {str(r[0]) for r in rows} == dialect.TABLES_WITH_ID


def test_the_cache_holds_every_statement(statements: list[Statement]) -> None:
    """The store's texts are its constants, and ``IN (?, ...)`` lists of at most a prune
    batch: all of them fit the cache, so none is translated twice."""
    assert len(statements) + PRUNE_BATCH < dialect.CACHE_SIZE
