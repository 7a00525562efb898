"""The tables: the GameManager and everything it does to a game, each change one
transaction (docs/architecture.md, "Desks: one entrance per feature").

- ``manager``: ``GameManager``, the one door; ``core``: what its desks share;
- a folder per feature with its desk (``clocks``, ``records``, ``seat_changes``,
  ``hints``, ``settings``, ``threads``, ``prompts``, ``background``);
- ``requests`` and ``validate``: what callers ask, and every value checked at the door;
- ``results``: the manager's answers to its callers;
- ``lobby``: games opened and seats taken; ``endings``: resign, decree, abandon;
- ``turn``: a decision applied and committed, its parts beside it (``turn_types``,
  ``turn_checks``, ``applying``, ``forced``, ``turn_post``, ``turn_notices``,
  ``notice_plan``, ``bot_jobs``);
- ``loading``: a game read back; ``reach``: which games a number reaches;
- ``listeners``: who hears from the manager; ``bot_users``: who Dispatch is at a table;
- ``game_locks``: the per-game locks; ``solo`` and ``card_csv``: solo sessions' choices
  and imported card lists;
- ``store_copy`` and ``store_check``: ``dispatch store copy`` and ``check``.
"""
