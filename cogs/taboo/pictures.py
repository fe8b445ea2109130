"""Taboo as pictures: the face-up row (with its total) and every hand's size on the board;
your hand next to the row in your private view. Drawn only from the viewer's own view."""

from __future__ import annotations

from typing import Any

from bot.pictures import Picture, alt_text
from bot.pictures.sections import Section, backs, card_words, french_item, render, seat_name

CW, CH = 80, 112
HW, HH = 96, 134


def _row(view: dict[str, Any], w: int, h: int) -> Section:
    clears = view.get("row_clears_with") or []
    note = (f"A card worth {' or '.join(map(str, clears))} takes the whole row."
            if clears else "")
    return Section(f"Row · total {view['row_total']}",
                   [french_item(c["card"], w, h, caption=_value(c)) for c in view["row"]],
                   note=note, empty="empty row")


def _value(card: dict[str, Any]) -> str:
    return card["special"] if card.get("special") else f"= {card['value']}"


def board_picture(view: dict[str, Any], names: list[str]) -> Picture:
    current = view.get("current")
    piles = [backs(view["stock_size"], CW, CH, "stock")]
    if view.get("discard_top"):
        piles.append(french_item(view["discard_top"], CW, CH,
                                 caption=f"discard {view['discard_size']}"))
    players = [backs(size, CW, CH, seat_name(names, i))
               for i, size in enumerate(view["hand_sizes"])]
    points = ", ".join(f"{seat_name(names, i)} {p['total']}"
                       for i, p in enumerate(view["points"]))
    turn = f"{seat_name(names, current)} to play" if current is not None else "game over"
    sections = [_row(view, CW, CH),
                Section(f"Players · {turn}", players + piles,
                        note=f"Captured points: {points}")]
    row = ", ".join(card_words(c["card"]) for c in view["row"]) or "empty"
    alt = (f"Taboo board. Row (total {view['row_total']}): {row}. {turn}. Cards in hand: "
           + ", ".join(f"{seat_name(names, i)} {n}" for i, n in enumerate(view["hand_sizes"])))
    return Picture("taboo-board.png", alt_text(alt), render(sections, CW, CH, per_row=8))


def hand_picture(view: dict[str, Any], names: list[str], seat: int, *,
                 with_table: bool = True) -> Picture:
    """`with_table=False`: the DM's picture, without the row (the table's)."""
    hand = view.get("hand") or []
    drawn = view.get("drawn")
    items = [french_item(c["card"], HW, HH, caption=_value(c),
                         badge="NEW" if c["card"] == drawn else "") for c in hand]
    sections = [Section(f"Your hand · total {view.get('hand_total', 0)}", items,
                        empty="your hand is empty")]
    alt = "Your Taboo hand: " + (", ".join(card_words(c["card"]) for c in hand) or "empty")
    if with_table:
        sections.append(_row(view, HW, HH))
        alt += ". Row: " + (", ".join(card_words(c["card"]) for c in view["row"]) or "empty")
    return Picture("taboo-hand.png", alt_text(alt), render(sections, HW, HH, per_row=7))
