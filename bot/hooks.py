"""Interaction tokens as a delivery path that Discord's global rate limit does not bind.

Discord counts every channel-endpoint request (post, edit, delete a message) against the
bot's global limit of 50 per second, and as deployed that limit, not the bot, capped the
moves per second (about three calls a move). An interaction's callback and its webhook
(followups, and edits/deletes of messages *sent with that token*, for 15 minutes) are not
bound to it (interactions/receiving-and-responding.mdx, "Endpoints"). So a move's token can
post the board; the board remembers the token that posted it, and later edits and the
delete of that board go through that same token while it is fresh — whoever moved, even
the AI or a timer. Without a fresh token (after a restart, an AI-only stretch longer than
the token's life, a refused token) the channel endpoints do the work.

But a followup is not a plain message: Discord shows it as a reply to the interaction's
original response, and a move's original response is the mover's ephemeral panel, so
everyone else saw the board under "a message that could not be loaded", later "Original
message was deleted" (discord/discord-api-docs#2733); a command's followup also carries
"<user> used /command". So `WEBHOOK_DELIVERIES` decides (`by_token`): `auto` (the default)
posts boards through the channel, clean, and switches to tokens only while the bot's own
requests queue up behind the global limit (more than `CONGESTED` waiting for the request
budget), so a busy bot keeps play moving at the cost of the reply header; `always` uses a
fresh token whenever there is one; `never` only the channel.

A token is used only after the interaction was answered (Discord refuses a followup before
the callback) and only in the channel it came from (a followup lands in that channel).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import discord

# Discord's tokens live 15 minutes; a minute of margin so a call started near the end (and
# retried by discord.py) is not refused halfway.
TOKEN_SECONDS = 14 * 60
# How long a delivery waits for the move's interaction to be answered before it takes the
# channel path instead (the answer is one fast call; the 3 s rule bounds it anyway).
ANSWER_WAIT = 3.0
# WEBHOOK_DELIVERIES
AUTO, ALWAYS, NEVER = "auto", "always", "never"
# `auto`: requests waiting for the request budget beyond which boards go by token. A quiet
# bot has none waiting; at 45 requests a second ten waiting is about a fifth of a second
# behind.
CONGESTED = 10


def by_token(settings, budget) -> bool:
    """Post the next board as a followup of the move's interaction (see the docstring)?"""
    mode = settings.webhook_deliveries
    if mode != AUTO:
        return mode == ALWAYS
    return budget is not None and budget.waiting > CONGESTED


@dataclass(eq=False)
class Hook:
    """One interaction's token, as a way to post and edit in its channel."""

    interaction: discord.Interaction
    born: float = field(default_factory=time.monotonic)
    answered: asyncio.Event = field(default_factory=asyncio.Event)
    dead: bool = False  # Discord refused the token (expired, unknown): never try it again

    @property
    def channel_id(self) -> int | None:
        return self.interaction.channel_id

    def fresh(self, now: float | None = None) -> bool:
        return not self.dead and ((now or time.monotonic()) - self.born) < TOKEN_SECONDS

    async def ready(self) -> bool:
        """Answered and fresh (waits a little for the answer of a move just made)."""
        if not self.fresh():
            return False
        if not self.answered.is_set():
            try:
                await asyncio.wait_for(self.answered.wait(), ANSWER_WAIT)
            except TimeoutError:
                return False
        return self.fresh()

    def refused(self, exc: discord.HTTPException) -> bool:
        """True if `exc` says the token itself is no good (then the hook is dead and the
        caller falls back to the channel); other failures are the caller's to handle."""
        if exc.status == 401 or (exc.status == 404 and exc.code == 10015):
            self.dead = True
            return True
        return False


@contextlib.asynccontextmanager
async def handed_over(interaction: discord.Interaction) -> AsyncIterator[Hook]:
    """A hook for a click or command that changes a table: the handler gives it to the table
    (`table.hook = hook`) as soon as the change is saved, before any await, so the delivery
    it schedules can use it; it counts as answered when the handler is done."""
    hook = Hook(interaction)
    try:
        yield hook
    finally:
        hook.answered.set()
