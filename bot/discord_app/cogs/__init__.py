"""Cogs: each parses its commands and delegates to the GameManager or the rules."""

EXTENSIONS = (
    "bot.discord_app.cogs.game",
    "bot.discord_app.cogs.seat_changes",
    "bot.discord_app.cogs.vacation",
    "bot.discord_app.cogs.moves",
    "bot.discord_app.cogs.info",
    "bot.discord_app.cogs.history",
    "bot.discord_app.cogs.admin",
    "bot.discord_app.cogs.solo",
    "bot.discord_app.cogs.leaderboard",
    "bot.discord_app.cogs.league",
)
