-- Years of play: a delivered outbox row keeps no payload, hot queries use indexes, and a
-- game whose record is damaged is marked so background work skips it.
--
-- A delivered row is kept (its id is the message's nonce, its times and errors help a
-- moderator read what happened) but its payload, the full view it carried, is dropped:
-- it was 340-610 KB per finished game. The file itself shrinks by the VACUUM that
-- bot.migrate runs after this migration (it cannot run inside a transaction).
UPDATE outbox SET payload = '' WHERE delivered_at IS NOT NULL AND payload <> '';

-- The undelivered rows of one game, in order; also the list of games with something to
-- deliver (the background pass). The old index on next_attempt_at served neither.
DROP INDEX IF EXISTS outbox_pending;
CREATE INDEX outbox_undelivered ON outbox (game_id, id) WHERE delivered_at IS NULL;
-- Every undelivered row in order (tools and tests); holds only the few undelivered rows.
CREATE INDEX outbox_undelivered_in_order ON outbox (id) WHERE delivered_at IS NULL;

-- A channel's latest game (finished games included: /game board after the end).
CREATE INDEX games_by_channel ON games (channel_id, id);

-- A user's games: the seat rows of one user carry the game id, no table look-up needed.
DROP INDEX IF EXISTS seats_by_user;
CREATE INDEX seats_by_user ON seats (user_id, game_id);

-- Why a game cannot be loaded, when background work found it damaged (NULL: healthy).
ALTER TABLE games ADD COLUMN damaged TEXT;
-- dispatch: vacuum after
