-- A rematch remembers the game it follows, so that both players pressing Rematch land in
-- one new game, not two.
ALTER TABLE games ADD COLUMN rematch_of INTEGER REFERENCES games (id);
