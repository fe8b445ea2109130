"""Six Suit (Triple Topper): a cutthroat elimination game with 125 three-attribute cards.

Each player shows six face-up piles and holds hidden cards. A turn is a prediction (which
may earn extra cards), then one card played on any player's pile (it must share an attribute
with the covered top card) or discarded. Six tops agreeing on one attribute (wilds counting
for whatever is worst) is a "six suit": made by an opponent it eliminates at once; made by the
player's own side it stays pending until an opponent plays on them while it holds.

Rules: seeds/six_suit.txt as decided by RULINGS.md. Points: the k-th elimination pays its
maker N - k + 1 and every living player 1; a surviving side collects the remaining
eliminations' worth times (factions - 1) after the two-round final phase.

Cards are ints (see `engines.six_suit.cards`); the state is a slotted dataclass with a cheap
`clone()` (and `share()`, from which `apply` copies only the lists a move changes); everything
random comes from the seed stored in the state.

Interpretations (where the seed and rulings leave room):
- A pending six suit (made by the player's own side, or standing when free time ends) is
  finished by an opponent's play on that player only if a six suit still shows after it
  (seed 11A "keeps it a six suit"); an opponent's card that breaks it saves them.
- Every living player, the eliminator included, gets the survival point of a fall.
- Extra-turn chains: a double match on the same player as the previous one continues it;
  right after an elimination any double match does. Capped by `max_extra_turns`.
- Free-time vetoes: a refused (card, pile) pair cannot be offered again that turn; after
  `max_vetoes` vetoes in one turn only own piles (or a discard) remain.
- Final phase: `final_rounds` × n normal turns after the causing turn. The payout pot is split
  evenly over the survivors, odd points to the earliest survivors in turn order.
- Nobody alive (the last survivor eliminated by a ghost) ends the deal at once, no payout.
"""

from __future__ import annotations

import json
import pathlib
import random
from dataclasses import dataclass, fields
from itertools import compress
from struct import Struct
from typing import Any, ClassVar

from pydantic import Field

from engines.ai_levels import AiLevel, ai_level_field
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
    public,
)
from engines.six_suit.cards import (
    COL,
    COLOUR_NAMES,
    COLOURS,
    DECK_SIZE,
    LABELS,
    NUM,
    NUMBERS,
    SHAPE_NAMES,
    SHAPES,
    SHARED,
    SHP,
    is_six_suit,
    labels,
    parse_card,
    reaches,
    six_suit_attributes,
)

PREDICT, PLAY, CONSENT, OVER = "predict", "play", "consent", "over"
MAX_SEATS = 12
DATA_DIR = pathlib.Path(__file__).resolve().parents[2] / "data" / "six_suit"


def rules_markdown() -> str:
    """The players' rules summary (for `/sixsuit rules`); read on demand, never by the engine."""
    return (DATA_DIR / "rules.md").read_text(encoding="utf-8")


# --------------------------------------------------------------------------- options
class SixSuitOptions(GameOptions):
    teams: int = Field(0, ge=0, le=6, description=(
        "0 or 1 = everyone for themselves; 2-6 = that many equal teams, picked in the lobby "
        "(teammates sit every k-th seat; the player count must divide evenly)."))
    max_rounds: int = Field(60, ge=3, le=500, description=(
        "Safety cap: after this many full rounds an unfinished deal ends, scored as it stands."))
    free_time_rounds: int = Field(2, ge=0, le=5, description=(
        "Opening rounds of free time: no eliminations, plays on others need their consent."))
    final_rounds: int = Field(2, ge=1, le=5, description=(
        "Full rounds played once only one player or team is left alive."))
    max_extra_turns: int = Field(20, ge=1, le=100, description=(
        "Safety cap on consecutive extra turns in one chain (keeps every game finite)."))
    max_vetoes: int = Field(3, ge=0, le=20, description=(
        "Safety cap on vetoes per turn in free time; after that many the player may only "
        "play on own piles or discard."))
    ai_level: AiLevel = ai_level_field()


# --------------------------------------------------------------------------- actions
@dataclass(frozen=True, slots=True)
class Predict:
    """Declare a number, colour and shape (indices 0..4; 4 = ?, black, blob), then draw."""

    number: int
    colour: int
    shape: int
    kind: ClassVar[str] = "predict"


@dataclass(frozen=True, slots=True)
class Play:
    """Cover the top card of `target`'s pile `pile` (0..5) with hand card `card` (0..124)."""

    card: int
    target: int
    pile: int
    kind: ClassVar[str] = "play"


@dataclass(frozen=True, slots=True)
class Discard:
    """Put hand card `card` face up on the central discard pile."""

    card: int
    kind: ClassVar[str] = "discard"


@dataclass(frozen=True, slots=True)
class Consent:
    """Free time: the pile owner accepts the offered card."""

    kind: ClassVar[str] = "consent"


@dataclass(frozen=True, slots=True)
class Veto:
    """Free time: the pile owner refuses the offered card; it goes back to the player."""

    kind: ClassVar[str] = "veto"


@dataclass(frozen=True, slots=True)
class Pass:
    """Only when the hand is empty and nothing could be drawn (all cards are out)."""

    kind: ClassVar[str] = "pass"


Action = Predict | Play | Discard | Consent | Veto | Pass

