-- History and records: a server's finished games are read a page at a time
-- by keyset (the last game number shown), never by OFFSET, so each page is answered from
-- this index however many games pile up. A player's games come from seats_by_user
-- (user_id, game_id), which already serves the same keyset.
CREATE INDEX games_finished_by_guild ON games (guild_id, id) WHERE status = 'finished';
