"""Suit Taboo AI: a fast, rule-of-thumb player built on public evidence.

It only reads what its seat may know (the base `ai_action` hands it a determinized state, and
this module reads nothing hidden from it anyway: its own hand and role, the table, and the
public catapult history). Ideas, from the seed's strategy notes:
- roles are inferred from catapult suits: a player who built a ♠ catapult cannot be the ♠ ace,
  so doubts go to the players whose shown suits rule them out least;
- same-number shots are preferred (they turn the catapult into a shield);
- catapults stick to one or two suits, never the AI's own (a third suit gives the role away);
- in end mode it keeps playing while a cast is still possible (a cast costs nothing then),
  then drops out;
- it does not spend shots (face cards least) on players who showed the card's suit;
- McNulty names the most likely black-ace holders from the role deals the evidence allows.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING

from engines.ai_levels import SearchPlan
from engines.cards import Card
from engines.core import AiPlayer
from engines.suit_taboo.rules import (
    BLACK_ACES,
    HAND_LIMIT,
    Accuse,
    Action,
    Build,
    Cast,
    DropOut,
    Pick,
    SuitTabooState,
    consistent_role_deals,
    penalty,
)

if TYPE_CHECKING:
    from engines.suit_taboo.rules import SuitTabooEngine

JOKER_KEY = "j"


def role_marginals(s: SuitTabooState, seat: int) -> list[dict[str, float]]:
    """P(player p holds role r) under a uniform prior over the deals `seat` cannot rule out."""
    deals = consistent_role_deals(s, seat)
    counts = [Counter() for _ in range(s.n)]
    for roles, _ in deals:
        for p, role in enumerate(roles):
            counts[p][JOKER_KEY if role.is_joker else role.suit] += 1
    total = float(len(deals)) or 1.0
    return [{k: v / total for k, v in c.items()} for c in counts]


def choose_accusation(s: SuitTabooState, seat: int, legal: list[Action]) -> Action:
    """McNulty: the most likely (♠ holder, ♣ holder) pair, consistent with names already said."""
    deals = consistent_role_deals(s, seat)
    said = dict(s.accusations)
    pairs: Counter = Counter()
    for roles, _ in deals:
        holder = {}
        for suit in BLACK_ACES:
            holder[suit] = next((p for p, r in enumerate(roles) if r == Card(1, suit)), None)
        if all(holder[x] == t for x, t in said.items()):
            pairs[(holder["s"], holder["c"])] += 1
    accusations = [a for a in legal if isinstance(a, Accuse)]
    if not pairs or not accusations:
        return legal[0]
    best = max(pairs.items(), key=lambda kv: (kv[1], [-1 if t is None else -t for t in kv[0]]))
    want = dict(zip(BLACK_ACES, best[0], strict=True))
    for a in accusations:
        if a.target == want[a.suit]:
            return a
    return accusations[0]


class _Scorer:
    """Scores each legal action; the best one is played (ties broken by the rng)."""

    def __init__(self, s: SuitTabooState, seat: int) -> None:
        self.s = s
        self.seat = seat
        self.role = s.roles[seat]
        self.marg = role_marginals(s, seat)
        self.hand = s.hands[seat]
        self.cat = s.catapult[seat]
        self.wire = s.options.wire
        self.mine = set(s.built[seat])
        pool = [*self.hand, *s.open]
        self.castable = self.cat is not None and any(
            c.suit == self.cat.suit or c.rank == self.cat.rank for c in pool)
        self.can_cast = False  # set by choose_action from the legal moves
        self.other_cat_ranks = {c.rank for p, c in enumerate(s.catapult)
                                if c is not None and p != seat}

    def own_suit(self, card: Card) -> bool:
        return not self.role.is_joker and card.suit == self.role.suit

    def threat(self, card: Card, target: int) -> float:
        """Expected penalty a doubt would put on `target` (joker blocks twice as well)."""
        m = self.marg[target]
        pen = penalty(card)
        value = pen * (m.get(card.suit, 0.0) + 0.55 * m.get(JOKER_KEY, 0.0))
        if self.wire and self.s.roles[self.seat].suit in ("h", "d") and card.suit in BLACK_ACES:
            value += 0.6 * pen * m.get(card.suit, 0.0)  # detectives hunt the bad guys
        return value

    def wasted(self, card: Card, target: int) -> float:
        """What a shot at a player who already showed the card's suit throws away: that player
        cannot hold the suit's ace, so only a joker could be hurt, and the card (a face card
        doubly) could have hit someone else later. Nothing is wasted in end mode: no later."""
        if self.s.end_mode or self.marg[target].get(card.suit, 0.0) > 0:
            return 0.0
        return 0.4 * penalty(card)

    def score(self, a: Action) -> float:
        s = self.s
        if isinstance(a, Cast):
            val = sum(self.threat(c, t) - self.wasted(c, t) for c, t in a.shots)
            val += sum(0.35 for c, _ in a.shots if self.own_suit(c))
            val += sum(0.1 for c, _ in a.shots if c in s.open)
            if a.mode == "number":
                return 3.0 + val + 0.15 * len(a.shots)
            if s.end_mode:
                return val + 0.1  # no future for the catapult: any fair shot beats dropping
            cat = self.cat
            lose = 0.0
            if cat is not None and any(c.rank == cat.rank for c in [*self.hand, *s.open]):
                lose = 1.0
            return val - 0.45 - lose + (0.3 if len(self.hand) >= HAND_LIMIT else 0.0)
        if isinstance(a, Build):
            return self.score_build(a.card)
        if isinstance(a, Pick):
            return self.score_pick(a.card)
        if isinstance(a, DropOut):
            # In end mode a cast costs nothing (no catapult has a future): never drop out
            # while one is still possible.
            return -10.0 if self.can_cast else 0.3
        return 0.0

    def score_build(self, card: Card) -> float:
        s = self.s
        rest = [c for c in self.hand if c != card]
        pool = [*rest, *s.open]
        matches = sum(1 for c in pool if c.rank == card.rank)
        suit_ammo = sum(1 for c in pool if c.suit == card.suit)
        score = 0.2 + 0.9 * min(matches, 2) + 0.15 * min(suit_ammo, 3)
        if card.suit in self.mine:
            score += 0.6
        elif not self.mine:
            score += 0.2
        elif self.role.is_joker:
            score -= 0.1
        elif len(self.mine) == 1:
            score -= 0.5
        else:
            score -= 1.6  # a third suit all but names the role
        if self.cat is not None:
            score -= 2.0 if self.castable else 0.3
        if len(self.hand) >= HAND_LIMIT:
            score += 0.5
        if s.end_mode and matches == 0 and suit_ammo == 0:
            score -= 1.5
        return score

    def score_pick(self, card: Card | None) -> float:
        s = self.s
        size = len(self.hand)
        own_held = sum(1 for c in self.hand if self.own_suit(c))
        if card is None:
            score = 0.55 if size <= 3 else 0.3
            if self.cat is None and all(self.own_suit(c) for c in self.hand):
                score += 0.5
            return score
        score = 0.15
        if any(c.rank == card.rank for c in self.hand):
            score += 0.45
        if self.cat is not None and card.suit == self.cat.suit:
            score += 0.1
        if card.rank in self.other_cat_ranks:
            score += 0.25  # deny someone a same-number shot
        if self.own_suit(card):
            score += 0.35 if card.rank >= 11 else -0.25
            score -= 0.3 * own_held if size >= 2 else 0.0
        if s.end_mode:
            useful = self.cat is not None and (card.rank == self.cat.rank
                                               or card.suit == self.cat.suit)
            score = 0.5 if useful and not self.castable else -0.5
        return score


def _scorer(s: SuitTabooState, seat: int, legal) -> _Scorer:
    scorer = _Scorer(s, seat)
    scorer.can_cast = any(isinstance(a, Cast) for a in legal)
    return scorer


def rank(engine: SuitTabooEngine, s: SuitTabooState, seat: int, rng: random.Random) -> list:
    """The hard level's candidates: legal moves by the scorer, best first (McNulty's
    accusation is not searched)."""
    legal = list(engine.legal_actions(s, seat))
    if s.phase == "accuse":
        return [choose_accusation(s, seat, legal)]
    scorer = _scorer(s, seat, legal)
    return sorted(legal, key=lambda a: -scorer.score(a))


def choose_action(engine: SuitTabooEngine, s: SuitTabooState, seat: int,
                  rng: random.Random) -> Action:
    legal = engine.legal_actions(s, seat)
    if s.phase == "accuse":
        return choose_accusation(s, seat, legal)
    scorer = _scorer(s, seat, legal)
    best: list[Action] = []
    top = float("-inf")
    for a in legal:
        v = scorer.score(a)
        if v > top + 1e-9:
            top, best = v, [a]
        elif v > top - 1e-9:
            best.append(a)
    return best[0] if len(best) == 1 else rng.choice(best)


def baseline(engine: SuitTabooEngine, s: SuitTabooState, seat: int, rng: random.Random
             ) -> Action:
    """Baseline: cast whenever it can (the most shots first), else build a catapult when it
    has none, else take the deck's top card; drop out only when nothing else is legal, and
    as McNulty name the first choice offered."""
    legal = list(engine.legal_actions(s, seat))
    casts = [a for a in legal if isinstance(a, Cast)]
    if casts:
        return max(casts, key=lambda a: len(a.shots))
    builds = [a for a in legal if isinstance(a, Build)]
    if builds and s.catapult[seat] is None:
        return builds[0]
    picks = [a for a in legal if isinstance(a, Pick)]
    if picks:
        return Pick(None) if Pick(None) in picks else picks[0]
    others = [a for a in legal if not isinstance(a, DropOut)]
    return (others or legal)[0]


def value(engine: SuitTabooEngine, s: SuitTabooState, seat: int) -> float:
    """An unfinished match for the hard search: round wins, plus how the round would end if
    it were scored now (exposed or not, and by how many uncancelled penalties), against the
    best other player. Scored in a sampled world, where every role is dealt."""
    def standing(p: int) -> float:
        role = s.roles[p]
        pens = sum(penalty(c) for c, _, _ in s.doubts[p] if role.is_joker or c.suit == role.suit)
        left = max(0, pens - len(s.shields[p]) * (2 if role.is_joker else 1))
        return s.wins[p] + (0.5 if left == 0 else 0.0) - 0.1 * left

    lead = standing(seat) - max(standing(p) for p in range(s.n) if p != seat)
    return 0.5 + 0.5 * lead / (1.0 + abs(lead))


def timer_accusation(engine: SuitTabooEngine, s: SuitTabooState, seat: int) -> Action | None:
    """McNulty's accusation when their time runs out (the AI's best guess, no randomness)."""
    if s.phase != "accuse":
        return None
    return choose_accusation(s, seat, list(engine.legal_actions(s, seat)))


# The hard level: each candidate until the seat's second turn after it, in 16 worlds.
PLAN = SearchPlan(worlds=16, candidates=3, depth=40, my_turns=2)
AI = AiPlayer(choose=choose_action, timer_move=timer_accusation, rank=rank,
              value=value, baseline=baseline, plan=PLAN)
