"""The Suspense AI: expected match points over every world consistent with what it knows.

A "world" is one way the hidden cards could lie: the secret card (unless the AI dealt and
so saw it) and the other players' hands, with their known sizes. Cards in the AI's hand or
face up are never the secret (the seed's elimination logic falls out of this for free).
Worlds are enumerated exactly when there are few (always with 2 players) and sampled
otherwise; if the dealer folded, worlds where the dealer met the condition when folding
weigh less (the seed's tip about watching the dealer).

For each legal action the AI scores the match as if it ended right after that action,
blended with the next player answering by playing one of its cards, and averages over the
worlds. The score is its own points minus the mean of the others' points, so a fold that
hands an opponent 2 points is not mistaken for a good fold.

Cheap on purpose: at most a few hundred worlds times at most eight actions, each a table
lookup, so a decision takes milliseconds.
"""

from __future__ import annotations

import random
from itertools import combinations
from math import comb
from typing import TYPE_CHECKING

from engines.ai_levels import SearchPlan
from engines.core import AiPlayer
from engines.suspense.rules import (
    ALL_CARDS,
    BANG,
    FOLD,
    LABEL_INDEX,
    PASS,
    VALUE,
    Action,
    Play,
    SuspenseState,
    match_points,
    meeters,
)

if TYPE_CHECKING:
    from engines.suspense.rules import SuspenseEngine

MAX_EXACT = 240
SAMPLES = 160
RESPONSE_WEIGHT = 0.3  # chance-like weight of the next player answering with a play
DEALER_FOLD_MET_WEIGHT = 0.2  # a sensible dealer rarely folds while meeting the condition
DEALER_FOLD_PRIOR = 2.0  # pseudo-folds behind that belief, before a dealer's record speaks
PASS_BONUS = 0.02  # on a tie, keep cards hidden and let the match end
LOCK_BONUS = 0.05  # on a tie, end the match with 2 points locked in (beats PASS_BONUS)
World = tuple[int, tuple[int, ...]]  # (secret, hands by seat)


def _bits(mask: int) -> list[int]:
    return [i for i in range(13) if mask >> i & 1]


def worlds(state: SuspenseState, seat: int, rng: random.Random, max_exact: int = MAX_EXACT,
           samples: int = SAMPLES) -> list[World]:
    """Every (or a uniform sample of) hidden arrangement consistent with `seat`'s knowledge."""
    n = state.n
    known = state.hands[seat]
    for mask in state.play_masks:
        known |= mask
    dealer = seat == state.dealer
    if dealer:
        known |= 1 << state.secret
    pool = _bits(ALL_CARDS & ~known)
    others = [p for p in range(n) if p != seat]
    sizes = [state.hands[p].bit_count() for p in others]

    def build(secret: int, masks: list[int]) -> World:
        hands = list(state.hands)
        for p, m in zip(others, masks, strict=True):
            hands[p] = m
        return secret, tuple(hands)

    secrets = [state.secret] if dealer else pool
    per_secret = 1 if len(others) == 1 else comb(len(pool) - (0 if dealer else 1), sizes[0])
    result: list[World] = []
    if len(secrets) * per_secret <= max_exact:
        for secret in secrets:
            rest = [c for c in pool if c != secret]
            if len(others) == 1:
                result.append(build(secret, [sum(1 << c for c in rest)]))
                continue
            for first in combinations(rest, sizes[0]):
                m0 = sum(1 << c for c in first)
                m1 = sum(1 << c for c in rest) & ~m0
                result.append(build(secret, [m0, m1]))
        return result
    for _ in range(samples):
        cards = pool[:]
        rng.shuffle(cards)
        secret = state.secret if dealer else cards.pop()
        masks, k = [], 0
        for size in sizes:
            masks.append(sum(1 << c for c in cards[k:k + size]))
            k += size
        result.append(build(secret, masks))
    return result


def dealer_fold_weights(state: SuspenseState, seat: int,
                        sample: list[World]) -> list[float] | None:
    """Read the seed's tip "if the dealer folds, she does not believe she has the card":
    worlds in which a folded dealer met the secret's condition when folding are unlikely.

    The face-up cards at the fold are rebuilt from the public log; the other players' hands
    at that moment are their hands in the world plus what they played since.
    """
    dealer = state.dealer
    if seat == dealer or not state.folded >> dealer & 1:
        return None
    fold_at = next(i for i, (p, what, _) in enumerate(state.log)
                   if p == dealer and what == "fold")
    play_then = [0] * state.n
    later = [0] * state.n
    for i, (p, what, card) in enumerate(state.log):
        if what == "play":
            if i < fold_at:
                play_then[p] |= 1 << card
            else:
                later[p] |= 1 << card
    met_weight = fold_met_weight(state, dealer)
    weights = []
    for secret, hands in sample:
        hands_then = [h | later[p] for p, h in enumerate(hands)]
        met = meeters(secret, play_then, hands_then) >> dealer & 1
        weights.append(met_weight if met else 1.0)
    return weights


