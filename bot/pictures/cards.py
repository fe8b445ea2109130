"""Card sprites: every card face and back drawn in code, once per (card, size), then cached.

A picture is a few dozen pastes of cached sprites plus some text, which keeps a 12-player
Six Suit board well under the 20 ms goal (bench.pictures). Sprites are drawn at `SCALE`
times their size and scaled down once, for smooth edges; they are RGBA with rounded corners.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from bot.pictures import shapes, theme
from bot.pictures.fonts import font, wrap

SCALE = 3
SIX_SHAPES = (shapes.circle, shapes.heart, shapes.triangle, shapes.square, shapes.blob)


def _blank(w: int, h: int, face, border=theme.BORDER) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGBA", (w * SCALE, h * SCALE), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    radius = max(4, min(w, h) // 9) * SCALE
    draw.rounded_rectangle((0, 0, w * SCALE - 1, h * SCALE - 1), radius=radius, fill=face,
                           outline=border, width=max(2, SCALE * 2))
    return image, draw


def _done(image: Image.Image, w: int, h: int) -> Image.Image:
    return image.resize((w, h), Image.Resampling.LANCZOS)


def _rank_text(draw: ImageDraw.ImageDraw, x: float, y: float, text: str, size: int,
               fill) -> float:
    """Draw a rank at the top left; returns its bottom edge."""
    face = font(size * SCALE, bold=True)
    draw.text((x, y), text, font=face, fill=fill, anchor="lt")
    return y + face.getbbox(text, anchor="lt")[3]


def split_french(label: str) -> tuple[str, str | None]:
    """ "10♠" → ("10", "♠"); a joker ("🃏Joker", "JK") → ("JOKER", None)."""
    if label and label[-1] in shapes.SUITS:
        return label[:-1], label[-1]
    return "JOKER", None


@lru_cache(maxsize=1024)
def french(label: str, w: int, h: int) -> Image.Image:
    """A standard playing card (Taboo, Hidden Rules, Suit Taboo); jokers get a star."""
    rank, suit = split_french(label)
    image, draw = _blank(w, h, theme.FACE)
    s = SCALE
    pad = w * 0.09 * s
    if suit is None:
        shapes.star(draw, (w * 0.2 * s, h * 0.28 * s, w * 0.8 * s, h * 0.72 * s),
                    fill=(200, 150, 0))
        draw.text((w * s / 2, h * 0.12 * s), "JOKER", font=font(int(w * 0.2 * s), bold=True),
                  fill=theme.INK, anchor="mt")
        return _done(image, w, h)
    colour = theme.SUIT_COLOURS[suit]
    size = int(h * (0.3 if len(rank) == 1 else 0.27))
    bottom = _rank_text(draw, pad, pad * 0.8, rank, size, colour)
    small = w * 0.24 * s
    shapes.SUITS[suit](draw, (pad, bottom + pad * 0.5, pad + small, bottom + pad * 0.5 + small),
                       fill=colour)
    big = w * 0.5 * s
    x1, y1 = w * s - pad, h * s - pad
    shapes.SUITS[suit](draw, (x1 - big, y1 - big * 1.05, x1, y1), fill=colour)
    return _done(image, w, h)


@lru_cache(maxsize=512)
def six_suit(card: int, w: int, h: int) -> Image.Image:
    """A Triple Topper card, drawn to be read at a phone's preview size, where a 12-player
    board shows a card about 28 px wide: the number large at the top left, the shape large
    beside and under it, and the colour as a band across the bottom with its name in it
    (RED, YEL, GRN, BLU, BLK), so the colour is plain from afar and never rests on hue alone.
    Every glyph takes as much of the card as it can; nothing small is written on it."""
    from engines.six_suit.cards import COL, NUM, NUMBERS, SHP

    image, draw = _blank(w, h, theme.FACE)
    s = SCALE
    pad = w * 0.07 * s
    number, colour, shape = NUM[card], COL[card], SHP[card]
    band = h * 0.35 * s  # the colour band's height
    top = h * s - band
    _rank_text(draw, pad, pad * 0.7, NUMBERS[number], int(h * 0.42), theme.INK)
    fill = theme.SIX_COLOURS[colour]
    # the shape: in the right part of the card, as tall as the space above the band allows;
    # a dark rim keeps yellow apart from the white face
    size = min(w * 0.5 * s, top - pad * 1.8)
    x1, y1 = w * s - pad, top - pad * 0.9
    box = (x1 - size, y1 - size, x1, y1)
    rim = s * 2
    shapes_fn = SIX_SHAPES[shape]
    shapes_fn(draw, (box[0] - rim, box[1] - rim, box[2] + rim, box[3] + rim), fill=theme.INK)
    shapes_fn(draw, box, fill=fill)
    # the band: the card's colour, inset inside the border so the rounded corners stay
    inset = max(2, SCALE * 2)
    radius = max(4, min(w, h) // 9) * s
    draw.rounded_rectangle((inset, top, w * s - 1 - inset, h * s - 1 - inset), radius=radius,
                           fill=fill, corners=(False, False, True, True))
    word_ink = theme.INK if colour == 1 else (255, 255, 255)
    draw.text((w * s / 2, h * s - inset - band / 2), theme.SIX_COLOUR_WORDS[colour],
              font=font(_word_size(int(band * 0.88), int(w * s * 0.86)), bold=True),
              fill=word_ink, anchor="mm")
    return _done(image, w, h)


@lru_cache(maxsize=64)
def _word_size(size: int, room: int) -> int:
    """The largest font size up to `size` at which every colour word fits in `room` px."""
    while size > 6 and max(font(size, bold=True).getlength(word)
                           for word in theme.SIX_COLOUR_WORDS) > room:
        size -= 1
    return size


SUSPENSE_FACES = {"⚪": ((252, 250, 242), theme.INK), "⚫": ((34, 34, 40), (246, 246, 240)),
                  "❗": ((255, 214, 102), theme.INK)}


@lru_cache(maxsize=128)
def suspense(label: str, condition: str, w: int, h: int) -> Image.Image:
    """A Suspense card: white or black with its number (❗ for the special card) and its
    victory condition written on it."""
    kind = label[0] if label and label[0] in SUSPENSE_FACES else "❗"
    face, ink = SUSPENSE_FACES[kind]
    image, draw = _blank(w, h, face, border=(120, 120, 120) if kind == "⚫" else theme.BORDER)
    s = SCALE
    pad = w * 0.08 * s
    number = label[1:] if kind != "❗" else "!"
    word = {"⚪": "WHITE", "⚫": "BLACK", "❗": "SPECIAL"}[kind]
    bottom = _rank_text(draw, pad, pad * 0.6, number, int(h * 0.26), ink)
    draw.text((w * s - pad, pad), word, font=font(int(h * 0.075 * s), bold=True), fill=ink, anchor="rt")
    size = max(11, int(w * 0.115))
    y = bottom + pad * 0.8
    for line in wrap(condition, size * s, int(w * s - 2 * pad), max_lines=6):
        draw.text((pad, y), line, font=font(size * s), fill=ink, anchor="lt")
        y += size * s * 1.18
    return _done(image, w, h)


@lru_cache(maxsize=64)
def back(w: int, h: int) -> Image.Image:
    """The back of every card: a lattice no face has, so a hidden card is plainly hidden."""
    image, draw = _blank(w, h, theme.BACK)
    s = SCALE
    inset = w * 0.12 * s
    step = w * 0.16 * s
    x = -h * s
    while x < w * s:
        draw.line((x, inset, x + h * s, inset + h * s), fill=theme.BACK_LINE, width=2 * s)
        draw.line((x + h * s, inset, x, inset + h * s), fill=theme.BACK_LINE, width=2 * s)
        x += step
    mask = Image.new("L", image.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle((inset, inset, w * s - inset, h * s - inset),
                                           radius=inset / 2, fill=255)
    plain, _ = _blank(w, h, theme.BACK)
    plain.paste(image, (0, 0), mask)
    ImageDraw.Draw(plain).rounded_rectangle((inset, inset, w * s - inset, h * s - inset),
                                            radius=inset / 2, outline=(230, 230, 240),
                                            width=2 * s)
    return _done(plain, w, h)


@lru_cache(maxsize=16)
def edge(w: int, h: int) -> Image.Image:
    """A covered card as its edge shows under a pile: a plain face with the card border (the
    covered card's face is not what the pile shows)."""
    image, _ = _blank(w, h, (214, 210, 198))
    return _done(image, w, h)


@lru_cache(maxsize=64)
def slot(w: int, h: int, text: str = "") -> Image.Image:
    """An empty place (no card there): a faint outline, optionally with a word in it."""
    image = Image.new("RGBA", (w * SCALE, h * SCALE), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, w * SCALE - 1, h * SCALE - 1),
                           radius=max(4, min(w, h) // 9) * SCALE, outline=theme.MUTED,
                           width=2 * SCALE)
    if text:
        draw.text((w * SCALE / 2, h * SCALE / 2), text, font=font(int(w * 0.18 * SCALE)),
                  fill=theme.MUTED, anchor="mm")
    return _done(image, w, h)
