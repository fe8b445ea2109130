"""One fixed 256-colour palette for every picture.

Mapping a picture onto a known palette takes about 2 ms for a 12-player board, where finding
a palette for each picture took about 27 ms. The palette holds every flat colour of the theme
and card art exactly, plus a few steps between each ink and the backgrounds it is drawn on,
which is what the smooth (anti-aliased) edges of text and shapes need.
"""

from __future__ import annotations

from PIL import Image

from bot.pictures import theme
from bot.pictures.cards import SUSPENSE_FACES

_BACKGROUNDS = [theme.FELT, theme.PANEL, theme.PANEL_DIM, theme.FACE, theme.BACK,
                SUSPENSE_FACES["⚫"][0], SUSPENSE_FACES["❗"][0]]
_INKS = [theme.TEXT, theme.MUTED, theme.ACCENT, theme.DANGER, theme.INK, theme.BORDER,
         theme.BACK_LINE, (230, 230, 240), (200, 150, 0), (120, 120, 120),
         *theme.SUIT_COLOURS.values(), *theme.SIX_COLOURS, *theme.TEAM_COLOURS]


def _mix(a, b, t: float) -> tuple[int, int, int]:
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b, strict=True))


def _colours() -> list[tuple[int, int, int]]:
    colours: list[tuple[int, int, int]] = []

    def add(colour) -> None:
        if colour not in colours and len(colours) < 256:
            colours.append(colour)

    for colour in _BACKGROUNDS + _INKS:
        add(tuple(colour))
    for steps in ((0.5,), (0.25, 0.75), (0.125, 0.375, 0.625, 0.875)):
        for ink in _INKS:
            for background in _BACKGROUNDS:
                for t in steps:
                    add(_mix(background, ink, t))
    for grey in range(0, 256, 17):
        add((grey, grey, grey))
    while len(colours) < 256:
        colours.append(colours[-1])
    return colours


COLOURS = _colours()


def _palette_image() -> Image.Image:
    image = Image.new("P", (1, 1))
    image.putpalette([c for colour in COLOURS for c in colour])
    return image


PALETTE = _palette_image()
_INDEX: dict[tuple[int, int, int], int] = {}
for _k, _colour in enumerate(COLOURS):
    _INDEX.setdefault(_colour, _k)


def index(colour) -> int:
    """The palette entry of a theme colour (every theme colour is in the palette exactly)."""
    return _INDEX[tuple(colour)]


def rgb(entry: int) -> tuple[int, int, int]:
    return COLOURS[entry]


def to_palette(image: Image.Image) -> Image.Image:
    """An RGB image mapped onto the shared palette (nearest colour, no dithering)."""
    return image.quantize(palette=PALETTE, dither=Image.Dither.NONE)
