"""Where a game lives: a thread per game (a server setting), the lobby post a thread hangs
from, and moving a game to another channel; ``desk`` is their entrance on the manager
(``manager.threads``)."""
