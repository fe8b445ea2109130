"""Leak check for the Suspense match result as the board shows it (cogs/suspense/cog.py):
RULINGS, Suspense match-end reveal (amended) — "Show the secret card, who met its condition
and, for each player who met it, the card(s) that decided it; never whole hands."
"""

from __future__ import annotations

from cogs.suspense.cog import SuspenseUI
from engines.suspense.rules import CARD_LABELS, ENGINE, FOLD, LABEL_INDEX, PASS, Play

NAMES = ["Ann", "Bob", "Cat"]


def _mask(labels: str) -> int:
    return sum(1 << LABEL_INDEX[label] for label in labels.split())


def _embed_text(embeds) -> str:
    parts = []
    for embed in embeds:
        parts += [embed.title or "", embed.description or ""]
        parts += [f"{field.name} {field.value}" for field in embed.fields]
    return "\n".join(parts)


def test_board_result_never_shows_hands_so_a_folded_hand_cannot_be_rebuilt():
    """Ann folds holding ⚪1 ⚪2 ⚪3; Bob meets "biggest number kept in hand" with ⚪6. The
    board's result names the secret card, Bob and ⚪6 — and no other card held in a hand, so
    "the 13 cards minus everything shown" cannot give Ann's hand away."""
    s = ENGINE.new_game(3, 5)
    hands = ["⚪1 ⚪2 ⚪3", "⚪5 ⚪6 ⚫1", "⚫3 ⚫4 ⚫5"]
    played = ["❗", "⚪4", "⚫2"]
    s.hands = [_mask(h) for h in hands]
    s.played = [[LABEL_INDEX[c] for c in p.split()] for p in played]
    s.play_masks = [_mask(p) for p in played]
    s.secret = LABEL_INDEX["⚫6"]
    s.total = 6
    s.dealer = s.turn = 0
    s.log = []
    s.seen = [h | _mask(" ".join(played)) for h in s.hands]
    s.seen_public = _mask(" ".join(played))
    for seat, action in ((0, FOLD), (1, Play("⚫1")), (2, PASS), (1, PASS)):
        s = ENGINE.apply(s, seat, action).state
    view = ENGINE.view(s, None)
    text = _embed_text(SuspenseUI().render_board(view, NAMES))
    assert "Match 1 result" in text and "`⚫6`" in text and "**Bob** (`⚪6`)" in text
    face_up = {"❗", "⚪4", "⚫2", "⚫1"}
    # the result embed alone: only the secret card, the face-up cards and Bob's deciding ⚪6
    result = _embed_text(SuspenseUI().render_board(view, NAMES)[1:])
    shown = {label for label in CARD_LABELS if label in result}
    assert shown <= face_up | {"⚫6", "⚪6"}, shown
    assert not shown & {"⚪1", "⚪2", "⚪3", "⚪5", "⚫3", "⚫4", "⚫5"}
