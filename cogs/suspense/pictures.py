"""Suspense as pictures: the cards face up in front of each player (each with its victory
condition written on it) and hidden hands as backs on the board; your hand and, for the
dealer, the secret card in your private view."""

from __future__ import annotations

from typing import Any

from bot.pictures import Picture, alt_text, cards
from bot.pictures.sections import Item, Section, backs, render, seat_name
from engines.suspense.rules import condition_text

CW, CH = 150, 204


def _card(label: str, caption: str = "") -> Item:
    return Item(cards.suspense(label, condition_text(label), CW, CH), caption=caption)


def _words(label: str) -> str:
    return f"{label} ({condition_text(label)})"


def board_picture(view: dict[str, Any], names: list[str]) -> Picture:
    sections = [Section(f"Match {view['match']} · face-up total {view['total']} of "
                        f"{view['threshold']}",
                        note=f"Dealer {seat_name(names, view['dealer'])} · first to "
                             f"{view['points_target']} points wins", empty="")]
    for player in view["players"]:
        seat = player["seat"]
        status = "folded" if player["folded"] else ("passed" if player["passed"] else "")
        items = [_card(c) for c in player["in_play"]]
        items.append(backs(player["hand_size"], CW, CH, "in hand"))
        score = f"{player['score']} pt" + ("" if player["score"] == 1 else "s")
        sections.append(Section(seat_name(names, seat), items, right=score,
                                note=status, highlight=seat == view.get("turn")
                                and not view.get("over"), dim=player["folded"]))
    alt = f"Suspense board, match {view['match']}, face-up total {view['total']}. " + " ".join(
        f"{seat_name(names, p['seat'])}: "
        + (", ".join(_words(c) for c in p["in_play"]) or "no card face up")
        + f", {p['hand_size']} in hand." for p in view["players"])
    return Picture("suspense-board.png", alt_text(alt), render(sections, CW, CH, per_row=6))


def hand_picture(view: dict[str, Any], names: list[str], seat: int, *,
                 with_table: bool = True) -> Picture:
    you = view.get("you") or {}
    hand = you.get("hand") or []
    sections = [Section("Your hand", [_card(c) for c in hand], empty="your hand is empty")]
    if you.get("secret"):
        sections.append(Section("Secret card (you are the dealer)", [_card(you["secret"])]))
    alt = "Your Suspense hand: " + ("; ".join(_words(c) for c in hand) or "empty")
    if you.get("secret"):
        alt += f". Secret card: {_words(you['secret'])}"
    return Picture("suspense-hand.png", alt_text(alt), render(sections, CW, CH, per_row=6))
