"""Records: what stays of a game once it is played. Finished games a page at a time and a
player's record (``pages``), ratings (``ratings``), the export and the replay of the action
log (``replay``, ``replay_movie``), and where a game against Dispatch turned
(``estimates``); ``desk`` is their entrance on the manager (``manager.records``)."""
