"""Triple Topper cards for Six Suit: 125 ints with three attributes, and the six-suit test.

A card is the int `number * 25 + colour * 5 + shape`, each attribute an index 0..4 where index 4
is that attribute's wild (? / black / blob). Ints keep states cheap to clone and hash; the
tables below are built once at import (pure constants, no randomness).

Label: number + colour square + shape symbol, e.g. "3🟥▲", "?⬛☁". Every label is exactly three
code points and none of them occurs in ordinary English text, so leak checks can scan for them.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from engines.core import InvalidActionError

WILD = 4
DECK_SIZE = 125
NUMBERS = ("1", "2", "3", "4", "?")
COLOURS = ("🟥", "🟨", "🟩", "🟦", "⬛")
SHAPES = ("●", "♥", "▲", "■", "☁")
NUMBER_NAMES = ("one", "two", "three", "four", "question mark")
COLOUR_NAMES = ("red", "yellow", "green", "blue", "black")
SHAPE_NAMES = ("circle", "heart", "triangle", "square", "blob")
ATTRIBUTE_NAMES = ("number", "colour", "shape")


def card_of(number: int, colour: int, shape: int) -> int:
    return number * 25 + colour * 5 + shape


NUM = tuple(c // 25 for c in range(DECK_SIZE))
COL = tuple((c // 5) % 5 for c in range(DECK_SIZE))
SHP = tuple(c % 5 for c in range(DECK_SIZE))
LABELS = tuple(NUMBERS[NUM[c]] + COLOURS[COL[c]] + SHAPES[SHP[c]] for c in range(DECK_SIZE))
NAMES = tuple(f"{NUMBER_NAMES[NUM[c]]} {COLOUR_NAMES[COL[c]]} {SHAPE_NAMES[SHP[c]]}"
              for c in range(DECK_SIZE))
# SHARED[a][b] = how many attributes two cards have in common by plain equality (0..2 for
# distinct cards): 1+ means "a may cover b", 2 is a double match.
# An extra trailing 0 per row: an eliminated player's empty pile is stored as -1, and
# SHARED[card][-1] == 0 then means "nothing can be played there" without a branch.
SHARED = tuple(
    (*((NUM[a] == NUM[b]) + (COL[a] == COL[b]) + (SHP[a] == SHP[b]) for b in range(DECK_SIZE)),
     0)
    for a in range(DECK_SIZE)
)
_BY_LABEL = {label: code for code, label in enumerate(LABELS)}
ATTRS = (NUM, COL, SHP)


def label(card: int) -> str:
    """The rendered form of a card ("3🟥▲"), used in views, events and menus."""
    return LABELS[card]


def labels(cards: Sequence[int]) -> list[str]:
    return [LABELS[c] for c in cards]


def parse_card(text: str) -> int:
    """Read a label back ("3🟥▲") or words ("3 red triangle", "? black blob")."""
    text = text.strip()
    if text in _BY_LABEL:
        return _BY_LABEL[text]
    words = text.lower().replace("question mark", "?").split()
    if len(words) == 3:
        n = {"1": 0, "2": 1, "3": 2, "4": 3, "?": 4}.get(words[0])
        c = COLOUR_NAMES.index(words[1]) if words[1] in COLOUR_NAMES else None
        s = SHAPE_NAMES.index(words[2]) if words[2] in SHAPE_NAMES else None
        if n is not None and c is not None and s is not None:
            return card_of(n, c, s)
    raise InvalidActionError(f"Not a Six Suit card: {text!r}")


def attribute_reach(values: Sequence[int]) -> int:
    """How many of these values count towards one single value: wilds plus the commonest natural.

    6 over six top cards means a six suit on that attribute (six wilds count too).
    """
    wild = 0
    counts = [0, 0, 0, 0]
    for v in values:
        if v == WILD:
            wild += 1
        else:
            counts[v] += 1
    return wild + max(counts)


@lru_cache(maxsize=1 << 16)
def _reaches(tops: tuple[int, ...]) -> tuple[int, int, int]:
    cn = [0, 0, 0, 0, 0]
    cc = [0, 0, 0, 0, 0]
    cs = [0, 0, 0, 0, 0]
    for c in tops:
        cn[NUM[c]] += 1
        cc[COL[c]] += 1
        cs[SHP[c]] += 1
    return (cn[4] + max(cn[0], cn[1], cn[2], cn[3]), cc[4] + max(cc[0], cc[1], cc[2], cc[3]),
            cs[4] + max(cs[0], cs[1], cs[2], cs[3]))


def reaches(tops: Sequence[int]) -> tuple[int, int, int]:
    """(number, colour, shape) reach of a player's six top cards.

    Memoised (a pure function of the six cards): views and the AI ask it constantly.
    """
    return _reaches(tuple(tops))


# Six suit by bitmask: each card sets one bit per natural attribute value (bit 4*attribute +
# value; a wild sets none). OR-ing six cards' keys gives, per attribute, a 4-bit field of the
# natural values present; six suit on that attribute means at most one bit in its field. Both
# tables are pure constants; an index of -1 (an eliminated player's pile) reads card 124, all
# wild, exactly as the per-attribute tables above do.
SUIT_KEY = tuple(sum(1 << (4 * i + table[c]) for i, table in enumerate(ATTRS) if table[c] != WILD)
                 for c in range(DECK_SIZE))


def _at_most_one_value(key: int) -> bool:
    """Whether some attribute's 4-bit field in `key` has at most one bit set."""
    return any(((key >> (4 * i)) & 15).bit_count() <= 1 for i in range(3))


SIX_SUIT_BY_KEY = tuple(_at_most_one_value(key) for key in range(1 << 12))


def is_six_suit(tops: Sequence[int]) -> bool:
    """True when, for some attribute, all six tops show one natural value or that wild.

    Table look-ups instead of a loop per attribute: the engine asks this after every play.
    """
    if len(tops) != 6:
        return False
    k = SUIT_KEY
    a, b, c, d, e, f = tops
    return SIX_SUIT_BY_KEY[k[a] | k[b] | k[c] | k[d] | k[e] | k[f]]


def six_suit_attributes(tops: Sequence[int]) -> list[str]:
    """Names of the attributes that currently form a six suit (for events and views)."""
    if len(tops) != 6:
        return []
    return [ATTRIBUTE_NAMES[i] for i, r in enumerate(reaches(tops)) if r == 6]
