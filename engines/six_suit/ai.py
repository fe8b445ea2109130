"""The Six Suit AI: knowledge-only heuristics, fast enough for thousands of calls per second.

Why heuristics and not search: the choice each turn is one card on one of up to 72 piles, and
its value is dominated by a few visible facts (how close each player's six tops are to a six
suit, whether the play double-matches, who is on whose side). Scoring every legal play with
those facts is deterministic, explainable and well under a millisecond.

Everything here reads only what the acting seat may know (table, discard pile, its own hand,
publicly shown hand cards), so the same function also serves as the timer's default move.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from engines.ai_levels import SearchPlan, chance
from engines.core import AiPlayer
from engines.six_suit.cards import (
    COL,
    DECK_SIZE,
    NUM,
    SHARED,
    SHP,
    WILD,
    is_six_suit,
    reaches,
)
from engines.six_suit.chains import chain_move, plays_on
from engines.six_suit.rules import PLAY

if TYPE_CHECKING:
    from engines.six_suit.rules import SixSuitState

# Danger of one attribute by its reach (wilds + commonest natural value among six tops).
# Convex: five of a kind is one card away from a six suit.
DANGER = (0.0, 0.0, 0.0, 0.3, 1.0, 3.5, 0.0)
SIX_SUIT_ON_US = 40.0       # a pending six suit on our side: any opponent may finish it
EXTRA_TURN = 3.0            # a double match that earns another turn (with a prediction)
ATTACK_WEIGHT = 0.6         # how much raising an opponent's danger is worth
ELIMINATION_BONUS = 25.0    # on top of the points it pays


def danger(tops: Sequence[int]) -> float:
    """Sum of per-attribute danger (six tops of one living player)."""
    a, b, c = reaches(tops)
    return DANGER[a] + DANGER[b] + DANGER[c]


def unknown_cards(s: SixSuitState, seat: int) -> list[int]:
    """Cards the seat cannot locate; the next draw comes from these (or from a recycle)."""
    if not s.draw:
        # The next draw recycles the cards under the piles and the discard pile: all known.
        pool = [c for u in s.under for c in u] + s.discard
        if pool:
            return pool
    known = set(s.hands[seat])
    known.update(c for c in s.tops if c >= 0)
    known.update(s.discard)
    for u in s.under:
        known.update(u)
    for i in range(s.n):
        if s.known[i]:
            known.update(c for c in s.hands[i] if s.known[i] >> c & 1)
    if s.offer:
        known.add(s.offer[0])
    return [c for c in range(DECK_SIZE) if c not in known]


def best_prediction(s: SixSuitState, seat: int) -> tuple[int, int, int]:
    """Maximise expected extra cards: P(at least 2 right) + P(all 3 right).

    #(>=2 right) = pairs(n,c) + pairs(n,s) + pairs(c,s) - 2·exact, so the expected number of
    extra cards is proportional to pairs(n,c) + pairs(n,s) + pairs(c,s) - exact.
    """
    pool = unknown_cards(s, seat)
    nc = [[0] * 5 for _ in range(5)]
    ns = [[0] * 5 for _ in range(5)]
    cs = [[0] * 5 for _ in range(5)]
    exact = [0] * DECK_SIZE
    for c in pool:
        n_, c_, s_ = NUM[c], COL[c], SHP[c]
        nc[n_][c_] += 1
        ns[n_][s_] += 1
        cs[c_][s_] += 1
        exact[c] = 1
    best, best_v = (0, 0, 0), -1
    for n_ in range(5):
        for c_ in range(5):
            base = nc[n_][c_]
            for s_ in range(5):
                v = base + ns[n_][s_] + cs[c_][s_] - exact[n_ * 25 + c_ * 5 + s_]
                if v > best_v:
                    best, best_v = (n_, c_, s_), v
    return best


def play_value(s: SixSuitState, seat: int, card: int, target: int, pile: int) -> float:
    """How good covering `target`'s pile with `card` is for the seat's side."""
    old = s.tops[target * 6:target * 6 + 6]
    new = old[:]
    covered = new[pile]
    new[pile] = card
    six_old, six_new = is_six_suit(old), is_six_suit(new)
    free = s.in_free_time()
    ours = s.faction(target) == s.faction(seat)
    value = 0.0
    if ours:
        value += danger(old) - danger(new)
        if six_new:
            value -= SIX_SUIT_ON_US
        elif six_old:
            value += SIX_SUIT_ON_US
    else:
        if six_new and not free:
            value += ELIMINATION_BONUS + s.n - len(s.elims)
        else:
            value += ATTACK_WEIGHT * (danger(new) - danger(old))
            if six_old and not free:
                value -= ELIMINATION_BONUS  # breaking an opponent's six suit spares them
            if free:
                value -= 5.0  # would need their consent: a waste of the turn
    if SHARED[card][covered] == 2 and (
            s.chain == 0 or target == s.chain_target or s.chain_elim):
        value += EXTRA_TURN
    return value


def discard_value(card: int) -> float:
    """Discarding is neutral; keep wild-rich cards, they are the best attacking material."""
    return -0.2 * ((NUM[card] == WILD) + (COL[card] == WILD) + (SHP[card] == WILD))


def consent_value(s: SixSuitState, seat: int) -> float:
    card, target, pile = s.offer
    old = s.tops[target * 6:target * 6 + 6]
    new = old[:]
    new[pile] = card
    value = danger(old) - danger(new)
    if is_six_suit(new):
        value -= SIX_SUIT_ON_US
    elif is_six_suit(old):
        value += SIX_SUIT_ON_US
    return value


def move_value(s: SixSuitState, seat: int, a: Any) -> float:
    """The heuristic's value of a play, a discard or a pass."""
    from engines.six_suit.rules import Discard, Play

    if isinstance(a, Play):
        return play_value(s, seat, a.card, a.target, a.pile)
    if isinstance(a, Discard):
        return discard_value(a.card)
    return 0.0


