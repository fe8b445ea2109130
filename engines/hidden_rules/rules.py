"""Hidden Rules: Up 'N Over tricks plus secret rules that players enforce on each other.

Model (RULINGS.md, Hidden Rules; DESIGN.md section 2):

* Phase "choose": every seat secretly keeps one of its 2 triggers and one of its 2 actions
  (simultaneous: `to_act` = the seats that have not chosen). When the last seat has chosen,
  the dealer turns up the first card automatically.
* Phase "play": the seat `to_play` plays a card (with a free `say` text). After any play an
  *enforcement window* is open on that play: every other seat that has not yet enforced or
  passed on it is in `to_act` with `Enforce(holder)` and `Pass()`. Playing the next card,
  starting the next trick, or an undo closes the window (a time-out plays no card, so the
  window stays open). A seat acts at most once
  per play in a window, so enforcement can never loop.
* When a play ends the trick (exactly 21, over 21, or nobody left with cards), nobody is
  `to_play`; the trick's next starter (the taker, or the starter again for a discarded trick)
  is in `to_act` with `StartTrick()`, which collects the trick (+1 to the taker), checks the
  target, refills hands from the taker and turns up the next card.
* Phase "pending": an enforcement waits for the accused (the player of the last card), who
  Accepts or Challenges. "Right" means: the named holder's kept rule was broken by that play,
  i.e. its trigger fired and its action was not performed (the hint is free text and is not
  judged).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ClassVar, NamedTuple

from pydantic import Field

from engines.ai_levels import AiLevel, ai_level_field
from engines.cards import SUITS, Card, make_deck
from engines.core import (
    Engine,
    Event,
    GameOptions,
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
    Outcome,
    Step,
    private,
    public,
    rng_for,
    typed,
)
from engines.hidden_rules.decks import (
    ACTION_IDS,
    ACTIONS,
    LINE_BREAK,
    QUIET_CHARS_MAX,
    QUIET_PARTS_MAX,
    TRIGGER_IDS,
    TRIGGERS,
    PlayContext,
    RuleCard,
    broken,
    broken_rules,
    performed,
    say_parts,
    triggered,
    unnecessary_parts,
)
from engines.hidden_rules.text import ANIMALS, CHARACTERS

SCORE_FLOOR = -10
SAY_MAX = 200
HINT_MAX = 200
HISTORY_IN_VIEW = 10
VALUES = {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8, 9: 9, 10: 10, 11: 0, 12: -2, 13: -4}
# The one set of card objects every game deals from (cards are immutable, so states share them).
# Every table below is keyed by these same objects: a lookup or `hand.index(card)` then matches
# by identity instead of calling the dataclass's Python-level __eq__.
DECK: tuple[Card, ...] = tuple(make_deck())
CARD_BIT = {c: 1 << (SUITS.index(c.suit) * 13 + c.rank - 1) for c in DECK}
CARD_STR = {c: str(c) for c in DECK}  # rendering is hot in events and views
# RuleCard.label formats its text on every call; event texts use these instead.
TRIGGER_LABELS = {t: card.label for t, card in TRIGGERS.items()}
ACTION_LABELS = {a: card.label for a, card in ACTIONS.items()}


# --------------------------------------------------------------------------- options
class Options(GameOptions):
    target: int = Field(3, ge=1, le=10, description="Points needed to win (checked when a "
                        "trick is collected).")
    smaller_hands: bool = Field(False, description="Deal one card fewer per player above three "
                                "(4 players: 4 cards, 5 players: 3).")
    turn_seconds: int = Field(60, ge=0, le=600, description="Seconds to play a card; running "
                              "out costs 1 point and passes the turn (0 = no limit).")
    referee: bool = Field(False, description="Beginners: the bot enforces every secret rule "
                          "itself and takes back any play that breaks one.")
    quiet_table: bool = Field(True, description="Unnecessary talking: a part of what you say "
                              "that no rule triggered by your play asks for may be enforced by "
                              "anyone (at most 3 parts and 100 characters per play).")
    max_turns: int = Field(600, ge=50, le=5000, description="Safety cap: the game ends after "
                           "this many card plays and time-outs (taken-back plays count); the "
                           "highest score then wins.")
    ai_level: AiLevel = ai_level_field()


# --------------------------------------------------------------------------- actions
@dataclass(frozen=True, slots=True)
class Keep:
    """Choose the secret rule: keep one dealt trigger and one dealt action."""

    trigger: int
    action: int
    kind: str = field(default="keep", init=False)


@dataclass(frozen=True, slots=True)
class Play:
    """Play a hand card. `ace_as` is 1 or 11 for an ace, 0 otherwise. `say` is what the
    player says with it; it is not part of equality, so any say text matches the listed play."""

    card: Card
    ace_as: int = 0
    say: str = field(default="", compare=False)
    kind: str = field(default="play", init=False)


@dataclass(frozen=True, slots=True)
class StartTrick:
    """The taker (or the starter of a discarded trick) collects it and turns up the next card."""

    kind: str = field(default="start", init=False)


@dataclass(frozen=True, slots=True)
class Enforce:
    """Enforce `holder`'s rule (own or someone else's) against the last play, with a hint."""

    holder: int
    hint: str = field(default="", compare=False)
    kind: str = field(default="enforce", init=False)


@dataclass(frozen=True, slots=True)
class Pass:
    """Let the last play stand (this seat will not enforce against it)."""

    kind: str = field(default="pass", init=False)


@dataclass(frozen=True, slots=True)
class Accept:
    """The accused takes the penalty without seeing the rule."""

    kind: str = field(default="accept", init=False)


@dataclass(frozen=True, slots=True)
class Challenge:
    """The accused asks the bot to check the enforcement and sees the named rule."""

    kind: str = field(default="challenge", init=False)


@dataclass(frozen=True, slots=True)
class TimeOut:
    """Applied by the turn timer only (never listed): -1 point, the turn passes."""

    kind: str = field(default="timeout", init=False)


Action = Keep | Play | StartTrick | Enforce | Pass | Accept | Challenge | TimeOut
_PASS, _ACCEPT, _CHALLENGE, _START, _TIMEOUT = Pass(), Accept(), Challenge(), StartTrick(), TimeOut()
_ENFORCES = tuple(Enforce(h) for h in range(8))
QUIET = -1
"""`Enforce.holder` for the public "unnecessary talking" rule (option `quiet_table`)."""
QUIET_NAME = "unnecessary talking"
_ENFORCE_QUIET = Enforce(QUIET)
# to_act answers with one of these (bit p of the index set = seat p acts) instead of building
# a new frozenset on every call; larger masks (more seats than any game has) are built as needed.
_SEAT_SETS = tuple(frozenset(p for p in range(8) if m >> p & 1) for m in range(1 << 8))


def _seat_set(mask: int) -> frozenset[int]:
    """The seats whose bits are set in `mask`."""
    if mask < len(_SEAT_SETS):
        return _SEAT_SETS[mask]
    return frozenset(p for p in range(mask.bit_length()) if mask >> p & 1)


class _CardFacts(NamedTuple):
    bit: int  # CARD_BIT
    label: str  # CARD_STR
    plays: tuple[Play, ...]  # how it may be played (an ace: as 1 or as 11)


# What the hot paths (listing plays, playing, event texts) need about a card, found by
# (rank, suit): hashing that pair is C code, while hashing a Card (and comparing it on a hash
# match) calls its dataclass's Python __hash__ and __eq__, which doubled these lookups.
_FACTS: dict[tuple[int, str], _CardFacts] = {
    (c.rank, c.suit): _CardFacts(CARD_BIT[c], CARD_STR[c],
                                 (Play(c, 1), Play(c, 11)) if c.rank == 1 else (Play(c),))
    for c in DECK}


# --------------------------------------------------------------------------- state
class LastPlay(NamedTuple):
    """The play an enforcement window is open on, with what is needed to take it back.

    (Like `Record` and `PlayContext`, a NamedTuple: one is built per play, and a frozen
    dataclass took several µs to construct.)"""

    seat: int
    index: int  # where the card was in the hand
    ctx: PlayContext


class Record(NamedTuple):
    """One finished enforcement, public (kept for the board and for players who learn rules).

    result: "accepted", "right" (challenge lost by the accused), "wrong" (challenge won by the
    accused) or "referee" (the bot enforced it); enforcer -1 for the referee.
    """

    enforcer: int
    holder: int
    accused: int
    hint: str
    result: str
    ctx: PlayContext
    changes: tuple[int, ...]


@dataclass(slots=True)
class HiddenRulesState:
    n: int
    options: Options
    seed: int
    rng_counter: int
    phase: str  # "choose" | "play" | "pending" | "over"
    dealer: int
    hand_size: int
    scores: list[int]
    hands: list[list[Card]]
    deck: list[Card]  # top = end
    pile: list[Card]  # collected and discarded tricks
    dealt_t: list[tuple[int, int]]  # once kept, the kept id comes first
    dealt_a: list[tuple[int, int]]
    rule_t: list[int]  # -1 until chosen
    rule_a: list[int]
    revealed: list[int]  # bitmask of holders whose rule each seat has been shown
    trick: list[tuple[int, Card, int, str]]  # (seat, card, value, say); [0] = turned up
    total: int
    starter: int
    to_play: int  # -1: nobody (trick over)
    trick_over: bool
    taker: int  # -1: none yet / discarded
    last: LastPlay | None  # an enforcement window is open on it
    waived: int  # seats that enforced or passed on `last`
    pending: tuple[int, int, str] | None  # (enforcer, holder, hint)
    history: list[Record]  # copy-on-write: replaced, never appended in place
    named_animals: frozenset[str]
    named_characters: frozenset[str]
    shown: int  # bitmask of cards ever shown face up
    turns: int
    tricks: int
    winners: frozenset[int] = frozenset()
    end_reason: str = ""
    # bitmask (CARD_BIT) of hand cards everyone knows the place of: taken back after an
    # enforcement or by the referee, and not played since
    known_in_hand: int = 0
    # per seat, a mask (decks.pair_bit) of the rules it has let a play break: it passed on
    # (let stand) a play that broke them, which a holder rarely does to its own rule. Public,
    # like the enforcement history; the hard AI reads rules from it. () before any pass.
    let_stand: tuple[int, ...] = ()

    def next_rng(self) -> random.Random:
        rng = rng_for(self.seed, self.rng_counter)
        self.rng_counter += 1
        return rng

    def clone(self) -> HiddenRulesState:
        """A copy owning all of its lists (for code that edits a state in place, such as
        `determinize`)."""
        c = self.shallow_copy()
        c.scores, c.hands, c.deck = self.scores[:], [h[:] for h in self.hands], self.deck[:]
        c.pile, c.dealt_t, c.dealt_a = self.pile[:], self.dealt_t[:], self.dealt_a[:]
        c.rule_t, c.rule_a, c.revealed = self.rule_t[:], self.rule_a[:], self.revealed[:]
        c.trick = self.trick[:]
        return c

    def shallow_copy(self) -> HiddenRulesState:
        """A copy sharing every list with this state: what `apply` starts from.

        Copying all thirteen lists (the deck among them) was the largest single cost of a
        move, while a move changes two or three of them. So the engine treats the lists of
        a state as copy-on-write: every step that changes a list first replaces it with a
        changed copy (`s.scores = s.scores[:]`, ...), never editing a list in place, and
        `history` is replaced on every new record. Code that edits a state by hand should
        do the same, or start from `clone()`.

        The copy is filled field by field on a bare instance: going through the
        34-argument __init__ cost twice as much.
        """
        c = object.__new__(HiddenRulesState)
        c.n, c.options, c.seed, c.rng_counter = self.n, self.options, self.seed, self.rng_counter
        c.phase, c.dealer, c.hand_size = self.phase, self.dealer, self.hand_size
        c.scores, c.hands, c.deck, c.pile = self.scores, self.hands, self.deck, self.pile
        c.dealt_t, c.dealt_a, c.rule_t, c.rule_a = (self.dealt_t, self.dealt_a, self.rule_t,
                                                    self.rule_a)
        c.revealed, c.trick, c.total, c.starter = (self.revealed, self.trick, self.total,
                                                   self.starter)
        c.to_play, c.trick_over, c.taker = self.to_play, self.trick_over, self.taker
        c.last, c.waived, c.pending, c.history = self.last, self.waived, self.pending, self.history
        c.named_animals, c.named_characters = self.named_animals, self.named_characters
        c.shown, c.turns, c.tricks, c.winners = self.shown, self.turns, self.tricks, self.winners
        c.end_reason, c.known_in_hand = self.end_reason, self.known_in_hand
        c.let_stand = self.let_stand
        return c

    # ---- small queries used by the engine and the AI
    def next_starter(self) -> int:
        return self.taker if self.taker >= 0 else self.starter

    def next_with_cards(self, after: int) -> int:
        """The first seat clockwise after `after` holding cards (`after` itself last), or -1."""
        n = self.n
        for i in range(1, n + 1):
            p = (after + i) % n
            if self.hands[p]:
                return p
        return -1

    def may_enforce(self, seat: int) -> bool:
        return (self.phase == "play" and self.last is not None
                and not (self.waived >> seat) & 1)

    def knows_rule(self, seat: int | None, holder: int) -> bool:
        if self.phase == "over" or seat == holder or holder < 0:  # < 0: a public rule (QUIET)
            return True
        return seat is not None and bool((self.revealed[seat] >> holder) & 1)


def card_value(card: Card, ace_as: int = 0) -> int:
    return (ace_as or 1) if card.rank == 1 else VALUES[card.rank]


def _rule_json(card: RuleCard) -> dict:
    return {"id": card.id, "text": card.text, "label": card.label}


def _label(card: Card) -> str:
    """CARD_STR[card], looked up by (rank, suit) (see _FACTS)."""
    return _FACTS[card.rank, card.suit].label


def clean_say(say: object) -> str:
    """What a player says, as kept: spaces squeezed, blank lines dropped, each line break
    kept as one (it separates parts for the unnecessary-talking rule; displays write it
    " / ": engines.core.typed), at most SAY_MAX characters."""
    lines = [" ".join(line.split()) for line in str(say).splitlines()]
    return LINE_BREAK.join(line for line in lines if line)[:SAY_MAX]


def said_length(say: object) -> int:
    """Characters of what a player said, as the quiet table counts them (RULINGS,
    unnecessary talking): the text as typed, spaces squeezed, each line break one character
    (as the kept text does)."""
    lines = [" ".join(line.split()) for line in str(say).splitlines()]
    return len("\n".join(line for line in lines if line))


def _say_suffix(say: str) -> str:
    return f" — says “{typed(say)}”" if say else ""


# --------------------------------------------------------------------------- engine
class HiddenRulesEngine(Engine[HiddenRulesState, Action]):
    name: ClassVar[str] = "hidden_rules"
    title: ClassVar[str] = "Hidden Rules"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 5
    Options: ClassVar[type[GameOptions]] = Options

    # ---- setup ----------------------------------------------------------------------------
    def new_game(self, n_players: int, seed: int,
                 options: GameOptions | dict | None = None) -> HiddenRulesState:
        opts = self.parse_options(options)
        assert isinstance(opts, Options)
        if not self.min_players <= n_players <= self.max_players:
            raise InvalidActionError(f"Hidden Rules needs 2 to 5 players, not {n_players}.")
        hand_size = 5 - max(0, n_players - 3) if opts.smaller_hands else 5
        s = HiddenRulesState(
            n_players, opts, seed, 0, "choose", 0, hand_size, [0] * n_players,
            [[] for _ in range(n_players)], [], [], [], [], [-1] * n_players, [-1] * n_players,
            [0] * n_players, [], 0, 0, -1, False, -1, None, 0, None, [], frozenset(),
            frozenset(), 0, 0, 0)
        rng = s.next_rng()
        s.dealer = rng.randrange(n_players)
        triggers, actions = list(TRIGGER_IDS), list(ACTION_IDS)
        rng.shuffle(triggers)
        rng.shuffle(actions)
        s.dealt_t = [(triggers[2 * i], triggers[2 * i + 1]) for i in range(n_players)]
        s.dealt_a = [(actions[2 * i], actions[2 * i + 1]) for i in range(n_players)]
        s.deck = list(DECK)
        rng.shuffle(s.deck)
        for i in range(n_players):
            seat = (s.dealer + 1 + i) % n_players
            s.hands[seat] = sorted(s.deck.pop() for _ in range(hand_size))
        return s

    # ---- turn structure -------------------------------------------------------------------
    def to_act(self, state: HiddenRulesState) -> frozenset[int]:
        phase = state.phase
        if phase == "play":
            base = state.to_play if state.to_play >= 0 else state.next_starter()
            if state.last is None:
                mask = 1 << base
            else:  # and everyone who has not yet enforced or passed on the last play
                mask = ((1 << state.n) - 1) & (~state.waived | 1 << base)
            return _SEAT_SETS[mask] if mask < len(_SEAT_SETS) else _seat_set(mask)
        if phase == "pending":
            assert state.last is not None
            return _seat_set(1 << state.last.seat)
        if phase == "choose":
            return frozenset(p for p in range(state.n) if state.rule_t[p] < 0)
        return frozenset()

    def waiting_for(self, state: HiddenRulesState) -> frozenset[int]:
        """The seats the game waits on: the player to play (or to start the next trick), the
        accused, or those still choosing a rule. Enforcing is optional, so enforcers are in
        `to_act` but never waited for (no timer runs against them)."""
        if state.phase == "play":
            base = state.to_play if state.to_play >= 0 else state.next_starter()
            return frozenset((base,))
        return self.to_act(state)

    def legal_actions(self, state: HiddenRulesState, seat: int) -> list[Action]:
        phase = state.phase
        if type(seat) is not int or not 0 <= seat < state.n:
            return []
        if phase == "play":
            acts: list[Action]
            if seat == state.to_play:
                acts = [play for card in state.hands[seat]
                        for play in _FACTS[card.rank, card.suit].plays]
            elif state.to_play < 0 and seat == state.next_starter():
                acts = [_START]
            else:
                acts = []
            if state.last is not None and not (state.waived >> seat) & 1:  # may_enforce
                enforces = _ENFORCES[: state.n]
                if state.options.quiet_table:
                    enforces = (*enforces, _ENFORCE_QUIET)
                if acts:
                    acts += enforces
                else:
                    acts = [*enforces, _PASS]
            return acts
        if phase == "pending":
            assert state.last is not None
            return [_ACCEPT, _CHALLENGE] if seat == state.last.seat else []
        if phase == "choose":
            if not 0 <= seat < state.n or state.rule_t[seat] >= 0:
                return []
            return [Keep(t, a) for t in state.dealt_t[seat] for a in state.dealt_a[seat]]
        return []

    def apply(self, state: HiddenRulesState, seat: int, action: Action) -> Step[HiddenRulesState]:
        kind = type(action)
        if isinstance(action, TimeOut):
            self.check_turn(state, seat)
            if state.phase != "play" or seat != state.to_play or state.options.turn_seconds == 0:
                raise IllegalActionError("There is no running turn timer for that seat.")
        elif state.phase == "play":
            if seat not in self.to_act(state):
                raise NotYourTurnError("It is not your turn.")
            if not self._legal_in_play(state, seat, action):
                raise IllegalActionError("That move is not allowed right now.")
        elif (state.phase == "pending" and (kind is Accept or kind is Challenge)
              and type(seat) is int):
            # Validated directly: the accused (the only seat to act) may always accept or
            # challenge, so being that seat is the whole check; listing both moves and
            # comparing dataclasses made this a quarter of the move.
            self.check_turn(state, seat)
        else:
            self.check_legal(state, seat, action)
        handler = self._HANDLERS.get(kind)
        if handler is None:  # a subclass of an action (or an object equal to a listed one)
            handler = next((h for k, h in self._HANDLERS.items() if isinstance(action, k)), None)
        s = state.shallow_copy()
        events: list[Event] = []
        if handler is not None:
            handler(self, s, seat, action, events)
        return Step(s, tuple(events))

    @staticmethod
    def _legal_in_play(s: HiddenRulesState, seat: int, action: object) -> bool:
        """Same answer as `action in legal_actions(...)` in the play phase, without the list."""
        kind = type(action)
        if kind is Play:
            card = action.card  # type: ignore[attr-defined]
            ace_as = action.ace_as  # type: ignore[attr-defined]
            if seat != s.to_play or card not in s.hands[seat]:
                return False
            if type(ace_as) is not int:  # 1.0 or True equal 1 but are not a listed move
                return False
            return ace_as in (1, 11) if card.rank == 1 else ace_as == 0
        if kind is Enforce:
            holder = action.holder  # type: ignore[attr-defined]
            if type(holder) is not int:
                return False
            if holder == QUIET:
                return s.may_enforce(seat) and s.options.quiet_table
            return s.may_enforce(seat) and 0 <= holder < s.n
        on_turn = seat == s.to_play or (s.to_play < 0 and seat == s.next_starter())
        if kind is Pass:
            return s.may_enforce(seat) and not on_turn
        if kind is StartTrick:
            return s.to_play < 0 and seat == s.next_starter()
        return False

    # ---- the pieces of apply --------------------------------------------------------------
    # Each gets `s`, a shallow copy of the state it must not change, so a list of `s` is
    # replaced by a changed copy, never edited in place (see `HiddenRulesState.shallow_copy`).
    def _keep(self, s: HiddenRulesState, seat: int, action: Keep, events: list[Event]) -> None:
        t0, t1 = s.dealt_t[seat]
        a0, a1 = s.dealt_a[seat]
        s.dealt_t, s.dealt_a = s.dealt_t[:], s.dealt_a[:]
        s.rule_t, s.rule_a = s.rule_t[:], s.rule_a[:]
        s.dealt_t[seat] = (action.trigger, t1 if action.trigger == t0 else t0)
        s.dealt_a[seat] = (action.action, a1 if action.action == a0 else a0)
        s.rule_t[seat], s.rule_a[seat] = action.trigger, action.action
        trig, act = TRIGGERS[action.trigger], ACTIONS[action.action]
        events.append(private(seat, "rule_kept", f"Your secret rule: {trig.label} {act.label}",
                              seat=seat, trigger=trig.id, action=act.id))
        events.append(public("rule_chosen", f"{{P{seat}}} has chosen a secret rule.", seat=seat))
        if all(t >= 0 for t in s.rule_t):
            s.phase = "play"
            events.append(public("rules_ready", "Every player has a secret rule. Play begins!"))
            self._start_trick(s, s.dealer, events)

    def _start_trick(self, s: HiddenRulesState, starter: int, events: list[Event]) -> None:
        if not s.deck:
            self._reshuffle(s, events)
        card = s.deck[-1]
        s.deck = s.deck[:-1]
        value = card_value(card)
        s.trick = [(starter, card, value, "")]
        s.total = value
        s.starter = starter
        s.trick_over, s.taker = False, -1
        s.last, s.waived = None, 0
        s.shown |= CARD_BIT[card]
        events.append(public("trick_start", f"{{P{starter}}} turns up {card} (total {value}).",
                             seat=starter, card=str(card), total=value))
        s.to_play = s.next_with_cards(starter)
        if s.to_play < 0:
            self._end_trick(s, -1, events)

    def _play(self, s: HiddenRulesState, seat: int, action: Play, events: list[Event]) -> None:
        card = action.card
        say = clean_say(action.say)
        length, parts = said_length(action.say), len(say_parts(say))
        if s.options.quiet_table and (length > QUIET_CHARS_MAX or parts > QUIET_PARTS_MAX):
            raise IllegalActionError(
                f"At this table (quiet table) you may say at most {QUIET_PARTS_MAX} parts "
                f"(split at , ; . ! ? or a new line) and {QUIET_CHARS_MAX} characters; that "
                f"was {parts} part{'' if parts == 1 else 's'} and {length} "
                f"character{'' if length == 1 else 's'}.")
        s.hands = s.hands[:]
        hand = s.hands[seat] = s.hands[seat][:]
        index = hand.index(card)
        del hand[index]
        value = card_value(card, action.ace_as)
        total = s.total + value
        ctx = PlayContext(card, value, s.trick[-1][1], s.total, total, len(hand), say,
                          s.named_animals, s.named_characters)
        s.trick = [*s.trick, (seat, card, value, say)]
        s.total = total
        facts = _FACTS[card.rank, card.suit]
        s.shown |= facts.bit
        s.known_in_hand &= ~facts.bit
        s.turns += 1
        if say:
            animals, chars = ANIMALS.found(say), CHARACTERS.found(say)
            if animals:
                s.named_animals = s.named_animals | animals
            if chars:
                s.named_characters = s.named_characters | chars
        s.last, s.waived = LastPlay(seat, index, ctx), 1 << seat
        label = facts.label
        shown = f"{label} as {value}" if card.rank == 1 else label
        events.append(Event("play", f"{{P{seat}}} plays {shown} (total {total}){_say_suffix(say)}.",
                            None, {"seat": seat, "card": label, "value": value, "total": total,
                                   "say": say}))
        if total == 21:
            self._end_trick(s, seat, events)
        elif total > 21:
            self._end_trick(s, (seat - 1) % s.n, events)
        else:
            s.to_play = s.next_with_cards(seat)
            if s.to_play < 0:
                self._end_trick(s, -1, events)
        if s.options.referee:
            self._referee(s, events)
        self._check_cap(s, events)

    def _end_trick(self, s: HiddenRulesState, taker: int, events: list[Event]) -> None:
        s.trick_over, s.taker, s.to_play = True, taker, -1
        if taker < 0:
            text = (f"Nobody can play: the trick will be discarded when {{P{s.starter}}} "
                    "starts the next one.")
        elif s.total == 21:
            text = f"Exactly 21: {{P{taker}}} will take the trick when starting the next one."
        else:
            text = (f"Over 21: {{P{taker}}} will take the trick when starting the next one.")
        events.append(Event("trick_end", text, None, {"taker": taker, "total": s.total}))

    def _referee(self, s: HiddenRulesState, events: list[Event]) -> None:
        assert s.last is not None
        ctx, accused = s.last.ctx, s.last.seat
        for holder in range(s.n):
            if broken(s.rule_t[holder], s.rule_a[holder], ctx):
                hint = ACTIONS[s.rule_a[holder]].hint
                card = ctx.card
                self._undo(s)
                changes = self._change(s, {accused: -1})
                self._reveal(s, accused, holder)
                s.history = [*s.history, Record(-1, holder, accused, hint, "referee", ctx, changes)]
                events.append(public(
                    "referee", f"Referee: {{P{accused}}}'s {card} broke {{P{holder}}}'s rule "
                    f"(“{hint}”). The card goes back; {{P{accused}}} loses 1 point.",
                    accused=accused, holder=holder, hint=hint, changes=list(changes)))
                events.append(private(accused, "rule_revealed",
                                      f"{{P{holder}}}'s rule: {self._rule_text(s, holder)}",
                                      holder=holder))
                return
        if s.options.quiet_table:
            extra = unnecessary_parts(ctx, list(zip(s.rule_t, s.rule_a, strict=True)))
            if extra:
                card = ctx.card
                hint = f"“{extra[0]}” was not asked for"
                self._undo(s)
                changes = self._change(s, {accused: -1})
                s.history = [*s.history, Record(-1, QUIET, accused, hint, "referee", ctx,
                                                changes)]
                events.append(public(
                    "referee", f"Referee: {{P{accused}}}'s {card} came with unnecessary "
                    f"talking (“{typed(extra[0])}” was not asked for). The card goes back; "
                    f"{{P{accused}}} loses 1 point.",
                    accused=accused, holder=QUIET, hint=hint, changes=list(changes)))

    def _timeout(self, s: HiddenRulesState, seat: int, action: TimeOut,
                 events: list[Event]) -> None:
        changes = self._change(s, {seat: -1})
        s.turns += 1
        # No card was played, so the window on the previous play stays open (RULINGS: "until
        # the next card is played (or the next trick is started)").
        s.to_play = s.next_with_cards(seat)
        events.append(public("timeout", f"{{P{seat}}} ran out of time: -1 point, turn passes.",
                             seat=seat, changes=list(changes)))
        self._check_cap(s, events)

    def _enforce(self, s: HiddenRulesState, seat: int, action: Enforce,
                 events: list[Event]) -> None:
        assert s.last is not None
        hint = " ".join(str(action.hint).split())[:HINT_MAX] or "(no hint given)"
        s.waived |= 1 << seat
        s.pending = (seat, action.holder, hint)
        s.phase = "pending"
        accused = s.last.seat
        whose = ("unnecessary talking" if action.holder == QUIET else
                 "their own rule" if action.holder == seat else f"{{P{action.holder}}}'s rule")
        events.append(Event(
            "enforce", f"{{P{seat}}} enforces {whose} against {{P{accused}}}'s "
            f"{_label(s.last.ctx.card)}: “{typed(hint)}” — {{P{accused}}} may accept or "
            "challenge.",
            None, {"enforcer": seat, "holder": action.holder, "accused": accused, "hint": hint}))

    def _pass(self, s: HiddenRulesState, seat: int, action: Pass, events: list[Event]) -> None:
        s.waived |= 1 << seat
        assert s.last is not None
        # A seat letting a play stand shows it holds none of the rules that play broke. (The
        # taker of a trick the play ended, who might let it stand to keep the trick, is the
        # next starter and cannot pass: it starts the next trick or enforces.)
        mask = broken_rules(s.last.ctx)
        if mask:
            stand = list(s.let_stand or (0,) * s.n)
            stand[seat] |= mask
            s.let_stand = tuple(stand)
        # Shown to nobody: after every play each seat waives, which would flood the table's
        # log; who may still enforce is public in `view()["window"]["may_enforce"]`.
        events.append(Event("pass", f"{{P{seat}}} lets the play stand.", frozenset(),
                            {"seat": seat}))

    def _resolve(self, s: HiddenRulesState, seat: int, action: Accept | Challenge,
                 events: list[Event]) -> None:
        """The accused accepts or challenges the pending enforcement."""
        assert s.last is not None and s.pending is not None
        challenged = isinstance(action, Challenge)
        enforcer, holder, hint = s.pending
        ctx, accused = s.last.ctx, s.last.seat
        s.pending, s.phase = None, "play"
        if not challenged:
            result = "accepted"
            self._undo(s)
            changes = self._change(s, {accused: -1})
            text = (f"{{P{accused}}} accepts: {_label(ctx.card)} goes back to the hand, "
                    f"{{P{accused}}} loses 1 point and the turn passes.")
        elif holder == QUIET:
            # RULINGS, unnecessary talking (added): judged by the bot; right → enforcer +1,
            # accused −1 and the Accept penalty; wrong → enforcer −1, accused +1, play stands.
            extra = unnecessary_parts(ctx, list(zip(s.rule_t, s.rule_a, strict=True)))
            right = bool(extra)
            sign = 1 if right else -1
            deltas = {enforcer: sign, accused: -sign - (1 if right else 0)}
            if right:
                result = "right"
                self._undo(s)
                text = (f"{{P{accused}}} challenges, and “{typed(extra[0])}” was unnecessary "
                        "talking: "
                        f"{_label(ctx.card)} goes back to the hand and the turn passes.")
            else:
                result = "wrong"
                text = (f"{{P{accused}}} challenges, and every part said was asked for by a "
                        "rule: the play stands.")
            changes = self._change(s, deltas)
        else:
            right = broken(s.rule_t[holder], s.rule_a[holder], ctx)
            self._reveal(s, accused, holder)
            events.append(Event("rule_revealed",
                                f"{{P{holder}}}'s rule: {self._rule_text(s, holder)}",
                                _seat_set(1 << accused), {"holder": holder, "broken": right}))
            sign = 1 if right else -1
            deltas: dict[int, int] = {}
            for p, d in ((enforcer, sign), (accused, -sign)):
                deltas[p] = deltas.get(p, 0) + d
            if holder != enforcer:
                deltas[holder] = deltas.get(holder, 0) - sign
            if right:
                result = "right"
                deltas[accused] = deltas.get(accused, 0) - 1
                self._undo(s)
                text = (f"{{P{accused}}} challenges, and the rule was broken: "
                        f"{_label(ctx.card)} goes back to the hand and the turn passes.")
            else:
                result = "wrong"
                text = f"{{P{accused}}} challenges, and the rule was not broken: the play stands."
            changes = self._change(s, deltas)
        text += " " + _changes_text(changes)
        s.history = [*s.history, Record(enforcer, holder, accused, hint, result, ctx, changes)]
        events.append(Event("challenge" if challenged else "accept", text, None,
                            {"enforcer": enforcer, "holder": holder, "accused": accused,
                             "result": result, "changes": list(changes)}))

    def _undo(self, s: HiddenRulesState) -> None:
        """Take the last play back: card to its hand, total and any trick end undone."""
        assert s.last is not None
        last = s.last
        s.hands = s.hands[:]
        hand = s.hands[last.seat] = s.hands[last.seat][:]
        card = last.ctx.card
        hand.insert(last.index, card)
        s.known_in_hand |= _FACTS[card.rank, card.suit].bit
        s.trick = s.trick[:-1]
        s.total = last.ctx.prev_total
        s.trick_over, s.taker = False, -1
        s.last, s.waived = None, 0
        s.to_play = s.next_with_cards(last.seat)

    @staticmethod
    def _reveal(s: HiddenRulesState, seat: int, holder: int) -> None:
        """`seat` has been shown `holder`'s rule."""
        s.revealed = s.revealed[:]
        s.revealed[seat] |= 1 << holder

    @staticmethod
    def _change(s: HiddenRulesState, deltas: dict[int, int]) -> tuple[int, ...]:
        """Apply point changes (never below the floor); return the real change per seat."""
        out = [0] * s.n
        scores = s.scores = s.scores[:]
        for p, d in deltas.items():
            new = max(SCORE_FLOOR, scores[p] + d)
            out[p] = new - scores[p]
            scores[p] = new
        return tuple(out)

    def _collect(self, s: HiddenRulesState, seat: int, action: StartTrick,
                 events: list[Event]) -> None:
        taker = s.taker
        s.pile = s.pile + [c for _, c, _, _ in s.trick]
        s.trick = []
        s.last, s.waived = None, 0
        if taker >= 0:
            s.tricks += 1
            self._change(s, {taker: 1})
            events.append(public("trick_taken", f"{{P{taker}}} takes the trick: +1 point "
                                 f"(now {s.scores[taker]}).", seat=taker))
        else:
            events.append(public("trick_discarded", "The trick is discarded."))
        # Seed: "the first player to end a round with 3 or more points wins": a discarded
        # trick ends a round too, so points won by enforcing count at its collection as well.
        best = max(s.scores)
        if best >= s.options.target:
            s.winners = frozenset(p for p in range(s.n) if s.scores[p] == best)
            # The reason is shown as is (no seat placeholders); the event names the
            # winners. The target is checked only when a trick is collected, so the
            # winning score can be past it (enforcements score too): say both numbers.
            target, score = _points(s.options.target), _points(best)
            if best == s.options.target:
                reason = f"Target of {target} reached."
            else:
                each = " each" if len(s.winners) > 1 else ""
                who = "winners end" if each else "winner ends"
                reason = f"Target of {target} passed: the {who} with {score}{each}."
            verb = "win" if len(s.winners) > 1 else "wins"
            self._finish(s, reason, events,
                         f"{_seats(s.winners)} {verb} with {score} (target: {target}).")
            return
        self._refill(s, seat, events)
        self._start_trick(s, seat, events)

    def _refill(self, s: HiddenRulesState, first: int, events: list[Event]) -> None:
        s.hands, s.deck = s.hands[:], s.deck[:]
        for i in range(s.n):
            p = (first + i) % s.n
            hand = s.hands[p]
            drawn: list[Card] = []
            while len(hand) + len(drawn) < s.hand_size:
                if not s.deck:
                    if not s.pile:
                        break
                    self._reshuffle(s, events)
                drawn.append(s.deck.pop())
            if drawn:
                s.hands[p] = sorted(hand + drawn)
                events.append(private(p, "draw", "You draw " + ", ".join(map(str, drawn)) + ".",
                                      seat=p, cards=[str(c) for c in drawn]))
                events.append(public("drew", f"{{P{p}}} draws {len(drawn)} "
                                     f"card{'s' if len(drawn) > 1 else ''}.", seat=p,
                                     count=len(drawn)))

    def _reshuffle(self, s: HiddenRulesState, events: list[Event]) -> None:
        rng = s.next_rng()
        new = s.pile[:]
        s.pile = []
        rng.shuffle(new)
        s.deck = new + s.deck
        events.append(public("reshuffle", "The collected tricks are shuffled into a new deck."))

    def _check_cap(self, s: HiddenRulesState, events: list[Event]) -> None:
        if s.phase != "over" and s.turns >= s.options.max_turns:
            best = max(s.scores)
            s.winners = frozenset(p for p in range(s.n) if s.scores[p] == best)
            self._finish(s, f"The {s.options.max_turns}-turn safety cap was reached: the "
                         "highest score wins.", events)

    def _finish(self, s: HiddenRulesState, reason: str, events: list[Event],
                said: str = "") -> None:
        s.phase, s.end_reason = "over", reason
        s.to_play, s.last, s.pending = -1, None, None
        events.append(public("game_over", f"Game over: {said or reason}",
                             winners=sorted(s.winners),
                             scores=list(s.scores)))
        for p in range(s.n):
            events.append(public("rule_shown", f"{{P{p}}}'s rule was {self._rule_text(s, p)}",
                                 seat=p))

    # How apply carries out each kind of action (a subclass is found with isinstance, in
    # this order, as the isinstance chain this replaced did).
    _HANDLERS: ClassVar[dict[type, Callable[..., None]]] = {
        Play: _play, Enforce: _enforce, Pass: _pass, Accept: _resolve, Challenge: _resolve,
        StartTrick: _collect, TimeOut: _timeout, Keep: _keep}

    @staticmethod
    def _rule_text(s: HiddenRulesState, holder: int) -> str:
        return f"{TRIGGER_LABELS[s.rule_t[holder]]} {ACTION_LABELS[s.rule_a[holder]]}"

    # ---- information ----------------------------------------------------------------------
    def outcome(self, state: HiddenRulesState) -> Outcome | None:
        if state.phase != "over":
            return None
        return Outcome({p: float(v) for p, v in enumerate(state.scores)}, state.winners,
                       state.end_reason)

    def view(self, state: HiddenRulesState, seat: int | None) -> dict:
        s = state
        last = s.last
        over = s.phase == "over"
        v: dict = {
            "game": self.name,
            "phase": s.phase,
            "n_players": s.n,
            "dealer": s.dealer,
            "scores": list(s.scores),
            "target": s.options.target,
            "hand_sizes": [len(h) for h in s.hands],
            "hand_size": s.hand_size,
            "deck_size": len(s.deck),
            "pile_size": len(s.pile),
            "chosen": [t >= 0 for t in s.rule_t],
            "trick": {
                "starter": s.starter,
                "cards": [{"seat": p, "card": CARD_STR[c], "value": val, "say": say,
                           "turned_up": i == 0} for i, (p, c, val, say) in enumerate(s.trick)],
                "total": s.total,
                "over": s.trick_over,
                "taker": s.taker if s.trick_over and s.taker >= 0 else None,
                "discarded": s.trick_over and s.taker < 0,
            },
            "to_play": s.to_play if s.phase in ("play", "pending") and s.to_play >= 0 else None,
            "next_starter": s.next_starter() if s.trick_over and not over else None,
            "window": None if last is None or over else {
                "seat": last.seat, "card": str(last.ctx.card), "total": last.ctx.total,
                "say": last.ctx.say,
                "may_enforce": [p for p in range(s.n) if not (s.waived >> p) & 1],
            },
            "pending": None if s.pending is None or last is None else {
                "enforcer": s.pending[0], "holder": s.pending[1], "hint": s.pending[2],
                "accused": last.seat, "card": str(last.ctx.card)},
            "history": [_record_json(r) for r in s.history[-HISTORY_IN_VIEW:]],
            "enforcements": len(s.history),
            "named": {"animals": sorted(s.named_animals),
                      "characters": sorted(s.named_characters)},
            "turns": s.turns,
            "max_turns": s.options.max_turns,
            "turn_seconds": s.options.turn_seconds,
            "referee": s.options.referee,
            "winners": sorted(s.winners) if over else None,
            "end_reason": s.end_reason or None,
            "all_rules": [self._rule_json(s, p) for p in range(s.n)] if over else None,
        }
        if seat is not None and 0 <= seat < s.n:
            v["seat"] = seat
            # RULINGS, Hidden Rules, order (amended): rules are kept first; no player sees
            # their playing cards until they have kept their rule.
            v["hand_hidden"] = s.rule_t[seat] < 0
            v["hand"] = [] if v["hand_hidden"] else [CARD_STR[c] for c in s.hands[seat]]
            v["my_rule"] = self._rule_json(s, seat) if s.rule_t[seat] >= 0 else None
            v["dealt"] = {"triggers": [_rule_json(TRIGGERS[t]) for t in sorted(s.dealt_t[seat])],
                          "actions": [_rule_json(ACTIONS[a]) for a in sorted(s.dealt_a[seat])]}
            v["known_rules"] = {str(h): self._rule_json(s, h) for h in range(s.n)
                                if h != seat and (s.revealed[seat] >> h) & 1}
        return v

    @staticmethod
    def _rule_json(s: HiddenRulesState, holder: int) -> dict | None:
        if s.rule_t[holder] < 0:
            return None
        return {"trigger": _rule_json(TRIGGERS[s.rule_t[holder]]),
                "action": _rule_json(ACTIONS[s.rule_a[holder]])}

    def secret_labels(self, state: HiddenRulesState, seat: int | None) -> frozenset[str]:
        s = state
        labels: set[str] = set()
        for p in range(s.n):
            # a seat that has not kept its rule yet may not see even its own cards (RULINGS)
            if p != seat or s.rule_t[p] < 0:
                labels.update(CARD_STR[c] for c in s.hands[p] if not s.shown & CARD_BIT[c])
        labels.update(CARD_STR[c] for c in s.deck if not s.shown & CARD_BIT[c])
        mine_t = set(s.dealt_t[seat]) if seat is not None else set()
        mine_a = set(s.dealt_a[seat]) if seat is not None else set()
        known_t = {s.rule_t[h] for h in range(s.n) if s.knows_rule(seat, h)}
        known_a = {s.rule_a[h] for h in range(s.n) if s.knows_rule(seat, h)}
        labels.update(TRIGGERS[t].label for t in TRIGGER_IDS if t not in mine_t | known_t)
        labels.update(ACTIONS[a].label for a in ACTION_IDS if a not in mine_a | known_a)
        return frozenset(labels)

    def describe(self, state: HiddenRulesState, action: Action) -> str:
        if isinstance(action, Play):
            text = f"Play {action.card}" + (f" as {action.ace_as}" if action.ace_as else "")
            say = clean_say(action.say)
            return text + (f" saying “{typed(say)}”" if say else "")
        if isinstance(action, Enforce):
            if action.holder == QUIET:
                return "Enforce unnecessary talking"
            return f"Enforce the rule of {{P{action.holder}}}"
        if isinstance(action, Keep):
            return (f"Keep the rule {TRIGGERS[action.trigger].label[:3]} + "
                    f"{ACTIONS[action.action].label[:3]}")
        return {"pass": "Let the play stand", "accept": "Accept: card back, −1 point",
                "challenge": "Challenge: the bot checks the rule", "start": "Start the next trick",
                "timeout": "Time ran out"}.get(getattr(action, "kind", ""), str(action))

    def menu_path(self, state: HiddenRulesState, action: Action) -> tuple[str, ...]:
        if isinstance(action, Play):
            label = f"{action.card} as {action.ace_as}" if action.ace_as else str(action.card)
            return ("Play", label)
        if isinstance(action, Enforce):
            return ("Enforce", "Unnecessary talking" if action.holder == QUIET
                    else f"Rule of {{P{action.holder}}}")
        if isinstance(action, Keep):
            return ("Keep a rule", TRIGGERS[action.trigger].label[:80],
                    ACTIONS[action.action].label[:80])
        return (self.describe(state, action),)

    def default_action(self, state: HiddenRulesState, seat: int) -> Action:
        s = state
        if s.phase == "choose" and s.rule_t[seat] < 0:
            return Keep(s.dealt_t[seat][0], s.dealt_a[seat][0])
        if s.phase == "pending":
            return _ACCEPT
        if s.phase == "play":
            if seat == s.to_play:
                if s.options.turn_seconds > 0:
                    return _TIMEOUT
                return self.legal_actions(s, seat)[0]
            if s.to_play < 0 and seat == s.next_starter():
                return _START
            if s.may_enforce(seat):
                return _PASS
        return self.legal_actions(s, seat)[0]

    # ---- hidden information ---------------------------------------------------------------
    def determinize(self, state: HiddenRulesState, seat: int,
                    rng: random.Random) -> HiddenRulesState:
        """Resample what `seat` cannot know: the other hands (except cards everyone saw go
        back into them), the deck order and future shuffles, the other seats' rules (keeping
        those shown to `seat`, and consistent with every public challenge and referee result)
        and the trigger/action cards they set aside."""
        s = state.clone()
        others = [p for p in range(s.n) if p != seat]
        known = s.known_in_hand
        pool = list(s.deck)
        for p in others:
            pool.extend(c for c in s.hands[p] if not known & CARD_BIT[c])
        rng.shuffle(pool)
        for p in others:
            keep = [c for c in s.hands[p] if known & CARD_BIT[c]]
            k = len(s.hands[p]) - len(keep)
            s.hands[p] = sorted(keep + pool[:k])
            del pool[:k]
        s.deck = pool
        s.seed = rng.randrange(2**31)  # the future deck order is unknown too
        unknown = [p for p in others if not s.knows_rule(seat, p)]
        used_t = set(s.dealt_t[seat]) | {s.rule_t[p] for p in others if p not in unknown}
        used_a = set(s.dealt_a[seat]) | {s.rule_a[p] for p in others if p not in unknown}
        free_t = [t for t in TRIGGER_IDS if t not in used_t]
        free_a = [a for a in ACTION_IDS if a not in used_a]
        chosen = [p for p in unknown if s.rule_t[p] >= 0]
        rules = _sample_rules(s, chosen, free_t, free_a, rng)
        for p, (t, a) in rules.items():
            s.rule_t[p], s.rule_a[p] = t, a
            free_t.remove(t)
            free_a.remove(a)
        rng.shuffle(free_t)
        rng.shuffle(free_a)
        for p in others:
            if p in rules or p not in unknown:
                t0, a0 = s.rule_t[p], s.rule_a[p]
            else:  # still choosing: both dealt cards are unknown
                t0, a0 = free_t.pop(), free_a.pop()
            s.dealt_t[p] = (t0, free_t.pop())
            s.dealt_a[p] = (a0, free_a.pop())
        return s

    # ---- persistence ----------------------------------------------------------------------
    def dump(self, state: HiddenRulesState) -> str:
        s = state
        return json.dumps({
            "n": s.n, "options": s.options.model_dump(), "seed": s.seed,
            "rng_counter": s.rng_counter, "phase": s.phase, "dealer": s.dealer,
            "hand_size": s.hand_size, "scores": s.scores,
            "hands": [[c.code for c in h] for h in s.hands], "deck": [c.code for c in s.deck],
            "pile": [c.code for c in s.pile], "dealt_t": s.dealt_t, "dealt_a": s.dealt_a,
            "rule_t": s.rule_t, "rule_a": s.rule_a, "revealed": s.revealed,
            "trick": [[p, c.code, v, say] for p, c, v, say in s.trick], "total": s.total,
            "starter": s.starter, "to_play": s.to_play, "trick_over": s.trick_over,
            "taker": s.taker,
            "last": None if s.last is None else [s.last.seat, s.last.index, _ctx_dump(s.last.ctx)],
            "waived": s.waived, "pending": s.pending,
            "history": [[r.enforcer, r.holder, r.accused, r.hint, r.result, _ctx_dump(r.ctx),
                         r.changes] for r in s.history],
            "named_animals": sorted(s.named_animals),
            "named_characters": sorted(s.named_characters),
            "shown": s.shown, "turns": s.turns, "tricks": s.tricks,
            "winners": sorted(s.winners), "end_reason": s.end_reason,
            "known_in_hand": s.known_in_hand,
            "let_stand": list(s.let_stand),
        }, ensure_ascii=False, separators=(",", ":"))

    def load(self, text: str) -> HiddenRulesState:
        d = json.loads(text)
        cards = _parse_codes
        return HiddenRulesState(
            d["n"], Options.model_validate(d["options"]), d["seed"], d["rng_counter"],
            d["phase"], d["dealer"], d["hand_size"], list(d["scores"]),
            [cards(h) for h in d["hands"]], cards(d["deck"]), cards(d["pile"]),
            [tuple(x) for x in d["dealt_t"]], [tuple(x) for x in d["dealt_a"]],
            list(d["rule_t"]), list(d["rule_a"]), list(d["revealed"]),
            [(p, Card.parse(c), v, say) for p, c, v, say in d["trick"]], d["total"],
            d["starter"], d["to_play"], d["trick_over"], d["taker"],
            None if d["last"] is None else LastPlay(d["last"][0], d["last"][1],
                                                    _ctx_load(d["last"][2])),
            d["waived"], None if d["pending"] is None else tuple(d["pending"]),
            [Record(e, h, a, hint, res, _ctx_load(c), tuple(ch))
             for e, h, a, hint, res, c, ch in d["history"]],
            frozenset(d["named_animals"]), frozenset(d["named_characters"]), d["shown"],
            d["turns"], d["tricks"], frozenset(d["winners"]), d["end_reason"],
            d.get("known_in_hand", 0), tuple(d.get("let_stand", ())))



