"""A picture being drawn: an opaque felt background, text helpers and card pasting.

Game picture modules (`cogs/<game>/pictures.py`) measure their layout, make a `Canvas` of
the size they need, paste cached sprites (`bot.pictures.cards`) and write labels; `encode`
turns the result into the bytes that are uploaded.

The canvas is drawn straight in the shared 256-colour palette (`bot.pictures.palette`), not in
RGB mapped onto the palette at the end: that mapping and the PNG writing were most of a
12-player Six Suit board's time (bench.pictures). Everything pasted is a tile already laid on
the colour under it and mapped onto the palette once, then cached: a card sprite, a line of
text, a box. A tile goes on with a one-bit mask (its own inked or opaque pixels), so what is
next to it is never overwritten; anti-aliased edges were blended onto the colour found under
the tile's corner, which is the background every label and card here is drawn on.
"""

from __future__ import annotations

import io
import weakref
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.pictures import theme
from bot.pictures.fonts import drawable, fit, rendered, width
from bot.pictures.palette import COLOURS, PALETTE, index, rgb, to_palette
from bot.ui.text import signs

PAD = 16
PNG_LEVEL = 2  # zlib level: 1 costs the same CPU for a 7 % larger file, 6 four times the CPU


class Canvas:
    def __init__(self, width: int, height: int, background=theme.FELT) -> None:
        self.width, self.height = int(width), int(height)
        self.image = Image.new("P", (self.width, self.height), index(background))
        self.image.putpalette(PALETTE.getpalette())
        self.draw = ImageDraw.Draw(self.image)

    def under(self, x: int, y: int) -> int:
        """The palette entry under a point (clipped to the canvas)."""
        return self.image.getpixel((min(max(x, 0), self.width - 1),
                                    min(max(y, 0), self.height - 1)))

    def _put(self, tile: Image.Image, mask: Image.Image, x: int, y: int) -> None:
        self.image.paste(tile, (x, y, x + tile.width, y + tile.height), mask)

    def text(self, xy: tuple[float, float], text: str, size: int, fill=theme.TEXT, *,
             max_width: float | None = None, anchor: str = "lt") -> float:
        """Write one line (cut to `max_width` pixels; a hyphen before a number written as the
        minus sign, as in the text); returns the x where it ends."""
        text = signs(text)
        if max_width is not None:
            text = fit(text, size, int(max_width))
        if not text:
            return xy[0]
        _, (dx, dy) = rendered(text, size, anchor)
        x, y = int(xy[0]) + dx, int(xy[1]) + dy
        tile, bits = _text_tile(text, size, anchor, tuple(fill), self.under(x - 1, y - 1))
        self._put(tile, bits, x, y)
        return xy[0] + width(text, size)

    def name(self, xy: tuple[float, float], name: str, size: int, fill=theme.TEXT, *,
             max_width: float | None = None, fallback: str = "?") -> float:
        """Write a user's display name: only what the font can draw (see fonts.drawable)."""
        return self.text(xy, drawable(name, fallback), size, fill, max_width=max_width)

    def card(self, sprite: Image.Image, xy: tuple[float, float]) -> None:
        """Paste a sprite, laid on whatever colour is under its top left corner (its rounded
        corner shows that colour)."""
        x, y = int(xy[0]), int(xy[1])
        tile, bits = laid(sprite, self.under(x, y))
        self._put(tile, bits, x, y)

    def box(self, rect: tuple[float, float, float, float], fill=theme.PANEL, *,
            outline=None, width: int = 3, radius: int = 12) -> None:
        x0, y0, x1, y1 = (int(v) for v in rect)
        tile, bits = _box(x1 - x0 + 1, y1 - y0 + 1, index(fill),
                          None if outline is None else index(outline), width, radius)
        self._put(tile, bits, x0, y0)

    def badge(self, xy: tuple[float, float], text: str, size: int, fill=theme.ACCENT,
              ink=theme.INK) -> float:
        """A small filled label (e.g. "x3", "NEW"); returns its right edge."""
        w = width(text, size) + size * 0.7
        x, y = xy
        self.box((x, y, x + w, y + size * 1.35), fill, radius=int(size * 0.4))
        self.text((x + w / 2, y + size * 0.68), text, size, ink, anchor="mm")
        return x + w


def encode(image: Image.Image) -> bytes:
    """PNG bytes of a canvas (already in the shared palette: pictures are flat colours, so
    nothing a reader would notice is lost, and the file is about a third of an RGB PNG's size
    and many times faster to write)."""
    if image.mode != "P":
        image = to_palette(image.convert("RGB"))
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=PNG_LEVEL)
    return out.getvalue()


@lru_cache(maxsize=8192)
def _text_tile(text: str, size: int, anchor: str, fill: tuple[int, int, int],
               background: int) -> tuple[Image.Image, Image.Image]:
    """A line of text laid on a background colour in the palette, with the mask of its
    inked pixels."""
    mask, _ = rendered(text, size, anchor)
    tile = Image.new("RGB", mask.size, rgb(background))
    tile.paste(fill, (0, 0, mask.width, mask.height), mask)
    return to_palette(tile), mask.point(lambda v: 255 if v else 0, "1")


_LAID: dict[tuple[int, int], tuple[weakref.ref, Image.Image, Image.Image]] = {}


def laid(sprite: Image.Image, background: int) -> tuple[Image.Image, Image.Image]:
    """A card sprite (RGBA) laid on a palette colour and mapped onto the palette, with the
    mask of its visible pixels; cached while the sprite itself is cached (`bot.pictures.cards`
    keeps sprites in bounded caches, so the key is the sprite's identity, checked by a weak
    reference in case a dropped sprite's id is reused)."""
    key = (id(sprite), background)
    hit = _LAID.get(key)
    if hit is not None and hit[0]() is sprite:
        return hit[1], hit[2]
    if len(_LAID) > 4096:
        _LAID.clear()
    flat = Image.new("RGB", sprite.size, rgb(background))
    alpha = sprite.getchannel("A")
    flat.paste(sprite, (0, 0), alpha)
    tile, bits = to_palette(flat), alpha.point(lambda v: 255 if v else 0, "1")
    _LAID[key] = (weakref.ref(sprite), tile, bits)
    return tile, bits


def flat(sprite: Image.Image, background) -> Image.Image:
    """A sprite as it appears on a canvas of `background` colour (tests compare regions)."""
    return laid(sprite, index(background))[0]


@lru_cache(maxsize=1024)
def _box(w: int, h: int, fill: int, outline: int | None, line: int, radius: int
         ) -> tuple[Image.Image, Image.Image]:
    """A rounded box in palette colours and its shape as a mask (what is under its corners
    stays)."""
    tile = Image.new("P", (w, h), fill)
    tile.putpalette(PALETTE.getpalette())
    ImageDraw.Draw(tile).rounded_rectangle((0, 0, w - 1, h - 1), radius=radius, fill=fill,
                                           outline=outline, width=line)
    bits = Image.new("1", (w, h), 0)
    ImageDraw.Draw(bits).rounded_rectangle((0, 0, w - 1, h - 1), radius=radius, fill=1)
    return tile, bits


assert len(COLOURS) == 256