def choose(s: SixSuitState, seat: int, legal: Sequence, rng: random.Random | None):
    """Pick an action from `legal`; `rng` only breaks ties (None = first best)."""
    from engines.six_suit.rules import Consent, Predict, Veto

    if not legal:
        raise ValueError("no legal action")
    first = legal[0]
    if isinstance(first, Predict):
        n_, c_, s_ = best_prediction(s, seat)
        return Predict(n_, c_, s_)
    if isinstance(first, Consent | Veto):
        return Consent() if consent_value(s, seat) >= 0 else Veto()
    best: list = []
    best_v = float("-inf")
    for a in legal:
        v = move_value(s, seat, a)
        if v > best_v + 1e-9:
            best, best_v = [a], v
        elif abs(v - best_v) <= 1e-9:
            best.append(a)
    return best[0] if rng is None else rng.choice(best)


def choose_move(engine: Any, s: SixSuitState, seat: int, rng: random.Random) -> Any:
    """The AI's move: the heuristic over the legal moves, ties broken by `rng`."""
    return choose(s, seat, engine.legal_actions(s, seat), rng)


def timer_move(engine: Any, s: SixSuitState, seat: int) -> Any:
    """What the heuristic would play, without any randomness (the turn timer's move)."""
    return choose(s, seat, engine.legal_actions(s, seat), None)


def rank(engine: Any, s: SixSuitState, seat: int, rng: random.Random) -> list[Any]:
    """The hard level's candidates: plays and discards by the heuristic's value, best first
    (a prediction is not searched: its best is computed exactly)."""
    from engines.six_suit.rules import Consent, Predict, Veto

    legal = list(engine.legal_actions(s, seat))
    if not legal or isinstance(legal[0], Predict):
        return [choose(s, seat, legal, rng)] if legal else []
    if isinstance(legal[0], Consent | Veto):
        # the normal answer first: at a large table only the first is played (`LARGE_PLAN`)
        first = choose(s, seat, legal, rng)
        return [first, *(a for a in legal if a != first)]
    judge = large_value if is_large(s) else move_value
    return sorted(legal, key=lambda a: -judge(s, seat, a))


