"""A channel's and a player's settings: the reminder interval, where turns are announced,
whether forced choices are taken for the player; ``desk`` is their entrance on the
manager (``manager.settings``)."""
