"""Suit Taboo (with the optional "Taboo on the Wire" roles): the pure rules engine.

Each player secretly holds a role card (an ace or the joker) and tries to stay unexposed while
casting "doubts" (cards) at the others from a face-up catapult. The rules are the seed text
(seeds/suit_taboo.txt) as decided by RULINGS.md; see data/suit_taboo/rules.md for the summary
players read. The AI lives in `engines.suit_taboo.ai` to keep this module about rules only.

Design notes (why the state looks like this):
- Every card remembers which seats have ever seen it (`seen` bit masks, PUBLIC bit for
  everyone). That is exactly what `secret_labels` needs and costs one int per card.
- Doubts are stored with their sender and whether they came from the open cards, so a view and
  `determinize` know precisely who knows which doubt.
- Cards in a hand that were taken from the open row are publicly known (`known`), and the
  public `built` list of catapult suits is what lets players (and the AI) rule roles out.
"""

from __future__ import annotations

import itertools
import json
import pathlib
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import Field

from engines.ai_levels import AiLevel, ai_level_field
from engines.cards import JOKER, SUIT_NAMES, SUIT_SYMBOLS, SUITS, Card
from engines.core import (
    Engine,
    Event,
    GameOptions,
    GameOverError,
    IllegalActionError,
    NotYourTurnError,
    Outcome,
    SeededState,
    Step,
    is_listed,
    private,
    public,
)

T = TypeVar("T")
DATA_DIR = pathlib.Path(__file__).resolve().parents[2] / "data" / "suit_taboo"
PUBLIC = 1 << 6  # bit in `seen` for "shown to everyone"; seats use bits 0..4
ROLE_CARDS: tuple[Card, ...] = (*(Card(1, s) for s in SUITS), JOKER)
PLAY_CARDS: tuple[Card, ...] = tuple(Card(r, s) for s in SUITS for r in range(2, 14))
ALL_CARDS: tuple[Card, ...] = (*PLAY_CARDS, *ROLE_CARDS)
CARD_INDEX: dict[Card, int] = {c: i for i, c in enumerate(ALL_CARDS)}
LABEL: dict[Card, str] = {c: str(c) for c in ALL_CARDS}  # str(card) is slow in hot paths
CODE: dict[Card, str] = {c: c.code for c in ALL_CARDS}
BLACK_ACES = ("s", "c")
HAND_LIMIT = 5


def _by_suit_rank(cards: Sequence[Card], value: Callable[[Card], T]) -> dict[str, dict[int, T]]:
    """`table[card.suit][card.rank]` for each of `cards`.

    Card is a dataclass whose `__hash__` runs in Python, so a dict keyed by Card costs a
    Python call per lookup; the hot paths (every move of every playout) look cards up by
    their suit (str) and rank (int) instead, which hash in C. Cards outside `cards` raise
    KeyError, as the Card-keyed tables do.
    """
    table: dict[str, dict[int, T]] = {}
    for card in cards:
        table.setdefault(card.suit, {})[card.rank] = value(card)
    return table


_INDEX = _by_suit_rank(ALL_CARDS, CARD_INDEX.__getitem__)  # position in `seen`
_LABEL = _by_suit_rank(ALL_CARDS, LABEL.__getitem__)
_CODE = _by_suit_rank(ALL_CARDS, CODE.__getitem__)


def _label(card: Card) -> str:
    """str(card) (e.g. "10♥"), read from a table: Card.__str__ is slow in hot paths."""
    return _LABEL[card.suit][card.rank]


def _labels(cards: Sequence[Card]) -> list[str]:
    return [_LABEL[c.suit][c.rank] for c in cards]


def _code(card: Card) -> str:
    """card.code (e.g. "10h"), read from a table."""
    return _CODE[card.suit][card.rank]


def rules_markdown() -> str:
    """The players' rules summary (read on demand by the bot's `/suittaboo rules`)."""
    return (DATA_DIR / "rules.md").read_text(encoding="utf-8")


def penalty(card: Card) -> int:
    """Penalty of a rightful doubt: 2 for a face card, 1 for 2-10."""
    return 2 if card.rank >= 11 else 1


def wire_role(role: Card) -> str:
    """Role name in "Taboo on the Wire"."""
    if role.is_joker:
        return "McNulty"
    return "bad guy" if role.suit in BLACK_ACES else "detective"


def role_name(role: Card) -> str:
    return "the joker" if role.is_joker else f"the ace of {SUIT_NAMES[role.suit]}"


# --------------------------------------------------------------------------- options
class SuitTabooOptions(GameOptions):
    wins_needed: int = Field(2, ge=2, le=3, description="Round wins needed to win the match "
                             "(players reaching it in the same round all win).")
    wire: bool = Field(False, description="Taboo on the Wire: black aces are bad guys, red aces "
                       "detectives, the joker is McNulty who must name the bad guys.")
    max_reshuffles: int | None = Field(None, ge=0, le=50, description="Times a round may "
                                       "shuffle the dump into a new deck; after that, end mode "
                                       "starts when the deck runs out (off = no limit).")
    max_turns_per_round: int = Field(400, ge=60, le=2000, description="Safety cap: a round "
                                     "that reaches this many turns ends at once and is scored "
                                     "as it stands (so endless pick-and-build loops can't "
                                     "stall a game).")
    max_rounds: int = Field(12, ge=3, le=40, description="Safety cap on rounds: after this many "
                            "rounds the match ends and the most round wins take it.")
    ai_level: AiLevel = ai_level_field()


# --------------------------------------------------------------------------- actions
@dataclass(frozen=True, slots=True)
class Pick:
    """Take the top of the deck (`card=None`) or the named open card."""

    card: Card | None = None
    kind: str = "pick"


@dataclass(frozen=True, slots=True)
class Build:
    """Put a hand card face up as the new catapult."""

    card: Card
    kind: str = "build"


@dataclass(frozen=True, slots=True)
class Cast:
    """Shoot doubts: `shots` = ((card, target seat), ...) sorted by card.

    `mode` is "suit" (one card of the catapult's suit) or "number" (1-3 of its number). Each
    card is either in the shooter's hand or among the open cards (the state says which).
    """

    mode: str
    shots: tuple[tuple[Card, int], ...]
    kind: str = "cast"


@dataclass(frozen=True, slots=True)
class DropOut:
    """End mode only: dump the hand and an unused catapult, and stop playing this round."""

    kind: str = "drop"


