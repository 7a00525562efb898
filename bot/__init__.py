"""Dispatch: the async half of the bot.

``bot.manager.GameManager`` runs games over the store; front ends (Discord, the terminal
sandbox, tests) implement ``bot.ports.FrontEnd`` and never touch the database or the rules
directly. Nothing in this package except ``bot.discord_app`` imports discord.
"""
