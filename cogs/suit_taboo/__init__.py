"""Suit Taboo in Discord: its commands and text (`cog`). Loaded as a discord.py extension."""

from cogs.suit_taboo.cog import setup

__all__ = ["setup"]