@dataclass(frozen=True, slots=True)
class Accuse:
    """McNulty names the holder of one black ace (`target=None`: out of play)."""

    suit: str
    target: int | None
    kind: str = "accuse"


Action = Pick | Build | Cast | DropOut | Accuse

# Interned action objects: frozen dataclasses are slow to build and legal_actions runs on
# every step of every playout, so the common actions are made once.
PICK_DECK = Pick(None)
DROP_OUT = DropOut()
SEATS = range(5)  # every seat index a table can have
_PICK = _by_suit_rank(PLAY_CARDS, Pick)
_BUILD = _by_suit_rank(PLAY_CARDS, Build)
# one-shot casts, indexed by target seat
_SUIT_CAST = _by_suit_rank(PLAY_CARDS, lambda c: tuple(Cast("suit", ((c, t),)) for t in SEATS))
_NUMBER_CAST = _by_suit_rank(PLAY_CARDS,
                             lambda c: tuple(Cast("number", ((c, t),)) for t in SEATS))
# _ONLY[seat] == frozenset((seat,)): made once, as to_act and private events need one per step
_ONLY = tuple(frozenset((seat,)) for seat in SEATS)
# _OTHERS[n][seat]: the seats a player can shoot at, in seat order
_OTHERS: dict[int, tuple[tuple[int, ...], ...]] = {
    n: tuple(tuple(t for t in range(n) if t != seat) for seat in range(n))
    for n in range(1, len(SEATS) + 1)
}


# --------------------------------------------------------------------------- state
@dataclass(slots=True, eq=False)
class SuitTabooState(SeededState):
    n: int
    seed: int
    rng_counter: int
    options: SuitTabooOptions
    round_no: int = 0
    dealer: int = 0
    wins: list[int] = field(default_factory=list)
    roles: list[Card] = field(default_factory=list)
    out_roles: list[Card] = field(default_factory=list)
    deck: list[Card] = field(default_factory=list)  # top = last
    dump: list[Card] = field(default_factory=list)
    open: list[Card] = field(default_factory=list)
    hands: list[list[Card]] = field(default_factory=list)
    known: list[list[Card]] = field(default_factory=list)  # hand cards taken from open
    catapult: list[Card | None] = field(default_factory=list)
    shields: list[list[Card]] = field(default_factory=list)
    doubts: list[list[tuple[Card, int, bool]]] = field(default_factory=list)  # card, from, open
    built: list[list[str]] = field(default_factory=list)  # catapult suits, this round
    status: list[str] = field(default_factory=list)  # active / stuck / dropped / done
    current: int = 0
    turns: int = 0
    reshuffles: int = 0
    end_mode: bool = False
    phase: str = "play"  # play / accuse / over
    accusations: list[tuple[str, int | None]] = field(default_factory=list)
    seen: list[int] = field(default_factory=list)
    last_round: dict | None = None
    reason: str = ""
    winners: list[int] = field(default_factory=list)
    # Unused by the engine (apply checks a move directly, legal_actions lists afresh); kept
    # because callers that edit a state by hand reset it.
    cache: dict = field(default_factory=dict, repr=False)

    def clone(self) -> SuitTabooState:
        # Bypasses the dataclass __init__ (default factories cost more than the copy itself).
        # Shared, copy-on-write (the engine replaces them, never edits them in place):
        # - inner per-seat lists: `apply` copies the acting seat's hand and known cards, and
        #   every other per-seat list is replaced;
        # - the per-seat lists a move changes at most one or two entries of (catapult,
        #   shields, doubts, built, status): changed with `_replaced`, so a move copies only
        #   the ones it changes;
        # - the lists that change at most once a round (wins, roles, out_roles, accusations,
        #   winners), which a move would otherwise copy for nothing.
        c = object.__new__(SuitTabooState)
        c.n, c.seed, c.rng_counter, c.options = self.n, self.seed, self.rng_counter, self.options
        c.round_no, c.dealer, c.wins = self.round_no, self.dealer, self.wins
        c.roles, c.out_roles = self.roles, self.out_roles
        # list.copy(), not [:]: slicing builds a slice object and costs about three times more
        c.deck, c.dump, c.open = self.deck.copy(), self.dump.copy(), self.open.copy()
        c.hands = self.hands.copy()
        c.known = self.known.copy()
        c.catapult, c.shields, c.doubts = self.catapult, self.shields, self.doubts
        c.built, c.status = self.built, self.status
        c.current, c.turns = self.current, self.turns
        c.reshuffles, c.end_mode, c.phase = self.reshuffles, self.end_mode, self.phase
        c.accusations, c.seen = self.accusations, self.seen.copy()
        c.last_round, c.reason, c.winners = self.last_round, self.reason, self.winners
        c.cache = {}
        return c

    def joker_seat(self) -> int | None:
        for seat, role in enumerate(self.roles):
            if role.is_joker:
                return seat
        return None


def _replaced(items: list[T], index: int, value: T) -> list[T]:
    """A copy of `items` with `items[index] = value`: how the engine changes the lists that
    `clone` shares between states (they are never edited in place)."""
    new = items.copy()
    new[index] = value
    return new


def _see(s: SuitTabooState, card: Card, bits: int) -> None:
    s.seen[_INDEX[card.suit][card.rank]] |= bits


def _bit(seat: int) -> int:
    return 1 << seat


