-- Delivered outbox rows are deleted once they are older than the host's retention
-- (DISPATCH_OUTBOX_KEEP_DAYS, 30 days by default): a finished game left 46 to 65 of them
-- for ever. The prune asks for the oldest delivered rows: only delivered rows are
-- indexed, by when they were delivered, so it never reads the undelivered ones or
-- the whole table.
CREATE INDEX outbox_delivered ON outbox (delivered_at) WHERE delivered_at IS NOT NULL;
