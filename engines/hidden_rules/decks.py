"""The Hidden Rules trigger and action decks: card texts (from data/) plus their checkers.

A rule is a trigger card + an action card. The bot judges a play with a `PlayContext`: the card,
what it counted, the card under it, the totals before and after, the cards left in the hand,
the `say` text and the names already used this game. A rule is *broken* by a play exactly when
its trigger fires and its action was not performed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from engines.cards import RANK_NAMES, SUIT_NAMES, Card
from engines.hidden_rules.text import (
    ANIMALS,
    CHARACTERS,
    DATA_DIR,
    has_phrase,
    number_words,
    numbers_in,
    tokens,
)


class PlayContext(NamedTuple):
    """Everything a checker may look at for one play (all of it public once played).

    A NamedTuple rather than a frozen dataclass: one is built for every card played, and a
    frozen dataclass's __init__ (one object.__setattr__ per field) cost about 8 times as
    much. It stays immutable and hashable (the AI caches per context), with the same fields.
    """

    card: Card
    value: int  # what the card counted (an ace: 1 or 11 as declared)
    prev: Card  # the card just below it in the trick (the turned-up card at least)
    prev_total: int
    total: int
    hand_left: int  # cards left in the player's hand after the play
    say: str = ""
    named_animals: frozenset[str] = frozenset()  # named before this play
    named_characters: frozenset[str] = frozenset()


# --------------------------------------------------------------------------- triggers
TRIGGER_CHECKS: dict[int, Callable[[PlayContext], bool]] = {
    1: lambda c: c.card.rank == 1,
    2: lambda c: c.card.rank >= 11,
    3: lambda c: c.card.rank == c.prev.rank,
    4: lambda c: c.card.is_red and c.prev.is_black,
    5: lambda c: c.card.rank in (2, 4, 6, 8, 10),
    6: lambda c: c.card.suit == "h",
    7: lambda c: c.card.suit == "s",
    8: lambda c: c.card.suit == c.prev.suit,
    9: lambda c: c.total == 0,
    10: lambda c: c.prev_total <= 15 < c.total,
    11: lambda c: c.total != 0 and c.total % 5 == 0,
    12: lambda c: c.total < 0,
    13: lambda c: c.total == 21,
    14: lambda c: c.total > 21,
    15: lambda c: c.hand_left == 0,
    16: lambda c: c.card.rank < c.prev.rank,
}


# --------------------------------------------------------------------------- actions
_SUIT_WORDS = {s: frozenset((name, name[:-1])) for s, name in SUIT_NAMES.items()}
_LETTER = {1: "a", 11: "j", 12: "q", 13: "k"}  # rank letters (RULINGS: A, J, Q, K only)
_SYMBOLS = {"s": "♠♤", "h": "♥♡", "d": "♦♢", "c": "♣♧"}
LENGTH_WORDS = {1: "a", 2: "to", 3: "the", 4: "card", 5: "cards", 6: "player", 7: "playing",
                8: "shuffled", 9: "dangerous", 10: "everything", 11: "butterflies",
                12: "extinguisher", 13: "extraordinary"}


def card_named(say: str, card: Card) -> bool:
    """The card's name in words or short form: "seven of hearts", "7 hearts", "7h", "7♥".

    RULINGS, naming cards: a rank is a rank word (ace, two … ten, jack, queen, king), a number
    2–10, or a letter A, J, Q, K only when written with its suit (A♠, A of spades, Q♥); the
    English article "a" is never the ace. So "I play a heart" names no card, while "A♥" and
    "A of hearts" name the ace; "Q hearts" and "qh" name the queen (no English word reads
    so), but "ah", "as", "ad" and "ac" are words, not the ace.
    """
    toks = tokens(say)
    rank_words = {RANK_NAMES[card.rank]}
    if 2 <= card.rank <= 10:
        rank_words.add(str(card.rank))
    if card.rank == 2:
        rank_words.add("deuce")
    suit_words = _SUIT_WORDS[card.suit]
    letter = _LETTER.get(card.rank)
    if letter is not None:
        gap = "" if letter == "a" else r"\s*"  # "a ♥" may be the article; "A♥" is not
        symbol = re.search(rf"(?<![A-Za-z0-9]){letter}{gap}[{_SYMBOLS[card.suit]}]", say,
                           re.IGNORECASE)
        if symbol:
            return True
    for i, tok in enumerate(toks):
        if 2 <= card.rank <= 10 and tok == f"{card.rank}{card.suit}":
            return True
        if letter not in (None, "a") and tok == f"{letter}{card.suit}":
            return True
        nxt = toks[i + 1:i + 3]
        of_suit = len(nxt) == 2 and nxt[0] == "of" and nxt[1] in suit_words
        next_suit = bool(nxt) and nxt[0] in suit_words
        if tok in rank_words and (next_suit or of_suit):
            return True
        if letter is not None and tok == letter and (of_suit or (next_suit and letter != "a")):
            return True
    return False


def _new_names(found: frozenset[str], used: frozenset[str]) -> bool:
    return bool(found - used)


def first_unused(names: list[str], used: frozenset[str]) -> str:
    return next((n for n in names if n not in used), names[0])


ACTION_CHECKS: dict[int, Callable[[PlayContext], bool]] = {
    1: lambda c: has_phrase(c.say, "yawp"),
    2: lambda c: has_phrase(c.say, "have a nice day"),
    3: lambda c: card_named(c.say, c.card),
    4: lambda c: c.total in numbers_in(c.say, words_only=True),
    5: lambda c: _new_names(ANIMALS.found(c.say), c.named_animals),
    6: lambda c: _new_names(CHARACTERS.found(c.say), c.named_characters),
    7: lambda c: bool(_SUIT_WORDS[c.card.suit] & set(tokens(c.say))),
    8: lambda c: has_phrase(c.say, "please"),
    9: lambda c: ("red" if c.card.is_red else "black") in tokens(c.say),
    10: lambda c: c.value in numbers_in(c.say),
    11: lambda c: not tokens(c.say),
    12: lambda c: has_phrase(c.say, "sorry"),
    13: lambda c: c.prev_total in numbers_in(c.say),
    14: lambda c: any(len(t) == c.card.rank and t.isalpha() for t in tokens(c.say)),
    15: lambda c: has_phrase(c.say, "up and over"),
    16: lambda c: c.hand_left in numbers_in(c.say),
}

SILENT_ACTION = 11

# What a player who knows the action would say to perform it (used by the AI).
ACTION_SAYS: dict[int, Callable[[PlayContext], str]] = {
    1: lambda c: "YAWP!",
    2: lambda c: "Have a nice day!",
    3: lambda c: c.card.name,
    4: lambda c: number_words(c.total),
    5: lambda c: first_unused(ANIMALS.canonical, c.named_animals),
    6: lambda c: first_unused(CHARACTERS.canonical, c.named_characters),
    7: lambda c: SUIT_NAMES[c.card.suit],
    8: lambda c: "please",
    9: lambda c: "red" if c.card.is_red else "black",
    10: lambda c: str(c.value),
    11: lambda c: "",
    12: lambda c: "sorry",
    13: lambda c: f"it was {c.prev_total}",
    14: lambda c: LENGTH_WORDS[c.card.rank],
    15: lambda c: "up and over",
    16: lambda c: f"{c.hand_left} left",
}


# --------------------------------------------------------------------------- card texts
@dataclass(frozen=True, slots=True)
class RuleCard:
    """One trigger ("T") or action ("A") card; `label` is how every renderer shows it."""

    kind: str
    id: int
    text: str
    hint: str

    @property
    def label(self) -> str:
        return f"{self.kind}{self.id:02d} · {self.text}"


def _load_cards() -> tuple[dict[int, RuleCard], dict[int, RuleCard]]:
    raw = json.loads((DATA_DIR / "cards.json").read_text(encoding="utf-8"))
    triggers = {c["id"]: RuleCard("T", c["id"], c["text"], c["hint"]) for c in raw["triggers"]}
    actions = {c["id"]: RuleCard("A", c["id"], c["text"], c["hint"]) for c in raw["actions"]}
    return triggers, actions


TRIGGERS, ACTIONS = _load_cards()
TRIGGER_IDS = tuple(sorted(TRIGGERS))
ACTION_IDS = tuple(sorted(ACTIONS))


def triggered(trigger_id: int, ctx: PlayContext) -> bool:
    return TRIGGER_CHECKS[trigger_id](ctx)


def performed(action_id: int, ctx: PlayContext) -> bool:
    return ACTION_CHECKS[action_id](ctx)


def pair_bit(trigger_id: int, action_id: int) -> int:
    """The bit of the rule (trigger, action) in a mask of rules (`broken_rules`)."""
    return 1 << ((trigger_id - 1) * len(ACTION_IDS) + action_id - 1)


@lru_cache(maxsize=4096)
def broken_rules(ctx: PlayContext) -> int:
    """Every rule (trigger, action) this play broke, as a mask of `pair_bit`s."""
    fired = [t for t in TRIGGER_IDS if TRIGGER_CHECKS[t](ctx)]
    if not fired:
        return 0
    missed = [a for a in ACTION_IDS if not ACTION_CHECKS[a](ctx)]
    return sum(pair_bit(t, a) for t in fired for a in missed)


def broken(trigger_id: int, action_id: int, ctx: PlayContext) -> bool:
    """The rule (trigger, action) is broken by this play: it fired and was not obeyed."""
    return TRIGGER_CHECKS[trigger_id](ctx) and not ACTION_CHECKS[action_id](ctx)


# --------------------------------------------------------------------------- unnecessary talking
QUIET_PARTS_MAX = 3
QUIET_CHARS_MAX = 100
LINE_BREAK = "\n"  # a line break in what a player says is kept as one (it separates parts)
# RULINGS, unnecessary talking: parts end at , ; . ! ? and line breaks only, so a typed "/"
# ("red/black") is part of its part
_PART_SPLIT = re.compile(r"[,;.!?\n\r]+")
# Actions any stray word may satisfy by accident (silence is never "asked for" by words, and a
# word of N letters is in almost any sentence): not counted as recited extras.
_INCIDENTAL = frozenset((SILENT_ACTION, 14))


def say_parts(say: str) -> list[str]:
    """What a player said, split into parts at , ; . ! ? and line breaks (RULINGS,
    unnecessary talking); empty parts dropped."""
    return [part.strip() for part in _PART_SPLIT.split(say) if part.strip()]


def _shortest_window(words: list[str], action: int, ctx: PlayContext) -> tuple[int, int]:
    """The shortest run of words (start, end) that still performs `action`."""
    best = (0, len(words))
    for length in range(1, len(words) + 1):
        for start in range(len(words) - length + 1):
            if performed(action, ctx._replace(say=" ".join(words[start:start + length]))):
                return start, start + length
    return best


def part_asked_for(part: str, ctx: PlayContext, asked: frozenset[int]) -> bool:
    """Whether a rule triggered by the play asks for this part of what was said.

    A part is asked for when it performs an asked action, and whatever else it performs
    (another rule's phrase: "yawp", "please", an animal ...) is performed by the words doing
    the asked action too. So "seven of hearts" asked as the card's name may also count as the
    suit and the value, but "seven of hearts yawp please" recites two phrases nobody asked.
    """
    pctx = ctx._replace(say=part)
    doing = [a for a in sorted(asked) if a != SILENT_ACTION and performed(a, pctx)]
    if not doing:
        return False
    words = part.split()
    keep = [False] * len(words)
    for a in doing:
        start, end = _shortest_window(words, a, ctx)
        for i in range(start, end):
            keep[i] = True
    core = ctx._replace(say=" ".join(w for w, k in zip(words, keep, strict=True) if k))
    extras = [b for b in ACTION_CHECKS if b not in asked and b not in _INCIDENTAL
              and performed(b, pctx)]
    return all(performed(b, core) for b in extras)


def unnecessary_parts(ctx: PlayContext, rules: list[tuple[int, int]]) -> list[str]:
    """RULINGS, unnecessary talking (added): the parts of what was said with a play that no
    rule triggered by that play asks for. `rules` are every player's (trigger, action)."""
    asked = frozenset(a for t, a in rules if t >= 0 and triggered(t, ctx))
    return [part for part in say_parts(ctx.say) if not part_asked_for(part, ctx, asked)]
