"""Cards as pictures: shared drawing code for every game (sprites, fonts, canvas, encoding).

Each game draws its own pictures in `cogs/<game>/pictures.py` from a view given by
`engine.view(state, seat)` for the person who will see it, never from the state, so a card
hidden from that person can only ever be drawn as a back.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

MAX_DESCRIPTION = 1024  # Discord's limit for an attachment's description (alt text)
log = logging.getLogger("cardtable.pictures")


@dataclass(frozen=True)
class Picture:
    """One rendered picture: the file name it is uploaded under, its alt text and bytes."""

    filename: str
    description: str
    data: bytes

    @property
    def url(self) -> str:
        return f"attachment://{self.filename}"


@dataclass(frozen=True)
class PictureJob:
    """What to draw: a game's board (`seat` None) or one seat's hand, from a view taken when
    the job was made. Plain data, so it can be drawn in another process."""

    game: str
    view: dict[str, Any]
    names: list[str]
    seat: int | None = None

    def draw(self) -> Picture | None:
        from bot.game_ui import registered_uis

        ui = _uis(registered_uis)[self.game]
        if self.seat is None:
            return ui.board_picture(self.view, self.names)
        return ui.hand_picture(self.view, self.names, self.seat)


_UIS: dict[str, Any] = {}


def _uis(load) -> dict[str, Any]:
    if not _UIS:
        _UIS.update(load())
    return _UIS


def alt_text(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MAX_DESCRIPTION else text[:MAX_DESCRIPTION - 1] + "…"


# ---------------------------------------------------------------------- drawing off the loop
_POOL: ProcessPoolExecutor | None = None


def _run(job: PictureJob) -> Picture | None:
    return job.draw()


def _pool() -> ProcessPoolExecutor:
    """One worker process for every picture of this bot. Drawing in a thread kept the loop
    free of long stalls, but the thread's Python work still took the GIL from the loop:
    under bench.load every click's answer waited behind pictures (ack p99 1.7 s at 100
    tables). A process shares no GIL; it keeps its own sprite caches. It runs at a lower
    CPU priority (nice +10): when the machine is busy, answering clicks comes before
    drawing (a board waits for its picture; a click must be answered within 3 s)."""
    global _POOL
    if _POOL is None:
        _POOL = ProcessPoolExecutor(max_workers=1,
                                    mp_context=multiprocessing.get_context("spawn"),
                                    initializer=_worker_setup)
    return _POOL


def _worker_setup() -> None:
    """In the worker: a lower CPU priority, and an end when the bot's process ends.

    A bot killed outright (kill -9, a crash) cannot stop its worker, which would wait for
    jobs for ever, orphaned, still holding the bot's stderr (so whatever supervises the bot
    would not see its output close). The worker checks once a second that its parent is
    still the process that started it."""
    if hasattr(os, "nice"):
        os.nice(10)
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _warm() -> None:
    """In the worker: import every game's picture code and draw the card backs."""
    from bot.game_ui import registered_uis
    from bot.pictures import cards

    _uis(registered_uis)
    cards.back(72, 100)


def warm_up() -> None:
    """Start the worker process now (its imports take about a second) rather than on the
    first picture, which a player pressing My hand right after a restart would wait for."""
    _pool().submit(_warm)


async def render_off_loop(job: PictureJob) -> Picture | None:
    """Draw and encode a picture in the worker process; the event loop only waits."""
    global _POOL
    try:
        return await asyncio.get_running_loop().run_in_executor(_pool(), _run, job)
    except BrokenProcessPool:
        log.warning("the picture process died; starting a new one")
        _POOL = None
        raise