def sure_elimination(engine: Any, s: SixSuitState, seat: int) -> Any:
    """The hard level's proven move: the first play of a chain of the seat's own hand cards
    that eliminates an opponent this turn, else None.

    Every play of the chain but the last is a double match on that opponent (each earns the
    next extra turn), the last completes their six suit. Cards drawn on the way are not
    counted on, so a chain found cannot fail. Reads only the seat's hand and the tops. The
    normal AI, rating one play at a time, started such a chain in 39 of the 54 positions
    that had one in 120 two-player games; in two-player play the first elimination decided
    all 300 of 300 self-play games."""
    from engines.six_suit.rules import Play

    if s.phase != PLAY or s.current != seat or s.offer or s.in_free_time():
        return None
    hand = list(s.hands[seat])
    extra = s.options.max_extra_turns - s.chain  # extra turns still available this turn
    side = s.faction(seat)
    for t in range(s.n):
        if not s.alive[t] or s.faction(t) == side:
            continue
        # after a double match, only another on the same player keeps the turn going
        chained = s.chain == 0 or s.chain_elim or t == s.chain_target
        first = _chain_to_six(s.tops[t * 6:t * 6 + 6], hand, extra if chained else 0)
        if first is not None:
            return Play(first[0], t, first[1])
    return None


def _chain_to_six(tops: list[int], hand: list[int], extra: int) -> tuple[int, int] | None:
    """(card, pile) starting a sequence of plays on `tops` that ends in a six suit, using at
    most `extra` double matches before the last play."""
    for i, card, p, shared in plays_on(tops, hand):
        new = tops[:]
        new[p] = card
        if is_six_suit(new):
            return card, p
        if shared == 2 and extra > 0 and len(hand) > 1 and _chain_to_six(
                new, hand[:i] + hand[i + 1:], min(extra - 1, 3)) is not None:
            return card, p
    return None


def baseline(engine: Any, s: SixSuitState, seat: int, rng: random.Random) -> Any:
    """Baseline: cover the pile that brings an opponent's tops nearest a six suit (which
    eliminates them); when only its own piles are open, the play that keeps its own tops
    furthest from one, else discard; consent unless the card gives it a six suit; predict
    the first values offered."""
    from engines.six_suit.rules import Consent, Play, Predict, Veto

    legal = list(engine.legal_actions(s, seat))
    if isinstance(legal[0], Predict):
        return legal[0]
    if isinstance(legal[0], Consent | Veto):
        card, target, pile = s.offer
        new = s.tops[target * 6:target * 6 + 6]
        new[pile] = card
        return Veto() if is_six_suit(new) else Consent()

    def after(a: Any) -> int:
        new = s.tops[a.target * 6:a.target * 6 + 6]
        new[a.pile] = a.card
        return max(reaches(new))

    plays = [a for a in legal if isinstance(a, Play)]
    attacks = [a for a in plays if s.faction(a.target) != s.faction(seat)]
    if attacks:
        return max(attacks, key=after)
    if plays:
        return min(plays, key=after)
    return legal[0]


# The hard search's judgement of an unfinished deal of 3 or 4 players, everyone for
# themselves: a logistic model of the seat's chance to win, fitted to where each seat's
# normal turn starts (the search's horizon) in normal self-play (`win_features`).
# Per table size: [bias by eliminations so far (n)] + [the seat alive, by eliminations so
# far (n)] + [lead over the best other, over the second best] + [the seat's danger] +
# [alive, danger, lead over them] for each other seat in turn order after the seat.
WIN_MODEL: dict[int, tuple[float, ...]] = {
    3: (1.7518, -1.5019, 0.0247, 1.7518, 3.6476, 1.1612, 0.2655, 0.0625, -0.2705, -0.8239,
        0.1313, -2.0607, 0.1303, 0.2356, 0.8827, -0.0344, -2.2237, 0.1978, 0.3362, 0.6919,
        -0.0575),
    4: (0.3509, 0.6313, 0.0894, -0.5682, 0.3509, 1.5872, 1.1124, 1.7382, 0.7534, 0.0652,
        -0.3044, -0.2724, 0.1656, -0.5992, -0.0167, 0.2252, 0.4834, -0.0433, -0.6451,
        0.0052, 0.2391, 1.0142, -0.0428, -0.6361, -0.0055, 0.2415, 0.5865, -0.0511),
}


def win_features(s: SixSuitState, seat: int) -> list[float]:
    """The facts `WIN_MODEL` weighs (see there), from the table and the scores only."""
    n = s.n
    mine = s.scores[seat]
    others = [(seat + j) % n for j in range(1, n)]
    best = sorted((s.scores[p] for p in others), reverse=True)
    k = len(s.elims)
    alive = 1.0 if s.alive[seat] else 0.0
    f = [1.0 if k == i else 0.0 for i in range(n)]
    f += [alive if k == i else 0.0 for i in range(n)]
    f += [mine - best[0], mine - best[1] if n > 2 else 0.0]
    f += _side_facts(s, seat)
    for p in others:
        f += [1.0 if s.alive[p] else 0.0, mine - s.scores[p], *_side_facts(s, p)]
    return f


