"""Six Suit as pictures: the board (every player's six piles, the discard, the draw pile) and
a player's hand. Drawn only from `engine.view(state, seat)` for whoever will see it.

A pile shows its top card large, the edges of the cards under it stacked below (up to
`EDGES`) and, under those, how many cards it covers ("+3"); a game saved before the engine
counted each pile gives only each player's total ("covered n").

The board is a grid of one panel per player (`layout`): from 5 players on, each panel holds
its piles in two lines of three and the panels stand three or four abreast, so the picture is
about square and Discord's preview on a phone, which scales it to about 400 px wide, still
shows every top card's number, shape and colour word."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from bot.pictures import Picture, alt_text, cards, theme
from bot.pictures.canvas import PAD, Canvas, encode
from bot.pictures.fonts import width
from engines.six_suit.cards import LABELS, NAMES

CW, CH = 84, 104          # a pile's top card on the board
HW, HH = 112, 156         # a card in the hand
GAP = 8                   # between two piles
EDGES, EDGE = 3, 3        # at most 3 card edges under a pile, 3 px apart
DEPTH = 18                # the "+n" line under a pile
LINE_H = CH + EDGES * EDGE + DEPTH  # a line of piles in a player's panel
PILE_H = LINE_H
INNER = 10                # a panel's margin
TITLE_H = 38              # a panel's name line
SW, SH = 24, 32           # a hand card everyone has seen, in the panel's last line
FOOT_H = SH + 6
SPACE = 10                # between two panels
TOP_H = PAD + 24 + CH + 14  # the draw pile and the discard
STATUS_H = 112            # whose move it is, under them when the board is narrow
WIDE_TOP = 880            # narrower than this, the status goes under the draw and discard
MIN_W = 620
# Discord shows an embed's image scaled to fit the chat's width (about 400 px on a phone)
# and, for a tall picture, a limited height: a board is laid out to show its cards as large
# as it can in previews of these sizes (width, height), the smallest first.
PHONE = ((400, 400), (400, 550))
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


@dataclass(frozen=True)
class Layout:
    """Where everything goes on a board of `seats` players: panels in `cols` columns, each
    panel's six piles in one line (`per_line` 6) or two lines of three (`per_line` 3).

    A wide picture is scaled down to the chat's width and a tall one to the preview's height,
    so a board of twelve long panels in two columns (what this was) showed each card about
    20 px wide on a phone; panels of 3 x 2 piles in four columns make the board about square
    and its cards about 28 px wide at 400 px (`layout` picks the arrangement)."""

    seats: int
    cols: int
    per_line: int

    @property
    def rows(self) -> int:
        return -(-self.seats // self.cols)

    @property
    def panel_w(self) -> int:
        return 2 * INNER + self.per_line * CW + (self.per_line - 1) * GAP

    @property
    def panel_h(self) -> int:
        return INNER + TITLE_H + (6 // self.per_line) * LINE_H + FOOT_H + INNER // 2

    @property
    def grid_w(self) -> int:
        return self.cols * self.panel_w + (self.cols - 1) * SPACE

    @property
    def width(self) -> int:
        return max(2 * PAD + self.grid_w, MIN_W)

    @property
    def status_below(self) -> bool:
        return self.width < WIDE_TOP

    @property
    def top_h(self) -> int:
        return TOP_H + (STATUS_H if self.status_below else 0)

    @property
    def height(self) -> int:
        return self.top_h + self.rows * (self.panel_h + SPACE) - SPACE + PAD

    def panel_xy(self, k: int) -> tuple[int, int]:
        """The top left corner of the k-th panel (in drawing order)."""
        x0 = (self.width - self.grid_w) // 2
        return (x0 + (k % self.cols) * (self.panel_w + SPACE),
                self.top_h + (k // self.cols) * (self.panel_h + SPACE))

    def pile_xy(self, k: int, p: int) -> tuple[int, int]:
        """The top left corner of pile `p` (0..5) of the k-th panel."""
        x, y = self.panel_xy(k)
        return (x + INNER + (p % self.per_line) * (CW + GAP),
                y + INNER + TITLE_H + (p // self.per_line) * LINE_H)

    def phone_scale(self, box: tuple[int, int]) -> float:
        """How much a preview of `box` (width, height) scales the picture down."""
        return min(box[0] / self.width, box[1] / self.height)


@lru_cache(maxsize=16)
def layout(seats: int) -> Layout:
    """The arrangement that shows the cards largest in the phone previews (`PHONE`, summed),
    the one with fewer columns on a tie."""
    options = [Layout(seats, cols, per_line) for per_line in (6, 3)
               for cols in range(1, min(seats, 4) + 1)]
    return max(options, key=lambda o: (round(sum(o.phone_scale(b) for b in PHONE), 4),
                                       -o.cols))


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


def _panel(canvas: Canvas, grid: Layout, k: int, view: dict[str, Any], names: list[str],
           seat: dict[str, Any]) -> None:
    x, y = grid.panel_xy(k)
    w, h = grid.panel_w, grid.panel_h
    i = seat["seat"]
    alive = seat["alive"]
    acting = i in (view.get("to_act") or []) and view.get("phase") != "over"
    # whose move it is: a yellow outline and the name on a yellow bar (plain at any size); a
    # team is a coloured tag with its number (never the colour alone)
    canvas.box((x, y, x + w, y + h), theme.PANEL if alive else theme.PANEL_DIM,
               outline=theme.ACCENT if acting else None, width=5)
    right = x + w - INNER
    if view.get("teams"):
        tag = f"TEAM {seat['team'] + 1}"
        right = canvas.badge((right - width(tag, 20) - 20 * 0.7, y + INNER + 3), tag, 20,
                             fill=theme.TEAM_COLOURS[seat["team"] % len(theme.TEAM_COLOURS)]
                             ) - width(tag, 20) - 20 * 0.7 - 8
    ink = theme.TEXT
    if acting:
        canvas.box((x + INNER - 4, y + INNER - 2, right, y + INNER + 33), theme.ACCENT,
                   radius=8)
        ink = theme.INK
    canvas.name((x + INNER, y + INNER), f"{i + 1}. {_name(names, i)}", 28, ink,
                max_width=right - x - INNER - 4)
    top = y + INNER + TITLE_H
    depths = seat.get("depth")
    if alive:
        for p, label in enumerate(seat["piles"]):
            pile(canvas, label, depths[p] if depths else None, *grid.pile_xy(k, p))
    else:
        middle = top + (6 // grid.per_line) * LINE_H / 2
        canvas.text((x + w / 2, middle - 18), "GHOST", 40, theme.MUTED, anchor="mm")
        canvas.text((x + w / 2, middle + 22), "eliminated · plays on", 20, theme.MUTED,
                    anchor="mm")
    fy = y + h - INNER // 2 - FOOT_H + 4
    points = f"{seat['score']} pt" + ("" if seat["score"] == 1 else "s")
    foot = f"hand {seat['hand_count']} · {points}"
    if alive and depths is None:  # a game saved before piles were counted
        foot += f" · covered {len(seat.get('under') or [])}"
    end = canvas.text((x + INNER, fy + 4), foot, 20, theme.MUTED)
    danger = _danger(seat) if alive else None
    if danger:
        end = canvas.badge((end + 8, fy + 3), danger[0], 17, fill=danger[1])
    shown = seat.get("known_hand") or []
    room = int((x + w - INNER - end - 50) // (SW + 3))
    if shown and room > 0:
        sx = x + w - INNER
        for label in reversed(shown[-room:]):
            sx -= SW + 3
            canvas.card(_sprite(label, SW, SH), (sx + 3, fy))
        canvas.text((sx - 4, fy + 6), "seen", 17, theme.MUTED, anchor="rt")


def _status(view: dict[str, Any], names: list[str]) -> list[str]:
    """The round, whose move it is and what they are doing, and the phase if special."""
    phase = view.get("phase")
    lines = [f"Round {view['round']} · turn {view['turn_number']}"]
    if phase == "over":
        return [*lines, "Game over"]
    step = {"predict": "predicts and draws", "play": "plays or discards",
            "consent": "is offered a card"}.get(phase, phase)
    who = view.get("current") if phase != "consent" else (view.get("offer") or {}).get(
        "target", view.get("current"))
    lines.append(f"{_name(names, who)} {step}")
    if view.get("free_time"):
        lines.append("Free time: nobody can be eliminated")
    elif view.get("final_phase"):
        lines.append("Final phase")
    return lines


def _top(canvas: Canvas, grid: Layout, view: dict[str, Any], names: list[str]) -> None:
    y = PAD
    canvas.text((PAD, y), "DRAW", 18, theme.MUTED)
    canvas.card(cards.back(CW, CH), (PAD, y + 24))
    canvas.badge((PAD + 6, y + 24 + CH - 34), str(view["draw_pile"]), 22, fill=theme.TEXT)
    discard = view.get("discard") or []
    x = PAD + CW + 28
    canvas.text((x, y), f"DISCARD ({len(discard)}, newest right)", 18, theme.MUTED)
    shown = discard[-6:]
    if not shown:
        canvas.card(cards.slot(CW, CH, "empty"), (x, y + 24))
    for k, label in enumerate(shown):
        canvas.card(_sprite(label, CW, CH), (x + k * (CW * 0.55), y + 24))
    if grid.status_below:
        sx, sy = PAD, TOP_H - 4
    else:
        sx, sy = int(x + 5 * CW * 0.55 + CW + 30), y + 6
    room = canvas.width - sx - PAD
    for k, line in enumerate(_status(view, names)):
        if k == 1:  # whose move: the largest line
            canvas.name((sx, sy + 34), line, 36, theme.ACCENT, max_width=room)
        else:
            canvas.text((sx, sy + (0 if k == 0 else 82)), line, 28, max_width=room)


def board_picture(view: dict[str, Any], names: list[str]) -> Picture:
    seats = view["seats"]
    if view.get("teams"):  # team-mates side by side in reading order
        seats = sorted(seats, key=lambda s: (s["team"], s["seat"]))
    grid = layout(len(seats))
    canvas = Canvas(grid.width, grid.height)
    _top(canvas, grid, view, names)
    for k, seat in enumerate(seats):
        _panel(canvas, grid, k, view, names, seat)
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
