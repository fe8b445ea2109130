"""Interactions that reach the bot after Discord's 3-second window are ignored.

Discord accepts an interaction's first answer only within 3 s of the interaction being made.
One that reaches the bot later (replayed after a gateway reconnect, or stuck behind a stalled
event loop) can no longer be answered: applying it anyway made the move while the player saw
"This interaction failed". Such interactions are logged and not applied. The age is read from
the interaction's id, a snowflake that carries the time Discord made it, against our clock.
One whose answer is refused as expired is logged in one line and counted (`note_expired`).
"""

from __future__ import annotations

import datetime
import logging

import discord

from bot.log_window import LogWindow

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
    log.warning("ignored interaction %s (%s by %s): it reached the bot %.1f s after it was "
                "made, past Discord's %.0f s window, so it was not applied", interaction.id,
                describe(interaction), interaction.user.id if interaction.user else "?", age, WINDOW_SECONDS)
    return True


# ---------------------------------------------------------------------- expired answers
# An interaction that reached the bot in time can still expire before its answer reaches
# Discord (a CPU-starved or stalled bot): Discord then refuses the callback with 404 /
# 10062 "Unknown interaction", and every later answer on its token too. That is an
# operating condition, not a bug: one WARNING line per interaction, no traceback, and a
# count every SUMMARY_SECONDS while they happen, so a slow bot is visible in the log
# without burying real errors under tracebacks.
UNKNOWN_INTERACTION = 10062
SUMMARY_SECONDS = 300.0
_REMEMBERED = 4096  # interactions remembered as expired (their later answers are skipped)


class ExpiredAnswers:
    """Interactions whose answer came too late: one line each, a count per window."""

    def __init__(self, seconds: float = SUMMARY_SECONDS) -> None:
        self.ids: dict[int, None] = {}  # insertion-ordered: the oldest are forgotten first
        self.window = LogWindow(seconds, self._summary)

    def note(self, interaction: discord.Interaction) -> None:
        if interaction.id in self.ids:
            return  # its first failed answer was logged; the retries say nothing new
        self.ids[interaction.id] = None
        if len(self.ids) > _REMEMBERED:
            del self.ids[next(iter(self.ids))]
        self.window.note()
        age = (utcnow() - interaction.created_at).total_seconds()
        log.warning("interaction %s (%s by %s) expired before the bot's answer reached "
                    "Discord (%.1f s after it was made, window %.0f s): the person saw "
                    "\"This interaction failed\"", interaction.id, describe(interaction),
                    interaction.user.id if interaction.user else "?", age, WINDOW_SECONDS)

    def _summary(self, counts, total: int) -> None:
        log.warning("%d interaction(s) expired unanswered in the last %.0f s (%d since the "
                    "bot started): it answered later than Discord's %.0f s, e.g. short of "
                    "CPU or with a stalled event loop", sum(counts.values()),
                    self.window.seconds, total, WINDOW_SECONDS)


EXPIRED = ExpiredAnswers()


def describe(interaction: discord.Interaction) -> str:
    data = interaction.data or {}
    return str(data.get("custom_id") or data.get("name") or interaction.type.name)


def is_expiry(exc: BaseException) -> bool:
    """Whether `exc` is Discord refusing an answer because the interaction expired."""
    return isinstance(exc, discord.NotFound) and exc.code == UNKNOWN_INTERACTION


def expired(interaction: discord.Interaction) -> bool:
    """Whether an answer to `interaction` was already refused as expired: the later ones
    (an error message, a followup) would be refused too, so they are not sent."""
    return interaction.id in EXPIRED.ids


def note_expired(interaction: discord.Interaction) -> None:
    EXPIRED.note(interaction)
