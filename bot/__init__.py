"""The Discord runtime: settings, storage, tables, delivery and the bot factory."""

from bot.app import CardTableBot, create_bot

__all__ = ["CardTableBot", "create_bot"]
