"""Taboo: a Tablanette-style adding game (seeds/taboo.txt, RULINGS.md "Taboo").

Players capture face-up cards by value (one card of the same value and/or a group that adds up
to it); clearing the whole row scores the cards. Jacks sweep the row away, jokers make everyone
else draw. The game ends as soon as someone's hand is empty: points pile minus hand.

Suits never matter in this game, so captures name row cards by *value*: the engine takes the
first matching face-up cards in row order. That keeps actions unambiguous with two decks
(identical duplicates) and keeps the action list short.
"""

from __future__ import annotations

import functools
import json
import operator
import pathlib
import random
import re
from dataclasses import dataclass

from pydantic import Field

from engines.ai_levels import AiLevel, ai_level_field
from engines.cards import JOKER, Card, make_deck
from engines.core import (
    Engine,
    Event,
    GameOptions,
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
    Outcome,
    SeededState,
    Step,
    private,
    public,
    typed,
)

DATA_DIR = pathlib.Path(__file__).resolve().parents[2] / "data" / "taboo"
HAND_SIZE = 5
ROW_SIZE = 4
JACK_RANK = 11

# Card value by rank: A 1, 2-10 face, Q 11, K 12; J and joker 0 (they are special).
VALUE = {0: 0, 1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8, 9: 9, 10: 10, 11: 0, 12: 11,
         13: 12}

# Phases of the seat to act.
TURN = "turn"  # a normal turn: capture, jack, joker or draw
EMPTY = "empty_row"  # the row was empty at the start of the turn: draw is the only move
USE = "use_drawn"  # after a normal draw: use the drawn card at once or place a hand card
PLACE = "place"  # after an empty-row draw (or a skipped draw): place a hand card
OVER = "over"

# One shared object per distinct card: every card in a state is one of these, so the caches
# below, keyed by object identity (labels, codes, shared actions), hit fast and stay bounded.
_ALL_CARDS = {c.code: c for c in make_deck(jokers=1)}
_CANON = {(c.rank, c.suit): c for c in _ALL_CARDS.values()}
_LABEL_ID = {id(c): str(c) for c in _ALL_CARDS.values()}
_CODE_ID = {id(c): c.code for c in _ALL_CARDS.values()}
# One deck of the shared cards in make_deck's order (building 108 Card objects per game was
# half the cost of new_game), and the Card order as a key (no Card.__lt__ call per comparison).
_DECK = tuple(_CANON[(c.rank, c.suit)] for c in make_deck(jokers=2))
_CARD_ORDER = operator.attrgetter("rank", "suit")


def lab(card: Card) -> str:
    """str(card) without its per-call cost (by identity for the shared card objects)."""
    return _LABEL_ID.get(id(card)) or str(card)


def code(card: Card) -> str:
    return _CODE_ID.get(id(card)) or card.code


def labels_of(cards: list[Card]) -> list[str]:
    """[lab(c) for c in cards] in one call (a call per card is most of the cost)."""
    return [_LABEL_ID.get(id(c)) or str(c) for c in cards]


def codes_of(cards: list[Card]) -> list[str]:
    """[code(c) for c in cards] in one call."""
    return [_CODE_ID.get(id(c)) or c.code for c in cards]


def value(card: Card) -> int:
    return VALUE[card.rank]


def _holds(hand: list[Card], card: Card) -> bool:
    """Whether `hand` holds this very card object (no Card.__eq__ call per held card).

    A plain loop: any() over a generator costs about twice as much on this hot path.
    """
    for held in hand:  # noqa: SIM110
        if held is card:
            return True
    return False


def is_special(card: Card) -> bool:
    """Jacks and jokers have no value and their own moves."""
    return card.rank == JACK_RANK or card.rank == 0


def rules_markdown() -> str:
    """The players' rules summary (data/taboo/rules.md), for `/taboo rules`."""
    return (DATA_DIR / "rules.md").read_text(encoding="utf-8")


# --------------------------------------------------------------------------- options
class TabooOptions(GameOptions):
    """Table options for Taboo."""

    max_turns: int = Field(
        500, ge=20, le=5000,
        description="Safety cap: the game ends after this many turns, scored as it stands.")
    two_decks_from: int = Field(
        5, ge=2, le=7,
        description="Play with two decks (108 cards) from this many players on (7 = never).")
    ai_level: AiLevel = ai_level_field()


# --------------------------------------------------------------------------- actions
@dataclass(frozen=True, slots=True)
class Capture:
    """Play `card` (value v) and take one face-up card of value v (`single`) and/or a group of
    two or more face-up cards whose values are `group` (sorted high to low, summing to v)."""

    card: Card
    single: bool
    group: tuple[int, ...] = ()
    kind: str = "capture"


@dataclass(frozen=True, slots=True)
class Jack:
    """Play a jack: the whole row goes to the discard pile with it (no points)."""

    kind: str = "jack"


@dataclass(frozen=True, slots=True)
class Joker:
    """Play a joker: every other player draws a card."""

    kind: str = "joker"


@dataclass(frozen=True, slots=True)
class Draw:
    """Take the top card of the stock (the turn then goes on with a use-or-place choice)."""

    kind: str = "draw"


@dataclass(frozen=True, slots=True)
class Place:
    """Put a hand card face up in the row (ends the turn after a draw)."""

    card: Card
    kind: str = "place"


