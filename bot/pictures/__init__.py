"""Cards as pictures: shared drawing code for every game (sprites, fonts, canvas, encoding).

Each game draws its own pictures in `cogs/<game>/pictures.py` from a view given by
`engine.view(state, seat)` for the person who will see it, never from the state, so a card
hidden from that person can only ever be drawn as a back.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass

MAX_DESCRIPTION = 1024  # Discord's limit for an attachment's description (alt text)


@dataclass(frozen=True)
class Picture:
    """One rendered picture: the file name it is uploaded under, its alt text and bytes."""

    filename: str
    description: str
    data: bytes

    @property
    def url(self) -> str:
        return f"attachment://{self.filename}"


def alt_text(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MAX_DESCRIPTION else text[:MAX_DESCRIPTION - 1] + "…"


async def render_off_loop(draw: Callable[[], Picture | None]) -> Picture | None:
    """Run a picture's drawing and encoding in a worker thread: the event loop keeps
    answering clicks meanwhile (Pillow releases the GIL while it encodes)."""
    return await asyncio.to_thread(draw)
