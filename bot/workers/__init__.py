"""``dispatch worker``: processes that make Dispatch's moves, on any machine (issue 25 §4)."""
