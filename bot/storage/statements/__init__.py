"""The store's statements in groups, one module each (``bot.storage.session`` holds them)."""
