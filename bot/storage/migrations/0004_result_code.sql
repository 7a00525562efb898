-- How each game ended, for programs: the outcome's code ("no_forces", "vp", "resigned"...)
-- beside its words. Results recorded before codes existed read as 'unrecorded'.
ALTER TABLE results ADD COLUMN code TEXT NOT NULL DEFAULT 'unrecorded';
