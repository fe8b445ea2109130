"""Suspense: a 13-card deduction game for 2-3 players (seeds/suspense.txt, RULINGS.md).

Each card carries a victory condition. One card is dealt face down as the secret card (only
the dealer may look at it); at the end of a match its condition decides who scores. Players
play cards face up, pass or fold; the match ends on a face-up total of 15 (2 players) / 20
(3 players), when everyone still in has passed since the last play, or when all have folded.

Cards are small ints so a state clone is a handful of list copies and the AI can evaluate
thousands of worlds per decision:

    0 = "❗" (worth 0, never a number), 1..6 = white 1..6, 7..12 = black 1..6.

Hands and face-up areas are 13-bit masks; the conditions are looked up in tables built once
at import from those masks (no randomness, no I/O besides reading the card texts).
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import Field

from engines.ai_levels import AiLevel, ai_level_field
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
    private,
    public,
)

DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "suspense"

# --------------------------------------------------------------------------- cards
BANG = 0
N_CARDS = 13
ALL_CARDS = (1 << N_CARDS) - 1
CARD_LABELS: tuple[str, ...] = (
    "❗", *(f"⚪{v}" for v in range(1, 7)), *(f"⚫{v}" for v in range(1, 7)))
"""Label of each card index, exactly as views, events and menus write it."""
LABEL_INDEX: dict[str, int] = {label: i for i, label in enumerate(CARD_LABELS)}
VALUE: tuple[int, ...] = (0, 1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6)
WHITE_MASK = 0b0000001111110
BLACK_MASK = 0b1111110000000
NUMBER_MASK = WHITE_MASK | BLACK_MASK

# Condition of each card: (zone, extreme, colour). zone "play" = face-up cards in front of a
# player, "hand" = cards still held at match end. The pairing is RULINGS.md's table.
CONDITION_SPEC: dict[int, tuple[str, str, str | None]] = {
    0: ("play", "lowest_sum", None),
    1: ("play", "lowest", None),
    7: ("hand", "lowest", None),
    6: ("play", "highest", None),
    12: ("hand", "highest", None),
    2: ("play", "lowest", "white"),
    3: ("hand", "lowest", "white"),
    4: ("play", "highest", "white"),
    5: ("hand", "highest", "white"),
    8: ("play", "lowest", "black"),
    9: ("hand", "lowest", "black"),
    10: ("play", "highest", "black"),
    11: ("hand", "highest", "black"),
}


def _bits(mask: int) -> list[int]:
    return [i for i in range(N_CARDS) if mask >> i & 1]


def _extreme_table(colour_mask: int, lowest: bool) -> tuple[int, ...]:
    """For every 13-bit mask: the lowest/highest number among its cards of a colour, 0 = none."""
    table = []
    for mask in range(1 << N_CARDS):
        values = [VALUE[i] for i in _bits(mask & colour_mask)]
        table.append((min(values) if lowest else max(values)) if values else 0)
    return tuple(table)


_SUM = tuple(sum(VALUE[i] for i in _bits(m)) for m in range(1 << N_CARDS))
_TABLES = {
    (extreme, colour): _extreme_table(
        {None: NUMBER_MASK, "white": WHITE_MASK, "black": BLACK_MASK}[colour],
        extreme == "lowest")
    for extreme in ("lowest", "highest") for colour in (None, "white", "black")
}
# card -> (zone is hand?, table, lowest?) for the fast evaluator
_FAST_SPEC: dict[int, tuple[bool, tuple[int, ...], bool]] = {
    card: (zone == "hand", _SUM if extreme == "lowest_sum" else _TABLES[extreme, colour],
           extreme != "highest")
    for card, (zone, extreme, colour) in CONDITION_SPEC.items()
}


def _load_cards() -> dict[str, str]:
    raw = json.loads((DATA_DIR / "cards.json").read_text(encoding="utf-8"))
    texts = {entry["label"]: entry["condition"] for entry in raw["cards"]}
    if set(texts) != set(CARD_LABELS):
        raise RuntimeError("data/suspense/cards.json must describe exactly the 13 cards")
    return texts


CONDITIONS: dict[str, str] = _load_cards()
"""Condition text of each card label (from data/suspense/cards.json)."""


def condition_text(label: str) -> str:
    """The victory condition printed on a card, e.g. condition_text("⚪6")."""
    return CONDITIONS[label]


def condition_table() -> list[dict[str, Any]]:
    """Every card with its condition, in deck order: what a renderer shows as the card list."""
    return [{"card": label, "condition": CONDITIONS[label]} for label in CARD_LABELS]


_LABELS_OF = tuple(tuple(CARD_LABELS[i] for i in _bits(m)) for m in range(1 << N_CARDS))


def mask_labels(mask: int) -> list[str]:
    """Labels of the cards in a mask, in deck order (❗, ⚪1..⚪6, ⚫1..⚫6)."""
    return list(_LABELS_OF[mask])


def meeters(secret: int, play: Sequence[int], hands: Sequence[int]) -> int:
    """Bitmask of the seats meeting the secret card's condition.

    The seat holding the most extreme qualifying card meets it; equal numbers of different
    colours held by different seats are a tie (all of them meet). For "❗" (lowest face-up
    sum) a seat needs at least one numbered card face up; equal sums tie. A seat with no
    qualifying card never meets; if no seat qualifies, nobody meets.

    By table lookup (`_MEET_KEY`: higher is more extreme, 0 = does not qualify), as the AI
    calls it hundreds of thousands of times per hard decision.
    """
    in_hand, key = _MEET_KEY[secret]
    best = result = 0
    bit = 1
    for mask in hands if in_hand else play:
        k = key[mask]
        if k > best:
            best, result = k, bit
        elif k and k == best:
            result |= bit
        bit <<= 1
    return result


def _meet_key(secret: int) -> tuple[bool, tuple[int, ...]]:
    """(zone is hand?, key per mask) of a condition: the key grows with how extreme the mask's
    qualifying value is (a lowest-value condition counts down from 100), 0 when the mask has
    no qualifying card. A "❗" sum is 0 exactly when no numbered card is face up (every
    number is worth at least 1), so it needs no case of its own."""
    in_hand, table, lowest = _FAST_SPEC[secret]
    return in_hand, tuple((100 - v if lowest else v) if v else 0 for v in table)


_MEET_KEY = tuple(_meet_key(card) for card in range(N_CARDS))


def deciding_cards(secret: int, play: int, hand: int) -> int:
    """The card(s) of one meeting seat that decided the secret card's condition (RULINGS,
    match-end reveal, amended): for "❗" every numbered face-up card (their sum is what
    counts); otherwise the seat's qualifying card(s) of the extreme value in the condition's
    zone (two when a white and a black of that value both qualify). Never the whole hand."""
    in_hand, table, _lowest = _FAST_SPEC[secret]
    mask = hand if in_hand else play
    if secret == BANG:
        return mask & NUMBER_MASK
    value = table[mask]
    if not value:
        return 0
    colour = CONDITION_SPEC[secret][2]
    allowed = {None: NUMBER_MASK, "white": WHITE_MASK, "black": BLACK_MASK}[colour]
    return sum(1 << c for c in _bits(mask & allowed) if VALUE[c] == value)


def match_points(meet: int, folded: int, n: int) -> list[int]:
    """Points of one match: non-folded meeters share (alone 2, several 1 each); folded seats
    get 1 when they do not meet and 0 when they do; other seats 0."""
    winners = [s for s in range(n) if meet >> s & 1 and not folded >> s & 1]
    share = 2 if len(winners) == 1 else 1
    points = []
    for s in range(n):
        if folded >> s & 1:
            points.append(0 if meet >> s & 1 else 1)
        else:
            points.append(share if meet >> s & 1 else 0)
    return points


# --------------------------------------------------------------------------- actions
@dataclass(frozen=True, slots=True)
class Play:
    """Play one card from the hand face up in front of you."""

    card: str  # a label from CARD_LABELS
    kind: str = field(default="play", init=False)


@dataclass(frozen=True, slots=True)
class Pass:
    """Skip this turn; you stay in the match."""

    kind: str = field(default="pass", init=False)


@dataclass(frozen=True, slots=True)
class Fold:
    """Leave the match for good; your hand stays hidden."""

    kind: str = field(default="fold", init=False)


Action = Play | Pass | Fold
PLAYS: tuple[Play, ...] = tuple(Play(label) for label in CARD_LABELS)
_PLAYS_OF = tuple(tuple(PLAYS[i] for i in _bits(m)) for m in range(1 << N_CARDS))
PASS = Pass()
FOLD = Fold()

SEAT = tuple(f"{{P{p}}}" for p in range(3))  # seat placeholders for event texts
_ONLY = tuple(frozenset((p,)) for p in range(3))

# log codes (public history of the current match)
LOG_PLAY, LOG_PASS, LOG_FOLD, LOG_AUTO = "play", "pass", "fold", "auto_pass"


# --------------------------------------------------------------------------- options
class SuspenseOptions(GameOptions):
    points_target: int = Field(
        6, ge=2, le=20,
        description="Points needed to win the game; everyone reaching it in the same match wins.")
    max_matches: int = Field(
        50, ge=1, le=200,
        description="Safety cap: after this many matches the game ends and the highest score wins.")
    ai_level: AiLevel = ai_level_field()


# --------------------------------------------------------------------------- state
@dataclass(slots=True)
class SuspenseState(SeededState):
    """Whole-game state. Masks are 13-bit card sets; per-seat lists are indexed by seat."""

    n: int
    options: SuspenseOptions
    seed: int
    rng_counter: int = 0
    scores: list[int] = field(default_factory=list)
    match_no: int = 0
    dealer: int = 0
    turn: int = 0
    hands: list[int] = field(default_factory=list)
    played: list[list[int]] = field(default_factory=list)  # face-up cards in play order
    play_masks: list[int] = field(default_factory=list)
    secret: int = 0
    folded: int = 0  # seat bitmask
    passed: int = 0  # seats that passed since the last play (auto passes included)
    total: int = 0
    log: list[tuple[int, str, int]] = field(default_factory=list)  # (seat, what, card|-1)
    seen: list[int] = field(default_factory=list)  # per seat: cards ever shown to it alone
    seen_public: int = 0  # every card ever shown to everyone (plays, reveals)
    last_match: dict[str, Any] | None = None
    over: bool = False
    winners: int = 0
    end_reason: str = ""
    # Public per seat: matches it folded as dealer, and of those the ones it met the secret's
    # condition in (told at every match end). The AI reads a dealer's fold by this record.
    dealer_folds: list[int] = field(default_factory=list)
    dealer_folds_met: list[int] = field(default_factory=list)

    def clone(self) -> SuspenseState:
        return SuspenseState(
            self.n, self.options, self.seed, self.rng_counter, self.scores[:], self.match_no,
            self.dealer, self.turn, self.hands[:], [p[:] for p in self.played],
            self.play_masks[:], self.secret, self.folded, self.passed, self.total,
            self.log[:], self.seen[:], self.seen_public, self.last_match, self.over,
            self.winners, self.end_reason, self.dealer_folds[:], self.dealer_folds_met[:])

    @property
    def threshold(self) -> int:
        return 15 if self.n == 2 else 20

    def still_in(self) -> int:
        return ((1 << self.n) - 1) & ~self.folded


_STATE_FIELDS = tuple(f for f in SuspenseState.__dataclass_fields__ if f != "options")


# --------------------------------------------------------------------------- engine
class SuspenseEngine(Engine[SuspenseState, Action]):
    name = "suspense"
    title = "Suspense"
    min_players = 2
    max_players = 3
    Options = SuspenseOptions

    # ---- setup ---------------------------------------------------------------------------
    def new_game(self, n_players: int, seed: int, options=None) -> SuspenseState:
        if not self.min_players <= n_players <= self.max_players:
            raise ValueError("Suspense needs 2 or 3 players.")
        opts = self.parse_options(options)
        state = SuspenseState(n=n_players, options=opts, seed=seed,
                              scores=[0] * n_players, seen=[0] * n_players)
        state.dealer = state.next_rng().randrange(n_players)  # RULINGS: random first dealer
        self._deal(state, [])
        return state

    def _deal(self, s: SuspenseState, events: list[Event]) -> None:
        """Shuffle the 13 cards, deal all but one evenly from the dealer's left, keep the
        last as the secret card (shown to the dealer only)."""
        draw = s.next_rng().random
        deck = sorted(range(N_CARDS), key=lambda _: draw())  # a uniform shuffle
        n = s.n
        s.match_no += 1
        s.secret = deck.pop()
        s.hands = [0] * n
        for k, card in enumerate(deck):
            s.hands[(s.dealer + 1 + k) % n] |= 1 << card
        s.played = [[] for _ in range(n)]
        s.play_masks = [0] * n
        s.folded = s.passed = s.total = 0
        s.log = []
        s.turn = s.dealer
        for seat in range(n):
            s.seen[seat] |= s.hands[seat]
        s.seen[s.dealer] |= 1 << s.secret
        events.append(public(
            "match_start",
            f"Match {s.match_no}: {{P{s.dealer}}} deals {len(deck) // n} cards each and "
            f"looks at the secret card. {{P{s.dealer}}} starts.",
            match=s.match_no, dealer=s.dealer))
        for seat in range(n):
            cards = _LABELS_OF[s.hands[seat]]
            # Named by match: the move that ends a match is confirmed together with this
            # next deal, which must not read as the hand the move was made from.
            events.append(Event("hand", f"Your hand for match {s.match_no}: " + " ".join(cards),
                                _ONLY[seat], {"cards": list(cards), "match": s.match_no}))
        label = CARD_LABELS[s.secret]
        events.append(private(s.dealer, "secret_card",
                              f"The secret card of match {s.match_no} is {label}: "
                              f"{CONDITIONS[label]}.",
                              card=label, condition=CONDITIONS[label], match=s.match_no))

    # ---- queries -------------------------------------------------------------------------
    def to_act(self, state: SuspenseState) -> frozenset[int]:
        return frozenset() if state.over else frozenset((state.turn,))

    def legal_actions(self, state: SuspenseState, seat: int) -> list[Action]:
        if state.over or seat != state.turn:
            return []
        plays = _PLAYS_OF[state.hands[seat]]
        if not state.played[seat]:  # first turn of the match: must play
            return list(plays)
        return [*plays, PASS, FOLD]

    def outcome(self, state: SuspenseState) -> Outcome | None:
        if not state.over:
            return None
        return Outcome({s: float(state.scores[s]) for s in range(state.n)},
                       frozenset(s for s in range(state.n) if state.winners >> s & 1),
                       state.end_reason)

    # ---- apply ---------------------------------------------------------------------------
    def apply(self, state: SuspenseState, seat: int, action: Action) -> Step[SuspenseState]:
        if state.over:
            raise GameOverError("The game is over.")
        if seat != state.turn:
            raise NotYourTurnError("It is not your turn.")
        kind = type(action)
        card = -1
        if kind is Play:
            card = LABEL_INDEX.get(action.card, -1)  # type: ignore[union-attr]
            if card < 0 or not state.hands[seat] >> card & 1:
                raise IllegalActionError("You do not hold that card.")
        elif kind is Pass or kind is Fold:
            if not state.played[seat]:
                raise IllegalActionError("On your first turn of a match you must play a card.")
        else:
            raise IllegalActionError("That move is not allowed right now.")

        s = state.clone()
        events: list[Event] = []
        bit = 1 << seat
        if kind is Play:
            label = CARD_LABELS[card]
            s.hands[seat] &= ~(1 << card)
            s.played[seat].append(card)
            s.play_masks[seat] |= 1 << card
            s.total += VALUE[card]
            s.passed = 0
            s.log.append((seat, LOG_PLAY, card))
            s.seen_public |= 1 << card
            events.append(Event("play", f"{SEAT[seat]} plays {label} (face-up total {s.total}).",
                                None, {"seat": seat, "card": label, "total": s.total}))
            if s.total >= s.threshold:
                self._end_match(s, f"the face-up total reached {s.total}", events)
            else:
                self._advance(s, seat, events)
        elif kind is Pass:
            s.passed |= bit
            s.log.append((seat, LOG_PASS, -1))
            events.append(Event("pass", f"{SEAT[seat]} passes.", None, {"seat": seat}))
            if s.still_in() & ~s.passed == 0:
                self._end_match(s, "everyone still in passed", events)
            else:
                self._advance(s, seat, events)
        else:
            s.folded |= bit
            s.log.append((seat, LOG_FOLD, -1))
            events.append(public("fold", f"{{P{seat}}} folds for the rest of the match.",
                                 seat=seat))
            if not s.still_in():
                self._end_match(s, "everyone folded", events)
            elif s.still_in() & ~s.passed == 0:
                self._end_match(s, "everyone still in passed", events)
            else:
                self._advance(s, seat, events)
        return Step(s, tuple(events))

    def _advance(self, s: SuspenseState, seat: int, events: list[Event]) -> None:
        """Give the turn to the next seat still in; an empty hand passes automatically."""
        nxt = seat
        while True:
            nxt = (nxt + 1) % s.n
            if s.folded >> nxt & 1:
                continue
            if s.hands[nxt] or not s.played[nxt]:
                s.turn = nxt
                return
            s.passed |= 1 << nxt
            s.log.append((nxt, LOG_AUTO, -1))
            events.append(public("auto_pass", f"{{P{nxt}}} has no cards left and passes.",
                                 seat=nxt))
            if s.still_in() & ~s.passed == 0:
                self._end_match(s, "everyone still in passed", events)
                return

    def _end_match(self, s: SuspenseState, why: str, events: list[Event]) -> None:
        """Reveal the secret card, score the match, then end the game or deal the next match."""
        n = s.n
        meet = meeters(s.secret, s.play_masks, s.hands)
        points = match_points(meet, s.folded, n)
        for seat in range(n):
            s.scores[seat] += points[seat]
        _tally_dealer_fold(s, meet)
        label = CARD_LABELS[s.secret]
        # RULINGS (match-end reveal, amended): the secret card, who met it and, for each
        # meeter, the card(s) that decided it; never whole hands, so a folded hand can never
        # be rebuilt as "the 13 cards minus everything shown". A folded meeter's deciding card
        # is named only when it is face up already (their hand stays hidden for good).
        shown = 1 << s.secret
        deciding: list[list[str] | None] = []
        for seat in range(n):
            if not meet >> seat & 1:
                deciding.append(None)
                continue
            cards = deciding_cards(s.secret, s.play_masks[seat], s.hands[seat])
            if s.folded >> seat & 1:
                cards &= s.play_masks[seat]
            shown |= cards
            deciding.append(mask_labels(cards))
        s.seen_public |= shown
        met = [seat for seat in range(n) if meet >> seat & 1]
        s.last_match = {
            "match": s.match_no,
            "dealer": s.dealer,
            "why": why,
            "secret": label,
            "condition": CONDITIONS[label],
            "met": met,
            "folded": [seat for seat in range(n) if s.folded >> seat & 1],
            "points": points,
            "in_play": [[CARD_LABELS[c] for c in cards] for cards in s.played],
            "deciding": deciding,
            "scores": s.scores[:],
        }
        who = ", ".join([SEAT[m] + (f" ({' '.join(deciding[m])})" if deciding[m] else "")
                         for m in met]) if met else "nobody"
        gains = ", ".join([f"{SEAT[seat]} +{points[seat]}" for seat in range(n)])
        totals = ", ".join([f"{SEAT[seat]} {s.scores[seat]}" for seat in range(n)])
        events.append(public(
            "match_end",
            f"Match {s.match_no} over: {why}. Secret card {label}: {CONDITIONS[label]}. "
            f"Met by {who}. Points: {gains}. Scores: {totals}.",
            **dict(s.last_match)))

        target = s.options.points_target
        reached = [seat for seat in range(n) if s.scores[seat] >= target]
        if reached:
            s.over = True
            s.winners = sum(1 << seat for seat in reached)
            names = " and ".join(f"{{P{seat}}}" for seat in reached)
            s.end_reason = f"{names} reached {target} points after match {s.match_no}"
        elif s.match_no >= s.options.max_matches:
            s.over = True
            top = max(s.scores)
            s.winners = sum(1 << seat for seat in range(n) if s.scores[seat] == top)
            s.end_reason = (f"The {s.options.max_matches}-match safety cap was reached: the "
                            "highest score wins")
        if s.over:
            win = " and ".join(f"{{P{seat}}}" for seat in range(n) if s.winners >> seat & 1)
            events.append(public("game_over", f"Game over: {s.end_reason}. Winner: {win}.",
                                 winners=[seat for seat in range(n) if s.winners >> seat & 1],
                                 reason=s.end_reason, scores=s.scores[:]))
            return
        s.dealer = (s.dealer + 1) % n  # RULINGS: the deal moves one seat clockwise
        self._deal(s, events)

    # ---- views and text ------------------------------------------------------------------
    def view(self, state: SuspenseState, seat: int | None) -> dict:
        n = state.n
        players = []
        for p in range(n):
            players.append({
                "seat": p,
                "in_play": [CARD_LABELS[c] for c in state.played[p]],
                "hand_size": state.hands[p].bit_count(),
                "folded": bool(state.folded >> p & 1),
                "passed": bool(state.passed >> p & 1),
                "score": state.scores[p],
            })
        log = [{"seat": p, "action": what, "card": CARD_LABELS[c] if c >= 0 else None}
               for p, what, c in state.log]
        you = None
        if seat is not None:
            you = {
                "seat": seat,
                "hand": mask_labels(state.hands[seat]),
                "is_dealer": seat == state.dealer,
                "secret": CARD_LABELS[state.secret] if seat == state.dealer else None,
            }
        result = None
        if state.over:
            result = {"winners": [p for p in range(n) if state.winners >> p & 1],
                      "reason": state.end_reason}
        return {
            "game": self.name,
            "players_count": n,
            "match": state.match_no,
            "dealer": state.dealer,
            "turn": None if state.over else state.turn,
            "total": state.total,
            "threshold": state.threshold,
            "points_target": state.options.points_target,
            "max_matches": state.options.max_matches,
            "scores": state.scores[:],
            "players": players,
            "log": log,
            "last_match": state.last_match,
            "over": state.over,
            "result": result,
            "you": you,
        }

    def describe(self, state: SuspenseState, action: Action) -> str:
        if isinstance(action, Play):
            return f"Play {action.card}"
        if isinstance(action, Pass):
            return "Pass"
        if isinstance(action, Fold):
            return "Fold"
        return str(action)

    def menu_path(self, state: SuspenseState, action: Action) -> tuple[str, ...]:
        if isinstance(action, Play):
            return ("Play", action.card)
        return (self.describe(state, action),)

    def secret_labels(self, state: SuspenseState, seat: int | None) -> frozenset[str]:
        hidden = 0
        for p in range(state.n):
            if p != seat:
                hidden |= state.hands[p]
        if seat != state.dealer:
            hidden |= 1 << state.secret
        known = state.seen_public if seat is None else state.seen[seat] | state.seen_public
        return frozenset(mask_labels(hidden & ~known))

    # ---- timers and AI -------------------------------------------------------------------
    def default_action(self, state: SuspenseState, seat: int) -> Action:
        """Pass when allowed; on a forced first play, the lowest-risk card: the "❗" (not a
        number, so it changes no condition) or else the number closest to the middle."""
        legal = self.legal_actions(state, seat)
        if PASS in legal:
            return PASS
        return min(legal, key=lambda a: _risk(LABEL_INDEX[a.card]))  # type: ignore[union-attr]

    def determinize(self, state: SuspenseState, seat: int, rng: random.Random,
                    secret: int | None = None) -> SuspenseState:
        """Resample the other hands (sizes kept) and, unless `seat` dealt, the secret card.

        The future is hidden too: the seed (which fixes every later deal, and from which the
        current deal could be recomputed) is replaced, and the other seats' private memory
        (`seen`, which holds their real hands and the dealer's secret) is rebuilt from the
        resampled world. `secret` (a card `seat` cannot see) fixes the secret card of the
        world: the hard AI spreads its worlds evenly over the possible secrets.
        """
        s = state.clone()
        fixed = s.hands[seat]
        for mask in s.play_masks:
            fixed |= mask
        knows_secret = seat == s.dealer
        if knows_secret:
            fixed |= 1 << s.secret
        pool = _bits(ALL_CARDS & ~fixed)
        chosen = secret is not None and not knows_secret
        if chosen:
            if secret not in pool:
                raise ValueError("that card is not hidden from this seat")
            pool.remove(secret)
        rng.shuffle(pool)
        if chosen:
            pool.append(secret)  # dealt last: the secret card
        k = 0
        for p in range(s.n):
            if p == seat:
                continue
            size = s.hands[p].bit_count()
            s.hands[p] = sum(1 << c for c in pool[k:k + size])
            k += size
        if not knows_secret:
            s.secret = pool[k]
        for p in range(s.n):
            if p != seat:
                s.seen[p] = s.seen_public | s.hands[p] | (
                    1 << s.secret if p == s.dealer else 0)
        s.seed = rng.randrange(2**62)
        s.rng_counter = 0
        return s

    # ---- storage -------------------------------------------------------------------------
    def dump(self, state: SuspenseState) -> str:
        data = {name: getattr(state, name) for name in _STATE_FIELDS}
        data["options"] = state.options.model_dump()
        return json.dumps(data, ensure_ascii=False, sort_keys=True)

    def load(self, text: str) -> SuspenseState:
        data = json.loads(text)
        data["options"] = self.parse_options(data["options"])
        data["log"] = [tuple(entry) for entry in data["log"]]
        return SuspenseState(**data)


def _tally_dealer_fold(s: SuspenseState, meet: int) -> None:
    """Count a dealer's fold (and whether the dealer met the condition) in the public record."""
    if not s.folded >> s.dealer & 1:
        return
    if len(s.dealer_folds) != s.n:
        s.dealer_folds, s.dealer_folds_met = [0] * s.n, [0] * s.n
    s.dealer_folds[s.dealer] += 1
    s.dealer_folds_met[s.dealer] += meet >> s.dealer & 1


def _risk(card: int) -> float:
    """How likely playing this card is to change who meets a condition (lower = safer)."""
    return -1.0 if card == BANG else abs(VALUE[card] - 3.5) + (0.1 if card >= 7 else 0.0)


ENGINE = SuspenseEngine()
