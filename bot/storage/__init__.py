"""Storage: the store on SQLite (the default: one process per file) or PostgreSQL
(several processes), its numbered migrations, and its own errors. Knows tables and rows,
not games; nothing above it names a database driver (docs/storage.md).

- ``store``: ``Store``, which opens either engine and hands out sessions and transactions;
- ``session``: ``Session`` (``db``), a game's own rows, and the statement groups;
- ``statements/``: the groups (``db.clocks``, ``db.outbox``...), one module each;
- ``connection``: the typed ``Connection`` every statement speaks to;
- ``backends``: each engine behind one ``Backend`` seam;
- ``engines``: the two engines' connections, their failures raised as the store's errors;
- ``dialect``: the SQL written once, put in PostgreSQL's words;
- ``batch``: a turn's writes on PostgreSQL sent with its COMMIT;
- ``errors``: what went wrong, in the store's own words (``Unavailable``...);
- ``rows``: a frozen dataclass for each kind of row, and its reader;
- ``queries`` and ``history``: the hot and the history statements, each held to an index;
- ``migrate`` and ``migrations/``: the schema, one set of files for both engines;
- ``reach``: whether the database answers, logged once each way;
- ``liveness``: a dead process's claims taken over within seconds;
- ``notify``: PostgreSQL's LISTEN on a connection of its own;
- ``bulk_copy``: a SQLite store's tables copied into PostgreSQL;
- ``read_only``: the store opened for reading only, for the spectator page.
"""