Action = Capture | Jack | Joker | Draw | Place
# Shared Place objects by id(card); each keeps its card alive, so ids are never reused.
# Bounded in practice: cards come from the interned deck (new_game, load, cards.make_deck).
_PLACES: dict[int, Place] = {}
_SEAT_SETS = tuple(frozenset((k,)) for k in range(6))
_NOBODY: frozenset[int] = frozenset()
_DRAW = Draw()
_JACK = Jack()
_JOKER = Joker()


def _place_action(card: Card) -> Place:
    """The shared Place action of a card (built once per card: see _PLACES)."""
    place = _PLACES.get(id(card))
    if place is None:
        place = _PLACES[id(card)] = Place(card)
    return place


# --------------------------------------------------------------------------- shared events
# Events are immutable and the common ones depend only on a seat and a card, so each distinct
# one is built once: building the frozen Event dataclass cost more than the rest of a draw.
_FOLLOW_USE = ": use it at once or place a hand card face up"
_FOLLOW_EMPTY = ": place it or another hand card face up"


# Keyed by rank and suit rather than by Card: hashing a Card runs Python code every time.
@functools.cache
def _drew_events(seat: int, rank: int, suit: str, follow: str) -> tuple[Event, Event]:
    """The private "You drew ..." (`follow` says what comes next) and the public draw."""
    card = _CANON.get((rank, suit)) or Card(rank, suit)
    return (private(seat, "drew", f"You drew {lab(card)}{follow}.", seat=seat, card=code(card)),
            public("draw", f"{{P{seat}}} draws a card.", seat=seat))


@functools.cache
def _place_event(seat: int, rank: int, suit: str) -> Event:
    card = _CANON.get((rank, suit)) or Card(rank, suit)
    return public("place", f"{{P{seat}}} places {lab(card)} face up.", seat=seat,
                  card=code(card))


@functools.cache
def _joker_event(seat: int) -> Event:
    return public("joker", f"{{P{seat}}} plays {lab(JOKER)}: everyone else draws a card.",
                  seat=seat, card=code(JOKER))


@functools.cache
def _empty_row_event(seat: int) -> Event:
    return public("empty_row", f"The row is empty: {{P{seat}}} must draw and place a card face "
                  "up.", seat=seat)


# --------------------------------------------------------------------------- state
@dataclass(slots=True, eq=False)
class TabooState(SeededState):
    n: int
    seed: int
    rng_counter: int
    options: TabooOptions
    hands: list[list[Card]]
    row: list[Card]
    stock: list[Card]  # the top card is the last one
    discard: list[Card]  # the top card is the last one
    points: list[list[Card]]
    dealer: int
    current: int
    phase: str
    drawn: Card | None = None  # the card the current seat just drew (private to it)
    turns: int = 0
    reshuffles: int = 0
    finisher: int | None = None  # the seat that emptied its hand
    capped: bool = False
    shown: frozenset[str] = frozenset()  # labels of every card ever shown to everyone

    def clone(self) -> TabooState:
        """A full copy (every list copied), for callers that edit the copy in place."""
        return TabooState(
            self.n, self.seed, self.rng_counter, self.options,
            [h[:] for h in self.hands], self.row[:], self.stock[:], self.discard[:],
            [p[:] for p in self.points], self.dealer, self.current, self.phase, self.drawn,
            self.turns, self.reshuffles, self.finisher, self.capped, self.shown)

    def successor(self) -> TabooState:
        """The starting point of the state after a move, sharing this state's lists.

        Copying every list (the stock alone holds up to 100 cards) was the largest cost of a
        move. `apply` never changes a shared list in place: it builds a new list for every zone
        a move changes (`hands` itself is copied here because every move changes a hand).
        Bypasses the dataclass __init__, which costs more than the copy itself; every field is
        set here.
        """
        s = object.__new__(TabooState)
        s.n = self.n
        s.seed = self.seed
        s.rng_counter = self.rng_counter
        s.options = self.options
        s.hands = self.hands[:]
        s.row = self.row
        s.stock = self.stock
        s.discard = self.discard
        s.points = self.points
        s.dealer = self.dealer
        s.current = self.current
        s.phase = self.phase
        s.drawn = self.drawn
        s.turns = self.turns
        s.reshuffles = self.reshuffles
        s.finisher = self.finisher
        s.capped = self.capped
        s.shown = self.shown
        return s

    @property
    def over(self) -> bool:
        return self.phase == OVER


# --------------------------------------------------------------------------- capture search
_Option = tuple[bool, tuple[int, ...]]


# Equal option sets share one tuple object (kept here forever, so its id is stable), and the
# Capture objects for a (card, option set) pair are built once: building frozen dataclasses is
# the slow part of listing moves. Both are finite: 54 distinct cards, sums up to 12.
_OPTS: dict[tuple[_Option, ...], tuple[_Option, ...]] = {}
_CAPTURES: dict[tuple[int, int], tuple[Capture, ...]] = {}
_NO_OPTS: tuple[_Option, ...] = ()


def captures_for(card: Card, opts: tuple[_Option, ...]) -> tuple[Capture, ...]:
    """The Capture actions of `card` for an interned option set (cards are interned too)."""
    key = (id(card), id(opts))
    found = _CAPTURES.get(key)
    if found is None:
        found = _CAPTURES[key] = tuple(Capture(card, single, group) for single, group in opts)
    return found


_ROWS: dict[tuple[int, ...], list[tuple[_Option, ...] | None]] = {}
_ROWS_MAX = 20_000  # forgotten wholesale when full: a plain, bounded memo


