"""``dispatch worker``: processes that make Dispatch's moves, on any machine."""
