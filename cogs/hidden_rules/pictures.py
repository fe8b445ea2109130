"""Hidden Rules as pictures: the current trick with its running total, and every hand's size
on the board; your hand and your secret rule in your private view."""

from __future__ import annotations

from typing import Any

from bot.pictures import Picture, alt_text
from bot.pictures.sections import Section, backs, card_words, french_item, render, seat_name

CW, CH = 80, 112
HW, HH = 96, 134


def _trick(view: dict[str, Any]) -> tuple[list, int]:
    trick = view.get("trick") or {}
    items, running = [], 0
    for card in trick.get("cards") or []:
        running += card.get("value", 0)
        items.append(card)
    return items, trick.get("total", running)


def _trick_section(view: dict[str, Any], names: list[str], w: int, h: int) -> Section:
    cards, total = _trick(view)
    items, running = [], 0
    for card in cards:
        running += card.get("value", 0)
        items.append(french_item(card["card"], w, h, caption=seat_name(names, card["seat"]),
                                 badge=f"={running}"))
    return Section(f"Trick · total {total} of 21", items, empty="no card played yet",
                   note="Badges: the running total after each card.")


def _to_act(view: dict[str, Any], names: list[str]) -> tuple[str, str]:
    """Who acts now, as the text board's ▶️ says: during an accusation the accused (the
    next player only after it), at a trick's end its next starter. Said short for the
    players' title (one line, cut with "…" to the picture's width: the accusation's whole
    sentence lost its end there even with short names) and whole for the alt text and,
    during an accusation, a note (which wraps)."""
    pending, to_play = view.get("pending"), view.get("to_play")
    if pending:
        accused = seat_name(names, pending["accused"])
        then = f", then {seat_name(names, to_play)} plays" if to_play is not None else ""
        return f"{accused} to answer", f"{accused} to accept or challenge{then}"
    if to_play is not None:
        who = f"{seat_name(names, to_play)} to play"
    elif (starter := view.get("next_starter")) is not None and view.get("phase") == "play":
        who = f"{seat_name(names, starter)} to start the next trick"
    else:
        who = "nobody to play"
    return who, who


def _scores(view: dict[str, Any], names: list[str]) -> str:
    return ", ".join(f"{seat_name(names, i)} {s}" for i, s in enumerate(view.get("scores") or []))


def board_sections(view: dict[str, Any], names: list[str]) -> list[Section]:
    """The board picture's panels: the trick, then every player's hand size and score."""
    sizes = view.get("hand_sizes") or []
    players = [backs(n, CW, CH, seat_name(names, i)) for i, n in enumerate(sizes)]
    short, whole = _to_act(view, names)
    trick = _trick_section(view, names, CW, CH)
    if whole != short:
        trick.note = f"Now: {whole}. {trick.note}"
    return [trick, Section(f"Players · {short}", players,
                           note=f"Scores (first to {view.get('target')}): {_scores(view, names)}")]


def board_picture(view: dict[str, Any], names: list[str]) -> Picture:
    cards, total = _trick(view)
    alt = (f"Hidden Rules board. Now: {_to_act(view, names)[1]}. Trick total {total}: "
           + (", ".join(f"{seat_name(names, c['seat'])} {card_words(c['card'])}"
                        for c in cards) or "no card yet")
           + f". Scores: {_scores(view, names)}.")
    return Picture("hiddenrules-board.png", alt_text(alt),
                   render(board_sections(view, names), CW, CH, per_row=8))


def hand_picture(view: dict[str, Any], names: list[str], seat: int, *,
                 with_table: bool = True) -> Picture:
    """`with_table=False`: the DM's picture, without the trick (the table's)."""
    hand = view.get("hand") or []
    sections = [Section("Your hand", [french_item(c, HW, HH) for c in hand],
                        empty="face down until you keep your rule" if view.get("hand_hidden")
                        else "your hand is empty")]
    rule = view.get("my_rule")
    if rule:
        sections.append(Section("Your secret rule",
                                note=f"{rule['trigger']['text']} {rule['action']['text']}",
                                empty=""))
    elif view.get("hand_hidden"):  # RULINGS: rules are kept first, then the cards are seen
        dealt = view.get("dealt") or {"triggers": [], "actions": []}
        sections.append(Section("Keep one trigger and one action", note=" / ".join(
            c["text"] for c in dealt["triggers"] + dealt["actions"]), empty=""))
    if with_table:
        sections.append(_trick_section(view, names, HW, HH))
    alt = "Your Hidden Rules hand: " + (", ".join(card_words(c) for c in hand) or "empty")
    if rule:
        alt += f". Your rule: {rule['trigger']['text']} {rule['action']['text']}"
    return Picture("hiddenrules-hand.png", alt_text(alt), render(sections, HW, HH, per_row=7))