# --------------------------------------------------------------------------- the engine
class SuitTabooEngine(Engine[SuitTabooState, Action]):
    name = "suit_taboo"
    title = "Suit Taboo"
    min_players = 3
    max_players = 5
    Options = SuitTabooOptions

    # ---- setup ---------------------------------------------------------------------------
    def new_game(self, n_players: int, seed: int, options: Any = None) -> SuitTabooState:
        if not self.min_players <= n_players <= self.max_players:
            raise ValueError(f"Suit Taboo needs 3 to 5 players, not {n_players}.")
        opts = self.parse_options(options)
        s = SuitTabooState(n_players, seed, 0, opts)  # type: ignore[arg-type]
        s.wins = [0] * n_players
        s.seen = [0] * len(ALL_CARDS)
        s.dealer = s.next_rng().randrange(n_players)
        self._deal(s, [])
        return s

    def _deal(self, s: SuitTabooState, events: list[Event]) -> None:
        """Start a round: roles from the suit deck, 2 hand cards each, 2 open cards."""
        n = s.n
        s.round_no += 1
        roles = list(ROLE_CARDS)
        s.next_rng().shuffle(roles)
        s.roles, s.out_roles = roles[:n], roles[n:]
        deck = list(PLAY_CARDS)
        s.next_rng().shuffle(deck)
        s.deck, s.dump, s.open = deck, [], []
        s.hands = [[] for _ in range(n)]
        s.known = [[] for _ in range(n)]
        s.catapult = [None] * n
        s.shields = [[] for _ in range(n)]
        s.doubts = [[] for _ in range(n)]
        s.built = [[] for _ in range(n)]
        s.status = ["active"] * n
        s.turns = s.reshuffles = 0
        s.end_mode = False
        s.phase = "play"
        s.accusations = []
        starter = (s.dealer + 1) % n
        events.append(public("round_start", f"Round {s.round_no}: {{P{s.dealer}}} deals, "
                             f"{{P{starter}}} starts.", round=s.round_no, dealer=s.dealer,
                             starter=starter))
        for seat in range(n):
            role = s.roles[seat]
            _see(s, role, _bit(seat))
            extra = f" ({wire_role(role)})" if s.options.wire else ""
            events.append(private(seat, "role", f"Your role for round {s.round_no}: "
                                  f"{_label(role)}{extra}.",
                                  role=_code(role), wire_role=wire_role(role)
                                  if s.options.wire else None))
        for seat in range(n):
            for _ in range(2):
                card = s.deck.pop()
                s.hands[seat].append(card)
                _see(s, card, _bit(seat))
            events.append(private(seat, "deal", f"Your cards for round {s.round_no}: "
                                  f"{', '.join(_labels(s.hands[seat]))}.",
                                  cards=[_code(c) for c in s.hands[seat]]))
        for _ in range(2):
            card = s.deck.pop()
            s.open.append(card)
            _see(s, card, PUBLIC)
        events.append(public("open_cards", f"Open cards: {', '.join(_labels(s.open))}.",
                             cards=[_code(c) for c in s.open]))
        s.current = s.dealer
        self._advance(s, events)

    # ---- turn order ----------------------------------------------------------------------
    def to_act(self, state: SuitTabooState) -> frozenset[int]:
        if state.phase == "play":
            return _ONLY[state.current]
        if state.phase == "accuse":
            seat = state.joker_seat()
            return frozenset() if seat is None else _ONLY[seat]
        return frozenset()

    def _has_action(self, s: SuitTabooState, seat: int) -> bool:
        """Cheap test for "not stuck" (the same rules legal_actions enumerates).

        Plain loops: this runs once or twice per move, and generator expressions with
        itertools.chain cost more than the tests themselves."""
        if s.end_mode:
            return True  # Drop out is always possible in end mode
        hand = s.hands[seat]
        if len(hand) < HAND_LIMIT and (s.deck or s.open):
            return True
        role = s.roles[seat]
        own = None if role.is_joker else role.suit
        for c in hand:
            if c.suit != own:
                return True  # a card to build with
        cat = s.catapult[seat]
        if cat is not None:
            csuit, crank = cat.suit, cat.rank
            for cards in (hand, s.open):
                for c in cards:
                    if c.suit == csuit or c.rank == crank:
                        return True
        return False

    def _advance(self, s: SuitTabooState, events: list[Event]) -> None:
        """Pass the turn clockwise, skipping (and marking) stuck or finished players."""
        if s.turns >= s.options.max_turns_per_round:
            events.append(public("turn_cap", f"The round reached the safety cap of "
                                 f"{s.options.max_turns_per_round} turns and ends now.",
                                 cap=s.options.max_turns_per_round))
            self._finish_round(s, events, capped=True)
            return
        n = s.n
        for i in range(1, n + 1):
            seat = (s.current + i) % n
            if s.status[seat] != "active":
                continue
            if s.end_mode and not s.hands[seat] and not s.open:
                s.status = _replaced(s.status, seat, "done")
                if s.catapult[seat] is not None:
                    s.dump.append(s.catapult[seat])  # type: ignore[arg-type]
                    s.catapult = _replaced(s.catapult, seat, None)
                events.append(public("done", f"{{P{seat}}} has no cards and nothing to pick: "
                                     "done for this round.", seat=seat))
                continue
            if not self._has_action(s, seat):
                self._mark_stuck(s, seat, events)
                continue
            s.current = seat
            return
        self._finish_round(s, events, capped=False)

    def _mark_stuck(self, s: SuitTabooState, seat: int, events: list[Event]) -> None:
        s.status = _replaced(s.status, seat, "stuck")
        events.append(public("stuck", f"{{P{seat}}} has no legal move and sits out the rest "
                             "of the round.", seat=seat))

    # ---- deck handling -------------------------------------------------------------------
    def _draw(self, s: SuitTabooState, events: list[Event]) -> Card | None:
        if not s.deck:
            return None
        card = s.deck.pop()
        if not s.deck:
            self._deck_ran_out(s, events)
        return card

    def _deck_ran_out(self, s: SuitTabooState, events: list[Event]) -> None:
        if s.end_mode:
            return
        cap = s.options.max_reshuffles
        if s.dump and (cap is None or s.reshuffles < cap):
            s.deck, s.dump = s.dump, []
            s.next_rng().shuffle(s.deck)
            s.reshuffles += 1
            events.append(public("reshuffle", f"The deck ran out: the dump ({len(s.deck)} "
                                 "cards) is shuffled into a new deck.", size=len(s.deck),
                                 reshuffles=s.reshuffles))
            return
        s.end_mode = True
        why = ("the reshuffle limit is reached" if s.dump else "the dump is empty too")
        events.append(public("end_mode", f"The deck ran out and {why}: end mode. No more "
                             "reshuffles; open cards can still be picked and anyone may drop "
                             "out.", reason=why))

    def _refill_open(self, s: SuitTabooState, events: list[Event]) -> None:
        new = []
        while len(s.open) < 2 and not s.end_mode:
            card = self._draw(s, events)
            if card is None:
                break
            s.open.append(card)
            _see(s, card, PUBLIC)
            new.append(card)
        if new:
            events.append(Event("open_refill", f"New open card{'s' if len(new) > 1 else ''}: "
                                f"{', '.join(_labels(new))}.", None,
                                {"cards": [_code(c) for c in new]}))

    # ---- legal actions -------------------------------------------------------------------
    def legal_actions(self, state: SuitTabooState, seat: int) -> list[Action]:
        s = state
        if s.phase != "play":
            if s.phase == "accuse" and seat in self.to_act(s):
                return self._accusations(s)
            return []
        if seat not in _ONLY[s.current]:  # to_act, inline: this runs on every step
            return []
        out: list[Action] = []
        hand = s.hands[seat]
        if len(hand) < HAND_LIMIT:
            if s.deck:
                out.append(PICK_DECK)
            for c in s.open:
                out.append(_PICK[c.suit][c.rank])
        role = s.roles[seat]
        own = None if role.is_joker else role.suit
        for c in hand:
            if c.suit != own:
                out.append(_BUILD[c.suit][c.rank])
        cat = s.catapult[seat]
        if cat is not None:
            others = _OTHERS[s.n][seat]
            csuit, crank = cat.suit, cat.rank
            same = []
            for cards in (hand, s.open):
                for c in cards:
                    if c.suit == csuit:
                        casts = _SUIT_CAST[c.suit][c.rank]
                        for t in others:
                            out.append(casts[t])
                    if c.rank == crank:
                        same.append(c)
            if same:
                self._number_casts(same, others, out)
        if s.end_mode:
            out.append(DROP_OUT)
        return out

    @staticmethod
    def _number_casts(same: list[Card], others: tuple[int, ...], out: list[Action]) -> None:
        """Append every same-number cast: 1-3 of the `same` cards (ordered as ALL_CARDS
        lists them), each at any other seat."""
        same.sort(key=lambda c: _INDEX[c.suit][c.rank])
        for c in same:
            casts = _NUMBER_CAST[c.suit][c.rank]
            for t in others:
                out.append(casts[t])
        for k in range(2, min(3, len(same)) + 1):
            for combo in itertools.combinations(same, k):
                for targets in itertools.product(others, repeat=k):
                    out.append(Cast("number", tuple(zip(combo, targets, strict=True))))

    def _accusations(self, s: SuitTabooState) -> list[Action]:
        """RULINGS: McNulty names, for each black ace, a player or "out of play". Any naming
        is allowed, in either order (a wrong or impossible one simply loses him the round)."""
        done = {suit for suit, _ in s.accusations}
        out: list[Action] = []
        for suit in BLACK_ACES:
            if suit not in done:
                out.extend(Accuse(suit, t) for t in range(s.n))
                out.append(Accuse(suit, None))
        return out

    # ---- apply ---------------------------------------------------------------------------
    def apply(self, state: SuitTabooState, seat: int, action: Action) -> Step[SuitTabooState]:
        if state.phase == "over":
            raise GameOverError("The game is over.")
        if seat != (state.current if state.phase == "play" else state.joker_seat()):
            raise NotYourTurnError("It is not your turn.")
        kind = type(action)
        check = _PLAY_CHECKS.get(kind) if state.phase == "play" else None
        if check is not None:
            # Validated directly: regenerating every legal action (and comparing dataclasses
            # against each) cost more than the move itself. Each check accepts exactly the
            # actions of its type that `legal_actions` lists.
            if kind is Cast:
                action = _canonical_cast(action)  # type: ignore[arg-type]
            ok = check(state, seat, action)
        else:
            # anything else (the accusation phase, other types) is looked up in the full list
            if isinstance(action, Cast):
                action = _canonical_cast(action)
            ok = is_listed(action, self.legal_actions(state, seat))
        if not ok:
            raise IllegalActionError("That move is not allowed right now.")
        s = state.clone()
        s.hands[seat] = s.hands[seat].copy()
        s.known[seat] = s.known[seat].copy()
        events: list[Event] = []
        if isinstance(action, Accuse):
            self._do_accuse(s, seat, action, events)
        else:
            if isinstance(action, Pick):
                self._do_pick(s, seat, action, events)
            elif isinstance(action, Build):
                self._do_build(s, seat, action, events)
            elif isinstance(action, Cast):
                self._do_cast(s, seat, action, events)
            else:
                self._do_drop(s, seat, events)
            if s.status[seat] == "active" and not self._has_action(s, seat):
                # filled the hand with the own suit (unfitting catapult): out at once, as the
                # seed's player would declare it now, not only when the turn comes round
                self._mark_stuck(s, seat, events)
            s.turns += 1
            self._advance(s, events)
        return Step(s, tuple(events))

    def _do_pick(self, s: SuitTabooState, seat: int, a: Pick, events: list[Event]) -> None:
        if a.card is None:
            card = self._draw(s, events)
            assert card is not None
            s.hands[seat].append(card)
            _see(s, card, _bit(seat))
            events.append(Event("drew", f"You drew {_label(card)}.", _ONLY[seat],
                                {"card": _code(card)}))
            events.append(Event("pick", f"{{P{seat}}} picked the top card of the deck.", None,
                                {"seat": seat, "source": "deck"}))
            return
        s.open.remove(a.card)
        s.hands[seat].append(a.card)
        s.known[seat].append(a.card)
        events.append(Event("pick", f"{{P{seat}}} took the open card {_label(a.card)}.", None,
                            {"seat": seat, "source": "open", "card": _code(a.card)}))
        self._refill_open(s, events)

    def _do_build(self, s: SuitTabooState, seat: int, a: Build, events: list[Event]) -> None:
        self._remove_from_hand(s, seat, a.card)
        old = s.catapult[seat]
        s.catapult = _replaced(s.catapult, seat, a.card)
        s.built = _replaced(s.built, seat, [*s.built[seat], a.card.suit])
        _see(s, a.card, PUBLIC)
        text = f"{{P{seat}}} built a catapult: {_label(a.card)}"
        if old is not None:
            s.dump.append(old)
            text += f" (the old {_label(old)} goes to the dump)"
        events.append(Event("build", text + ".", None, {"seat": seat, "card": _code(a.card),
                                                         "old": _code(old) if old else None}))

    def _do_cast(self, s: SuitTabooState, seat: int, a: Cast, events: list[Event]) -> None:
        cat = s.catapult[seat]
        assert cat is not None
        parts, secret_parts, open_codes = [], [], []
        used_open = False
        for card, target in a.shots:
            label = _label(card)
            from_open = card in s.open
            if from_open:
                s.open.remove(card)
                used_open = True
                open_codes.append(_code(card))
                parts.append(f"{label} (open) → {{P{target}}}")
            else:
                self._remove_from_hand(s, seat, card)
                parts.append(f"a hand card → {{P{target}}}")
                _see(s, card, _bit(target))
                events.append(Event("doubt_received", f"{{P{seat}}} cast {label} at you.",
                                    _ONLY[target], {"seat": seat, "card": _code(card)}))
            secret_parts.append(f"{label} → {{P{target}}}")
            s.doubts = _replaced(s.doubts, target, [*s.doubts[target], (card, seat, from_open)])
        s.catapult = _replaced(s.catapult, seat, None)
        if len(open_codes) < len(a.shots) and s.known[seat]:
            # A hand card went out face down: the others only know it fitted the catapult
            # (its suit, or its number), so a known card that fits may be the one that left.
            # Keeping it listed would tell them exactly which card the target received.
            s.known[seat] = [c for c in s.known[seat]
                             if not (c.rank == cat.rank if a.mode == "number"
                                     else c.suit == cat.suit)]
        cat_label = _label(cat)
        if a.mode == "number":
            s.shields = _replaced(s.shields, seat, [*s.shields[seat], cat])
            tail = f"The {cat_label} catapult becomes a shield."
        else:
            s.dump.append(cat)
            tail = f"The {cat_label} catapult goes to the dump."
        how = "same number" if a.mode == "number" else "same suit"
        events.append(Event("cast_detail", f"You cast ({how}): {', '.join(secret_parts)}.",
                            _ONLY[seat], {"seat": seat,
                                          "shots": [[_code(c), t] for c, t in a.shots]}))
        events.append(Event("cast", f"{{P{seat}}} cast with the {cat_label} catapult ({how}): "
                            f"{'; '.join(parts)}. {tail}", None,
                            {"seat": seat, "mode": a.mode, "catapult": _code(cat),
                             "targets": [t for _, t in a.shots], "open_cards": open_codes}))
        if used_open:
            self._refill_open(s, events)

    def _do_drop(self, s: SuitTabooState, seat: int, events: list[Event]) -> None:
        count = len(s.hands[seat])
        s.dump.extend(s.hands[seat])
        s.hands[seat] = []
        s.known[seat] = []
        if s.catapult[seat] is not None:
            s.dump.append(s.catapult[seat])  # type: ignore[arg-type]
            s.catapult = _replaced(s.catapult, seat, None)
        s.status = _replaced(s.status, seat, "dropped")
        events.append(public("drop", f"{{P{seat}}} drops out of the round "
                             f"({_plural(count, 'hand card')} to the dump).", seat=seat,
                             cards=count))

    def _remove_from_hand(self, s: SuitTabooState, seat: int, card: Card) -> None:
        s.hands[seat].remove(card)
        if card in s.known[seat]:
            s.known[seat].remove(card)

    # ---- accusation, reveal and scoring --------------------------------------------------
    def _finish_round(self, s: SuitTabooState, events: list[Event], capped: bool) -> None:
        s.reason = "turn cap" if capped else "everyone is done"
        joker = s.joker_seat()
        if s.options.wire and joker is not None:
            s.phase = "accuse"
            events.append(public("accuse_wait", f"Before the reveal, McNulty ({{P{joker}}}) "
                                 "names where each black ace is.", seat=joker))
            events.append(private(joker, "accuse_prompt", "You are McNulty: name the holder of "
                                  "each black ace (or say it is out of play).", seat=joker))
            return
        self._reveal(s, events)

    def _do_accuse(self, s: SuitTabooState, seat: int, a: Accuse, events: list[Event]) -> None:
        s.accusations = [*s.accusations, (a.suit, a.target)]  # shared: see clone
        who = "out of play" if a.target is None else f"held by {{P{a.target}}}"
        events.append(private(seat, "accuse", f"You say the ace of {SUIT_NAMES[a.suit]} is "
                              f"{who}.", suit=a.suit, target=a.target))
        if len(s.accusations) == len(BLACK_ACES):
            self._reveal(s, events)

    def _reveal(self, s: SuitTabooState, events: list[Event]) -> None:
        """Flip every history line, score the round, then deal again or end the match."""
        summary = score_round(s)
        for seat in range(s.n):
            _see(s, s.roles[seat], PUBLIC)
            for card, _, _ in s.doubts[seat]:
                _see(s, card, PUBLIC)
        for line in summary["players"]:
            events.append(Event("reveal", line["text"], None,
                                {k: v for k, v in line.items() if k != "text"}))
        if summary["accusations"] is not None:
            events.append(public("accusations", summary["accusation_text"],
                                 accusations=summary["accusations"]))
        winners = summary["winners"]
        s.wins = s.wins[:]  # shared with the state `apply` was given (see clone)
        for seat in winners:
            s.wins[seat] += 1
        wtext = _seats(winners) if winners else "nobody"
        ending = (f"it reached its {s.options.max_turns_per_round}-turn safety cap"
                  if s.reason == "turn cap" else "everyone is done")
        events.append(public("round_end", f"Round {s.round_no} ends: {ending}. Round "
                             f"{'winner' if len(winners) == 1 else 'winners'}: {wtext}.",
                             winners=winners, wins=s.wins[:], reason=s.reason))
        s.last_round = summary
        need = s.options.wins_needed
        champs = [seat for seat in range(s.n) if s.wins[seat] >= need]
        if champs:
            s.phase = "over"
            s.winners = champs
            # the winners by seat placeholder: every place showing a reason renders names
            s.reason = (f"{_seats(champs)} reached {need} round wins after "
                        f"{_plural(s.round_no, 'round')}")
            if summary["reason"] == "turn cap":
                s.reason += (f"; the last round stopped at its "
                             f"{s.options.max_turns_per_round}-turn safety cap")
        elif s.round_no >= s.options.max_rounds:
            s.phase = "over"
            best = max(s.wins)
            s.winners = [seat for seat in range(s.n) if best > 0 and s.wins[seat] == best]
            most = (f"the most round wins take the match ({_seats(s.winners)})" if s.winners
                    else "nobody won a round, so nobody wins")
            s.reason = (f"The {s.options.max_rounds}-round safety cap was reached without "
                        f"anyone winning {need} rounds: {most}")
        if s.phase == "over":
            events.append(public("match_end", f"The match is over. {s.reason}.",
                                 winners=s.winners, wins=s.wins[:]))
            return
        s.dealer = (s.dealer + 1) % s.n
        self._deal(s, events)

    # ---- outcome -------------------------------------------------------------------------
    def outcome(self, state: SuitTabooState) -> Outcome | None:
        if state.phase != "over":
            return None
        return Outcome({seat: float(w) for seat, w in enumerate(state.wins)},
                       frozenset(state.winners), state.reason)

    # ---- text ----------------------------------------------------------------------------
    def describe(self, state: SuitTabooState, action: Action) -> str:
        if isinstance(action, Pick):
            return ("Pick the top card of the deck" if action.card is None
                    else f"Pick the open card {action.card}")
        if isinstance(action, Build):
            return f"Build a catapult with {action.card}"
        if isinstance(action, Cast):
            how = "same number" if action.mode == "number" else "same suit"
            shots = ", ".join(f"{c}→{{P{t}}}" for c, t in action.shots)
            return f"Cast ({how}): {shots}"
        if isinstance(action, DropOut):
            return "Drop out of the round"
        if isinstance(action, Accuse):
            who = "out of play" if action.target is None else f"held by {{P{action.target}}}"
            return f"Ace of {SUIT_NAMES[action.suit]}: {who}"
        return str(action)

    def menu_path(self, state: SuitTabooState, action: Action) -> tuple[str, ...]:
        if isinstance(action, Pick):
            return ("Pick", "Top of the deck" if action.card is None
                    else f"Open card {action.card}")
        if isinstance(action, Build):
            return ("Build catapult", str(action.card))
        if isinstance(action, DropOut):
            return ("Drop out",)
        if isinstance(action, Accuse):
            who = "Out of play" if action.target is None else f"{{P{action.target}}}"
            return ("Accuse", f"Ace of {SUIT_NAMES[action.suit]} ({SUIT_SYMBOLS[action.suit]})",
                    who)
        if isinstance(action, Cast):
            cat = state.catapult[state.current]
            if action.mode == "number" and cat is not None:
                head = f"Same number ({cat.rank_label})"
            elif cat is not None:
                head = f"Same suit ({SUIT_SYMBOLS[cat.suit]})"
            else:
                head = action.mode
            ammo = " + ".join(f"{c} {'open' if c in state.open else 'hand'}"
                              for c, _ in action.shots)
            k = len(action.shots)
            if (state.n - 1) ** k <= 25:
                return ("Cast", head, ammo,
                        ", ".join(f"{c}→{{P{t}}}" for c, t in action.shots))
            return ("Cast", head, ammo, *(f"{c}→{{P{t}}}" for c, t in action.shots))
        return (self.describe(state, action),)

    # ---- defaults and AI -----------------------------------------------------------------
    def default_action(self, state: SuitTabooState, seat: int) -> Action:
        """Timer move: pick blind from the deck, else drop out, else the least revealing move."""
        legal = self.legal_actions(state, seat)
        if not legal:
            raise IllegalActionError("This seat has nothing to do.")
        if state.phase == "accuse":
            move = self.ai_timer_move(state, seat)
            return move if move is not None else legal[0]
        for a in legal:
            if isinstance(a, Pick) and a.card is None:
                return a
        for a in legal:
            if isinstance(a, DropOut):
                return a
        for a in legal:
            if isinstance(a, Cast) and a.mode == "number":
                return a
        builds = [a for a in legal if isinstance(a, Build)]
        if builds:
            mine = state.built[seat]
            return max(builds, key=lambda b: (mine.count(b.card.suit), -b.card.rank))
        return legal[0]


    # ---- hidden information --------------------------------------------------------------
    def secret_labels(self, state: SuitTabooState, seat: int | None) -> frozenset[str]:
        bits = PUBLIC | (_bit(seat) if seat is not None else 0)
        return frozenset(str(c) for c, m in zip(ALL_CARDS, state.seen, strict=True)
                         if not m & bits)

    def _doubt_known(self, seat: int, owner: int, sender: int, from_open: bool) -> bool:
        return from_open or owner == seat or sender == seat

    def determinize(self, state: SuitTabooState, seat: int,
                    rng: random.Random) -> SuitTabooState:
        """Resample other hands, deck, dump, unseen doubts and other roles (role deals stay
        consistent with every catapult suit each player has shown this round)."""
        s = state.clone()
        pool: list[Card] = []
        for p in range(s.n):
            if p == seat:
                continue
            known = s.known[p]
            pool.extend(c for c in s.hands[p] if c not in known)
            pool.extend(c for c, snd, op in s.doubts[p] if not (op or snd == seat))
        pool.extend(s.deck)
        pool.extend(s.dump)
        rng.shuffle(pool)
        it = iter(pool)
        for p in range(s.n):
            if p == seat:
                continue
            known = s.known[p]
            s.hands[p] = [c if c in known else next(it) for c in s.hands[p]]
            s.doubts = _replaced(s.doubts, p, [(c, snd, op) if (op or snd == seat)
                                               else (next(it), snd, op)
                                               for c, snd, op in s.doubts[p]])
        s.deck = [next(it) for _ in s.deck]
        s.dump = [next(it) for _ in s.dump]
        perms = consistent_role_deals(s, seat)
        roles, out = rng.choice(perms)
        s.roles = roles
        s.out_roles = out
        if s.phase == "accuse" and not s.roles[seat].is_joker and s.accusations:
            # McNulty's names so far are private to him: say them again at random
            made, s.accusations = len(s.accusations), []
            for _ in range(made):
                pick = rng.choice(self._accusations(s))
                s.accusations.append((pick.suit, pick.target))  # type: ignore[union-attr]
        # the future (reshuffles, the next deals) is unknowable too: a fresh seed
        s.seed = rng.randrange(2**62)
        s.rng_counter = 0
        return s

    # ---- views ---------------------------------------------------------------------------
    def view(self, state: SuitTabooState, seat: int | None) -> dict:
        s = state
        players = []
        for p in range(s.n):
            cat = s.catapult[p]
            players.append({
                "seat": p,
                "hand_size": len(s.hands[p]),
                "known_hand": [str(c) for c in s.known[p]],
                "catapult": str(cat) if cat is not None else None,
                "shields": [str(c) for c in s.shields[p]],
                "doubts": len(s.doubts[p]),
                "open_doubts": [str(c) for c, _, op in s.doubts[p] if op],
                "built_suits": [SUIT_SYMBOLS[x] for x in s.built[p]],
                "status": s.status[p],
                "round_wins": s.wins[p],
            })
        to_act = sorted(self.to_act(s))
        v: dict[str, Any] = {
            "game": self.name,
            "phase": s.phase,
            "round": s.round_no,
            "dealer": s.dealer,
            "turn": s.current if s.phase == "play" else None,
            "to_act": to_act,
            "turns_this_round": s.turns,
            "max_turns_per_round": s.options.max_turns_per_round,
            "end_mode": s.end_mode,
            "deck": len(s.deck),
            "dump": len(s.dump),
            "reshuffles": s.reshuffles,
            "out_of_play_roles": len(s.out_roles),
            "open": [str(c) for c in s.open],
            "players": players,
            "wire": s.options.wire,
            "wins_needed": s.options.wins_needed,
            # a copy, so a renderer that edits its view can never touch the state
            "last_round": json.loads(json.dumps(s.last_round)) if s.last_round else None,
            "winners": s.winners[:] if s.phase == "over" else None,
            "reason": s.reason if s.phase == "over" else None,
        }
        if seat is not None:
            role = s.roles[seat]
            v["you"] = {
                "seat": seat,
                "role": str(role),
                "role_name": role_name(role),
                "wire_role": wire_role(role) if s.options.wire else None,
                "hand": [str(c) for c in s.hands[seat]],
                "doubts": [{"card": str(c), "from": snd, "open": op}
                           for c, snd, op in s.doubts[seat]],
                "sent": [{"card": str(c), "to": p} for p in range(s.n)
                         for c, snd, op in s.doubts[p] if snd == seat and not op],
                "accusations": ([{"suit": SUIT_SYMBOLS[x], "target": t}
                                 for x, t in s.accusations] if role.is_joker else None),
            }
        return v

    # ---- persistence ---------------------------------------------------------------------
    def dump(self, state: SuitTabooState) -> str:
        s = state

        def cards(xs: Sequence[Card]) -> list[str]:
            return [c.code for c in xs]

        data = {
            "n": s.n, "seed": s.seed, "rng_counter": s.rng_counter,
            "options": s.options.model_dump(), "round_no": s.round_no, "dealer": s.dealer,
            "wins": s.wins, "roles": cards(s.roles), "out_roles": cards(s.out_roles),
            "deck": cards(s.deck), "dump": cards(s.dump), "open": cards(s.open),
            "hands": [cards(h) for h in s.hands], "known": [cards(k) for k in s.known],
            "catapult": [c.code if c else None for c in s.catapult],
            "shields": [cards(x) for x in s.shields],
            "doubts": [[[c.code, snd, op] for c, snd, op in d] for d in s.doubts],
            "built": s.built, "status": s.status, "current": s.current, "turns": s.turns,
            "reshuffles": s.reshuffles, "end_mode": s.end_mode, "phase": s.phase,
            "accusations": [list(a) for a in s.accusations], "seen": s.seen,
            "last_round": s.last_round, "reason": s.reason, "winners": s.winners,
        }
        return json.dumps(data, ensure_ascii=False, sort_keys=True)

    def load(self, text: str) -> SuitTabooState:
        d = json.loads(text)

        def cards(xs: list[str]) -> list[Card]:
            return [Card.parse(x) for x in xs]

        return SuitTabooState(
            d["n"], d["seed"], d["rng_counter"], SuitTabooOptions(**d["options"]),
            d["round_no"], d["dealer"], d["wins"], cards(d["roles"]), cards(d["out_roles"]),
            cards(d["deck"]), cards(d["dump"]), cards(d["open"]),
            [cards(h) for h in d["hands"]], [cards(k) for k in d["known"]],
            [Card.parse(c) if c else None for c in d["catapult"]],
            [cards(x) for x in d["shields"]],
            [[(Card.parse(c), snd, op) for c, snd, op in x] for x in d["doubts"]],
            d["built"], d["status"], d["current"], d["turns"], d["reshuffles"],
            d["end_mode"], d["phase"], [(a, t) for a, t in d["accusations"]], d["seen"],
            d["last_round"], d["reason"], d["winners"], {})


