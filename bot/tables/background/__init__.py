"""The background passes: deliveries retried, games lost on time ended, players warned
and reminded, the heartbeat, old outbox rows pruned; ``desk`` is their entrance on the
manager (``manager.background``)."""
