-- Each player's choice about forced choices (a decision with one legal action that
-- reveals nothing, such as War's last placement of a battle): 'auto', the default, takes
-- it for them and says so; 'ask' asks them every time, as before.
ALTER TABLE user_settings ADD COLUMN forced TEXT NOT NULL DEFAULT 'auto'
    CHECK (forced IN ('auto', 'ask'));