# --------------------------------------------------------------------------- role logic
def consistent_role_deals(s: SuitTabooState, seat: int
                          ) -> list[tuple[list[Card], list[Card]]]:
    """Every role deal `seat` cannot rule out: its own role fixed, no ace holder has shown a
    catapult of the ace's own suit this round, and during the accusation the joker is the
    seat to act. Returns (roles per seat, out-of-play roles)."""
    mine = s.roles[seat]
    rest = [c for c in ROLE_CARDS if c != mine]
    others = [p for p in range(s.n) if p != seat]
    built = [set(b) for b in s.built]
    # while McNulty accuses, everyone sees whose turn it is: the joker's seat is public
    joker = s.joker_seat() if s.phase == "accuse" else None
    result = []
    for perm in itertools.permutations(rest):
        ok = True
        for p, role in zip(others, perm, strict=False):
            if (p == joker) != role.is_joker and joker is not None:
                ok = False
                break
            if not role.is_joker and role.suit in built[p]:
                ok = False
                break
        if not ok:
            continue
        roles = [mine] * s.n
        for p, role in zip(others, perm, strict=False):
            roles[p] = role
        out = sorted(perm[len(others):])
        entry = (roles, list(out))
        if entry not in result:
            result.append(entry)
    return result


def _canonical_cast(a: Cast) -> Cast:
    """The same shot with its (card, target) pairs in the order `legal_actions` lists them,
    so a caller may name the cards in any order. Malformed shots come back unchanged (and are
    then refused as illegal)."""
    shots = a.shots
    one_pair = type(shots) is tuple and len(shots) == 1 and type(shots[0]) is tuple
    if one_pair and len(shots[0]) == 2:
        return a  # a single (card, target) pair is in order already (the common case)
    try:
        shots = tuple(sorted(((c, t) for c, t in a.shots),
                             key=lambda x: (CARD_INDEX[x[0]], x[1])))
    except (TypeError, KeyError, ValueError):
        return a
    return a if shots == a.shots else Cast(a.mode, shots)


