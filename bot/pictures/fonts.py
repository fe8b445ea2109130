"""The font of every picture: DejaVu Sans Condensed, shipped with the project.

The font files live in `bot/pictures/assets/` with their licence (LICENSE-DejaVu.txt: the
Bitstream Vera licence, DejaVu's changes in the public domain), copied unchanged from the
fonts-dejavu-core package; nothing is downloaded. (Pillow's built-in Aileron, used before,
comes without a licence file in the wheel and lacks ♠ ♥ ♦ ♣ ★ and arrows.) DejaVu has every
symbol the pictures write and most scripts' letters; text from users (display names) is still
reduced to the characters the font has, so a name never shows as a row of empty boxes.
Card symbols on the cards themselves are drawn as shapes (`bot.pictures.shapes`): large and
exactly the same at every size.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageFont

ASSETS = Path(__file__).resolve().parent / "assets"
REGULAR = ASSETS / "DejaVuSansCondensed.ttf"
BOLD = ASSETS / "DejaVuSansCondensed-Bold.ttf"
MISSING = "\uffff"  # a code point no font draws: what the font shows for a missing glyph


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The picture font at a size in pixels (bold for card numbers)."""
    return ImageFont.truetype(str(BOLD if bold else REGULAR), size)


@lru_cache(maxsize=4096)
def has_glyph(char: str) -> bool:
    """True if the font draws this character (not the empty box it shows for a missing one)."""
    if char == " " or ("!" <= char <= "~"):
        return True
    probe = font(24)
    return bytes(probe.getmask(char)) != bytes(probe.getmask(MISSING))


@lru_cache(maxsize=4096)
def drawable(text: str, fallback: str = "") -> str:
    """`text` without the characters the font lacks (emoji, CJK and some other scripts; an
    accent the font cannot put on its letter is dropped, the letter kept); `fallback` if
    nothing is left."""
    plain = unicodedata.normalize("NFKD", text)  # "é" -> "e" + accent: keep the letter
    kept = "".join(ch for ch in plain if has_glyph(ch))
    kept = unicodedata.normalize("NFC", " ".join(kept.split()))
    return kept or fallback


@lru_cache(maxsize=16384)
def width(text: str, size: int) -> float:
    """How wide `text` is at `size`, in pixels (cached like `rendered`)."""
    return font(size).getlength(text)


@lru_cache(maxsize=8192)
def fit(text: str, size: int, max_width: int) -> str:
    """`text` cut (with an ellipsis) so it is at most `max_width` pixels wide at `size`."""
    if width(text, size) <= max_width:
        return text
    while text and width(text + "…", size) > max_width:
        text = text[:-1]
    return text.rstrip() + "…"


def wrap(text: str, size: int, max_width: int, max_lines: int = 6) -> list[str]:
    """Word-wrap `text` into lines at most `max_width` pixels wide (the last line cut if
    needed)."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        trial = f"{line} {word}".strip()
        if width(trial, size) <= max_width or not line:
            line = trial
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    if len(lines) > max_lines:
        lines = [*lines[:max_lines - 1], fit(" ".join(lines[max_lines - 1:]), size,
                                             max_width)]
    return [fit(x, size, max_width) for x in lines]


@lru_cache(maxsize=8192)
def rendered(text: str, size: int, anchor: str = "lt") -> tuple[Image.Image, tuple[int, int]]:
    """A line of text as a grey mask and its offset from the anchor point, cached: names and
    labels repeat from one picture to the next, and rasterising text was most of the time
    a board took to draw (bench.pictures)."""
    mask, offset = font(size).getmask2(text, mode="L", anchor=anchor)
    return Image.frombytes("L", mask.size, bytes(mask)), offset
