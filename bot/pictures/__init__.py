"""Cards as pictures: shared drawing code for every game (sprites, fonts, canvas, encoding).

Each game draws its own pictures in `cogs/<game>/pictures.py` from a view given by
`engine.view(state, seat)` for the person who will see it, never from the state, so a card
hidden from that person can only ever be drawn as a back.
"""

from __future__ import annotations

import asyncio
import logging
import os
import pickle
import select
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
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
    with_table: bool = True  # False: a DM's hand picture, without the public table


    def draw(self) -> Picture | None:
        from bot.game_ui import registered_uis

        ui = _uis(registered_uis)[self.game]
        if self.seat is None:
            return ui.board_picture(self.view, self.names)
        return ui.hand_picture(self.view, self.names, self.seat, with_table=self.with_table)


_UIS: dict[str, Any] = {}


def _uis(load) -> dict[str, Any]:
    if not _UIS:
        _UIS.update(load())
    return _UIS


def alt_text(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MAX_DESCRIPTION else text[:MAX_DESCRIPTION - 1] + "…"


# ---------------------------------------------------------------------- drawing off the loop
JOB_TIMEOUT = 20.0  # seconds a picture may take before the worker is replaced


class PictureWorker:
    """The bot's side of the worker process (`bot.pictures.worker`): one job at a time,
    sent and answered over pipes by a thread that waits without holding the GIL.

    Drawing in a thread of the bot kept the loop free of long stalls, but the thread's
    Python work still took the GIL from the loop: under bench.load every click's answer
    waited behind pictures (ack p99 1.7 s at 100 tables). A process shares no GIL, keeps its
    own sprite caches and runs at a lower CPU priority."""

    def __init__(self) -> None:
        root = Path(__file__).resolve().parents[2]
        env = {**os.environ,
               "PYTHONPATH": os.pathsep.join(p for p in (str(root),
                                                         os.environ.get("PYTHONPATH")) if p)}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "bot.pictures.worker"], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, cwd=root)
        self.lock = threading.Lock()

    def alive(self) -> bool:
        return self.proc.poll() is None

    def call(self, job: PictureJob) -> Picture | None:
        from bot.pictures.worker import read_frame, write_frame

        with self.lock:
            assert self.proc.stdin is not None and self.proc.stdout is not None
            write_frame(self.proc.stdin, pickle.dumps(job, protocol=pickle.HIGHEST_PROTOCOL))
            ready, _, _ = select.select([self.proc.stdout], [], [], JOB_TIMEOUT)
            frame = read_frame(self.proc.stdout) if ready else None
            if frame is None:
                self.stop()
                raise RuntimeError("the picture worker did not answer")
        ok, value = pickle.loads(frame)
        if not ok:
            raise RuntimeError(f"the picture worker failed: {value}")
        return value

    def stop(self) -> None:
        if self.alive():
            self.proc.kill()
        self.proc.wait()


_WORKER: PictureWorker | None = None
_START = threading.Lock()


def _worker() -> PictureWorker:
    global _WORKER
    with _START:
        if _WORKER is None or not _WORKER.alive():
            _WORKER = PictureWorker()
        return _WORKER


def warm_up() -> None:
    """Start the worker now (its imports take about a second) rather than on the first
    picture, which a player pressing My hand right after a restart would wait for."""
    _worker()


_DRAWING = 0


def drawing() -> int:
    """Pictures being drawn right now (tests wait for them: a message waits on its picture
    off the REST path)."""
    return _DRAWING


async def render_off_loop(job: PictureJob) -> Picture | None:
    """Draw and encode a picture in the worker process; the event loop only waits."""
    global _DRAWING
    _DRAWING += 1
    try:
        return await asyncio.get_running_loop().run_in_executor(None, _call, job)
    finally:
        _DRAWING -= 1


def _call(job: PictureJob) -> Picture | None:
    try:
        return _worker().call(job)
    except (BrokenPipeError, OSError):
        log.warning("the picture worker is gone; starting a new one")
        with _START:
            global _WORKER
            _WORKER = None
        raise
