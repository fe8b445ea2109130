"""Suspense in Discord: its commands and text (`cog`). Loaded as a discord.py extension."""

from cogs.suspense.cog import setup

__all__ = ["setup"]
