-- A league's page links each of its games with a link drawn from its own (0028). A
-- game's players or moderators may turn its page away with /game link revoke; the link
-- the league's page made for that game must stop opening it too, while the league's
-- page and its other games' links go on. The moment it was turned away is kept here.
ALTER TABLE league_games ADD COLUMN page_revoked_at REAL;