def capture_options(counts: tuple[int, ...], v: int) -> tuple[_Option, ...]:
    """Every way a card of value `v` can capture from a row with `counts[value]` cards.

    (single, group) pairs, full-row captures first, then larger takes first. Zeros (face-up
    jacks or jokers, which only get there when a hand holds nothing else) may join a group
    since they add nothing to its sum. Memoized per row and value: the hot path of
    `legal_actions`.
    """
    table = _row_options(counts)
    opts = table[v]
    if opts is None:
        opts = table[v] = _compute_options(counts, v)
    return opts


def _row_options(counts: tuple[int, ...]) -> list[tuple[_Option, ...] | None]:
    """The memo of one row's options by card value (None: not computed yet)."""
    table = _ROWS.get(counts)
    if table is None:
        if len(_ROWS) >= _ROWS_MAX:
            _ROWS.clear()
        table = _ROWS[counts] = [None] * 13
    return table


def _compute_options(counts: tuple[int, ...], v: int) -> tuple[_Option, ...]:
    if v <= 0:
        return _NO_OPTS
    results: list[_Option] = []
    if counts[v]:
        results.append((True, ()))
    groups: list[tuple[int, ...]] = []
    present = [val for val in range(v, 0, -1) if counts[val]]
    _groups(present, list(counts), 0, v, [], groups)
    for g in groups:
        if len(g) >= 2:
            results.append((False, g))
            if counts[v] > g.count(v):
                results.append((True, g))
    if not results:
        return _NO_OPTS
    total_cards = sum(counts)
    results.sort(key=lambda o: (0 if int(o[0]) + len(o[1]) == total_cards else 1,
                                -(int(o[0]) + len(o[1]))))
    opts = tuple(results)
    return _OPTS.setdefault(opts, opts)


def _groups(vals: list[int], avail: list[int], start: int, remaining: int, acc: list[int],
            out: list[tuple[int, ...]]) -> None:
    """Multisets of the row's non-zero values `vals` (high to low) adding up to `remaining`,
    each also with every possible number of zeros added."""
    if remaining == 0:
        for zeros in range(avail[0] + 1):
            out.append((*acc, *([0] * zeros)))
        return
    for i in range(start, len(vals)):
        val = vals[i]
        if val > remaining or not avail[val]:
            continue
        avail[val] -= 1
        acc.append(val)
        _groups(vals, avail, i, remaining - val, acc, out)
        acc.pop()
        avail[val] += 1


def row_counts(row: list[Card]) -> tuple[int, ...]:
    counts = [0] * 13
    for card in row:
        counts[VALUE[card.rank]] += 1
    return tuple(counts)


# The same option tables, found by the row's ranks in row order: that key costs less to build
# than the counts by value, and legal_actions needs it for every state.
_RANK_ROWS: dict[tuple[int, ...], list[tuple[_Option, ...] | None]] = {}


def row_table(row: list[Card]) -> list[tuple[_Option, ...] | None]:
    """The memo of this row's capture options by card value (see capture_options)."""
    ranks = tuple([card.rank for card in row])
    table = _RANK_ROWS.get(ranks)
    if table is None:
        if len(_RANK_ROWS) >= _ROWS_MAX:
            _RANK_ROWS.clear()
        table = _RANK_ROWS[ranks] = _row_options(row_counts(row))
    return table


def row_options(row: list[Card], v: int) -> tuple[_Option, ...]:
    """capture_options for the cards of `row`."""
    table = row_table(row)
    opts = table[v]
    if opts is None:
        opts = table[v] = _compute_options(row_counts(row), v)
    return opts


class _Taken:
    """Marks a row card already taken by a capture: equal to no value at all."""

    __hash__ = None  # type: ignore[assignment]

    def __eq__(self, other: object) -> bool:
        return False


_TAKEN = _Taken()


def resolve_capture(row: list[Card], v: int, single: bool, group: tuple[int, ...]
                    ) -> tuple[list[int], list[int]]:
    """Row indices taken by a capture: the first matching cards in row order."""
    vals: list[object] = [VALUE[card.rank] for card in row]
    taken: list[int] = []
    for val in (v, *group) if single else group:
        try:
            i = vals.index(val)
        except ValueError:
            raise IllegalActionError("Those face-up cards are not in the row.") from None
        vals[i] = _TAKEN  # each row card is taken once
        taken.append(i)
    return (taken[:1], taken[1:]) if single else ([], taken)


