"""Six Suit as pictures: the board (every player's six piles, the discard, the draw pile) and
a player's hand. Drawn only from `engine.view(state, seat)` for whoever will see it.

A pile shows its top card large, the edges of the cards under it stacked below (up to
`EDGES`) and, under those, how many cards it covers ("+3"); a game saved before the engine
counted each pile gives only each player's total ("covered n")."""

from __future__ import annotations

from typing import Any

from bot.pictures import Picture, alt_text, cards, theme
from bot.pictures.canvas import PAD, Canvas, encode
from bot.pictures.fonts import width
from engines.six_suit.cards import LABELS, NAMES

CW, CH = 72, 100          # a pile's top card on the board
HW, HH = 112, 156         # a card in the hand
GAP = 8
EDGES, EDGE = 3, 4        # at most 3 card edges under a pile, 4 px apart
DEPTH = 19                # the "+n" line under a pile
PILE_H = CH + EDGES * EDGE + DEPTH
PANEL_W = 6 * CW + 5 * GAP + 2 * 12
SW, SH = 30, 42           # a hand card everyone has seen, in the panel's last line
FOOT = SH + 4
PANEL_H = 12 + 30 + 6 + PILE_H + 4 + FOOT + 6
TOP_H = 150
CODE = {label: i for i, label in enumerate(LABELS)}
WORDS = dict(zip(LABELS, NAMES, strict=True))


def _sprite(label: str, w: int, h: int):
    code = CODE.get(label)
    return cards.back(w, h) if code is None else cards.six_suit(code, w, h)


def pile(canvas: Canvas, label: str, depth: int | None, x: int, y: int, w: int = CW,
         h: int = CH) -> None:
    """A pile: the edges of up to `EDGES` covered cards, the top card over them, and the
    number of covered cards under it (nothing when it covers none or the count is unknown)."""
    edges = min(depth or 0, EDGES)
    for k in range(edges, 0, -1):
        canvas.card(cards.edge(w, h), (x, y + k * EDGE))
    canvas.card(_sprite(label, w, h), (x, y))
    if depth:
        canvas.text((x + w / 2, y + h + EDGES * EDGE + 1), f"+{depth}", 17, theme.TEXT,
                    anchor="mt")