# --------------------------------------------------------------------------- direct checks
# One per play-phase action type, for `apply`: True exactly when `legal_actions(s, seat)`
# (the seat being the one to act in the play phase) lists an action equal to `a`.
def _pick_is_legal(s: SuitTabooState, seat: int, a: Pick) -> bool:
    if a.kind != "pick" or len(s.hands[seat]) >= HAND_LIMIT:
        return False
    return bool(s.deck) if a.card is None else a.card in s.open


def _build_is_legal(s: SuitTabooState, seat: int, a: Build) -> bool:
    if a.kind != "build":
        return False
    hand = s.hands[seat]
    try:
        card = hand[hand.index(a.card)]
    except ValueError:
        return False
    role = s.roles[seat]
    return role.is_joker or card.suit != role.suit


def _drop_is_legal(s: SuitTabooState, seat: int, a: DropOut) -> bool:
    return a.kind == "drop" and s.end_mode


def _cast_is_legal(s: SuitTabooState, seat: int, a: Cast) -> bool:
    """`a` must already be canonical (`_canonical_cast`): shots sorted as legal_actions
    lists them, or left as given when they are malformed."""
    cat = s.catapult[seat]
    shots = a.shots
    if cat is None or a.kind != "cast" or not isinstance(shots, tuple) or not 1 <= len(shots) <= 3:
        return False
    for shot in shots:
        # a target given as True or 1.0 equals seat 1 but is not a listed move
        if not isinstance(shot, tuple) or len(shot) != 2 or type(shot[1]) is not int:
            return False
    others = _OTHERS[s.n][seat]
    pool = [*s.hands[seat], *s.open]
    if a.mode == "suit":
        if len(shots) != 1:
            return False
        card, target = shots[0]
        try:
            card = pool[pool.index(card)]
        except ValueError:
            return False
        return card.suit == cat.suit and target in others
    if a.mode != "number":
        return False
    # the cards must be a combination of the pool's same-number cards, in their listed order
    same = sorted((c for c in pool if c.rank == cat.rank), key=lambda c: _INDEX[c.suit][c.rank])
    for card, target in shots:
        if card not in same or target not in others:
            return False
        same = same[same.index(card) + 1:]
    return True


