"""A host's tools: commands run once to prepare an installation, never long-running
processes (those are ``bot/workers`` and the bot itself)."""
