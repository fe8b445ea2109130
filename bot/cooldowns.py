"""Per-member cooldowns for commands that cost channel requests.

A board repost, a new lobby or a rematch each cost requests from the bot's one shared
budget (about 50 per second for every server together), so one member repeating them fast
would slow every table. Each member waits `Settings.command_cooldown` seconds between two
uses of such a command and is told, ephemerally, how long is left.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from bot.tables.service import TableError

PRUNE_AT = 10_000  # entries kept before expired ones are swept


class CooldownError(TableError):
    """Refused: the member used this command too recently (nothing was changed)."""


class Cooldowns:
    def __init__(self, seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds
        self._clock = clock
        self._until: dict[tuple[str, int], float] = {}

    def left(self, key: int, what: str) -> float:
        """Seconds until `key` (a member or a table) may do `what` again; 0 if it may now."""
        return max(0.0, self._until.get((what, key), 0.0) - self._clock())

    def ready(self, user_id: int, what: str) -> None:
        """Raise CooldownError (saying how long is left) if `user_id` did `what` too
        recently; change nothing."""
        left = self.left(user_id, what)
        if left > 0:
            raise CooldownError(f"You used that a moment ago; try again in {math.ceil(left)} s.")

    def used(self, key: int, what: str) -> None:
        """`key` just did `what`: its cooldown starts now."""
        if self.seconds <= 0:
            return
        now = self._clock()
        if len(self._until) >= PRUNE_AT:
            self._until = {k: t for k, t in self._until.items() if t > now}
        self._until[(what, key)] = now + self.seconds

    def take(self, user_id: int, what: str) -> None:
        """`ready`, then `used`: for a command whose cost comes with every use."""
        self.ready(user_id, what)
        self.used(user_id, what)
