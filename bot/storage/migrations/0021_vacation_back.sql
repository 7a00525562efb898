-- A vacation that runs to its end is told at the player's tables (as one ended early
-- always was): ``back_due`` is 1 from the moment it is taken until the background pass
-- has told each table "back from vacation", or until it is ended early (which tells them
-- there and then). Vacations taken before this upgrade are never told: 0.
ALTER TABLE vacations ADD COLUMN back_due INTEGER NOT NULL DEFAULT 0;

-- The background pass asks for the due ones whose end has come: only they are indexed,
-- so the index holds the few running vacations, never the years of ended ones.
CREATE INDEX vacations_back_due ON vacations (ends_at) WHERE back_due = 1;
