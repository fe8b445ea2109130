"""Standard playing cards shared by the games that use a French deck.

Cards are small immutable values, so a state clone can share them. Ranks are 1..13 with
A=1, J=11, Q=12, K=13; a joker has rank 0 and no suit. Each game gives ranks its own values.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engines.core import InvalidActionError

SUITS = ("s", "h", "d", "c")
SUIT_SYMBOLS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
SUIT_NAMES = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}
_SYMBOL_TO_SUIT = {v: k for k, v in SUIT_SYMBOLS.items()}
_SYMBOL_TO_SUIT.update({"♤": "s", "♡": "h", "♢": "d", "♧": "c"})
RANK_LABELS = {1: "A", 11: "J", 12: "Q", 13: "K"}
RANK_NAMES = {1: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
              8: "eight", 9: "nine", 10: "ten", 11: "jack", 12: "queen", 13: "king"}
_LABEL_TO_RANK = {"A": 1, "J": 11, "Q": 12, "K": 13, "T": 10}
_WORD_TO_RANK = {v: k for k, v in RANK_NAMES.items()}
_WORD_TO_SUIT = {v: k for k, v in SUIT_NAMES.items()}
_WORD_TO_SUIT.update({v[:-1]: k for k, v in SUIT_NAMES.items()})
RED_SUITS = frozenset("hd")


@dataclass(frozen=True, slots=True, order=True)
class Card:
    rank: int  # 1..13, 0 = joker
    suit: str = ""  # "s", "h", "d", "c"; "" for a joker

    def __post_init__(self) -> None:
        # A rank given as 5.0 or True equals 5 or 1 under ==, so such a card would pass for
        # the one in a hand and then show as "5.0♥": refuse it where it is made.
        if type(self.rank) is not int or type(self.suit) is not str:
            raise InvalidActionError(f"Not a card: rank {self.rank!r}, suit {self.suit!r}.")

    @property
    def is_joker(self) -> bool:
        return self.rank == 0

    @property
    def is_face(self) -> bool:
        return self.rank in (11, 12, 13)

    @property
    def is_red(self) -> bool:
        return self.suit in RED_SUITS

    @property
    def is_black(self) -> bool:
        return self.suit in ("s", "c")

    @property
    def rank_label(self) -> str:
        return RANK_LABELS.get(self.rank, str(self.rank))

    @property
    def code(self) -> str:
        """Compact ASCII form used in JSON and custom ids: "10h", "Qs", "joker"."""
        return "joker" if self.is_joker else f"{self.rank_label}{self.suit}"

    @property
    def name(self) -> str:
        """Words, e.g. "queen of spades" (used by Hidden Rules' "name the card")."""
        return "joker" if self.is_joker else f"{RANK_NAMES[self.rank]} of {SUIT_NAMES[self.suit]}"

    def __str__(self) -> str:
        return "🃏Joker" if self.is_joker else f"{self.rank_label}{SUIT_SYMBOLS[self.suit]}"

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse "10h", "Q♠", "qs", "AH", "t♦", "joker", "queen of spades" (case-insensitive)."""
        raw = text.strip()
        low = raw.lower().replace("🃏", "")
        if low in ("joker", "jk", "jo", "*"):
            return JOKER
        words = re.fullmatch(r"([a-z]+)\s+of\s+([a-z]+)", low)
        if words and words.group(1) in _WORD_TO_RANK and words.group(2) in _WORD_TO_SUIT:
            return cls(_WORD_TO_RANK[words.group(1)], _WORD_TO_SUIT[words.group(2)])
        m = re.fullmatch(r"(10|[2-9]|[ajqkt])\s*([shdc♠♥♦♣♤♡♢♧])", low)
        if not m:
            raise InvalidActionError(f"“{raw}” is not a card (try 10h, Q♠ or joker).")
        rank_txt, suit_txt = m.groups()
        rank = int(rank_txt) if rank_txt.isdigit() else _LABEL_TO_RANK[rank_txt.upper()]
        suit = _SYMBOL_TO_SUIT.get(suit_txt, suit_txt)
        return cls(rank, suit)


JOKER = Card(0, "")


def make_deck(jokers: int = 0, decks: int = 1) -> list[Card]:
    """An ordered deck (shuffle it with the state's rng): 52 cards (+ jokers), `decks` times."""
    one = [Card(rank, suit) for suit in SUITS for rank in range(1, 14)] + [JOKER] * jokers
    return one * decks


def parse_cards(text: str) -> list[Card]:
    """Parse a comma or space separated list of cards."""
    parts = [p for p in re.split(r"[,\s]+", text.strip()) if p]
    return [Card.parse(p) for p in parts]
