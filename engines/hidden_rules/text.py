"""Forgiving text matching for Hidden Rules' `say` texts.

Players type what they "say" with a play; the bot must judge it fairly. Matching is therefore
case-, accent- and punctuation-insensitive, understands digits as well as number words
("twenty-one", "21", "minus four", "-4") and card names in words or short codes ("seven of
hearts", "7h", "7♥"). Everything here is pure and cached at import time from `data/`.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from pathlib import Path

DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "hidden_rules"

_SUIT_SYMBOL_WORDS = {"♠": " spades ", "♤": " spades ", "♥": " hearts ", "♡": " hearts ",
                      "♦": " diamonds ", "♢": " diamonds ", "♣": " clubs ", "♧": " clubs "}
_MINUS_RE = re.compile(r"(?<![A-Za-z0-9])[-−–](?=\d)")  # "-2", "(-2)", "=-2"; not "7-2"
_APOSTROPHE_RE = re.compile(r"[’'`´]")
_NON_WORD_RE = re.compile(r"[^a-z0-9]+")

UNITS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
         "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
         "eighteen", "nineteen")
TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
        "eighty": 80, "ninety": 90}
_UNIT_VALUE = {w: i for i, w in enumerate(UNITS)}
_UNIT_VALUE.update({"nil": 0, "nought": 0, "naught": 0, "none": 0, "fourty": 40})
_NEGATORS = frozenset(("minus", "negative", "neg"))


@lru_cache(maxsize=4096)
def tokens(text: str) -> tuple[str, ...]:
    """Lower-case word tokens: accents, punctuation and apostrophes removed, "-4" → minus 4."""
    if not text:
        return ()
    low = unicodedata.normalize("NFKD", text.lower())
    low = "".join(ch for ch in low if not unicodedata.combining(ch))
    for symbol, word in _SUIT_SYMBOL_WORDS.items():
        low = low.replace(symbol, word)
    low = _MINUS_RE.sub(" minus ", low)
    low = _APOSTROPHE_RE.sub("", low)
    return tuple(t for t in _NON_WORD_RE.split(low) if t)


def number_words(n: int) -> str:
    """English words for an integer (|n| < 100): -4 → "minus four", 21 → "twenty one"."""
    if n < 0:
        return "minus " + number_words(-n)
    if n < 20:
        return UNITS[n]
    tens_word = next(w for w, v in TENS.items() if v == n - n % 10)
    return tens_word if n % 10 == 0 else f"{tens_word} {UNITS[n % 10]}"


def numbers_in(text: str, *, words_only: bool = False) -> frozenset[int]:
    """Every integer said in `text`, as digits or words ("twenty one", "minus 4", "-2")."""
    found: set[int] = set()
    toks = tokens(text)
    i, sign = 0, 1
    while i < len(toks):
        tok = toks[i]
        value: int | None = None
        if tok in _NEGATORS:
            sign = -1
            i += 1
            continue
        if tok.isdigit() and not words_only:
            value = int(tok)
        elif tok in TENS:
            value = TENS[tok]
            if i + 1 < len(toks) and toks[i + 1] in _UNIT_VALUE and 0 < _UNIT_VALUE[toks[i + 1]] < 10:
                i += 1
                value += _UNIT_VALUE[toks[i]]
        elif tok in _UNIT_VALUE:
            value = _UNIT_VALUE[tok]
        elif not words_only:
            joined = _joined_number(tok)
            value = joined
        if value is not None:
            found.add(sign * value)
        sign = 1
        i += 1
    return frozenset(found)


def _joined_number(tok: str) -> int | None:
    """"twentyone" typed without a space."""
    for word, tens in TENS.items():
        if tok.startswith(word):
            rest = tok[len(word):]
            if rest in _UNIT_VALUE and 0 < _UNIT_VALUE[rest] < 10:
                return tens + _UNIT_VALUE[rest]
    return None


def has_phrase(text: str, phrase: str) -> bool:
    """True when the words of `phrase` appear in order and adjacent in `text`."""
    want = tokens(phrase)
    have = tokens(text)
    if not want:
        return not have
    n = len(want)
    if any(have[i:i + n] == want for i in range(len(have) - n + 1)):
        return True
    # forgiving: "haveaniceday", "upandover"
    return "".join(want) in have


# --------------------------------------------------------------------------- word lists
class WordList:
    """A list of names (animals, characters) with aliases and simple plurals.

    `found(text)` returns the canonical names said in the text; the first name on a data line
    is canonical, later ones (after "|") are aliases of it.
    """

    __slots__ = ("canonical", "max_len", "phrases")

    def __init__(self, lines: list[str]) -> None:
        self.phrases: dict[tuple[str, ...], str] = {}
        self.canonical: list[str] = []
        for raw in lines:
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            names = [n.strip() for n in line.split("|") if n.strip()]
            canon = " ".join(tokens(names[0]))
            self.canonical.append(canon)
            for name in names:
                self.phrases.setdefault(tokens(name), canon)
        self.max_len = max((len(p) for p in self.phrases), default=1)

    def found(self, text: str) -> frozenset[str]:
        # Longest match first, so "polar bear" is one animal and not also a "bear".
        toks = tokens(text)
        out: set[str] = set()
        i = 0
        while i < len(toks):
            for n in range(min(self.max_len, len(toks) - i), 0, -1):
                gram = toks[i:i + n]
                canon = self.phrases.get(gram)
                if canon is None:
                    canon = self._plural(gram)
                if canon is not None:
                    out.add(canon)
                    i += n
                    break
            else:
                i += 1
        return frozenset(out)

    def _plural(self, gram: tuple[str, ...]) -> str | None:
        last = gram[-1]
        for cut, add in (("ies", "y"), ("es", ""), ("s", "")):
            if last.endswith(cut) and len(last) > len(cut) + 1:
                canon = self.phrases.get((*gram[:-1], last[: -len(cut)] + add))
                if canon is not None:
                    return canon
        return None


def _load_list(name: str) -> WordList:
    return WordList((DATA_DIR / name).read_text(encoding="utf-8").splitlines())


ANIMALS = _load_list("animals.txt")
CHARACTERS = _load_list("characters.txt")
