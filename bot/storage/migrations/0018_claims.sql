-- Several bot processes on one PostgreSQL database: background work
-- claims what it handles with a lease. ``claimed_by`` names the process (host, pid and a
-- random tag, ``Store.instance``), ``lease_until`` is when its claim lapses: a process
-- killed mid-delivery leaves claims that another takes over once they lapse, and the
-- outbox row's nonce keeps every post exactly once. Claims are taken with FOR UPDATE SKIP
-- LOCKED on PostgreSQL; on SQLite one process owns the file and always wins its claims.
-- Finished work releases its claim (both columns NULL).
ALTER TABLE outbox ADD COLUMN claimed_by TEXT;
ALTER TABLE outbox ADD COLUMN lease_until DOUBLE PRECISION;
ALTER TABLE timers ADD COLUMN claimed_by TEXT;
ALTER TABLE timers ADD COLUMN lease_until DOUBLE PRECISION;
ALTER TABLE clocks ADD COLUMN claimed_by TEXT;
ALTER TABLE clocks ADD COLUMN lease_until DOUBLE PRECISION;
