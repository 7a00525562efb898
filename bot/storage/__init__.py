"""Storage: the SQLite store (one connection, WAL, one process per file) and its numbered
migrations. Knows tables and rows, not games."""
