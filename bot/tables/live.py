"""A table as the running bot holds it: the stored row plus the decoded engine state."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bot.storage import TableRow
from bot.tables.settings import TableSettings
from bot.ui.text import shown
from engines.core import Engine, Event

if TYPE_CHECKING:
    from bot.game_ui import GameUI

LOG_LENGTH = 4  # the board's Recent lines (bot.ui.render.RECENT_LINES); all are in History


@dataclass(eq=False)
class LiveTable:
    row: TableRow
    ui: GameUI
    state: Any = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    ai_task: asyncio.Task | None = None
    delivery_task: asyncio.Task | None = None
    dirty: bool = False
    ai_declined: tuple[int, frozenset[int]] = (-1, frozenset())
    pending_private: dict[int, list[Event]] = field(default_factory=lambda: defaultdict(list))
    finished: bool = False
    delivery_failures: int = 0
    dropped: bool = False  # cancelled (not finished by the game)
    history_pending: list[tuple[int, int, str]] = field(default_factory=list)

    # ---------------------------------------------------------------- identity
    @property
    def id(self) -> int:
        return self.row.id

    @property
    def engine(self) -> Engine:
        return self.ui.engine

    @property
    def version(self) -> int:
        return self.row.version

    @property
    def meta(self) -> dict[str, Any]:
        return self.row.meta

    @property
    def seats(self) -> list[dict[str, Any]]:
        return self.row.seats

    @property
    def playing(self) -> bool:
        return self.row.status == "playing"

    @property
    def table_settings(self) -> TableSettings:
        return TableSettings.model_validate(self.row.options.get("table", {}))

    @property
    def game_options(self) -> dict[str, Any]:
        return self.row.options.get("game", {})

    @property
    def team_count(self) -> int:
        """Number of teams chosen in the lobby (games with a `teams` option), else 0."""
        teams = self.game_options.get("teams")
        return int(teams) if isinstance(teams, int) and teams >= 2 else 0

    @property
    def timer_seconds(self) -> int:
        """The game's own time limit if it has one (Hidden Rules), else the table timer."""
        own = self.game_options.get("turn_seconds")
        return int(own) if own is not None else self.table_settings.turn_seconds

    # ---------------------------------------------------------------- seats
    @property
    def names(self) -> list[str]:
        return [s["name"] for s in self.seats]

    def seat_of(self, user_id: int) -> int | None:
        """The seat this user plays (not one they left: an AI plays it now)."""
        for i, seat in enumerate(self.seats):
            if seat.get("user_id") == user_id and not seat.get("left"):
                return i
        return None

    def left_seat_of(self, user_id: int) -> int | None:
        """The seat this user left during the game, if any."""
        for i, seat in enumerate(self.seats):
            if seat.get("user_id") == user_id and seat.get("left"):
                return i
        return None

    def is_ai(self, seat: int) -> bool:
        return bool(self.seats[seat].get("ai"))

    def human_ids(self) -> list[int]:
        return [s["user_id"] for s in self.seats if s.get("user_id") and not s.get("ai")]

    # ---------------------------------------------------------------- log
    def add_log(self, events: list[Event]) -> None:
        """Public events go to the board's Recent lines and to the full history (written
        to storage in batches by the service: `history_pending`)."""
        lines = [e.text for e in events if e.visible_to is None]
        log = self.meta.setdefault("log", [])
        log.extend(lines)
        del log[:-LOG_LENGTH]
        for line in lines:
            seq = self.meta.get("history_len", 0)
            self.history_pending.append((self.id, seq, shown(line, self.names)))
            self.meta["history_len"] = seq + 1
