"""Seats that change hands in a running game: offered, given by a moderator, or handed
to Dispatch (``changes``); ``desk`` is their entrance on the manager
(``manager.seat_changes``)."""
