-- Simultaneous decisions: per-seat prompt versions, and what the table last heard.
--
-- A button carries the game version it was drawn at. It is stale only if *that seat's*
-- decision has changed since: its prompt, actions or private information, or the seat
-- has acted itself. The other side's move in a simultaneous step leaves it valid.
ALTER TABLE seats ADD COLUMN prompt_version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE seats ADD COLUMN prompt_digest TEXT NOT NULL DEFAULT '';

-- Games already running: every button drawn before this migration counts as stale once.
UPDATE seats SET prompt_version = (SELECT version FROM games WHERE games.id = seats.game_id);

-- What the table was last told it is waiting for (roles and the step of play), so the
-- completion of a simultaneous step is posted even when its last player also acts next.
ALTER TABLE games ADD COLUMN posted_active TEXT NOT NULL DEFAULT '[]';
ALTER TABLE games ADD COLUMN posted_step TEXT NOT NULL DEFAULT '';