def _name(names: list[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"Seat {seat + 1}"


def _danger(seat: dict[str, Any]) -> tuple[str, Any] | None:
    reach = seat.get("reach") or []
    worst = max(reach, default=0)
    if worst < 5:
        return None
    which = ("number", "colour", "shape")[reach.index(worst)]
    if worst >= 6:
        return f"SIX SUIT ({which})", theme.DANGER
    return f"5/6 {which}", theme.ACCENT


def _panel(canvas: Canvas, x: int, y: int, view: dict[str, Any], names: list[str],
           seat: dict[str, Any]) -> None:
    i = seat["seat"]
    alive = seat["alive"]
    acting = i in (view.get("to_act") or []) and view.get("phase") != "over"
    teams = view.get("teams")
    # the yellow outline and badge say whose move it is; a team is a coloured tag with its
    # number (never the colour alone)
    canvas.box((x, y, x + PANEL_W, y + PANEL_H), theme.PANEL if alive else theme.PANEL_DIM,
               outline=theme.ACCENT if acting else None, width=4)
    tx = x + 12
    if acting:
        tx = canvas.badge((tx, y + 12), "TO PLAY" if view["phase"] != "consent" else "DECIDES",
                          17) + 8
    right = f"{seat['score']} pt" + ("" if seat["score"] == 1 else "s")
    right_x = x + PANEL_W - 12
    if teams:
        tag = f"TEAM {seat['team'] + 1}"
        tag_w = width(tag, 17) + 17 * 0.7
        canvas.badge((right_x - tag_w, y + 12), tag, 17,
                     fill=theme.TEAM_COLOURS[seat["team"] % len(theme.TEAM_COLOURS)])
        right_x -= tag_w + 10
    canvas.text((right_x, y + 14), right, 22, theme.MUTED, anchor="rt")
    right_w = x + PANEL_W - right_x + width(right, 22)
    canvas.name((tx, y + 12), f"{i + 1}. {_name(names, i)}", 24,
                max_width=x + PANEL_W - 24 - right_w - tx)
    cy = y + 12 + 30 + 6
    depths = seat.get("depth")
    if alive:
        for k, label in enumerate(seat["piles"]):
            pile(canvas, label, depths[k] if depths else None, x + 12 + k * (CW + GAP), cy)
    else:
        canvas.text((x + PANEL_W / 2, cy + PILE_H / 2 - 16), "GHOST", 34, theme.MUTED,
                    anchor="mm")
        canvas.text((x + PANEL_W / 2, cy + PILE_H / 2 + 20), "eliminated · plays on, no piles",
                    19, theme.MUTED, anchor="mm")
    fy = cy + PILE_H + 4
    foot = f"hand {seat['hand_count']}"
    if alive and depths is None:  # a game saved before piles were counted
        foot += f" · covered {len(seat.get('under') or [])}"
    end = canvas.text((x + 12, fy), foot, 19, theme.MUTED)
    danger = _danger(seat) if alive else None
    if danger:
        canvas.badge((end + 10, fy - 2), danger[0], 16, fill=danger[1])
    shown = seat.get("known_hand") or []
    if shown:
        sx = x + PANEL_W - 12
        for label in reversed(shown[-5:]):
            sx -= SW + 4
            canvas.card(_sprite(label, SW, SH), (sx, fy - 2))
        canvas.text((sx - 6, fy), "in hand, seen", 17, theme.MUTED, anchor="rt")


def _top(canvas: Canvas, view: dict[str, Any], names: list[str]) -> None:
    y = PAD
    canvas.text((PAD, y), "DRAW", 18, theme.MUTED)
    canvas.card(cards.back(CW, CH), (PAD, y + 24))
    canvas.badge((PAD + 6, y + 24 + CH - 30), str(view["draw_pile"]), 18, fill=theme.TEXT)
    discard = view.get("discard") or []
    x = PAD + CW + 28
    canvas.text((x, y), f"DISCARD ({len(discard)}, newest right)", 18, theme.MUTED)
    shown = discard[-6:]
    if not shown:
        canvas.card(cards.slot(CW, CH, "empty"), (x, y + 24))
    for k, label in enumerate(shown):
        canvas.card(_sprite(label, CW, CH), (x + k * (CW * 0.55), y + 24))
    info_x = x + 5 * CW * 0.55 + CW + 30
    phase = view.get("phase")
    lines = [f"Round {view['round']} · turn {view['turn_number']}"]
    if phase != "over":
        step = {"predict": "predicts and draws", "play": "plays or discards",
                "consent": "is offered a card"}.get(phase, phase)
        who = view.get("current") if phase != "consent" else (view.get("offer") or {}).get(
            "target", view.get("current"))
        lines.append(f"{_name(names, who)} {step}")
        if view.get("free_time"):
            lines.append("Free time: nobody can be eliminated")
        elif view.get("final_phase"):
            lines.append("Final phase")
    else:
        lines.append("Game over")
    for k, line in enumerate(lines):
        if k == 1:
            canvas.name((info_x, y + 4 + k * 34), line, 26, theme.ACCENT,
                        max_width=canvas.width - info_x - PAD)
        else:
            canvas.text((info_x, y + 4 + k * 34), line, 24, max_width=canvas.width - info_x - PAD)


def _columns(n: int) -> int:
    return 1 if n <= 2 else 2


def board_picture(view: dict[str, Any], names: list[str]) -> Picture:
    seats = view["seats"]
    if view.get("teams"):  # team-mates side by side in reading order
        seats = sorted(seats, key=lambda s: (s["team"], s["seat"]))
    cols = _columns(len(seats))
    rows = -(-len(seats) // cols)
    width = max(cols * PANEL_W + (cols - 1) * 14 + 2 * PAD, 760)
    height = TOP_H + rows * (PANEL_H + 12) + PAD
    canvas = Canvas(width, height)
    _top(canvas, view, names)
    for k, seat in enumerate(seats):
        col, row = k % cols, k // cols
        _panel(canvas, PAD + col * (PANEL_W + 14), TOP_H + row * (PANEL_H + 12), view, names,
               seat)
    return Picture("sixsuit-board.png", _board_alt(view, names), encode(canvas.image))


def _board_alt(view: dict[str, Any], names: list[str]) -> str:
    parts = [f"Six Suit board, round {view['round']}, draw pile {view['draw_pile']}."]
    discard = view.get("discard") or []
    if discard:
        parts.append(f"Discard top: {WORDS.get(discard[-1], discard[-1])}.")
    for seat in view["seats"]:
        who = _name(names, seat["seat"])
        if seat["alive"]:
            depths = seat.get("depth") or [0] * 6
            piles = ", ".join(WORDS.get(p, p) + (f" on {d} more" if d else "")
                              for p, d in zip(seat["piles"], depths, strict=False))
            parts.append(f"{who}: {piles}.")
        else:
            parts.append(f"{who}: ghost.")
    return alt_text(" ".join(parts))


def hand_picture(view: dict[str, Any], names: list[str], seat: int, *,
                 with_table: bool = True) -> Picture:
    """`with_table=False`: the DM's picture, the hand alone (piles are the table's)."""
    me = view["seats"][seat]
    hand = view.get("hand") or []
    drawn = list(view.get("drawn") or [])
    known = set(me.get("known_hand") or [])
    per_row = 6
    rows = max(1, -(-len(hand) // per_row))
    width = 2 * PAD + per_row * HW + (per_row - 1) * 10
    hand_h = 40 + rows * (HH + 12)
    piles_h = (40 + PILE_H + 6 if me["alive"] else 50) if with_table else 0
    canvas = Canvas(width, PAD + hand_h + piles_h + PAD)
    canvas.text((PAD, PAD), f"Your hand ({len(hand)})", 26)
    y = PAD + 40
    if not hand:
        canvas.card(cards.slot(HW, HH, "empty"), (PAD, y))
    for k, label in enumerate(hand):
        x = PAD + (k % per_row) * (HW + 10)
        cy = y + (k // per_row) * (HH + 12)
        canvas.card(_sprite(label, HW, HH), (x, cy))
        if label in drawn:
            drawn.remove(label)
            canvas.badge((x + HW - 50, cy - 6), "NEW", 16)
        elif label in known:
            canvas.badge((x + HW - 58, cy - 6), "SEEN", 16, fill=theme.MUTED)
    y = PAD + hand_h
    if not with_table:
        pass
    elif me["alive"]:
        canvas.text((PAD, y), "Your piles, 1 to 6", 22, theme.MUTED)
        depths = me.get("depth")
        for k, label in enumerate(me["piles"]):
            pile(canvas, label, depths[k] if depths else None, PAD + k * (CW + GAP), y + 32)
    else:
        canvas.text((PAD, y + 8), "You are a ghost: you play on, with no piles.", 22,
                    theme.MUTED)
    words = ", ".join(WORDS.get(c, c) for c in hand) or "empty"
    return Picture("sixsuit-hand.png", alt_text(f"Your Six Suit hand: {words}."),
                   encode(canvas.image))
