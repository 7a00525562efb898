-- bot_jobs kept bounded.
-- From now on a game's jobs are deleted in the transaction that ends it, and a live game
-- keeps only its newest few finished jobs (``bot.tables.bot_jobs.KEEP_FINISHED``). This
-- deletes, once, what databases kept before: every job of a game that is over, and the
-- finished jobs of a live game that have four newer finished ones (pending jobs stay).
DELETE FROM bot_jobs
 WHERE game_id NOT IN (SELECT id FROM games WHERE status = 'active');

DELETE FROM bot_jobs
 WHERE status <> 'pending'
   AND (SELECT COUNT(*) FROM bot_jobs AS newer
         WHERE newer.game_id = bot_jobs.game_id
           AND newer.status <> 'pending'
           AND newer.version > bot_jobs.version) >= 4;
