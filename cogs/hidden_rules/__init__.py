"""Hidden Rules in Discord: its commands and text (`cog`). Loaded as a discord.py extension."""

from cogs.hidden_rules.cog import setup

__all__ = ["setup"]
