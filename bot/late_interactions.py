"""Interactions that reach the bot after Discord's 3-second window are ignored.

Discord accepts an interaction's first answer only within 3 s of the interaction being made.
One that reaches the bot later (replayed after a gateway reconnect, or stuck behind a stalled
event loop) can no longer be answered: applying it anyway made the move while the player saw
"This interaction failed". Such interactions are logged and not applied. The age is read from
the interaction's id, a snowflake that carries the time Discord made it, against our clock.
"""

from __future__ import annotations

import datetime
import logging

import discord

log = logging.getLogger("cardtable.interactions")

WINDOW_SECONDS = 3.0  # Discord's limit for the first answer to an interaction


def utcnow() -> datetime.datetime:
    """The clock interactions are checked against (a function, so tests can move it)."""
    return discord.utils.utcnow()


def too_late(interaction: discord.Interaction) -> bool:
    """True (and logged) if Discord's window to answer `interaction` has already closed."""
    age = (utcnow() - interaction.created_at).total_seconds()
    if age <= WINDOW_SECONDS:
        return False
    data = interaction.data or {}
    what = data.get("custom_id") or data.get("name") or interaction.type.name
    log.warning("ignored interaction %s (%s by %s): it reached the bot %.1f s after it was "
                "made, past Discord's %.0f s window, so it was not applied", interaction.id,
                what, interaction.user.id if interaction.user else "?", age, WINDOW_SECONDS)
    return True
