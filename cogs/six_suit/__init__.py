"""Six Suit in Discord: its commands and text (`cog`). Loaded as a discord.py extension."""

from cogs.six_suit.cog import setup

__all__ = ["setup"]
