"""The common picture layout: panels stacked top to bottom, each a title line, a row (or
rows) of cards with an optional caption under each, and a note line. Taboo, Hidden Rules,
Suspense and Suit Taboo draw their boards and hands with it (Six Suit's 12-player board has
its own grid of panels, laid out for a phone's preview)."""

from __future__ import annotations

from dataclasses import dataclass, field

from PIL import Image

from bot.pictures import cards, theme
from bot.pictures.canvas import PAD, Canvas, encode
from bot.pictures.fonts import fit, width, wrap

TITLE = 24
CAPTION = 17
NOTE = 19
GAP = 10


@dataclass
class Item:
    """One card in a section: its sprite, a caption under it, a badge on its corner."""

    sprite: Image.Image
    caption: str = ""
    badge: str = ""
    badge_fill: tuple[int, int, int] = theme.ACCENT


@dataclass
class Section:
    title: str
    items: list[Item] = field(default_factory=list)
    note: str = ""
    right: str = ""  # e.g. a score, at the title line's right end
    highlight: bool = False  # whose move it is
    dim: bool = False  # out of the round / folded
    empty: str = "none"  # written when there are no cards


def backs(count: int, w: int, h: int, caption: str = "") -> Item:
    """A hidden pile or hand: one card back with how many cards it stands for."""
    return Item(cards.back(w, h), caption=caption, badge=f"x{count}", badge_fill=theme.TEXT)


def draw(sections: list[Section], card_w: int, card_h: int, *, per_row: int = 8,
         min_width: int = 560) -> Image.Image:
    widest = max((min(len(s.items), per_row) for s in sections), default=1)
    inner = max(widest * card_w + (widest - 1) * GAP, min_width - 2 * PAD - 24)
    width = inner + 2 * PAD + 24
    heights = []
    for s in sections:
        row_h = _row_height(s, card_h)
        rows = max(1, -(-len(s.items) // per_row)) if s.items else 0
        h = 12 + TITLE + 10 + (rows * row_h if rows else (NOTE + 10 if s.empty else 0))
        h += len(_note_lines(s, inner)) * (NOTE + 6) + (4 if s.note else 0)
        heights.append(h + 6)
    canvas = Canvas(width, PAD + sum(heights) + (len(sections) - 1) * 10 + PAD)
    y = PAD
    for s, h in zip(sections, heights, strict=True):
        _section(canvas, s, PAD, y, width - 2 * PAD, h, card_w, card_h, per_row,
                 _row_height(s, card_h))
        y += h + 10
    return canvas.image


def _row_height(s: Section, card_h: int) -> int:
    """A row of cards, with room for captions only if this section has any."""
    return card_h + (CAPTION + 8 if any(item.caption for item in s.items) else 0) + GAP


def _section(canvas: Canvas, s: Section, x: int, y: int, w: int, h: int, card_w: int,
             card_h: int, per_row: int, row_h: int) -> None:
    canvas.box((x, y, x + w, y + h), theme.PANEL_DIM if s.dim else theme.PANEL,
               outline=theme.ACCENT if s.highlight else None, width=4)
    tx = x + 12
    if s.highlight:
        tx = canvas.badge((tx, y + 12), "TO PLAY", 17) + 8
    right_w = 0.0
    if s.right:
        canvas.text((x + w - 12, y + 14), s.right, 22, theme.MUTED, anchor="rt")
        right_w = width(s.right, 22)
    canvas.name((tx, y + 12), s.title, TITLE, max_width=x + w - 24 - right_w - tx)
    cy = y + 12 + TITLE + 10
    if not s.items and s.empty:
        canvas.text((x + 12, cy), s.empty, NOTE, theme.MUTED)
        cy += NOTE + 10
    for k, item in enumerate(s.items):
        cx = x + 12 + (k % per_row) * (card_w + GAP)
        ry = cy + (k // per_row) * row_h
        canvas.card(item.sprite, (cx, ry))
        if item.badge:  # top right: the one corner no card face uses (rank top left,
            # the big suit or the condition below it)
            bw = width(item.badge, 17) + 17 * 0.7
            canvas.badge((cx + card_w - bw - 4, ry + 4), item.badge, 17, fill=item.badge_fill)
        if item.caption:
            canvas.text((cx + card_w / 2, ry + card_h + 4), fit(item.caption, CAPTION, card_w + 8),
                        CAPTION, theme.MUTED, anchor="mt")
    if s.items:
        cy += max(1, -(-len(s.items) // per_row)) * row_h
    for line in _note_lines(s, w - 24):
        canvas.text((x + 12, cy), line, NOTE, theme.MUTED)
        cy += NOTE + 6


def _note_lines(s: Section, width: float) -> list[str]:
    return wrap(s.note, NOTE, int(width), max_lines=4) if s.note else []


def render(sections: list[Section], card_w: int, card_h: int, **kw) -> bytes:
    return encode(draw(sections, card_w, card_h, **kw))


def french_item(label: str, w: int, h: int, caption: str = "", badge: str = "") -> Item:
    """A standard playing card ("10♠", "🃏Joker") as a section item."""
    return Item(cards.french(label, w, h), caption=caption, badge=badge)


def card_words(label: str) -> str:
    """ "10♠" → "ten of spades", for alt text."""
    from engines.cards import Card
    from engines.core import GameError

    try:
        return Card.parse(label).name
    except GameError:
        return label


def seat_name(names: list[str], seat: int | None) -> str:
    if seat is None or not 0 <= seat < len(names):
        return "nobody"
    return names[seat]