_PLAY_CHECKS: dict[type, Callable[[SuitTabooState, int, Any], bool]] = {
    Pick: _pick_is_legal, Build: _build_is_legal, Cast: _cast_is_legal, DropOut: _drop_is_legal}


def _seats(seats: list[int]) -> str:
    """`{P0}`, `{P0} and {P2}`, `{P0}, {P1} and {P3}`."""
    names = [f"{{P{p}}}" for p in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _plural(count: int, word: str, plural: str | None = None) -> str:
    return f"{count} {word if count == 1 else plural or word + 's'}"


def score_round(s: SuitTabooState) -> dict:
    """Score the flipped history lines (RULINGS: Suit Taboo) and explain every result."""
    wire = s.options.wire
    lines: list[dict[str, Any]] = []
    for p in range(s.n):
        role = s.roles[p]
        doubts = [c for c, _, _ in s.doubts[p]]
        rightful = doubts if role.is_joker else [c for c in doubts if c.suit == role.suit]
        pens = sum(penalty(c) for c in rightful)
        lines.append({"seat": p, "role": _label(role), "role_name": role_name(role),
                      "wire_role": wire_role(role) if wire else None,
                      "doubts": _labels(doubts),
                      "rightful": _labels(rightful),
                      "shields": _labels(s.shields[p]),
                      "extra_shields": 0, "penalties": pens,
                      "per_shield": 2 if role.is_joker else 1,
                      "status": s.status[p]})

    def settle(line: dict) -> None:
        power = line["per_shield"]
        total = len(line["shields"]) + line["extra_shields"]
        cancelled = min(line["penalties"], total * power)
        used = -(-cancelled // power)
        line["cancelled"] = cancelled
        line["left_penalties"] = line["penalties"] - cancelled
        line["left_shields"] = total - used
        line["exposed"] = line["left_penalties"] > 0

    bad = [ln for ln in lines if wire and ln["wire_role"] == "bad guy"]
    for ln in bad:
        settle(ln)
    exposed_bad = sum(1 for ln in bad if ln["exposed"])
    for ln in lines:
        if ln in bad:
            continue
        if wire and ln["wire_role"] == "detective":
            ln["extra_shields"] = exposed_bad
        settle(ln)

    accusations = None
    acc_text = ""
    all_right = False
    if wire and s.joker_seat() is not None:
        truth = {}
        for suit in BLACK_ACES:
            holder = next((p for p in range(s.n) if s.roles[p] == Card(1, suit)), None)
            truth[suit] = holder
        accusations = []
        bits = []
        for suit, target in s.accusations:
            right = truth[suit] == target
            accusations.append({"suit": SUIT_SYMBOLS[suit], "named": target,
                                "truth": truth[suit], "right": right})
            named = "out of play" if target is None else f"{{P{target}}}"
            bits.append(f"ace of {SUIT_NAMES[suit]} → {named} ({'right' if right else 'wrong'})")
        all_right = len(accusations) == len(BLACK_ACES) and all(a["right"] for a in accusations)
        acc_text = "McNulty's accusations: " + "; ".join(bits) + "."

    winners = []
    for ln in lines:
        p = ln["seat"]
        shields = _plural(len(ln["shields"]), "shield")
        if ln["extra_shields"]:
            shields += f" + {ln['extra_shields']} extra"
        why = (f"{_plural(ln['penalties'], 'penalty', 'penalties')} from "
               f"{_plural(len(ln['rightful']), 'rightful doubt')}, {ln['cancelled']} cancelled "
               f"by {shields}")
        if ln["exposed"]:
            won, verdict = False, "exposed"
        elif not wire:
            won, verdict = True, "unexposed"
        elif ln["wire_role"] == "bad guy":
            won = ln["left_shields"] >= 1
            verdict = ("unexposed with a shield to spare" if won
                       else "unexposed but no shield left over")
        elif ln["wire_role"] == "detective":
            won = all(b["exposed"] for b in bad)
            verdict = ("unexposed and every bad guy exposed" if won
                       else "unexposed but a bad guy got away")
        else:
            won = all_right
            verdict = ("unexposed and named every bad guy right" if won
                       else "unexposed but an accusation was wrong")
        ln["won"] = won
        ln["verdict"] = verdict
        ln["why"] = f"{verdict}: {why}"
        extra = f", {ln['wire_role']}" if wire else ""
        doubts = ", ".join(ln["doubts"]) or "none"
        ln["text"] = (f"{{P{p}}} was {ln['role']}{extra}. Doubts: {doubts}. "
                      f"{'Wins' if won else 'Loses'} ({verdict}): {why}.")
        if won:
            winners.append(p)
    return {"round": s.round_no, "reason": s.reason, "players": lines,
            "accusations": accusations, "accusation_text": acc_text, "winners": winners}


ENGINE = SuitTabooEngine()
