"""The one font of every picture: Aileron Regular, shipped inside Pillow (≥ 10.1).

`ImageFont.load_default(size=…)` loads Pillow's bundled Aileron Regular (dot-colon, released
into the public domain under CC0 1.0), so nothing is downloaded and no font file is added to
the project. Its character set is limited (Latin letters, digits, punctuation): card symbols
are drawn as shapes (`bot.pictures.shapes`), and text from users (display names) is reduced
to the characters the font has, so a name never shows as a row of empty boxes.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from PIL import Image, ImageFont

MISSING = "\uffff"  # a code point no font draws: what the font shows for a missing glyph


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont:
    loaded = ImageFont.load_default(size=size)
    if not isinstance(loaded, ImageFont.FreeTypeFont):  # Pillow built without FreeType
        raise RuntimeError("Pictures need Pillow with FreeType (every PyPI wheel has it).")
    return loaded


@lru_cache(maxsize=4096)
def has_glyph(char: str) -> bool:
    """True if the font draws this character (not the empty box it shows for a missing one)."""
    if char == " " or ("!" <= char <= "~"):
        return True
    probe = font(24)
    return bytes(probe.getmask(char)) != bytes(probe.getmask(MISSING))


@lru_cache(maxsize=4096)
def drawable(text: str, fallback: str = "") -> str:
    """`text` with accents dropped and the characters the font lacks (emoji, most non-Latin
    scripts) left out; `fallback` if nothing is left."""
    plain = unicodedata.normalize("NFKD", text)  # "é" -> "e" + accent: keep the letter
    kept = "".join(ch for ch in plain if has_glyph(ch))
    kept = " ".join(kept.split())
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
