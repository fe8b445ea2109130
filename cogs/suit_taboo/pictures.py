"""Suit Taboo as pictures: the open cards and, for every player, catapult, shields, doubts
(open ones face up, the others as backs) and hand (cards everyone has seen face up, the rest
as backs) on the board; your role card, hand and doubts in your private view."""

from __future__ import annotations

from typing import Any

from bot.pictures import Picture, alt_text, theme
from bot.pictures.sections import (
    Item,
    Section,
    backs,
    card_words,
    french_item,
    render,
    seat_name,
)

CW, CH = 76, 106
HW, HH = 96, 134


def _player(view: dict[str, Any], names: list[str], p: dict[str, Any]) -> Section:
    items: list[Item] = []
    if p.get("catapult"):
        items.append(french_item(p["catapult"], CW, CH, caption="catapult"))
    items += [french_item(c, CW, CH, caption="shield") for c in p.get("shields") or []]
    open_doubts = p.get("open_doubts") or []
    items += [french_item(c, CW, CH, caption="doubt") for c in open_doubts]
    hidden = p.get("doubts", 0) - len(open_doubts)
    if hidden > 0:
        items.append(backs(hidden, CW, CH, "doubts"))
    known = p.get("known_hand") or []
    items += [french_item(c, CW, CH, caption="in hand") for c in known]
    rest = p.get("hand_size", 0) - len(known)
    if rest > 0:
        items.append(backs(rest, CW, CH, "in hand"))
    wins = p.get("round_wins", 0)
    status = p.get("status", "active")
    return Section(seat_name(names, p["seat"]), items,
                   right=f"{wins} round win" + ("" if wins == 1 else "s"),
                   note="" if status == "active" else status,
                   highlight=p["seat"] in (view.get("to_act") or []),
                   dim=status != "active")


def board_picture(view: dict[str, Any], names: list[str]) -> Picture:
    sections = [Section(f"Round {view['round']} · open cards", [
        french_item(c, CW, CH) for c in view.get("open") or []],
        note=f"Deck {view.get('deck', 0)} · dump {view.get('dump', 0)}", empty="none open")]
    sections += [_player(view, names, p) for p in view["players"]]
    alt = ("Suit Taboo board. Open: " + (", ".join(card_words(c) for c in view.get("open")
                                                   or []) or "none") + ". "
           + " ".join(f"{seat_name(names, p['seat'])}: catapult "
                      f"{card_words(p['catapult']) if p.get('catapult') else 'none'}, "
                      f"{len(p.get('shields') or [])} shields, {p.get('doubts', 0)} doubts, "
                      f"{p.get('hand_size', 0)} in hand." for p in view["players"]))
    return Picture("suittaboo-board.png", alt_text(alt), render(sections, CW, CH, per_row=9))


def hand_picture(view: dict[str, Any], names: list[str], seat: int, *,
                 with_table: bool = True) -> Picture:
    you = view.get("you") or {}
    role = you.get("role")
    role_note = you.get("role_name", "")
    if you.get("wire_role"):
        role_note += f" · on the wire: {you['wire_role']}"
    sections = []
    if role:
        sections.append(Section("Your role (secret)", [french_item(role, HW, HH)],
                                note=role_note))
    hand = you.get("hand") or []
    sections.append(Section("Your hand", [french_item(c, HW, HH) for c in hand],
                            empty="your hand is empty"))
    doubts = you.get("doubts") or []
    if doubts:
        sections.append(Section("Doubts cast at you", [
            Item(french_item(d["card"], HW, HH).sprite,
                 caption=f"from {seat_name(names, d['from'])}",
                 badge="open" if d.get("open") else "", badge_fill=theme.MUTED)
            for d in doubts]))
    alt = (f"Your Suit Taboo role: {role_note or 'none'}. Your hand: "
           + (", ".join(card_words(c) for c in hand) or "empty")
           + (". Doubts at you: " + ", ".join(card_words(d["card"]) for d in doubts)
              if doubts else ""))
    return Picture("suittaboo-hand.png", alt_text(alt), render(sections, HW, HH, per_row=7))