def prediction_text(number: int, colour: int, shape: int) -> str:
    """Words, never a card label, so a prediction cannot look like a leaked card."""
    return f"{NUMBERS[number]} · {COLOUR_NAMES[colour]} · {SHAPE_NAMES[shape]}"


# Pure constant tables of action objects, so legal_actions allocates nothing in the inner loop.
PREDICTIONS: tuple[Predict, ...] = tuple(
    Predict(n, c, s) for n in range(5) for c in range(5) for s in range(5))
PLAYS: tuple[tuple[tuple[Play, ...], ...], ...] = tuple(
    tuple(tuple(Play(card, t, p) for p in range(6)) for t in range(MAX_SEATS))
    for card in range(DECK_SIZE))
PLAYS_FLAT: tuple[tuple[Play, ...], ...] = tuple(
    tuple(p for per_target in per_card for p in per_target) for per_card in PLAYS)
DISCARDS: tuple[Discard, ...] = tuple(Discard(c) for c in range(DECK_SIZE))
CONSENT_ACTIONS = (Consent(), Veto())
PREDICTION_TEXTS = tuple(prediction_text(p.number, p.colour, p.shape) for p in PREDICTIONS)
PASS_ACTIONS = (Pass(),)
# Per card, a bytes.translate table from a top card to how many attributes the card shares
# with it (SHARED's row). An eliminated player's empty pile (-1) is packed as byte 255, which
# maps to 0 like SHARED[card][-1]: one C call rates every pile on the table for that card.
PILE_MATCH: tuple[bytes, ...] = tuple(
    bytes(SHARED[card][:DECK_SIZE]) + bytes(256 - DECK_SIZE) for card in range(DECK_SIZE))
# PACK_TOPS[k](*tops) packs k top cards as signed bytes (so -1 becomes 255) for PILE_MATCH.
PACK_TOPS = tuple(Struct(f"{k}b").pack for k in range(6 * MAX_SEATS + 1))
# Shared immutable one-seat sets and turn texts, built once instead of on every move.
SEAT_SETS: tuple[frozenset[int], ...] = tuple(frozenset((i,)) for i in range(MAX_SEATS))
NO_SEATS: frozenset[int] = frozenset()
TURN_TEXTS = tuple(f"{{P{i}}}'s turn." for i in range(MAX_SEATS))
DREW_ONE_TEXTS = tuple(f"You drew {LABELS[c]}." for c in range(DECK_SIZE))


def parse_prediction(text: str) -> Predict:
    """Typed predictions for slash commands: "3 red triangle", "? black blob" or "3🟥▲"."""
    card = parse_card(text)
    return PREDICTIONS[card]


# --------------------------------------------------------------------------- state
@dataclass(slots=True, eq=False)
class SixSuitState(SeededState):
    seed: int
    rng_counter: int
    options: SixSuitOptions
    n: int
    teams: int                 # 0 = solo, k >= 2 = k teams (seat i on team i % k)
    dealer: int
    first: int                 # first player of every round (left of the dealer)
    tops: list[int]            # 6 per seat, -1 once eliminated
    under: list[list[int]]     # cards beneath the tops, per seat (public: seen when covered)
    depth: list[int]           # cards beneath each pile (6 per seat), [] = not known: a game
    #                            saved before piles were counted (known again after a recycle)
    hands: list[list[int]]     # sorted
    draw: list[int]            # top = last
    discard: list[int]         # top = last
    alive: list[bool]
    scores: list[int]
    elims: list[list[int]]     # [victim, eliminator, points, number]
    current: int
    phase: str
    round: int                 # 0-based full rounds completed
    chain: int                 # 0 = normal turn, k = k-th extra turn
    chain_target: int          # seat of the previous double match in this chain
    chain_elim: bool           # the previous play of this chain eliminated someone
    prediction: list[int]      # this turn's [number, colour, shape], [] before predicting
    drawn: list[int]           # cards drawn this turn (private to the current player)
    shown: int                 # first drawn card when the prediction succeeded, else -1
    offer: list[int]           # [card, target, pile] awaiting consent, else []
    vetoed: list[list[int]]    # [card, target, pile] refused this turn
    final_pending: bool        # the turn that left one side alive is still running
    final_left: int            # normal turns left in the final phase, -1 = not started
    reason: str
    seen: int                  # bitmask: cards that have ever been face up
    known: list[int]           # bitmask per seat: hand cards everyone knows (shown draws)
    last: list[int]            # last play [seat, card, target, pile, covered], else []
    turn_no: int               # normal turns started so far (1-based)

    def clone(self) -> SixSuitState:
        """A copy that owns its `tops`, `draw`, `discard` and outer `under` / `hands` lists,
        so the caller may change those in place. Every other list (and every inner hand or
        under-pile) is never mutated in place, only replaced, so clones may share them."""
        c = self.share()
        c.tops = self.tops[:]
        c.under = self.under[:]
        c.hands = self.hands[:]
        c.draw = self.draw[:]
        c.discard = self.discard[:]
        return c

    def share(self) -> SixSuitState:
        """A copy sharing every list with this state: whoever changes a list of it must
        first put a copy of that list in place (`apply` copies just what each move changes;
        copying all five big lists was most of the cost of a clone).

        Filled in field by field on a bare instance: every move copies the state, and
        entering the 33-argument `__init__` from `type.__call__` cost over half as much
        again. Keep this in step with the field list above (a missing field fails every
        engine test)."""
        c = object.__new__(SixSuitState)
        c.seed = self.seed
        c.rng_counter = self.rng_counter
        c.options = self.options
        c.n = self.n
        c.teams = self.teams
        c.dealer = self.dealer
        c.first = self.first
        c.tops = self.tops
        c.under = self.under
        c.depth = self.depth
        c.hands = self.hands
        c.draw = self.draw
        c.discard = self.discard
        c.alive = self.alive
        c.scores = self.scores
        c.elims = self.elims
        c.current = self.current
        c.phase = self.phase
        c.round = self.round
        c.chain = self.chain
        c.chain_target = self.chain_target
        c.chain_elim = self.chain_elim
        c.prediction = self.prediction
        c.drawn = self.drawn
        c.shown = self.shown
        c.offer = self.offer
        c.vetoed = self.vetoed
        c.final_pending = self.final_pending
        c.final_left = self.final_left
        c.reason = self.reason
        c.seen = self.seen
        c.known = self.known
        c.last = self.last
        c.turn_no = self.turn_no
        return c

    # ---- small derived facts, shared by the engine, the view and the AI ------------------
    def faction(self, seat: int) -> int:
        return seat % self.teams if self.teams else seat

    def factions(self) -> int:
        return self.teams if self.teams else self.n

    def tops_of(self, seat: int) -> list[int]:
        return self.tops[seat * 6:seat * 6 + 6]

    def in_free_time(self) -> bool:
        return self.round < self.options.free_time_rounds

    def alive_factions(self) -> set[int]:
        return {self.faction(i) for i in range(self.n) if self.alive[i]}

    def pending(self) -> list[int]:
        """Living players showing a six suit: an opponent's play that keeps it eliminates."""
        return [i for i in range(self.n) if self.alive[i] and is_six_suit(self.tops_of(i))]


