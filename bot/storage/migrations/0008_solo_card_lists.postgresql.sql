-- PostgreSQL twin of 0008_solo_card_lists.sql (see bot/storage/migrate.py): the same schema in
-- PostgreSQL's words (DOUBLE PRECISION for REAL, identity columns for AUTOINCREMENT).
-- CDG Solo System: a card list a group imported for one playsheet's game (CSV, checked by
-- rules.solo.cards.parse_card_list before it is stored). ``scope`` is the server id, or
-- 'dm:<user id>' for sessions in direct messages. New sessions of that playsheet in that
-- scope start with the list, so the player is not asked the facts of listed cards.
CREATE TABLE solo_card_lists (
    scope       TEXT NOT NULL,
    playsheet   TEXT NOT NULL,
    csv         TEXT NOT NULL,
    cards       INTEGER NOT NULL,
    imported_by TEXT NOT NULL,
    imported_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (scope, playsheet)
);