def clearing_values(row_vals: list[int]) -> set[int]:
    """Values of a hand card that would take the whole row (used by the AI and hints)."""
    if not row_vals:
        return set()
    total = sum(row_vals)
    out: set[int] = set()
    if len(row_vals) == 1 and row_vals[0] > 0:
        out.add(row_vals[0])
    if len(row_vals) >= 2 and 1 <= total <= 12:
        out.add(total)
    if len(row_vals) >= 3 and total % 2 == 0 and 1 <= total // 2 <= 12 and total // 2 in row_vals:
        out.add(total // 2)
    return out


def typed_take(single: bool, group: tuple[int, ...] | list[int], v: int) -> str:
    """What a capture takes in the form `/taboo play take:` reads: "7 + (3,4)", "(3,4)" or
    "7" (the values a suggestion sends; players see `capture_words` instead)."""
    parts = [str(v)] if single else []
    if group:
        parts.append("(" + ",".join(str(x) for x in group[::-1]) + ")")  # low to high
    return " + ".join(parts)


def capture_words(card: str, single: str | None, group: list[str] | tuple[str, ...],
                  *, clears: bool = False) -> str:
    """A capture as a player would say it: "9♥ captures 2♣ + 7♦", "7♠ captures 7♥ and
    3♣ + 4♦" (the card of the same value, then the group adding up to it, low to high),
    with " (clears the row)" when it scores. The one wording for captures everywhere: the
    confirmation, the board's recent lines, the panel, the history and the suggestions."""
    taken = " + ".join(group)
    if single is not None:
        taken = f"{single} and {taken}" if taken else single
    text = f"{card} captures {taken}"
    return text + " (clears the row)" if clears else text


_VALUE_WORDS = {"A": 1, "J": 0, "Q": 11, "K": 12, "JOKER": 0,
                **{str(k): k for k in range(13)}}  # "0": a face-up jack/joker in a group


def _parse_take(text: str, v: int) -> tuple[bool, tuple[int, ...]]:
    """Read "7 + (3,4)", "(3,4)", "7", "7+3+4", "3 4" or the cards as a capture reads
    ("7♥ and 3♣ + 4♦") as (single, group) for value `v`."""
    inside = re.findall(r"\(([^)]*)\)", text)
    outside = re.sub(r"\([^)]*\)", " ", text)

    def numbers(chunk: str) -> list[int]:
        out = []
        for token in re.split(r"(?:[\s,+&]|\band\b)+", chunk.strip(), flags=re.I):
            if not token:
                continue
            key = token.upper().rstrip("♠♥♦♣SHDC") or token.upper()
            if key not in _VALUE_WORDS:
                short = token if len(token) <= 12 else token[:11] + "…"  # typed: bounded
                raise InvalidActionError(f"“{typed(short)}” is not a card value.")
            out.append(_VALUE_WORDS[key])
        return out

    if len(inside) > 1:
        raise InvalidActionError("Only one group (in brackets) can be taken.")
    bare = numbers(outside)
    if inside:
        group = numbers(inside[0])
        if bare not in ([], [v]):
            raise InvalidActionError(f"Outside the brackets, write at most one {v}.")
        return bool(bare), tuple(sorted(group, reverse=True))
    if bare == [v]:
        return True, ()
    if v in bare and sum(bare) == 2 * v and len(bare) >= 3:
        rest = list(bare)
        rest.remove(v)
        return True, tuple(sorted(rest, reverse=True))
    return False, tuple(sorted(bare, reverse=True))


# --------------------------------------------------------------------------- legality
def _places(hand: list[Card]) -> tuple[Action, ...]:
    """A Place for every distinct plain card (a jack or joker only from a hand holding nothing
    else)."""
    out: list[Action] = []
    prev = None
    for card in hand:  # sorted hand: duplicates are neighbours
        rank = card.rank
        if rank != JACK_RANK and rank != 0 and card is not prev:  # interned cards
            out.append(_PLACES.get(id(card)) or _place_action(card))
            prev = card
    if not out:
        for card in hand:
            if card is not prev:
                out.append(_PLACES.get(id(card)) or _place_action(card))
            prev = card
    return tuple(out)


def _is_listed(state: TabooState, action: object) -> bool:
    """Whether `action` is one of the very objects `legal_actions` lists for the seat to act.

    Checked directly against the rules (listing every legal action again cost more than the
    rest of a move): the engine hands out shared action objects, and those are what players
    pick from. False sends `apply` to the general check, which also accepts equal actions
    built elsewhere and refuses everything else.
    """
    phase = state.phase
    if action is _DRAW:
        return phase in (TURN, EMPTY)
    hand = state.hands[state.current]
    drawn = state.drawn
    if action is _JACK or action is _JOKER:
        rank = JACK_RANK if action is _JACK else 0
        if phase == TURN:
            return any(card.rank == rank for card in hand)
        return phase == USE and drawn is not None and drawn.rank == rank
    cls = type(action)
    if cls is Place:
        card = action.card  # type: ignore[attr-defined]
        if phase not in (USE, PLACE) or _PLACES.get(id(card)) is not action:
            return False
        if not is_special(card):
            return _holds(hand, card)
        # a jack or joker may only be placed from a hand holding nothing else
        return _holds(hand, card) and all(is_special(c) for c in hand)
    if cls is Capture:
        card = action.card  # type: ignore[attr-defined]
        if phase == TURN:
            if not _holds(hand, card):
                return False
        elif phase != USE or card is not drawn:
            return False
        if is_special(card):
            return False
        opts = row_options(state.row, VALUE[card.rank])
        if opts:
            for listed in captures_for(card, opts):
                if listed is action:
                    return True
        return False
    return False


# --------------------------------------------------------------------------- the engine
class TabooEngine(Engine[TabooState, Action]):
    name = "taboo"
    title = "Taboo"
    min_players = 2
    max_players = 6
    Options = TabooOptions

    # ---- setup --------------------------------------------------------------------------
    def new_game(self, n_players: int, seed: int, options=None) -> TabooState:
        opts = self.parse_options(options)
        if not self.min_players <= n_players <= self.max_players:
            raise ValueError(f"Taboo needs {self.min_players}-{self.max_players} players.")
        decks = 2 if n_players >= opts.two_decks_from else 1
        state = TabooState(n=n_players, seed=seed, rng_counter=0, options=opts,
                           hands=[[] for _ in range(n_players)], row=[], stock=[], discard=[],
                           points=[[] for _ in range(n_players)], dealer=0, current=0,
                           phase=TURN)
        rng = state.next_rng()
        deck = list(_DECK * decks)  # make_deck(jokers=2, decks=decks), as shared cards
        rng.shuffle(deck)
        state.dealer = rng.randrange(n_players)
        state.stock = deck
        for _ in range(HAND_SIZE):
            for k in range(n_players):
                seat = (state.dealer + 1 + k) % n_players
                state.hands[seat].append(state.stock.pop())
        for hand in state.hands:
            hand.sort(key=_CARD_ORDER)
        # Turn up four cards; a jack or joker goes back somewhere below the top of the stock.
        tries = 0
        while len(state.row) < ROW_SIZE:
            card = state.stock.pop()
            if not is_special(card):
                state.row.append(card)
                continue
            tries += 1
            if tries > 200:  # cannot happen in practice; keeps setup bounded regardless
                idx = next(i for i, c in enumerate(state.stock) if not is_special(c))
                state.row.append(state.stock.pop(idx))
                state.stock.insert(0, card)
                continue
            state.stock.insert(rng.randrange(len(state.stock)), card)
        state.shown = frozenset(str(c) for c in state.row)
        state.current = (state.dealer + 1) % n_players
        state.phase = TURN
        return state

    # ---- turn order ---------------------------------------------------------------------
    def to_act(self, state: TabooState) -> frozenset[int]:
        if state.phase == OVER:
            return _NOBODY
        return _SEAT_SETS[state.current]

    def legal_actions(self, state: TabooState, seat: int) -> tuple[Action, ...]:
        phase = state.phase
        if phase == OVER or seat != state.current:
            return ()
        hand = state.hands[seat]
        if phase == EMPTY:
            return (_DRAW,)
        if phase == PLACE:
            return _places(hand)
        # TURN or USE: captures come from the memo of this row's options by card value
        row = state.row
        table = row_table(row)
        out: list[Action] = []
        if phase == TURN:
            has_jack = has_joker = False
            prev = None
            for card in hand:  # hands are kept sorted, so duplicates are neighbours
                rank = card.rank
                if rank == JACK_RANK:
                    has_jack = True
                elif rank == 0:
                    has_joker = True
                elif card is not prev:  # interned cards: equal means identical
                    v = VALUE[rank]
                    opts = table[v]
                    if opts is None:
                        opts = table[v] = _compute_options(row_counts(row), v)
                    if opts:
                        out.extend(_CAPTURES.get((id(card), id(opts)))
                                   or captures_for(card, opts))
                prev = card
            if has_jack:
                out.append(_JACK)
            if has_joker:
                out.append(_JOKER)
            out.append(_DRAW)
            return tuple(out)
        # USE: the drawn card at once, or place any hand card
        drawn = state.drawn
        if drawn is not None:
            if drawn.rank == JACK_RANK:
                out.append(_JACK)
            elif drawn.rank == 0:
                out.append(_JOKER)
            else:
                out.extend(captures_for(drawn, row_options(row, VALUE[drawn.rank])))
        out.extend(_places(hand))
        return tuple(out)

    # ---- applying moves -----------------------------------------------------------------
    def apply(self, state: TabooState, seat: int, action: Action) -> Step[TabooState]:
        if state.phase == OVER:
            raise GameOverError("The game is over.")
        if seat != state.current:
            raise NotYourTurnError("It is not your turn.")
        if not _is_listed(state, action):
            action = self._listed_equal(state, seat, action)
        s = state.successor()
        events: list[Event] = []
        kind = action.kind
        if kind == "capture":
            self._capture(s, seat, action, events)  # type: ignore[arg-type]
        elif kind == "jack":
            self._jack(s, seat, events)
        elif kind == "joker":
            self._joker(s, seat, events)
        elif kind == "draw":
            self._draw_step(s, seat, events)
        else:
            self._place(s, seat, action.card, events)  # type: ignore[union-attr]
        if kind != "draw":
            self._end_turn(s, seat, events)
        if not s.stock:
            self._restock(s, events)
        return Step(s, tuple(events))

    def _listed_equal(self, state: TabooState, seat: int, action: object) -> Action:
        """The listed action equal to `action` (e.g. built from a parsed card), so only the
        engine's shared card objects ever enter the state; IllegalActionError if none is."""
        legal = self.legal_actions(state, seat)
        for known in legal:  # the very object, when the direct check was not conclusive
            if known is action:
                return known
        if isinstance(action, Capture):
            # a group written in any order (or as a list) names the same face-up values
            try:
                group = tuple(sorted(action.group, reverse=True))
            except TypeError:
                raise IllegalActionError("That move is not allowed right now.") from None
            if group != action.group:
                action = Capture(action.card, action.single, group)
        try:
            return legal[legal.index(action)]  # type: ignore[arg-type]
        except Exception:  # not listed, or a garbage object with a broken __eq__
            raise IllegalActionError("That move is not allowed right now.") from None

    @staticmethod
    def _take_from_hand(s: TabooState, seat: int, card: Card) -> None:
        hand = s.hands[seat]
        hand = hand[:]
        for i, held in enumerate(hand):  # identity first: no dataclass __eq__ in the hot path
            if held is card:
                del hand[i]
                break
        else:
            hand.remove(card)
        s.hands[seat] = hand

    @staticmethod
    def _show(s: TabooState, labels: list[str]) -> None:
        """Remember card labels as shown to everyone."""
        if not s.shown.issuperset(labels):
            s.shown = s.shown.union(labels)

    def _capture(self, s: TabooState, seat: int, action: Capture, events: list[Event]) -> None:
        card = action.card
        row = s.row
        v = VALUE[card.rank]
        single_idx, group_idx = resolve_capture(row, v, action.single, action.group)
        self._take_from_hand(s, seat, card)
        taken_idx = {*single_idx, *group_idx}
        s.row = [c for i, c in enumerate(row) if i not in taken_idx]
        pile = [card]  # the played card, the single, then the group low to high
        for i in single_idx:
            pile.append(row[i])
        for i in reversed(group_idx):
            pile.append(row[i])
        names = labels_of(pile)
        self._show(s, names)
        pile_codes = codes_of(pile)
        words = capture_words(names[0], names[1] if single_idx else None,
                              names[1 + len(single_idx):])
        if not s.row:
            points = s.points[:]
            points[seat] = [*points[seat], *pile]
            s.points = points
            gained = v + sum(action.group) + (v if action.single else 0)  # the pile's values
            events.append(Event("capture", f"{{P{seat}}}'s {words}, clearing the row: "
                                f"+{gained} points.", None,
                                {"seat": seat, "card": pile_codes[0], "taken": pile_codes[1:],
                                 "cleared": True, "points": gained}))
        else:
            s.discard = [*s.discard, *pile]
            events.append(Event("capture", f"{{P{seat}}}'s {words}; the cards go to the "
                                "discard pile.", None,
                                {"seat": seat, "card": pile_codes[0], "taken": pile_codes[1:],
                                 "cleared": False, "points": 0}))

    def _jack(self, s: TabooState, seat: int, events: list[Event]) -> None:
        jack = s.drawn if s.phase == USE and s.drawn is not None else next(
            c for c in s.hands[seat] if c.rank == JACK_RANK)
        self._take_from_hand(s, seat, jack)
        swept = s.row
        s.discard = [*s.discard, *swept, jack]
        s.row = []
        self._show(s, [lab(jack)])
        swept_text = "1 card" if len(swept) == 1 else f"{len(swept)} cards"
        events.append(public("jack", f"{{P{seat}}} plays {lab(jack)}: the row ({swept_text}) "
                             "goes to the discard pile.", seat=seat, card=code(jack),
                             swept=codes_of(swept)))

    def _joker(self, s: TabooState, seat: int, events: list[Event]) -> None:
        self._take_from_hand(s, seat, JOKER)
        self._show(s, [lab(JOKER)])
        events.append(_joker_event(seat))
        for k in range(1, s.n):
            other = (seat + k) % s.n
            card = self._draw(s, events)
            if card is None:
                events.append(public("draw_skipped", f"No card left for {{P{other}}} to draw.",
                                     seat=other))
                continue
            self._add_to_hand(s, other, card)
            events.extend(_drew_events(other, card.rank, card.suit, ""))
        # Discarded after the draws (the ruling's order), so a reshuffle never hands it back.
        s.discard = [*s.discard, JOKER]

    def _draw(self, s: TabooState, events: list[Event]) -> Card | None:
        """Top card of the stock, reshuffling the discard pile into a new stock if needed."""
        if not s.stock:
            if not s.discard:
                return None
            self._reshuffle(s, events)
        card = s.stock[-1]
        s.stock = s.stock[:-1]
        return card

    def _reshuffle(self, s: TabooState, events: list[Event]) -> None:
        stock = s.discard[:]  # the discard list may be shared with the previous state
        s.discard = []
        s.next_rng().shuffle(stock)
        s.stock = stock
        s.reshuffles += 1
        events.append(public("reshuffle", f"The discard pile ({len(stock)} cards) is "
                             "shuffled into a new stock.", size=len(stock)))

    def _restock(self, s: TabooState, events: list[Event]) -> None:
        """Seed 9: once the stock is used up, the discard pile is shuffled into a new stock
        (right away, so the stock is never seen empty while the discard pile has cards)."""
        if not s.stock and s.discard and s.phase != OVER:
            self._reshuffle(s, events)

    @staticmethod
    def _add_to_hand(s: TabooState, seat: int, card: Card) -> None:
        """Insert `card` after the equal and lower cards (the hand stays sorted)."""
        hand = s.hands[seat]
        rank, suit = card.rank, card.suit  # Card order, without a Card.__lt__ call per card
        i = len(hand)
        while i > 0:
            held = hand[i - 1]
            if rank > held.rank or (rank == held.rank and suit >= held.suit):
                break
            i -= 1
        hand = hand[:]
        hand.insert(i, card)
        s.hands[seat] = hand

    def _draw_step(self, s: TabooState, seat: int, events: list[Event]) -> None:
        card = self._draw(s, events)
        empty = s.phase == EMPTY
        if card is None:
            s.drawn = None
            s.phase = PLACE
            events.append(public("draw_skipped", f"Stock and discard pile are empty: {{P{seat}}} "
                                 "cannot draw and must place a hand card.", seat=seat))
            return
        self._add_to_hand(s, seat, card)
        s.drawn = card
        s.phase = PLACE if empty else USE
        events.extend(_drew_events(seat, card.rank, card.suit,
                                   _FOLLOW_EMPTY if empty else _FOLLOW_USE))

    def _place(self, s: TabooState, seat: int, card: Card, events: list[Event]) -> None:
        self._take_from_hand(s, seat, card)
        s.row = [*s.row, card]
        self._show(s, [lab(card)])
        events.append(_place_event(seat, card.rank, card.suit))

    def _end_turn(self, s: TabooState, seat: int, events: list[Event]) -> None:
        s.drawn = None
        if not s.hands[seat]:
            s.finisher = seat
            self._finish(s, events, f"{{P{seat}}} played their last card.")
            return
        s.turns += 1
        if s.turns >= s.options.max_turns:
            s.capped = True
            self._finish(s, events, f"The {s.options.max_turns}-turn safety cap was reached.")
            return
        s.current = (seat + 1) % s.n
        s.phase = TURN if s.row else EMPTY
        if not s.row:
            events.append(_empty_row_event(s.current))

    def _finish(self, s: TabooState, events: list[Event], reason: str) -> None:
        s.phase = OVER
        for hand in s.hands:
            self._show(s, labels_of(hand))
        result = self.outcome(s)
        assert result is not None
        lines = ", ".join(f"{{P{k}}} {result.scores[k]:g}" for k in range(s.n))
        events.append(public("game_over", f"Game over. {reason} Scores: {lines}.",
                             scores={str(k): v for k, v in result.scores.items()},
                             winners=sorted(result.winners), reason=reason))

    # ---- results ------------------------------------------------------------------------
    def score(self, state: TabooState, seat: int) -> int:
        """Points pile minus hand (used for the final result and the AI)."""
        return (sum(VALUE[c.rank] for c in state.points[seat])
                - sum(VALUE[c.rank] for c in state.hands[seat]))

    def outcome(self, state: TabooState) -> Outcome | None:
        if state.phase != OVER:
            return None
        scores = {k: float(self.score(state, k)) for k in range(state.n)}
        best = max(scores.values())
        winners = frozenset(k for k, v in scores.items() if v == best)
        if state.capped:
            reason = (f"The {state.options.max_turns}-turn safety cap was reached: scored "
                      "as it stood.")
        elif state.finisher is not None and state.finisher >= 0:
            reason = f"{{P{state.finisher}}} played their last card."
        else:
            reason = "A player played their last card."
        return Outcome(scores, winners, reason)

    # ---- text ---------------------------------------------------------------------------
    @staticmethod
    def capture_text(state: TabooState, action: Capture) -> str:
        """"9♥ captures 2♣ + 7♦ (clears the row)": `capture_words` for the face-up cards this
        capture takes from the row as it is (values only if the row does not hold them)."""
        card = action.card
        v = VALUE[card.rank]
        try:
            single_idx, group_idx = resolve_capture(state.row, v, action.single, action.group)
        except IllegalActionError:
            group = [str(x) for x in action.group[::-1]]
            return capture_words(str(card), str(v) if action.single else None, group)
        row = state.row
        clears = len(single_idx) + len(group_idx) == len(row)
        return capture_words(str(card), str(row[single_idx[0]]) if single_idx else None,
                             [str(row[i]) for i in reversed(group_idx)], clears=clears)

    def describe(self, state: TabooState, action: Action) -> str:
        kind = getattr(action, "kind", None)
        if kind == "capture":
            return self.capture_text(state, action)  # type: ignore[arg-type]
        if kind == "jack":
            return "Jack: clear the row to the discard pile"
        if kind == "joker":
            return "Joker: everyone else draws a card"
        if kind == "draw":
            return "Draw the top card of the stock"
        if kind == "place":
            return f"Place {action.card} face up"  # type: ignore[union-attr]
        return str(action)

    def menu_path(self, state: TabooState, action: Action) -> tuple[str, ...]:
        kind = action.kind
        if kind == "capture":
            cap: Capture = action  # type: ignore[assignment]
            return ("Capture", str(cap.card), self.capture_text(state, cap))
        if kind == "place":
            return ("Place", str(action.card))  # type: ignore[union-attr]
        if kind == "jack":
            return ("Jack (clear the row)",)
        if kind == "joker":
            return ("Joker (others draw)",)
        return ("Draw",)

    # ---- typed commands -------------------------------------------------------------------
    def find_capture(self, state: TabooState, seat: int, card: str,
                     take: str | None = None) -> Capture:
        """The legal Capture meant by `/taboo play card: take:`.

        `card` is a card ("7♠", "7s") or just a value ("7", "Q"); `take` reads like the log:
        "7", "(3,4)", "7 + (3,4)", or plain "7+3+4" / "3 4". Without `take`, the best capture of
        that card (clearing the row first, then the largest) is chosen.
        Raises InvalidActionError for unreadable text, IllegalActionError for no such capture.
        """
        want_value: int | None = None
        want_card: Card | None = None
        text = card.strip()
        if text.upper() in _VALUE_WORDS:
            want_value = _VALUE_WORDS[text.upper()]
        else:
            want_card = Card.parse(text)
        caps = [a for a in self.legal_actions(state, seat) if isinstance(a, Capture)
                and (a.card == want_card if want_card is not None
                     else VALUE[a.card.rank] == want_value)]
        if not caps:
            raise IllegalActionError("That card cannot capture anything right now.")
        if take is None or not take.strip():
            return caps[0]
        v = VALUE[caps[0].card.rank]
        single, group = _parse_take(take, v)
        for a in caps:
            if a.single == single and a.group == group:
                return a
        raise IllegalActionError("That capture is not possible (check the values in the row).")

    # ---- timer and AI -------------------------------------------------------------------
    def default_action(self, state: TabooState, seat: int) -> Action:
        """Clear the row if a capture can; otherwise draw; when placing, the lowest card."""
        legal = self.legal_actions(state, seat)
        if not legal:
            raise IllegalActionError("That seat has nothing to do.")
        best: Capture | None = None
        best_pts = -1
        for a in legal:
            if a.kind == "capture":
                cap: Capture = a  # type: ignore[assignment]
                if int(cap.single) + len(cap.group) == len(state.row):
                    pts = VALUE[cap.card.rank] + sum(cap.group) + (
                        VALUE[cap.card.rank] if cap.single else 0)
                    if pts > best_pts:
                        best, best_pts = cap, pts
        if best is not None:
            return best
        if _DRAW in legal:
            return _DRAW
        places = [a for a in legal if a.kind == "place"]
        return min(places, key=lambda a: (VALUE[a.card.rank], a.card))  # type: ignore

    # ---- hidden information ---------------------------------------------------------------
    def determinize(self, state: TabooState, seat: int, rng: random.Random) -> TabooState:
        """Shuffle every card `seat` cannot see (other hands, stock) and deal them back."""
        s = state.clone()
        # Once the game is over every hand is shown; only the stock stays hidden.
        others = [k for k in range(s.n) if k != seat and s.phase != OVER]
        pool = list(s.stock)
        for k in others:
            pool.extend(s.hands[k])
        rng.shuffle(pool)
        pos = 0
        for k in others:
            size = len(s.hands[k])
            s.hands[k] = sorted(pool[pos:pos + size])
            pos += size
        s.stock = pool[pos:]
        if s.drawn is not None and s.current != seat and s.phase != OVER:
            s.drawn = rng.choice(s.hands[s.current])
        # The order of a later reshuffle of the discard pile is hidden too: with the real
        # seed a search that plays past a reshuffle would know the new stock's order.
        s.seed = rng.randrange(2**62)
        s.rng_counter = 0
        return s

    def secret_labels(self, state: TabooState, seat: int | None) -> frozenset[str]:
        hidden = {str(c) for c in state.stock}
        for k in range(state.n):
            if k != seat:
                hidden.update(str(c) for c in state.hands[k])
        if seat is not None:
            hidden.difference_update(str(c) for c in state.hands[seat])
        for zone in (state.row, state.discard, *state.points):
            hidden.difference_update(str(c) for c in zone)
        return frozenset(hidden - state.shown)

    # ---- views ----------------------------------------------------------------------------
    @staticmethod
    def _card_view(card: Card) -> dict:
        return {"card": str(card), "code": card.code, "value": VALUE[card.rank],
                "special": "jack" if card.rank == JACK_RANK else "joker" if card.rank == 0
                else None}

    def view(self, state: TabooState, seat: int | None) -> dict:
        over = state.phase == OVER
        out: dict = {
            "game": self.name,
            "players": state.n,
            "dealer": state.dealer,
            "current": None if over else state.current,
            "phase": state.phase,
            "turn": state.turns + (0 if over else 1),
            "max_turns": state.options.max_turns,
            "decks": 2 if state.n >= state.options.two_decks_from else 1,
            "row": [dict(self._card_view(c), index=i) for i, c in enumerate(state.row)],
            "row_total": sum(VALUE[c.rank] for c in state.row),
            # values of a hand card that would take the whole row (a hint for the board)
            "row_clears_with": sorted(clearing_values([VALUE[c.rank] for c in state.row])),
            "stock_size": len(state.stock),
            "discard_size": len(state.discard),
            "discard_top": str(state.discard[-1]) if state.discard else None,
            "reshuffles": state.reshuffles,
            "hand_sizes": [len(h) for h in state.hands],
            "points": [{"cards": [str(c) for c in p], "total": sum(VALUE[c.rank] for c in p)}
                       for p in state.points],
            "you": seat,
        }
        if seat is not None:
            hand = state.hands[seat]
            out["hand"] = [self._card_view(c) for c in hand]
            out["hand_total"] = sum(VALUE[c.rank] for c in hand)
            out["score_now"] = self.score(state, seat)
            if not over and seat == state.current and state.drawn is not None:
                out["drawn"] = str(state.drawn)
        if over:
            result = self.outcome(state)
            assert result is not None
            out["final_hands"] = [[str(c) for c in h] for h in state.hands]
            out["outcome"] = {"scores": [result.scores[k] for k in range(state.n)],
                              "winners": sorted(result.winners), "reason": result.reason}
        return out

    # ---- persistence ----------------------------------------------------------------------
    def dump(self, state: TabooState) -> str:
        def codes(cards: list[Card]) -> list[str]:
            return [c.code for c in cards]

        return json.dumps({
            "n": state.n, "seed": state.seed, "rng_counter": state.rng_counter,
            "options": state.options.model_dump(),
            "hands": [codes(h) for h in state.hands], "row": codes(state.row),
            "stock": codes(state.stock), "discard": codes(state.discard),
            "points": [codes(p) for p in state.points], "dealer": state.dealer,
            "current": state.current, "phase": state.phase,
            "drawn": state.drawn.code if state.drawn is not None else None,
            "turns": state.turns, "reshuffles": state.reshuffles, "finisher": state.finisher,
            "capped": state.capped, "shown": sorted(state.shown),
        }, ensure_ascii=False, sort_keys=True)

    def load(self, text: str) -> TabooState:
        d = json.loads(text)

        def cards(codes: list[str]) -> list[Card]:
            return [_ALL_CARDS[c] for c in codes]

        return TabooState(
            n=d["n"], seed=d["seed"], rng_counter=d["rng_counter"],
            options=self.Options.model_validate(d["options"]),
            hands=[cards(h) for h in d["hands"]], row=cards(d["row"]), stock=cards(d["stock"]),
            discard=cards(d["discard"]), points=[cards(p) for p in d["points"]],
            dealer=d["dealer"], current=d["current"], phase=d["phase"],
            drawn=_ALL_CARDS[d["drawn"]] if d["drawn"] else None, turns=d["turns"],
            reshuffles=d["reshuffles"], finisher=d["finisher"], capped=d["capped"],
            shown=frozenset(d["shown"]))


ENGINE = TabooEngine()
