"""Card symbols drawn as shapes (the bundled font has no ♠ ♥ ♦ ♣ glyphs).

Each function fills the box `(x0, y0, x1, y1)` on an `ImageDraw`. Sprites are drawn at a
multiple of their final size and scaled down once, so these simple shapes come out smooth.
"""

from __future__ import annotations

from collections.abc import Callable

from PIL import ImageDraw

Box = tuple[float, float, float, float]


def _outline(draw: ImageDraw.ImageDraw, points, fill, outline, width) -> None:
    draw.polygon(points, fill=fill, outline=outline, width=width)


def heart(draw: ImageDraw.ImageDraw, box: Box, fill, outline=None, width: int = 0) -> None:
    x0, y0, x1, y1 = box
    w, _h = x1 - x0, y1 - y0
    r = w / 4
    draw.ellipse((x0, y0, x0 + 2 * r, y0 + 2 * r), fill=fill)
    draw.ellipse((x1 - 2 * r, y0, x1, y0 + 2 * r), fill=fill)
    draw.polygon([(x0 + w * 0.02, y0 + r * 1.25), (x1 - w * 0.02, y0 + r * 1.25),
                  (x0 + w / 2, y1)], fill=fill)


def spade(draw: ImageDraw.ImageDraw, box: Box, fill, outline=None, width: int = 0) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    body = y0 + h * 0.8
    r = w / 4
    draw.ellipse((x0, body - 2 * r, x0 + 2 * r, body), fill=fill)
    draw.ellipse((x1 - 2 * r, body - 2 * r, x1, body), fill=fill)
    draw.polygon([(x0 + w * 0.02, body - r * 1.25), (x1 - w * 0.02, body - r * 1.25),
                  (x0 + w / 2, y0)], fill=fill)
    draw.polygon([(x0 + w / 2, body - r), (x0 + w * 0.3, y1), (x1 - w * 0.3, y1)], fill=fill)


def diamond(draw: ImageDraw.ImageDraw, box: Box, fill, outline=None, width: int = 0) -> None:
    x0, y0, x1, y1 = box
    w = x1 - x0
    _outline(draw, [(x0 + w / 2, y0), (x1 - w * 0.08, (y0 + y1) / 2), (x0 + w / 2, y1),
                    (x0 + w * 0.08, (y0 + y1) / 2)], fill, outline, width)


def club(draw: ImageDraw.ImageDraw, box: Box, fill, outline=None, width: int = 0) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    r = w * 0.24
    cx = x0 + w / 2
    top, mid = y0 + r, y0 + h * 0.52
    for x, y in ((cx, top), (x0 + r, mid), (x1 - r, mid)):
        draw.ellipse((x - r, y - r, x + r, y + r), fill=fill)
    draw.ellipse((cx - r * 0.7, mid - r * 1.1, cx + r * 0.7, mid + r * 0.3), fill=fill)
    draw.polygon([(cx, mid - r * 0.2), (x0 + w * 0.3, y1), (x1 - w * 0.3, y1)], fill=fill)


def circle(draw: ImageDraw.ImageDraw, box: Box, fill, outline=None, width: int = 0) -> None:
    draw.ellipse(box, fill=fill, outline=outline, width=width)


def triangle(draw: ImageDraw.ImageDraw, box: Box, fill, outline=None, width: int = 0) -> None:
    x0, y0, x1, y1 = box
    _outline(draw, [((x0 + x1) / 2, y0), (x1, y1), (x0, y1)], fill, outline, width)


def square(draw: ImageDraw.ImageDraw, box: Box, fill, outline=None, width: int = 0) -> None:
    x0, y0, x1, y1 = box
    pad = (x1 - x0) * 0.06
    draw.rectangle((x0 + pad, y0 + pad, x1 - pad, y1 - pad), fill=fill, outline=outline,
                   width=width)


def blob(draw: ImageDraw.ImageDraw, box: Box, fill, outline=None, width: int = 0) -> None:
    """A cloud: overlapping circles (Six Suit's wild shape)."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    for cx, cy, r in ((0.30, 0.58, 0.26), (0.55, 0.40, 0.30), (0.75, 0.62, 0.24),
                      (0.50, 0.70, 0.25)):
        draw.ellipse((x0 + (cx - r) * w, y0 + (cy - r) * h, x0 + (cx + r) * w,
                      y0 + (cy + r) * h), fill=fill)


def star(draw: ImageDraw.ImageDraw, box: Box, fill, outline=None, width: int = 0) -> None:
    import math

    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2 + (y1 - y0) * 0.04
    outer, inner = (x1 - x0) / 2, (x1 - x0) / 5
    points = []
    for k in range(10):
        r = outer if k % 2 == 0 else inner
        angle = -math.pi / 2 + k * math.pi / 5
        points.append((cx + r * math.cos(angle), cy + r * math.sin(angle)))
    _outline(draw, points, fill, outline, width)


Shape = Callable[..., None]
SUITS: dict[str, Shape] = {"♠": spade, "♥": heart, "♦": diamond, "♣": club}