def fold_met_weight(state: SuspenseState, dealer: int) -> float:
    """How much likelier this dealer is to fold when meeting the condition than when not
    (1 = a fold says nothing), from the dealer's public record of folds as dealer.

    A dealer who meets the condition about 1/n of the time would, folding at random, meet
    it in about 1/n of their folds; a sensible dealer almost never does. The record is
    blended with DEALER_FOLD_PRIOR pseudo-folds of a sensible dealer."""
    folds = state.dealer_folds[dealer] if state.dealer_folds else 0
    met = state.dealer_folds_met[dealer] if state.dealer_folds_met else 0
    base = 1.0 / state.n
    k = DEALER_FOLD_PRIOR
    weight = (met + DEALER_FOLD_MET_WEIGHT * base * k) / (folds * base + base * k)
    return min(1.0, max(0.02, weight))


def _next_opponent(state: SuspenseState, seat: int, folded: int) -> int:
    """The seat that moves after `seat` (-1 if nobody else is still in)."""
    for k in range(1, state.n):
        p = (seat + k) % state.n
        if not folded >> p & 1:
            return p
    return -1


def _utility(n: int, seat: int, folded: int, meet: int) -> float:
    """The AI's score of a finished match: its own points minus the mean of the others'."""
    pts = match_points(meet, folded, n)
    return pts[seat] - sum(pts[p] for p in range(n) if p != seat) / (n - 1)


# _UTILITY[n][seat][folded][meet]: the match utility by table lookup, as the AI scores
# hundreds of thousands of match ends per hard decision.
_UTILITY = {n: tuple(tuple(tuple(_utility(n, seat, folded, meet) for meet in range(1 << n))
                           for folded in range(1 << n)) for seat in range(n)) for n in (2, 3)}
_CARDS_OF = tuple(tuple(_bits(mask)) for mask in range(1 << 13))


def action_values(state: SuspenseState, seat: int, legal: list[Action],
                  sample: list[World], weights: list[float] | None = None) -> list[float]:
    """Mean utility of each action over the worlds.

    The match is scored as if it ended after the action, blended (RESPONSE_WEIGHT) with the
    next opponent answering by playing one of its cards, which is how a pass that merely
    looks safe gets punished. A play that reaches the face-up limit ends the match: no
    answer then.
    """
    n = state.n
    values = []
    for action in legal:
        play = list(state.play_masks)
        folded = state.folded
        hand_delta = 0
        ends = False
        if isinstance(action, Play):
            card = LABEL_INDEX[action.card]
            play[seat] |= 1 << card
            hand_delta = 1 << card
            ends = state.total + VALUE[card] >= state.threshold
        elif action == FOLD:
            folded |= 1 << seat
        responder = -1 if ends else _next_opponent(state, seat, folded)
        util = _UTILITY[n][seat][folded]
        total = 0.0
        for i, (secret, hands) in enumerate(sample):
            if hand_delta:
                hands = list(hands)
                hands[seat] &= ~hand_delta
            value = util[meeters(secret, play, hands)]
            if responder >= 0 and RESPONSE_WEIGHT and hands[responder]:
                reply_cards = _CARDS_OF[hands[responder]]
                reply = 0.0
                rplay = list(play)
                rhands = list(hands)
                base_play, base_hand = play[responder], hands[responder]
                for c in reply_cards:
                    rplay[responder] = base_play | 1 << c
                    rhands[responder] = base_hand & ~(1 << c)
                    reply += util[meeters(secret, rplay, rhands)]
                value += RESPONSE_WEIGHT * (reply / len(reply_cards) - value)
            total += value * weights[i] if weights else value
        values.append(total / (sum(weights) if weights else len(sample)))
    return values


def ends_match(state: SuspenseState, seat: int, action: Action) -> bool:
    """Whether this action ends the match at once (face-up limit, or the last pass)."""
    if isinstance(action, Play):
        return state.total + VALUE[LABEL_INDEX[action.card]] >= state.threshold
    if action == PASS:
        return state.still_in() & ~(state.passed | 1 << seat) == 0
    return False


def locks_two_points(state: SuspenseState, seat: int, action: Action,
                     sample: list[World]) -> bool:
    """Whether the action ends the match with 2 points for `seat` in every world."""
    if not ends_match(state, seat, action):
        return False
    play = list(state.play_masks)
    delta = 0
    if isinstance(action, Play):
        delta = 1 << LABEL_INDEX[action.card]
        play[seat] |= delta
    for secret, hands in sample:
        if delta:
            hands = list(hands)
            hands[seat] &= ~delta
        if match_points(meeters(secret, play, hands), state.folded, state.n)[seat] != 2:
            return False
    return bool(sample)


