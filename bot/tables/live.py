"""A table as the running bot holds it: the stored row plus the decoded engine state."""

from __future__ import annotations

import asyncio
import dataclasses
from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bot.replay.record import note_entry
from bot.storage import TableRow
from bot.tables.settings import TableSettings
from bot.ui.names import seat_names
from bot.ui.text import shown
from engines.core import Engine, Event

if TYPE_CHECKING:
    from bot.game_ui import GameUI
    from bot.hooks import Hook

LOG_LENGTH = 4  # the board's Recent lines (bot.ui.render.RECENT_LINES); all are in History
# What the delivery task writes while a move is being saved (it runs outside the table lock).
# A move never changes these, so when a saved draft becomes the live table the live values
# are kept (see LiveTable.adopt).
DELIVERY_META = ("turn_for", "turn_refresh", "private_sent", "private_shown", "dm_failed",
                 "dm_closed", "dm_told", "dm_hinted", "dm_message", "delivered_version",
                 "final_posted", "turn_message_id", "stale_boards", "board_scans", "no_uploads",
                 "thread_failed", "thread_closed")


def _clone(value: Any) -> Any:
    """A copy of JSON-like data (dicts and lists copied, the rest shared: immutable). A
    tenth of `copy.deepcopy`'s time on a table's row (20 against 190 µs a move)."""
    if type(value) is dict:
        return {key: _clone(item) for key, item in value.items()}
    if type(value) is list:
        return [_clone(item) for item in value]
    return value


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
    # What this draft adds to the game's record (bot.replay.record: moves, notes), saved
    # with it by the service
    record_entries: list[dict[str, Any]] = field(default_factory=list)
    unspilled: int = 0  # bytes of move lines saved into the row since the last spill
    closing_note: str = "cancelled"  # how a dropped table's board says it ended
    finish_pending: bool = False  # over, but its result could not be recorded yet
    notices: list[str] = field(default_factory=list)  # channel notes for the delivery task
    base_board_message_id: int | None = None  # a draft's board id when it was taken
    # Interaction tokens (bot.hooks), in memory only: the latest move's, which posts a new
    # board, and the one that posted the current board, which edits and deletes it.
    hook: Hook | None = None
    board_hook: Hook | None = None
    # Held while a board is posted or edited, and while the channel is read for stale
    # boards (bot.board_janitor), so a board being posted is never taken for a stale one.
    board_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    # (nonce, version) of a channel board post to be tried again with the same nonce
    # (bot.delivery); in memory only: after a restart the janitor's scan finds such a post
    board_nonce: tuple[str, int] | None = None
    # (time.monotonic) until when an AI seat holds a move that would end the humans' chance
    # to act on the last one (Hidden Rules' enforcement window; TableService._ai_hold_left);
    # in memory only: after a restart the humans get the whole hold again
    ai_hold_until: float | None = None

    # ---------------------------------------------------------------- changes
    def draft(self) -> LiveTable:
        """A private copy of the table to change and save. The live table changes only when
        the saved draft is adopted: a failed save leaves it exactly as it was, and nobody
        (a click, the delivery task) ever sees a change that is not in the database."""
        row = dataclasses.replace(self.row, seats=_clone(self.row.seats),
                                  options=_clone(self.row.options), meta=_clone(self.row.meta))
        return LiveTable(row=row, ui=self.ui, state=self.state,
                         ai_declined=self.ai_declined,
                         base_board_message_id=self.row.board_message_id)

    def adopt(self, draft: LiveTable) -> bool:
        """Make a saved draft the live table. What the delivery task wrote meanwhile (board
        id, what was DM'd) is kept. True if that differs from what the draft saved, so the
        caller has it saved again."""
        stale = False
        for key in DELIVERY_META:
            if draft.meta.get(key) != self.meta.get(key):
                stale = True
            if key in self.meta:
                draft.meta[key] = self.meta[key]
            else:
                draft.meta.pop(key, None)
        # where the game is played is the delivery task's (bot.threads moves it to its thread)
        stale = stale or draft.row.channel_id != self.row.channel_id
        draft.row.channel_id = self.row.channel_id
        if draft.row.board_message_id == draft.base_board_message_id:  # the change kept it
            stale = stale or draft.row.board_message_id != self.row.board_message_id
            draft.row.board_message_id = self.row.board_message_id
        self.row = draft.row
        self.state = draft.state
        self.ai_declined = draft.ai_declined
        for seat, events in draft.pending_private.items():
            self.pending_private[seat].extend(events)
        return stale

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
    def places(self) -> frozenset[int]:
        """The channels this table's buttons and menus may be used in: its lobby's channel
        and the channel its game is played in (a thread of the lobby's channel when the
        game has one, bot.threads)."""
        return frozenset({self.row.channel_id, self.row.parent_id or self.row.channel_id})

    @property
    def paused(self) -> str | None:
        """Why the table is paused (its channel is gone or the bot can't post there)."""
        return self.meta.get("paused")

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
        """Seat names escaped for markdown and mentions: for message text and embeds."""
        return seat_names([s["name"] for s in self.seats], markdown=True)

    @property
    def plain_names(self) -> list[str]:
        """Seat names as shown where Discord renders no markdown (button and select labels,
        autocomplete choices, footers) and for matching what someone typed."""
        return seat_names([s["name"] for s in self.seats], markdown=False)

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
    def add_note(self, events: list[Event]) -> None:
        """Lines of the bot's own (someone left, ran out of time, is back): logged like the
        game's events, and kept in the game's record for its replay."""
        self.add_log(events)
        self.record_entries.extend(note_entry(e.text) for e in events if e.visible_to is None)

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