def _bit(card: int) -> int:
    return 1 << card


def _reveal(s: SixSuitState, seat: int, card: int) -> None:
    """Everyone now knows `card` is in `seat`'s hand (copy-on-write of `known`)."""
    known = s.known[:]
    known[seat] |= 1 << card
    s.known = known


def _without(hand: list[int], card: int) -> list[int]:
    """A new list: `hand` less `card`. Every card is in exactly one place, so one `remove`
    does what filtering the whole hand did, at a quarter of the cost."""
    rest = hand[:]
    if card in rest:
        rest.remove(card)
    return rest


def _forget(s: SixSuitState, seat: int, card: int) -> None:
    """`card` left `seat`'s hand: drop it from the publicly known part."""
    if s.known[seat] >> card & 1:
        known = s.known[:]
        known[seat] &= ~(1 << card)
        s.known = known


# --------------------------------------------------------------------------- engine
class SixSuitEngine(Engine[SixSuitState, Action]):
    name = "six_suit"
    title = "Six Suit"
    min_players = 2
    max_players = MAX_SEATS
    Options = SixSuitOptions

    # ---- setup -----------------------------------------------------------------------------
    def new_game(self, n_players: int, seed: int, options: Any = None) -> SixSuitState:
        opts = self.parse_options(options)
        assert isinstance(opts, SixSuitOptions)
        if not self.min_players <= n_players <= self.max_players:
            raise InvalidActionError("Six Suit needs 2 to 12 players.")
        teams = opts.teams if opts.teams >= 2 else 0
        if teams and (n_players % teams or n_players < teams):
            raise InvalidActionError(
                f"{n_players} players cannot form {teams} equal teams.")
        state = SixSuitState(
            seed=seed, rng_counter=0, options=opts, n=n_players, teams=teams, dealer=0,
            first=0, tops=[], under=[[] for _ in range(n_players)], depth=[0] * (6 * n_players),
            hands=[[] for _ in range(n_players)], draw=[], discard=[],
            alive=[True] * n_players, scores=[0] * n_players, elims=[], current=0,
            phase=PREDICT, round=0, chain=0, chain_target=-1, chain_elim=False,
            prediction=[], drawn=[], shown=-1, offer=[], vetoed=[], final_pending=False,
            final_left=-1, reason="", seen=0, known=[0] * n_players, last=[], turn_no=1)
        rng = state.next_rng()
        deck = list(range(DECK_SIZE))
        rng.shuffle(deck)
        state.dealer = rng.randrange(n_players)
        state.first = state.current = (state.dealer + 1) % n_players
        # Six face-up cards each, then one hidden hand card each, dealt from the top.
        state.tops = [-1] * (6 * n_players)
        for p in range(6):
            for i in range(n_players):
                seat = (state.first + i) % n_players
                card = deck.pop()
                state.tops[seat * 6 + p] = card
                state.seen |= _bit(card)
        for i in range(n_players):
            seat = (state.first + i) % n_players
            state.hands[seat].append(deck.pop())
        state.draw = deck
        return state

    # ---- turn structure ----------------------------------------------------------------------
    def to_act(self, state: SixSuitState) -> frozenset[int]:
        phase = state.phase
        if phase == OVER:
            return NO_SEATS
        if phase == CONSENT:
            return SEAT_SETS[state.offer[1]]
        return SEAT_SETS[state.current]

    def _others_blocked(self, s: SixSuitState) -> bool:
        """In free time, may the current player still offer cards to other players' piles?"""
        return s.n == 2 or len(s.vetoed) >= s.options.max_vetoes

    def legal_actions(self, state: SixSuitState, seat: int) -> list[Action]:
        s = state
        phase = s.phase
        if phase == OVER:
            return []
        if phase == CONSENT:
            return list(CONSENT_ACTIONS) if seat == s.offer[1] else []
        if seat != s.current:
            return []
        if phase == PREDICT:
            return list(PREDICTIONS)
        hand = s.hands[seat]
        if not hand:
            return list(PASS_ACTIONS)
        tops = s.tops
        # translate/compress run in C: a pile is offered when the card shares an attribute
        # with its top (dead players' piles are -1, which never matches). Order: seat, pile.
        out: list[Action] = []
        if s.round < s.options.free_time_rounds and self._others_blocked(s):
            base = seat * 6
            piles = PACK_TOPS[6](*tops[base:base + 6])
            for card in hand:
                out.extend(compress(PLAYS[card][seat], piles.translate(PILE_MATCH[card])))
                out.append(DISCARDS[card])
        else:
            piles = PACK_TOPS[len(tops)](*tops)
            for card in hand:
                out.extend(compress(PLAYS_FLAT[card], piles.translate(PILE_MATCH[card])))
                out.append(DISCARDS[card])
        if s.vetoed:
            vetoed = {tuple(v) for v in s.vetoed}
            out = [a for a in out if type(a) is not Play
                   or (a.card, a.target, a.pile) not in vetoed]
        return out

    def _check(self, s: SixSuitState, seat: int, action: object) -> None:
        """Fast equivalent of `check_legal` (tested against `legal_actions`): the action is
        validated directly, since regenerating every legal action would cost more than the
        move itself. Same errors, in the same order, as `check_legal`."""
        phase = s.phase
        if phase == OVER:
            raise GameOverError("The game is over.")
        kind = type(action)
        if phase == CONSENT:
            if seat != s.offer[1]:
                raise NotYourTurnError("It is not your turn.")
            if kind is Consent or kind is Veto:
                return
        else:
            if seat != s.current:
                raise NotYourTurnError("It is not your turn.")
            if phase == PREDICT:
                if kind is Predict:
                    n_, c_, s_ = action.number, action.colour, action.shape  # type: ignore[attr-defined]
                    if (type(n_) is int and type(c_) is int and type(s_) is int
                            and 0 <= n_ < 5 and 0 <= c_ < 5 and 0 <= s_ < 5):
                        return
            elif not (hand := s.hands[seat]):
                if kind is Pass:
                    return
            elif kind is Play:
                card, t, p = action.card, action.target, action.pile  # type: ignore[attr-defined]
                if (type(card) is int and type(t) is int and type(p) is int
                        and card in hand and 0 <= t < s.n and 0 <= p < 6 and s.alive[t]
                        and SHARED[card][s.tops[t * 6 + p]]
                        and (not s.vetoed or [card, t, p] not in s.vetoed)
                        and (t == seat or s.round >= s.options.free_time_rounds
                             or not self._others_blocked(s))):
                    return
            elif kind is Discard:
                card = action.card  # type: ignore[attr-defined]
                if type(card) is int and card in hand:
                    return
        raise IllegalActionError("That move is not allowed right now.")

    # ---- apply -----------------------------------------------------------------------------
    def apply(self, state: SixSuitState, seat: int, action: Action) -> Step[SixSuitState]:
        """The move's new state and events; `state` itself is never changed.

        Copy-on-write: the new state starts out sharing every list with `state`, and each
        branch copies exactly the lists its move changes in place (for a prediction the
        draw pile and the hands, not the table). Lists changed by replacement
        (`alive`, `known`, `scores`, ...) need no copy."""
        self._check(state, seat, action)
        s = state.share()
        events: list[Event] = []
        kind = type(action)
        if kind is Predict:
            s.draw = s.draw[:]
            s.hands = s.hands[:]
            self._predict(s, seat, action, events)  # type: ignore[arg-type]
        elif kind is Play:
            a: Play = action  # type: ignore[assignment]
            s.hands = s.hands[:]
            if a.target != seat and s.round < s.options.free_time_rounds:
                self._offer(s, seat, a, events)
            else:
                s.tops = s.tops[:]
                s.under = s.under[:]
                self._play(s, seat, a.card, a.target, a.pile, events)
        elif kind is Discard:
            card = action.card  # type: ignore[union-attr]
            s.hands = hands = s.hands[:]
            hands[seat] = _without(hands[seat], card)
            _forget(s, seat, card)
            s.discard = [*s.discard, card]
            s.seen |= 1 << card
            label = LABELS[card]
            events.append(Event("discard", f"{{P{seat}}} discards {label}.", None,
                                {"seat": seat, "card": label}))
            self._end_subturn(s, False, -1, False, events)
        elif kind is Consent:
            card, t, p = s.offer
            s.offer = []
            s.hands = s.hands[:]
            s.tops = s.tops[:]
            s.under = s.under[:]
            events.append(public("consent", f"{{P{t}}} accepts {LABELS[card]}.", seat=t,
                                 card=LABELS[card]))
            self._play(s, s.current, card, t, p, events)
        elif kind is Veto:
            card, t, p = s.offer
            s.offer = []
            s.phase = PLAY
            s.vetoed = [*s.vetoed, [card, t, p]]
            s.hands = s.hands[:]
            s.hands[s.current] = sorted([*s.hands[s.current], card])
            _reveal(s, s.current, card)
            events.append(public(
                "veto", f"{{P{t}}} vetoes {LABELS[card]}; it goes back to {{P{s.current}}}.",
                seat=t, card=LABELS[card], player=s.current))
        else:  # Pass
            events.append(public("pass", f"{{P{seat}}} has no card to play.", seat=seat))
            self._end_subturn(s, False, -1, False, events)
        return Step(s, tuple(events))

    def _draw_one(self, s: SixSuitState, events: list[Event]) -> int | None:
        if not s.draw:
            pool = [c for u in s.under for c in u] + s.discard
            if not pool:
                return None
            s.under = [[] for _ in range(s.n)]
            s.depth = [0] * (6 * s.n)
            s.discard = []
            s.next_rng().shuffle(pool)
            s.draw = pool
            events.append(public("recycle", f"The draw pile ran out: {len(pool)} cards from "
                                 "under the piles and the discard pile are shuffled into it.",
                                 count=len(pool)))
        return s.draw.pop()

    def _predict(self, s: SixSuitState, seat: int, a: Predict, events: list[Event]) -> None:
        """Declare, draw one; 2 right → show it and draw 1 more, 3 right → draw 2 more.

        One public event carries the declaration and its result; the cards themselves go in
        a private event (the shown card is public, extra cards stay hidden).
        """
        number, colour, shape = a.number, a.colour, a.shape
        s.prediction = [number, colour, shape]
        said = PREDICTION_TEXTS[number * 25 + colour * 5 + shape]
        first = s.draw.pop() if s.draw else self._draw_one(s, events)
        s.phase = PLAY
        if first is None:
            events.append(public("predict", f"{{P{seat}}} predicts {said} but cannot draw: "
                                 "every card is in play.", seat=seat, prediction=said,
                                 right=0, shown=None, count=0))
            return
        right = (NUM[first] == number) + (COL[first] == colour) + (SHP[first] == shape)
        if right < 2:
            # The common case (one card, nothing shown), spelled out: half of all moves.
            events.append(Event(
                "predict", f"{{P{seat}}} predicts {said}: {right} of 3 right, draws 1 card.",
                None, {"seat": seat, "prediction": said, "right": right, "shown": None,
                       "count": 1}))
            s.hands[seat] = sorted([*s.hands[seat], first])
            s.drawn = [first]
            events.append(Event("drew", DREW_ONE_TEXTS[first], SEAT_SETS[seat],
                                {"cards": [LABELS[first]]}))
            return
        drawn = [first]
        s.shown = first
        s.seen |= 1 << first
        _reveal(s, seat, first)
        for _ in range(right - 1):
            extra = self._draw_one(s, events)
            if extra is not None:
                drawn.append(extra)
        shown = LABELS[first]
        more = len(drawn) - 1
        events.append(public(
            "predict", f"{{P{seat}}} predicts {said}: {right} of 3 right! Shows {shown} "
            f"and draws {more} more card{'' if more == 1 else 's'}.", seat=seat, prediction=said,
            right=right, shown=shown, count=len(drawn)))
        s.hands[seat] = sorted(s.hands[seat] + drawn)
        s.drawn = drawn
        names = [LABELS[c] for c in drawn]
        events.append(Event("drew", "You drew " + ", ".join(names) + ".", SEAT_SETS[seat],
                            {"cards": names}))

    def _offer(self, s: SixSuitState, seat: int, a: Play, events: list[Event]) -> None:
        s.hands[seat] = _without(s.hands[seat], a.card)
        _forget(s, seat, a.card)
        s.seen |= _bit(a.card)
        s.offer = [a.card, a.target, a.pile]
        s.phase = CONSENT
        covered = s.tops[a.target * 6 + a.pile]
        events.append(public(
            "offer", f"Free time: {{P{seat}}} offers {LABELS[a.card]} on {{P{a.target}}}'s "
            f"pile {a.pile + 1} ({LABELS[covered]}); {{P{a.target}}} may accept or veto.",
            seat=seat, target=a.target, pile=a.pile, card=LABELS[a.card],
            covered=LABELS[covered]))

    def _play(self, s: SixSuitState, seat: int, card: int, t: int, p: int,
              events: list[Event]) -> None:
        s.phase = PLAY
        s.hands[seat] = _without(s.hands[seat], card)
        _forget(s, seat, card)
        s.seen |= 1 << card
        base = t * 6
        i = base + p
        all_tops = s.tops
        covered = all_tops[i]
        s.under[t] = [*s.under[t], covered]
        if s.depth:
            s.depth = s.depth[:]
            s.depth[i] += 1
        all_tops[i] = card
        s.last = [seat, card, t, p, covered]
        double = SHARED[card][covered] == 2
        where = "their own" if t == seat else f"{{P{t}}}'s"
        label, covered_label = LABELS[card], LABELS[covered]
        events.append(Event(
            "play", f"{{P{seat}}} plays {label} on {where} pile {p + 1}, covering "
            f"{covered_label}{' (double match).' if double else '.'}", None,
            {"seat": seat, "target": t, "pile": p, "card": label,
             "covered": covered_label, "double": double}))
        eliminated = False
        tops = all_tops[base:base + 6]
        if is_six_suit(tops):
            what = " and ".join(six_suit_attributes(tops))
            if s.faction(t) != s.faction(seat) and not s.in_free_time():
                self._eliminate(s, t, seat, what, events)
                eliminated = True
            else:
                events.append(public(
                    "six_suit", f"{{P{t}}} shows a six suit ({what}): the next opponent to "
                    f"play on them while it holds eliminates them.", seat=t, attributes=what))
        earns = double and (s.chain == 0 or t == s.chain_target or s.chain_elim)
        self._end_subturn(s, earns, t, eliminated, events)

    def _eliminate(self, s: SixSuitState, victim: int, by: int, what: str,
                   events: list[Event]) -> None:
        alive = s.alive[:]
        alive[victim] = False
        s.alive = alive
        base = victim * 6
        gone = s.under[victim] + s.tops[base:base + 6] + s.hands[victim]
        for c in s.hands[victim]:
            s.seen |= _bit(c)
        s.under[victim] = []
        if s.depth:
            s.depth = [*s.depth[:base], 0, 0, 0, 0, 0, 0, *s.depth[base + 6:]]
        s.hands[victim] = []
        known = s.known[:]
        known[victim] = 0
        s.known = known
        s.tops[base:base + 6] = [-1] * 6
        s.discard = [*s.discard, *gone]
        number = len(s.elims) + 1
        points = s.n - number + 1
        scores = s.scores[:]
        scores[by] += points
        survivors = [i for i in range(s.n) if s.alive[i]]
        for i in survivors:
            scores[i] += 1
        s.scores = scores
        s.elims = [*s.elims, [victim, by, points, number]]
        events.append(public(
            "eliminate", f"Six suit ({what})! {{P{by}}} eliminates {{P{victim}}} and scores "
            f"{points}; every survivor scores 1.", victim=victim, by=by, points=points,
            number=number, survivors=survivors, attributes=what))
        if not survivors:
            self._finish(s, "Every player has been eliminated.", events)
        elif len(s.alive_factions()) == 1 and s.final_left < 0 and not s.final_pending:
            s.final_pending = True
            who = "team" if s.teams else "player"
            events.append(public(
                "final_phase", f"Only one {who} is left alive: {s.options.final_rounds} more "
                "full rounds after this turn.", rounds=s.options.final_rounds))

    def _end_subturn(self, s: SixSuitState, extra: bool, target: int, eliminated: bool,
                     events: list[Event]) -> None:
        s.prediction = []
        s.drawn = []
        s.shown = -1
        if s.vetoed:
            s.vetoed = []
        if s.phase == OVER:
            return
        if extra:
            if s.chain < s.options.max_extra_turns:
                s.chain += 1
                s.chain_target = target
                s.chain_elim = eliminated
                s.phase = PREDICT
                events.append(public("extra_turn", f"Double match: {{P{s.current}}} takes "
                                     f"extra turn {s.chain}.", seat=s.current, number=s.chain))
                return
            events.append(public("extra_turn_cap", "The extra-turn cap is reached; the turn "
                                 "passes.", seat=s.current))
        s.chain = 0
        s.chain_target = -1
        s.chain_elim = False
        if s.final_pending:
            s.final_pending = False
            s.final_left = s.options.final_rounds * s.n
        elif s.final_left > 0:
            s.final_left -= 1
            if s.final_left == 0:
                self._payout(s, events)
                return
        s.current = current = (s.current + 1) % s.n
        if current == s.first:
            # RULINGS (amended): a final phase that has begun always runs to its end and
            # pays out (it is bounded already), so the round cap only ends a deal before it.
            # The deal ends without counting a round that is never played: the last round
            # shown stays the cap's ("Round 4" of 4), not one past it.
            if s.round + 1 >= s.options.max_rounds and s.final_left < 0:
                self._finish(s, f"The {s.options.max_rounds}-round safety cap was reached: "
                             "the deal is scored as it stands.", events)
                return
            s.round += 1
            if s.round == s.options.free_time_rounds:
                pend = s.pending()
                events.append(public("free_time_over", "Free time is over: six suits now "
                                     "eliminate.", pending=pend))
        s.turn_no += 1
        s.phase = PREDICT
        events.append(Event("turn", TURN_TEXTS[current], None,
                            {"seat": current, "round": s.round + 1}))

    def _payout(self, s: SixSuitState, events: list[Event]) -> None:
        """Final phase over: survivors collect what the remaining eliminations would pay."""
        survivors = [i for i in range(s.n) if s.alive[i]]
        a = len(survivors)
        done = len(s.elims)
        elim_points = sum(s.n - (done + j) + 1 for j in range(1, a + 1))
        survival_points = a * (a - 1) // 2
        pot = (elim_points + survival_points) * (s.factions() - 1)
        share, extra = divmod(pot, a)
        order = sorted(survivors, key=lambda i: (i - s.first) % s.n)
        scores = s.scores[:]
        for rank, i in enumerate(order):
            scores[i] += share + (1 if rank < extra else 0)
        s.scores = scores
        events.append(public(
            "payout", f"The final rounds are over: the survivors collect {pot} points "
            f"({elim_points} for eliminations + {survival_points} for survival, "
            f"× {s.factions() - 1}).", survivors=survivors, pot=pot))
        self._finish(s, f"The final phase ended with {a} survivor(s) collecting the payout.",
                     events)

    def _finish(self, s: SixSuitState, reason: str, events: list[Event]) -> None:
        s.phase = OVER
        s.reason = reason
        s.offer = []
        result = self.outcome(s)
        assert result is not None
        events.append(public("game_over", reason, winners=sorted(result.winners),
                             scores={str(k): v for k, v in result.scores.items()}))

    # ---- results ---------------------------------------------------------------------------
    def team_totals(self, s: SixSuitState) -> dict[int, int]:
        totals: dict[int, int] = {}
        for i in range(s.n):
            totals[s.faction(i)] = totals.get(s.faction(i), 0) + s.scores[i]
        return totals

    def outcome(self, state: SixSuitState) -> Outcome | None:
        if state.phase != OVER:
            return None
        totals = self.team_totals(state)
        best = max(totals.values())
        winners = frozenset(i for i in range(state.n) if totals[state.faction(i)] == best)
        return Outcome({i: float(state.scores[i]) for i in range(state.n)}, winners,
                       state.reason)

    # ---- views -----------------------------------------------------------------------------
    def view(self, state: SixSuitState, seat: int | None) -> dict:
        s = state
        totals = self.team_totals(s)
        seats = []
        pending = []
        known = s.known
        for i in range(s.n):
            if s.alive[i]:
                tops = s.tops[i * 6:i * 6 + 6]
                reach = list(reaches(tops))
                six = max(reach) == 6
                if six:
                    pending.append(i)
            else:
                tops, reach, six = [], [], False
            mask = known[i]
            seats.append({
                "seat": i,
                "team": s.faction(i),
                "alive": s.alive[i],
                "piles": [LABELS[c] for c in tops],
                "under": [LABELS[c] for c in s.under[i]],
                "depth": (s.depth[i * 6:i * 6 + 6] if s.depth else None) if s.alive[i] else [],
                "hand_count": len(s.hands[i]),
                "known_hand": [LABELS[c] for c in s.hands[i] if mask >> c & 1] if mask else [],
                "score": s.scores[i],
                "reach": reach,
                "six_suit": six,
            })
        free_left = max(0, s.options.free_time_rounds - s.round)
        if s.final_left > 0:
            final_rounds_left = -(-s.final_left // s.n)
        elif s.final_pending:
            final_rounds_left = s.options.final_rounds
        else:
            final_rounds_left = 0
        pred = s.prediction
        view: dict[str, Any] = {
            "game": self.name,
            "players": s.n,
            "teams": s.teams,
            "factions": s.factions(),
            "dealer": s.dealer,
            "first_player": s.first,
            "round": s.round + 1,
            "max_rounds": s.options.max_rounds,
            "turn_number": s.turn_no,
            "phase": s.phase,
            "current": s.current,
            "to_act": sorted(self.to_act(s)),
            "extra_turn": s.chain,
            "chain_target": s.chain_target,
            "free_time": s.in_free_time(),
            "free_time_rounds_left": free_left,
            "final_phase": s.final_pending or s.final_left > 0,
            "final_turns_left": s.final_left if s.final_left > 0 else 0,
            "final_rounds_left": final_rounds_left,
            "draw_pile": len(s.draw),
            "discard": labels(s.discard),
            "seats": seats,
            "team_scores": [{"team": f, "score": totals[f]} for f in sorted(totals)],
            "eliminations": [{"victim": v, "by": b, "points": p, "number": k}
                             for v, b, p, k in s.elims],
            "pending_six_suits": pending,
            "prediction": ({"number": NUMBERS[pred[0]], "colour": COLOUR_NAMES[pred[1]],
                            "shape": SHAPE_NAMES[pred[2]]} if pred else None),
            "revealed": LABELS[s.shown] if s.shown >= 0 else None,
            "drawn_count": len(s.drawn),
            "offer": ({"card": LABELS[s.offer[0]], "from": s.current, "target": s.offer[1],
                       "pile": s.offer[2], "covered": LABELS[s.tops[s.offer[1] * 6 + s.offer[2]]]}
                      if s.offer else None),
            "vetoed": [{"card": LABELS[c], "target": t, "pile": p} for c, t, p in s.vetoed],
            "last_play": ({"seat": s.last[0], "card": LABELS[s.last[1]], "target": s.last[2],
                           "pile": s.last[3], "covered": LABELS[s.last[4]]} if s.last else None),
            "you": seat,
        }
        if seat is not None:
            view["hand"] = labels(s.hands[seat])
            view["drawn"] = labels(s.drawn) if seat == s.current else []
        result = self.outcome(s)
        if result is not None:
            view["outcome"] = {"scores": [result.scores[i] for i in range(s.n)],
                               "winners": sorted(result.winners), "reason": result.reason}
        return view

    def secret_labels(self, state: SixSuitState, seat: int | None) -> frozenset[str]:
        hidden = list(state.draw)
        for i in range(state.n):
            if i != seat:
                hidden.extend(c for c in state.hands[i] if not state.known[i] >> c & 1)
        return frozenset(LABELS[c] for c in hidden if not state.seen >> c & 1)

    # ---- text and menus ----------------------------------------------------------------------
    def describe(self, state: SixSuitState, action: Action) -> str:
        kind = type(action)
        if kind is Predict:
            return "Predict " + prediction_text(action.number, action.colour, action.shape)  # type: ignore[union-attr]
        if kind is Play:
            a: Play = action  # type: ignore[assignment]
            covered = state.tops[a.target * 6 + a.pile]
            whose = "own" if a.target == state.current else f"{{P{a.target}}}'s"
            dbl = " (double match)" if covered >= 0 and SHARED[a.card][covered] == 2 else ""
            cov = LABELS[covered] if covered >= 0 else "?"
            return f"Play {LABELS[a.card]} on {whose} pile {a.pile + 1} ({cov}){dbl}"
        if kind is Discard:
            return f"Discard {LABELS[action.card]}"  # type: ignore[union-attr]
        if kind is Consent or kind is Veto:
            if not state.offer:
                return "Consent" if kind is Consent else "Veto"
            card, _t, pile = state.offer
            if kind is Consent:
                return (f"Consent: let {{P{state.current}}} put {LABELS[card]} on your pile "
                        f"{pile + 1}")
            return f"Veto: send {LABELS[card]} back to {{P{state.current}}}"
        return "Pass (no card to play)"

    def menu_path(self, state: SixSuitState, action: Action) -> tuple[str, ...]:
        kind = type(action)
        if kind is Predict:
            a: Predict = action  # type: ignore[assignment]
            return (f"Number: {NUMBERS[a.number]}",
                    f"Colour: {COLOURS[a.colour]} {COLOUR_NAMES[a.colour]}",
                    f"Shape: {SHAPES[a.shape]} {SHAPE_NAMES[a.shape]}")
        if kind is Play:
            p: Play = action  # type: ignore[assignment]
            covered = state.tops[p.target * 6 + p.pile]
            whose = "On my piles" if p.target == state.current else f"On {{P{p.target}}}"
            tag = ""
            if covered >= 0 and SHARED[p.card][covered] == 2:
                earns = (state.chain == 0 or p.target == state.chain_target
                         or state.chain_elim)
                tag = " · double match" + (" → extra turn" if earns else "")
            after = state.tops_of(p.target)
            after[p.pile] = p.card
            if is_six_suit(after):
                if (state.faction(p.target) != state.faction(state.current)
                        and not state.in_free_time()):
                    tag += " · SIX SUIT → eliminates"
                else:
                    tag += " · makes a six suit"
            cov = LABELS[covered] if covered >= 0 else "?"
            return (LABELS[p.card], whose, f"Pile {p.pile + 1}: cover {cov}{tag}")
        if kind is Discard:
            card = action.card  # type: ignore[union-attr]
            if not self._playable(state, card):
                # No pile takes it: say so on the card itself (the panel would otherwise
                # discard on a single click with no second step).
                return (f"{LABELS[card]} · fits no pile: discard it",)
            return (LABELS[card], "Discard to the centre")
        return (self.describe(state, action),)

    def _playable(self, s: SixSuitState, card: int) -> bool:
        """Whether the current player could play `card` on some pile (menus only)."""
        row = SHARED[card]
        vetoed = {(t, p) for c, t, p in s.vetoed if c == card}
        seats = range(s.n)
        if s.in_free_time() and self._others_blocked(s):
            seats = (s.current,)
        return any(row[s.tops[t * 6 + p]] and (t, p) not in vetoed
                   for t in seats for p in range(6))

    # ---- hidden information ----------------------------------------------------------------
    def determinize(self, state: SixSuitState, seat: int, rng: random.Random) -> SixSuitState:
        s = state.clone()
        pool = list(s.draw)
        sizes = []
        for i in range(s.n):
            if i == seat:
                continue
            keep = [c for c in s.hands[i] if s.known[i] >> c & 1]
            pool.extend(c for c in s.hands[i] if not s.known[i] >> c & 1)
            sizes.append((i, keep, len(s.hands[i]) - len(keep)))
        rng.shuffle(pool)
        for i, keep, k in sizes:
            fresh = [pool.pop() for _ in range(k)]
            s.hands[i] = sorted(keep + fresh)
        s.draw = pool
        if s.drawn and s.current != seat:
            # What the current player drew this turn is unknown to the seat, except cards
            # that are public now (the shown card, a vetoed card: known hand cards; an offered
            # card: out of the hand, face up): swap in the resampled hidden hand cards.
            # (Not `seen`: a card once face up may have been recycled and drawn face down.)
            cur = s.current
            hand = set(state.hands[cur])
            spare = [c for c in s.hands[cur] if not s.known[cur] >> c & 1]
            s.drawn = [c if c not in hand or s.known[cur] >> c & 1 else spare.pop()
                       for c in s.drawn]
        # A fresh seed: the future draw order is not knowable either.
        s.seed = rng.randrange(2**62)
        s.rng_counter = 0
        return s

    # ---- persistence -----------------------------------------------------------------------
    def dump(self, state: SixSuitState) -> str:
        data: dict[str, Any] = {}
        for f in fields(SixSuitState):
            value = getattr(state, f.name)
            if f.name == "options":
                value = value.model_dump()
            elif f.name in ("seen",):
                value = str(value)
            elif f.name == "known":
                value = [str(v) for v in value]
            data[f.name] = value
        return json.dumps(data, separators=(",", ":"), sort_keys=True)

    def load(self, text: str) -> SixSuitState:
        data = json.loads(text)
        data["options"] = SixSuitOptions.model_validate(data["options"])
        data["seen"] = int(data["seen"])
        data["known"] = [int(v) for v in data["known"]]
        data.setdefault("depth", [])  # saved before piles were counted: not known
        return SixSuitState(**data)

    # ---- automatic moves -------------------------------------------------------------------
    def default_action(self, state: SixSuitState, seat: int) -> Action:
        """The timer plays what the AI's heuristic would, without any randomness."""
        move = self.ai_timer_move(state, seat)
        return move if move is not None else self.legal_actions(state, seat)[0]


ENGINE = SixSuitEngine()