# --------------------------------------------------------------------------- helpers
_CODE_CACHE = {c.code: c for c in DECK}


def _parse_codes(codes: list[str]) -> list[Card]:
    return [_CODE_CACHE[c] for c in codes]


def _ctx_dump(c: PlayContext) -> list:
    return [c.card.code, c.value, c.prev.code, c.prev_total, c.total, c.hand_left, c.say,
            sorted(c.named_animals), sorted(c.named_characters)]


def _ctx_load(x: list) -> PlayContext:
    return PlayContext(_CODE_CACHE[x[0]], x[1], _CODE_CACHE[x[2]], x[3], x[4], x[5], x[6],
                       frozenset(x[7]), frozenset(x[8]))


def _sample_rules(s: HiddenRulesState, holders: list[int], free_t: list[int],
                  free_a: list[int], rng: random.Random) -> dict[int, tuple[int, int]]:
    """Random distinct rules for `holders`, each consistent with the public results of the
    challenges and referee calls on it ("right"/"referee": broken by that play, "wrong": not
    broken). The real rules are one solution, so the randomised search always succeeds."""
    cands: dict[int, list[tuple[int, int]]] = {}
    for p in holders:
        pairs = [(t, a) for t in free_t for a in free_a]
        for r in s.history:
            if r.holder != p or r.result == "accepted":
                continue
            want = r.result != "wrong"
            fired = {t for t in free_t if triggered(t, r.ctx)}
            done = {a for a in free_a if performed(a, r.ctx)}
            pairs = [(t, a) for t, a in pairs if (t in fired and a not in done) == want]
        rng.shuffle(pairs)
        cands[p] = pairs
    order = sorted(holders, key=lambda p: len(cands[p]))
    out: dict[int, tuple[int, int]] = {}

    def place(i: int) -> bool:
        if i == len(order):
            return True
        p = order[i]
        taken_t = {t for t, _ in out.values()}
        taken_a = {a for _, a in out.values()}
        for t, a in cands[p]:
            if t not in taken_t and a not in taken_a:
                out[p] = (t, a)
                if place(i + 1):
                    return True
                del out[p]
        return False

    if not place(0):  # only with inconsistent records (a hand-edited state): stay unbiased
        out = {}
        ts, as_ = free_t[:], free_a[:]
        rng.shuffle(ts)
        rng.shuffle(as_)
        for p in holders:
            out[p] = (ts.pop(), as_.pop())
    return out


def _record_json(r: Record) -> dict:
    return {"enforcer": r.enforcer if r.enforcer >= 0 else None, "holder": r.holder,
            "accused": r.accused, "hint": r.hint, "result": r.result, "card": str(r.ctx.card),
            "total": r.ctx.total, "say": r.ctx.say, "changes": list(r.changes)}


def _changes_text(changes: tuple[int, ...]) -> str:
    # the sign is written out: a "+d" format spec cost more than the rest of the text
    parts = [f"{{P{p}}} {'+' if d > 0 else ''}{d}" for p, d in enumerate(changes) if d]
    return ("Points: " + ", ".join(parts) + ".") if parts else ""


def _points(count: int) -> str:
    """`1 point`, `3 points`, `−2 points` (one minus sign, as the board writes it)."""
    number = f"−{-count}" if count < 0 else str(count)
    return f"{number} point{'' if abs(count) == 1 else 's'}"


def _seats(seats: frozenset[int]) -> str:
    return " and ".join(f"{{P{p}}}" for p in sorted(seats))


ENGINE = HiddenRulesEngine()