def keyed(state: SuspenseState, seat: int, legal: list[Action], rng: random.Random,
          samples: int = SAMPLES) -> list[tuple[tuple[float, float], Action]]:
    """(sort key, action) for every legal action: the expected match result, with the
    bonuses for ending with 2 points locked in and for passing, then the card whose showing
    gives least away. `samples` worlds when they are too many to list."""
    sample = worlds(state, seat, rng, MAX_EXACT if samples >= SAMPLES else samples, samples)
    values = action_values(state, seat, legal, sample, dealer_fold_weights(state, seat, sample))
    out = []
    for action, value in zip(legal, values, strict=True):
        if action == PASS:
            value += PASS_BONUS
        if locks_two_points(state, seat, action, sample):
            value += LOCK_BONUS
        tiebreak = 0.0
        if isinstance(action, Play):
            card = LABEL_INDEX[action.card]
            tiebreak = -1.0 if card == BANG else -abs(VALUE[card] - 3.5)
        out.append(((round(value, 9), tiebreak), action))
    return out


def choose(engine: SuspenseEngine, state: SuspenseState, seat: int,
           rng: random.Random, samples: int = SAMPLES) -> Action:
    """Pick the action with the best expected match result; ties prefer a move that ends
    the match with 2 points locked in, then Pass, then the card whose showing gives least
    away."""
    legal = list(engine.legal_actions(state, seat))
    if len(legal) == 1:
        return legal[0]
    best, best_key = legal[0], None
    for key, action in keyed(state, seat, legal, rng, samples):
        if best_key is None or key > best_key:
            best, best_key = action, key
    return best


def rank(engine: SuspenseEngine, state: SuspenseState, seat: int, rng: random.Random
         ) -> list[Action]:
    """The hard level's candidates: every legal action by the normal AI's key, best first."""
    legal = list(engine.legal_actions(state, seat))
    if len(legal) == 1:
        return legal
    scored = keyed(state, seat, legal, rng)
    order = sorted(range(len(scored)), key=lambda i: scored[i][0], reverse=True)
    return [scored[i][1] for i in order]


def value(engine: SuspenseEngine, state: SuspenseState, seat: int) -> float:
    """An unfinished game for the hard search: the points lead over the best other seat,
    linear (every point counts the same), relative to the target."""
    lead = state.scores[seat] - max(v for p, v in enumerate(state.scores) if p != seat)
    x = lead / (2.0 * state.options.points_target)
    return min(0.95, max(0.05, 0.5 + x))


def playout_move(engine: SuspenseEngine, state: SuspenseState, seat: int,
                 rng: random.Random) -> Action:
    """The normal AI on fewer sampled worlds: the hard level's playouts call it hundreds of
    times per decision (with 2 players every world is still listed)."""
    return choose(engine, state, seat, rng, PLAYOUT_SAMPLES)


PLAYOUT_SAMPLES = 8


def search_worlds(engine: SuspenseEngine, state: SuspenseState, seat: int,
                  rng: random.Random, count: int) -> list[SuspenseState]:
    """The hard search's worlds, spread evenly over the possible secret cards.

    The secret card decides a match; with 3 players a non-dealer cannot see up to 9 cards,
    and a handful of independent worlds would leave most secrets untried and others tried
    twice, so the search's comparison of moves would mostly measure which secrets it drew.
    Here every possible secret gets count // k worlds (k possible secrets) and the rest go
    to distinct secrets drawn at random, so each world is still equally likely to hold any
    secret; the other hands are dealt at random around it. A dealer knows the secret: plain
    worlds."""
    if seat == state.dealer:
        return [engine.determinize(state, seat, rng) for _ in range(count)]
    known = state.hands[seat]
    for mask in state.play_masks:
        known |= mask
    secrets = _bits(ALL_CARDS & ~known)
    order: list[int] = []
    while len(order) < count:
        rng.shuffle(secrets)
        order.extend(secrets)
    return [engine.determinize(state, seat, rng, secret=c) for c in order[:count]]


def baseline(engine: SuspenseEngine, state: SuspenseState, seat: int, rng: random.Random
             ) -> Action:
    """Baseline: play the card nearest the middle (it rules out no extreme condition) while
    the face-up total stays under the limit, else pass; never fold."""
    legal = list(engine.legal_actions(state, seat))
    plays = [a for a in legal if isinstance(a, Play)
             and state.total + VALUE[LABEL_INDEX[a.card]] < state.threshold]
    if plays:
        return min(plays, key=lambda a: abs(VALUE[LABEL_INDEX[a.card]] - 3.5))
    return PASS if PASS in legal else legal[0]


# The hard level plays every legal move (at most 8) to the end of the match in 24 worlds
# with 2 players, 16 with 3 (spread over the secrets: search_worlds). The normal AI's own
# ranking judges a match as if it ended after the move, so the moves whose worth shows
# only later were outside its top 3 (a dealer's fold or pass against a play that keeps a
# chance open): with the top 3 in 5 worlds hard gained nothing measurable at 3 players.
# The AI is cheap enough since the table lookups (about 60 ms CPU p95 per decision).
PLAN = SearchPlan(worlds=24, candidates=8, depth=30, z=1.0,
                  stop=lambda start, s: s.match_no != start.match_no or s.over)
AI = AiPlayer(choose=choose, rank=rank, value=value, plan=PLAN, playout=playout_move,
              baseline=baseline, worlds=search_worlds)