def _side_facts(s: SixSuitState, p: int) -> list[float]:
    """A player's danger, whether they show a six suit, and their hand size (all 0 once
    they are out, but the hand of a ghost)."""
    held = float(len(s.hands[p]))
    if not s.alive[p]:
        return [0.0, 0.0, held]
    tops = s.tops[p * 6:p * 6 + 6]
    return [danger(tops), 1.0 if is_six_suit(tops) else 0.0, held]


# The same judgement at 5 to 12 players, everyone for themselves: one model for every size,
# fitted to normal self-play at each size 5-12 (`bench.six_suit_win_model --players 5-12`),
# on facts of a fixed length (`large_features`): [bias, log(players - 1) (the base rate),
# the seat alive, the share of the others eliminated, alive × that share, the share of the
# others alive, the seat alone alive] + [the seat's danger, six suit shown, hand size] +
# [the others' mean and highest danger] + [alive, the seat's lead over them per player,
# danger, six suit shown, hand size] for the three others with the most points (ties: the
# next in turn order first). Held-out log loss 0.28 at 5 players down to 0.15 at 12 (the
# average alone: 0.51 down to 0.30; a model per size was at most 0.008 better).
# Not used by `value` yet: as the search's value it was no better than the points lead on
# 300-game screens (seeds 7000-7299, hard minus normal against main's): 5 players -0.7,
# 6 players +1.7, 8 players +0.7 points, each ± 4-5.
LARGE_MODEL: tuple[float, ...] = (-0.7506, 0.1378, 1.7042, -1.2521, 0.0391, -2.9942,
    -0.6015, -0.3383, -0.7810, 0.1590, 0.8866, 0.0736, -0.5127, 1.9998, 0.0863, -0.0461,
    -0.0185, 0.0915, 0.9406, 0.0026, 0.0000, -0.0248, 0.4467, 0.9490, -0.0265, 1.3999,
    -0.0207)


def large_features(s: SixSuitState, seat: int) -> list[float]:
    """The facts `LARGE_MODEL` weighs (see there), the same number at every table size."""
    n = s.n
    share = len(s.elims) / (n - 1)
    alive = 1.0 if s.alive[seat] else 0.0
    mine = s.scores[seat]
    others = sorted((p for p in range(n) if p != seat),
                    key=lambda p: (-s.scores[p], (p - seat) % n))
    living = [p for p in others if s.alive[p]]
    dangers = [danger(s.tops[p * 6:p * 6 + 6]) for p in living]
    f = [1.0, math.log(n - 1), alive, share, alive * share, len(living) / (n - 1),
         alive if not living else 0.0,
         *_side_facts(s, seat), sum(dangers) / (n - 1), max(dangers, default=0.0)]
    for p in others[:3]:
        f += [1.0 if s.alive[p] else 0.0, (mine - s.scores[p]) / n, *_side_facts(s, p)]
    return f


def value(engine: Any, s: SixSuitState, seat: int) -> float:
    """An unfinished deal for the hard search. Everyone for themselves at 3 or 4 players:
    the seat's chance to win by `WIN_MODEL`. Otherwise the side's points lead over the best
    other side, plus how much nearer to a six suit the others' tops are than ours."""
    n = s.n
    model = WIN_MODEL.get(n) if not s.teams else None
    if model is not None:
        return chance(model, win_features(s, seat))
    side = s.faction(seat)
    mine = sum(s.scores[p] for p in range(n) if s.faction(p) == side)
    others: dict[int, float] = {}
    for p in range(n):
        if s.faction(p) != side:
            others[s.faction(p)] = others.get(s.faction(p), 0.0) + s.scores[p]
    lead = mine - max(others.values(), default=0.0)
    threat = 0.0
    for p in range(n):
        if not s.alive[p]:
            continue
        d = danger(s.tops[p * 6:p * 6 + 6])
        threat += d if s.faction(p) != side else -d
    x = (lead + 0.5 * threat) / (3.0 + n)
    return 0.5 + 0.5 * x / (1.0 + abs(x))


