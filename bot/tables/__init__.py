"""The tables: the GameManager and everything it does to a game (lobby, a turn and its
commit, resign, abandon, export), each change one transaction."""
