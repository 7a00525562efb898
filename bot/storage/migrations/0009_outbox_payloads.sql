-- Why: the store grew about 112 KiB per finished game, most of it empty
-- space in the outbox. A delivered row's payload was blanked in place, but the page that
-- held it only ever takes rows with nearby ids, and ids only grow: the space was never
-- used again (a VACUUM packed the same file to 43 KiB a game).
--
-- A row's payload now lives in its own table, keyed by the row id, and is deleted when
-- the row is delivered (the trigger below makes that part of the very statement that
-- marks it). Deleted rows free whole pages, which SQLite reuses for the next payloads;
-- the outbox keeps only small rows, written once in id order and packed densely. Rows
-- queued before this migration keep their payload in the outbox column until delivered.
CREATE TABLE outbox_payloads (
    outbox_id INTEGER PRIMARY KEY REFERENCES outbox (id) ON DELETE CASCADE,
    payload   TEXT NOT NULL
);

CREATE TRIGGER outbox_payload_delivered AFTER UPDATE OF delivered_at ON outbox
WHEN NEW.delivered_at IS NOT NULL
BEGIN
    DELETE FROM outbox_payloads WHERE outbox_id = NEW.id;
END;
-- When a row's first send was started (NULL: never tried). A send
-- that may have reached Discord is looked for before it is repeated once Discord's
-- nonce window has passed (bot.delivery.courier).
ALTER TABLE outbox ADD COLUMN sent_at REAL;

-- Old files give their sparse outbox pages back once.
-- dispatch: vacuum after