# The hard level: each candidate until the seat's next turn, judged there by `value`.
# Worlds: 10 at 2 players; at 3 and 4 (6 and 5 by `worlds_for`) more, up to 10, while a
# budget of simulated actions lasts (a playout to the seat's next turn is about 23 actions
# at 3 players, 29 at 4): at 4 players 5 worlds chose no better than the normal move (a
# true-state judge of the departures), 8 chose better than 5.
LARGE_FROM = 5


def is_large(s: SixSuitState) -> bool:
    """A large table: 5 to 12 players, in teams or everyone for themselves."""
    return s.n >= LARGE_FROM


# At a large table a play that leaves an opponent one card from a six suit is a gift to
# whoever moves next with a fitting card, almost never to the one who made it: in 60 normal
# self-play deals of 8 players (seeds 9000-9059) such setups left standing at the end of
# their maker's turn were finished by another player 313 times, escaped 109 times and were
# finished later by their maker once (two kills in three came that way). The hard level
# there judges moves as the normal AI does, less `GIFT` for such a play (`large_value`);
# a setup it finishes itself in the same turn is the chain planner's move, taken first.
# One hard seat against normal ones, every declared row together: better at 5 players
# (+4.2 points, 1,200 games), 6 (+4.8, 1,200) and 7 (+2.2, 1,800); not shown at 8-12 (600
# games each, a little lower than the hard before it, inside the noise). README, "no gifts
# of a kill".
GIFT = 10.0


def gives_kill(s: SixSuitState, seat: int, card: int, target: int, pile: int) -> bool:
    """Whether covering `target`'s pile with `card` leaves that opponent one card from a six
    suit (reach 5, none before) without eliminating them, once free time is over."""
    if s.in_free_time() or s.faction(target) == s.faction(seat):
        return False
    old = s.tops[target * 6:target * 6 + 6]
    new = old[:]
    new[pile] = card
    return not is_six_suit(new) and max(reaches(new)) >= 5 > max(reaches(old))


def large_value(s: SixSuitState, seat: int, a: Any) -> float:
    """The hard level's judgement of a move at a large table: the normal heuristic's, less
    `GIFT` for a play that sets up someone else's kill (`gives_kill`)."""
    from engines.six_suit.rules import Play

    value = move_value(s, seat, a)
    if isinstance(a, Play) and gives_kill(s, seat, a.card, a.target, a.pile):
        value -= GIFT
    return value


# At a large table the hard level plays its proven and planned moves (`sure_elimination`,
# the chain planner `chain_move`), else the first move of its own ranking (`rank` by
# `large_value`), unsearched (`LARGE_PLAN`: one candidate, the game's own first). Why no
# search: the search around the normal move added nothing measurable there, at up
# to 300 ms a decision. Screens on seeds 7000-7599, hard minus normal game by game: at 8
# players the search +6.0 [+0.9, +11.1] (seeds 7000-7299) and the same hard without it
# +6.0 [+0.8, +11.2] on those games (+0.0 [-5.2, +5.2] between them); without the chain
# planner either +2.2 [-1.2, +5.5] (600 games) against +4.0 [+0.5, +7.5] with it.
#
# Team tables of 6 to 12 players take the same plan. Until then they kept the search around
# the normal move (`value`: the side's points lead), which was at best a little better than
# normal there at 100-140 ms CPU p95 a decision: side against side, 6 in 3 teams +3.7
# [+0.1, +7.4] (1,200 games), 8 in 4 teams +2.2 [-1.2, +5.7] (1,200), 10 in 5 teams +1.5
# [-3.0, +6.0] (600). The large-table plan on screening seeds 7000-7599 (600 games each,
# side against side): 6 in 3 teams +9.7 [+4.5, +14.8], 8 in 4 +8.3 [+3.6, +13.1], 6 in 2
# +9.3 [+4.2, +14.4], at 2-4 ms CPU p95. A gift of a kill there is any setup on an
# opponent (`gives_kill` asks the seats' factions), and the chain planner and sure
# eliminations never target a teammate. README, "Six Suit team tables of 6 to 12 players".
LARGE_PLAN = SearchPlan(candidates=1, own_first_at=LARGE_FROM)
PLAN = SearchPlan(worlds=10, candidates=3, depth=60, my_turns=1, budget=900, max_worlds=10,
                  larger_from=LARGE_FROM, larger=LARGE_PLAN)
AI = AiPlayer(choose=choose_move, timer_move=timer_move, rank=rank, value=value,
              baseline=baseline, plan=PLAN, sure=sure_elimination, lookahead=chain_move)
