"""The Hidden Rules trigger and action decks: card texts (from data/) plus their checkers.

A rule is a trigger card + an action card. The bot judges a play with a `PlayContext`: the card,
what it counted, the card under it, the totals before and after, the cards left in the hand,
the `say` text and the names already used this game. A rule is *broken* by a play exactly when
its trigger fires and its action was not performed.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
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
_LABEL = {1: "a", 10: "t", 11: "j", 12: "q", 13: "k"}
LENGTH_WORDS = {1: "a", 2: "to", 3: "the", 4: "card", 5: "cards", 6: "player", 7: "playing",
                8: "shuffled", 9: "dangerous", 10: "everything", 11: "butterflies",
                12: "extinguisher", 13: "extraordinary"}


def card_named(say: str, card: Card) -> bool:
    """The card's name in words or short form: "seven of hearts", "7 hearts", "7h", "7♥"."""
    toks = tokens(say)
    rank_words = {RANK_NAMES[card.rank]}
    if 2 <= card.rank <= 10:
        rank_words.add(str(card.rank))
    if card.rank == 2:
        rank_words.add("deuce")
    if card.rank in _LABEL:
        rank_words.add(_LABEL[card.rank])
    suit_words = _SUIT_WORDS[card.suit]
    code = f"{card.rank if 2 <= card.rank <= 10 else _LABEL[card.rank]}{card.suit}"
    for i, tok in enumerate(toks):
        if tok == code and code != "as":
            return True
        if tok in rank_words:
            nxt = toks[i + 1:i + 3]
            if nxt and nxt[0] in suit_words:
                return True
            if len(nxt) == 2 and nxt[0] == "of" and nxt[1] in suit_words:
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


def broken(trigger_id: int, action_id: int, ctx: PlayContext) -> bool:
    """The rule (trigger, action) is broken by this play: it fired and was not obeyed."""
    return TRIGGER_CHECKS[trigger_id](ctx) and not ACTION_CHECKS[action_id](ctx)
