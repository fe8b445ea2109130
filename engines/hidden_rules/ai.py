"""The Hidden Rules AI: plays Up 'N Over sensibly and learns the secret rules from the table.

It only uses what its seat may know: its hand and rule, rules shown to it by challenges, and
the public enforcement history (each record keeps the play it was about and how it ended).
From that history it keeps, for every other player, a weight for each (trigger, action) pair
that player could hold: a challenge settles a pair exactly (the play broke it, or did not),
an accepted enforcement counts as soft evidence. With those beliefs it

* says what every rule it believes in requires when its play triggers it (its own included),
* enforces its own rule, and rules it is confident about, when a play breaks them,
* challenges an enforcement when the chance that it is right is too low for the penalty,
* picks cards by a one-step look-ahead: make 21, never bust if avoidable, and avoid leaving
  a total the next player can likely turn into 21.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import TYPE_CHECKING

from engines.ai_levels import SearchPlan
from engines.cards import make_deck
from engines.core import AiPlayer
from engines.hidden_rules.decks import (
    ACTION_IDS,
    ACTION_SAYS,
    ACTIONS,
    QUIET_CHARS_MAX,
    QUIET_PARTS_MAX,
    SILENT_ACTION,
    TRIGGER_IDS,
    PlayContext,
    broken,
    pair_bit,
    performed,
    triggered,
    unnecessary_parts,
)

if TYPE_CHECKING:
    from engines.hidden_rules.rules import HiddenRulesEngine, HiddenRulesState

# How often each trigger fires in ordinary play (rough, measured by hand) plus a bonus for the
# ones that catch trick-winning plays: enforcing those takes a point away from the culprit.
TRIGGER_WORTH = {1: .08, 2: .23, 3: .07, 4: .25, 5: .38, 6: .25, 7: .25, 8: .25, 9: .05,
                 10: .25, 11: .2, 12: .05, 13: .45, 14: .15, 15: .1, 16: .45}
# How likely an unaware player is to fail the action (silence is what most people do).
ACTION_WORTH = {a: 1.0 for a in ACTION_IDS} | {SILENT_ACTION: 0.05, 9: 0.9, 10: 0.9}
# Enforcing someone else's rule: +1 when right, -1 when challenged and wrong (the holder's point
# too). Only worth it with hard evidence (see Beliefs.settled) and a near-certain break.
ENFORCE_CONFIDENCE = 0.97
# How often a rule's holder enforces a play that kept their rule (a slip): the AI never does,
# a human sometimes misreads a play. Used as the likelihood of such an enforcement.
HOLDER_MISTAKE = 0.03
# How often an enforcement of someone else's rule is a guess gone wrong, before any record.
GUESS_MISTAKE = 0.4
# How often a holder lets a play that broke its own rule stand (the AI never does; a person
# may miss one): the weight a rule keeps once its holder let a play break it (hard level).
STAND_MISS = 0.1
FULL_DECK = make_deck()

Pair = tuple[int, int]


@lru_cache(maxsize=8192)
def _vectors(ctx: PlayContext) -> tuple[tuple[bool, ...], tuple[bool, ...]]:
    """Which triggers fire and which actions are performed for a recorded play."""
    return (tuple(triggered(t, ctx) for t in TRIGGER_IDS),
            tuple(performed(a, ctx) for a in ACTION_IDS))


@lru_cache(maxsize=4096)
def _holder_pairs(cand_t: tuple[int, ...], cand_a: tuple[int, ...],
                  records: tuple, let_stand: int = 0) -> dict[Pair, float]:
    """One holder's candidate pairs and their weights from the public records about that
    holder's rule (and, when given, the rules it let a play break: `let_stand`). Cached:
    every decision rebuilds the beliefs of every seat, and the hard level's playouts do so
    thousands of times from the same few records (callers only read the dict)."""
    weights = {(t, a): 1.0 for t in cand_t for a in cand_a}
    for rec in records:
        yes, no = _evidence(rec)
        tv, av = _vectors(rec.ctx)
        for pair in weights:
            t, a = pair
            weights[pair] *= yes if tv[t - 1] and not av[a - 1] else no
    if let_stand:
        for pair in weights:
            if let_stand & pair_bit(*pair):
                weights[pair] *= STAND_MISS
    total = sum(weights.values())
    if total <= 0:  # cannot happen with true evidence; stay uniform if it does
        weights = {(t, a): 1.0 for t in cand_t for a in cand_a}
        total = float(len(weights))
    return {p: w / total for p, w in weights.items() if w > 0}


class Beliefs:
    """What one seat believes about every other seat's rule, from public evidence only.

    With `stands` (the hard level) it also reads the plays each seat let stand: a holder
    who passes on a play that broke a rule almost surely does not hold that rule
    (`HiddenRulesState.let_stand`). The enforcement records alone leave most of a holder's
    candidate rules open, and an AI that reads them alone overrates its risk of a penalty
    about twofold on the plays it has some evidence about."""

    def __init__(self, s: HiddenRulesState, me: int, stands: bool = False) -> None:
        self.s, self.me = s, me
        self.pairs: dict[int, dict[Pair, float]] = {}
        known = [h for h in range(s.n) if s.knows_rule(me, h)]
        ex_t = set(s.dealt_t[me]) | {s.rule_t[h] for h in known}
        ex_a = set(s.dealt_a[me]) | {s.rule_a[h] for h in known}
        cand_t = [t for t in TRIGGER_IDS if t not in ex_t]
        cand_a = [a for a in ACTION_IDS if a not in ex_a]
        ts, as_ = tuple(cand_t), tuple(cand_a)
        for h in range(s.n):
            if h in known:
                self.pairs[h] = {(s.rule_t[h], s.rule_a[h]): 1.0}
                continue
            stand = s.let_stand[h] if stands and s.let_stand else 0
            self.pairs[h] = _holder_pairs(ts, as_, tuple(r for r in s.history if r.holder == h),
                                          stand)

    def p_broken(self, holder: int, ctx: PlayContext) -> float:
        tv, av = _vectors(ctx)
        return sum(w for (t, a), w in self.pairs[holder].items() if tv[t - 1] and not av[a - 1])

    def requirements(self, ctx: PlayContext) -> dict[int, float]:
        """Action id -> how much it matters to perform it with this play.

        Its own rule always counts; another player's rule counts only once public evidence
        (an enforcement of that holder's rule) makes an action likely, so the AI says what
        its rules ask rather than reciting every possible phrase."""
        need: dict[int, float] = {}
        tv = [triggered(t, ctx) for t in TRIGGER_IDS]
        evidence = {rec.holder for rec in self.s.history}
        for h, pairs in self.pairs.items():
            if h != self.me and h not in evidence and len(pairs) > 1:
                continue
            for (t, a), w in pairs.items():
                if tv[t - 1]:
                    need[a] = need.get(a, 0.0) + w * (1.0 if h == self.me else 1.5)
        return {a: w for a, w in need.items() if w >= 0.04}

    def settled(self, holder: int) -> bool:
        """Whether hard evidence about `holder`'s rule exists: it is known, or a challenge,
        the referee or the holder themself (accepted) confirmed a broken play of it."""
        if len(self.pairs[holder]) == 1:
            return True
        return any(r.holder == holder and (r.result in ("right", "referee")
                                           or (r.result == "accepted" and r.enforcer == holder))
                   for r in self.s.history)

    def best_guess(self, holder: int) -> Pair:
        return max(self.pairs[holder].items(), key=lambda kv: kv[1])[0]


def _evidence(rec) -> tuple[float, float]:
    """How much one public record weighs a candidate pair that the recorded play broke (yes)
    against one it did not break (no).

    A challenge or the referee settles it. An accepted enforcement by the holder is nearly as
    good: the holder knows the rule, so they rarely enforce a play that kept it. An accepted
    enforcement of someone else's rule is weak: the enforcer guessed, and the accused may
    just have been cautious (or guessed that the enforcer guessed right)."""
    if rec.result in ("right", "referee"):
        return 1.0, 0.0
    if rec.result == "wrong":
        return 0.0, 1.0
    if rec.enforcer == rec.holder:
        return 1.0, HOLDER_MISTAKE
    return 1.0, 0.8


def compose_say(ctx: PlayContext, need: dict[int, float]) -> str:
    """Say everything required, unless silence is worth more than all the rest together."""
    if not need:
        return ""
    silent = need.pop(SILENT_ACTION, 0.0)
    if silent >= sum(need.values()):
        return ""
    parts: list[str] = []
    for a in sorted(need, key=lambda a: (-need[a], a)):
        text = ACTION_SAYS[a](ctx)
        if text and text not in parts:
            parts.append(text)
    # a quiet table allows at most 3 parts and 100 characters (RULINGS, unnecessary talking)
    parts = parts[:QUIET_PARTS_MAX]
    while parts and len(", ".join(parts)) > QUIET_CHARS_MAX:
        parts.pop()
    return ", ".join(parts)


# --------------------------------------------------------------------------- decisions
def choose_action(engine: HiddenRulesEngine, s: HiddenRulesState, me: int,
                  rng: random.Random):
    from engines.hidden_rules.rules import _ACCEPT, _CHALLENGE, _PASS, _START, Enforce, Keep

    if s.phase == "choose":
        t = max(s.dealt_t[me], key=lambda x: TRIGGER_WORTH[x])
        a = max(s.dealt_a[me], key=lambda x: ACTION_WORTH[x])
        return Keep(t, a)
    beliefs = Beliefs(s, me)
    if s.phase == "pending":
        return _CHALLENGE if should_challenge(s, me, beliefs) else _ACCEPT
    # play phase
    enforce = _enforcement(s, me, beliefs)
    starter = s.to_play < 0 and me == s.next_starter()
    if starter and s.taker == me:
        return _START  # lock the point in before anyone can undo it
    if enforce is not None:
        return Enforce(*enforce)
    if starter:
        return _START
    if me == s.to_play:
        return _best_play(engine, s, me, beliefs, rng)
    return _PASS


def _enforcement(s: HiddenRulesState, me: int, beliefs: Beliefs) -> tuple[int, str] | None:
    if not s.may_enforce(me) or s.last is None:
        return None
    if s.trick_over and s.taker == me:
        return None  # undoing that play would cost me the trick
    ctx = s.last.ctx
    if broken(s.rule_t[me], s.rule_a[me], ctx):
        return me, ACTIONS[s.rule_a[me]].hint
    best, best_p = -1, ENFORCE_CONFIDENCE
    for h in range(s.n):
        if h == me:
            continue
        if not beliefs.settled(h):
            continue
        p = beliefs.p_broken(h, ctx)
        if p >= best_p:
            best, best_p = h, p
    if best < 0:
        return None
    return best, ACTIONS[beliefs.best_guess(best)[1]].hint


def _mistake_rate(s: HiddenRulesState, enforcer: int, holder: int) -> float:
    """How likely `enforcer` is to enforce `holder`'s rule against a play that kept it,
    from their public record of such enforcements (own rule and others' rules apart)."""
    own = enforcer == holder
    right = wrong = 0
    for r in s.history:
        if r.enforcer != enforcer or (r.holder == enforcer) != own:
            continue
        right += r.result == "right"
        wrong += r.result == "wrong"
    prior, weight = (HOLDER_MISTAKE, 10.0) if own else (GUESS_MISTAKE, 3.0)
    return (wrong + prior * weight) / (right + wrong + weight)


def p_enforcement_right(s: HiddenRulesState, me: int, beliefs: Beliefs) -> float:
    """The chance that the pending enforcement against `me` is right, given what `me` said.

    Bayes: the prior is the belief that my play broke the holder's rule (it already accounts
    for what I said: a candidate rule whose action my words performed is not broken). The
    enforcement itself is the evidence: a holder almost never enforces a kept rule, another
    player's guess often is wrong. A hint naming an action I performed narrows the holder's
    candidate rules to that action, whose rule my play then did not break."""
    assert s.pending is not None and s.last is not None
    enforcer, holder, hint = s.pending
    ctx = s.last.ctx
    pairs = beliefs.pairs[holder]
    named = {a for a in ACTION_IDS if ACTIONS[a].hint == hint}
    if named and any(a in named for _, a in pairs):
        pairs = {p: w for p, w in pairs.items() if p[1] in named}
    total = sum(pairs.values()) or 1.0
    tv, av = _vectors(ctx)
    p = sum(w for (t, a), w in pairs.items() if tv[t - 1] and not av[a - 1]) / total
    mistake = _mistake_rate(s, enforcer, holder)
    return p / (p + (1 - p) * mistake) if p > 0 else 0.0


def should_challenge(s: HiddenRulesState, me: int, beliefs: Beliefs) -> bool:
    """Challenge when that is worth more than accepting, by the chance the enforcement is
    right: accepting costs 1 (and the trick), a lost challenge 2 (and the trick), a won one
    gains 1."""
    assert s.pending is not None and s.last is not None
    _enforcer, holder, _hint = s.pending
    ctx = s.last.ctx
    if holder < 0:  # unnecessary talking: challenge when the rules it knows ask for every part
        known = [(s.rule_t[h], s.rule_a[h]) for h in range(s.n) if s.knows_rule(me, h)]
        return not unnecessary_parts(ctx, known)
    trick_value = 1.0 if ctx.total == 21 else 0.0
    if s.knows_rule(me, holder):
        return not broken(s.rule_t[holder], s.rule_a[holder], ctx)
    return p_enforcement_right(s, me, beliefs) < (2 + trick_value) / (3 + trick_value)


def _unseen(s: HiddenRulesState, me: int) -> list[int]:
    """Values of the cards this seat cannot see (hands of others and the deck, roughly)."""
    seen = set(s.hands[me]) | {c for _, c, _, _ in s.trick} | set(s.pile)
    return [c.rank for c in FULL_DECK if c not in seen]


def _hits(ranks: list[int], need: int) -> int:
    """How many of these ranks can add exactly `need` (an ace counts 1 or 11)."""
    from engines.hidden_rules.rules import VALUES

    return sum(1 for r in ranks if VALUES[r] == need or (r == 1 and need == 11))


def _best_play(engine: HiddenRulesEngine, s: HiddenRulesState, me: int, beliefs: Beliefs,
               rng: random.Random):
    """The play with the best score, saying what its rules ask."""
    return _scored_plays(engine, s, me, beliefs, rng)[0][1]


def _scored_plays(engine: HiddenRulesEngine, s: HiddenRulesState, me: int, beliefs: Beliefs,
                  rng: random.Random) -> list[tuple[float, object]]:
    """(score, play with its words) for every legal play, best first: a one-step look-ahead
    (make 21, never bust if avoidable, leave the next player little chance of 21)."""
    from engines.hidden_rules.rules import Play

    plays = [a for a in engine.legal_actions(s, me) if isinstance(a, Play)]
    unseen = _unseen(s, me)
    u = max(1, len(unseen))
    hand = s.hands[me]
    nxt = -1
    for i in range(1, s.n):
        p = (me + i) % s.n
        if s.hands[p]:
            nxt = p
            break
    scored = []
    for play in plays:
        value = play.ace_as or (1 if play.card.rank == 1 else _value(play.card.rank))
        total = s.total + value
        ctx = PlayContext(play.card, value, s.trick[-1][1], s.total, total, len(hand) - 1, "",
                          s.named_animals, s.named_characters)
        if total == 21:
            score = 1.0
        elif total > 21:
            score = -1.0
        elif nxt < 0:
            score = 0.0
        else:
            h = len(s.hands[nxt])
            p_hit = 1 - (1 - _hits(unseen, 21 - total) / u) ** h
            bust = sum(1 for r in unseen if _value(r) > 21 - total) / u
            p_forced = bust ** h
            score = -0.9 * p_hit + 0.8 * p_forced
            # keep the low cards (J, Q, K, A) for later: they get you out of trouble
            if play.card.rank in (1, 11, 12, 13):
                score -= 0.05
            score += 0.005 * value  # unload high cards while it is safe
        need = beliefs.requirements(ctx)
        if SILENT_ACTION in need and len(need) > 1:
            score -= 0.3 * min(need[SILENT_ACTION], sum(need.values()) - need[SILENT_ACTION])
        score += rng.random() * 1e-3
        scored.append((score, play, ctx, need))
    scored.sort(key=lambda item: -item[0])
    return [(score, Play(play.card, play.ace_as, compose_say(ctx, need)))
            for score, play, ctx, need in scored]


def safe_plays(engine: HiddenRulesEngine, s: HiddenRulesState, me: int, beliefs: Beliefs,
               rng: random.Random) -> list[tuple[float, object]]:
    """(score, play) for every legal play, best first, counting the risk of a penalty.

    The look-ahead's score ignores the other seats' rules, yet at a table of four a play is
    taken back for a broken rule about as often as a trick is won. A penalty costs a point
    and undoes the play (a trick it made is lost), so a play worth `v` that some other seat
    enforces with chance p is worth (1 - p) v - p. p comes from the beliefs with what the
    play says: 1 - the product over the other seats of 1 - p(their rule is broken)."""
    out = []
    for score, play in _scored_plays(engine, s, me, beliefs, rng):
        value = play.ace_as or _value(play.card.rank)
        ctx = PlayContext(play.card, value, s.trick[-1][1], s.total, s.total + value,
                          len(s.hands[me]) - 1, play.say, s.named_animals, s.named_characters)
        kept = 1.0
        for h in range(s.n):
            if h != me:
                kept *= 1.0 - beliefs.p_broken(h, ctx)
        out.append((score - (1.0 - kept) * (score + 1.0), play))
    out.sort(key=lambda item: -item[0])
    return out


def rank(engine: HiddenRulesEngine, s: HiddenRulesState, me: int, rng: random.Random) -> list:
    """The hard level's candidates. Plays by the look-ahead's score, best first (from 3
    players on, only the best play by `safe_plays`, with the beliefs that read the plays
    let stand: `PLAN.own_first_at`); an enforcement the AI would make, or letting the play
    stand; a pending enforcement is left to the normal AI. It never considers enforcing a rule it does not believe broken
    (a bluff), nor another rule choice than the normal AI's."""
    from engines.hidden_rules.rules import _PASS

    normal = choose_action(engine, s, me, rng)
    if s.phase == "pending":
        # not searched: a sampled world ignores what the enforcement itself says (a holder
        # rarely enforces a kept rule), so playouts favour challenging correct enforcements;
        # the normal AI's Bayesian reading of it is the better judge
        return [normal]
    if s.phase == "play" and me == s.to_play and normal.kind == "play":
        if s.n >= PLAN.own_first_at:
            # from 3 players on: the play that counts the risk of a penalty, unsearched (at 4
            # players the search's 6 worlds did not beat the normal play; README)
            return [safe_plays(engine, s, me, Beliefs(s, me, stands=True), rng)[0][1]]
        return [play for _, play in _scored_plays(engine, s, me, Beliefs(s, me), rng)]
    if s.phase == "play" and normal.kind == "enforce":
        return [normal, _PASS] if _PASS in engine.legal_actions(s, me) else [normal]
    return [normal]


def baseline(engine: HiddenRulesEngine, s: HiddenRulesState, me: int, rng: random.Random):
    """Baseline: keep the first trigger and action dealt; play the card that makes exactly
    21, else the highest one that stays under 21, else the lowest, saying nothing; enforce
    its own rule whenever a play breaks it; accept every enforcement."""
    from engines.hidden_rules.rules import _ACCEPT, _PASS, _START, Enforce, Keep, Play

    legal = engine.legal_actions(s, me)
    if s.phase == "choose":
        return Keep(s.dealt_t[me][0], s.dealt_a[me][0])
    if s.phase == "pending":
        return _ACCEPT
    if s.may_enforce(me) and s.last is not None and broken(s.rule_t[me], s.rule_a[me],
                                                            s.last.ctx):
        return Enforce(me, ACTIONS[s.rule_a[me]].hint)
    if _START in legal:
        return _START
    plays = [a for a in legal if isinstance(a, Play)]
    if not plays:
        return _PASS if _PASS in legal else (None if me not in engine.waiting_for(s)
                                             else legal[0])

    def added(a: Play) -> int:
        return a.ace_as or _value(a.card.rank)

    exact = [a for a in plays if s.total + added(a) == 21]
    if exact:
        return exact[0]
    under = [a for a in plays if s.total + added(a) < 21]
    return max(under, key=added) if under else min(plays, key=added)


def _value(rank: int) -> int:
    from engines.hidden_rules.rules import VALUES

    return VALUES[rank]


# The hard level: each candidate until the seat's second turn after it, in 12 worlds (at 2
# players; fewer at larger tables). From 3 players on, its card play is `safe_plays`' best.
PLAN = SearchPlan(worlds=12, candidates=3, depth=60, my_turns=2, own_first_at=3)
AI = AiPlayer(choose=choose_action, rank=rank, baseline=baseline, plan=PLAN)
