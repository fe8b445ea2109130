"""The hard Six Suit AI's extra-turn chain planner: which play gives the best chance of
eliminating an opponent before this turn ends.

Why: with 2 players the first elimination decided all of 300 normal self-play games, and 288
of those came inside a chain of double matches (each keeps the turn, and draws one more
card). The normal AI rates one play at a time (a double match is a flat bonus) and the hard
search plays the rest of the chain with it, so neither plans a sequence such as "double-match
the pile that leaves five reds, then finish with whatever red card the next draw brings".

The planner is an expectimax over the seat's own plays and its next draws, a few plays deep.
A drawn card is never a known card: every unseen card (`unknown_cards`: what the seat cannot
locate) is an equally likely next draw, and the value of a play is the exact average over all
of them, so the planner needs no rng and gives the same answer every time. Simplifications
(all on the cautious side): extra cards from a good prediction are not counted, a chain stays
on one target (no second victim after an elimination), and cards drawn on the way are
averaged over the same unseen set (not over what is left after the earlier draws).

The search horizon is counted in plays (`PLAYS`), never in time.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from engines.six_suit.cards import SHARED, SIX_SUIT_BY_KEY, SUIT_KEY, is_six_suit, reaches
from engines.six_suit.rules import PLAY

if TYPE_CHECKING:
    from engines.six_suit.rules import SixSuitState

# Plays looked at in one plan: this one and those of the next PLAYS - 1 extra turns.
PLAYS = 3
# The planner's move replaces the usual choice only when its chance of eliminating someone
# this turn is at least this much higher than that of the move the hard AI would make
# otherwise (the normal AI's): near ties go to the usual judgement, which also weighs
# defence and the rest of the table.
MARGIN = 0.05


def plays_on(tops: Sequence[int], hand: Sequence[int]) -> Iterator[tuple[int, int, int, int]]:
    """(index in hand, card, pile, attributes shared) for every hand card that may cover a
    pile of `tops` (shared 2: a double match)."""
    for i, card in enumerate(hand):
        row = SHARED[card]
        for p in range(6):
            shared = row[tops[p]]
            if shared:
                yield i, card, p, shared


class _Planner:
    """One decision's memoised expectimax (tops and hands as tuples)."""

    __slots__ = ("finish_memo", "memo", "pool", "victim_share", "victims")

    def __init__(self, pool: list[int], victims: list[tuple[int, ...]]) -> None:
        self.pool = pool  # the unseen cards: each equally likely to be the next draw
        self.memo: dict[tuple, float] = {}
        self.finish_memo: dict[tuple[int, ...], float] = {}
        self.victims = victims  # every opponent's tops (a chain on oneself may end on any)
        self.victim_share = -1.0

    # ---- a chain of double matches on one opponent, ended by their six suit -------------
    def options(self, tops: tuple[int, ...], hand: tuple[int, ...],
                plays: int) -> Iterator[tuple[int, int, float]]:
        """(card, pile, chance) of each play on `tops` with a chance of completing their six
        suit within `plays` plays, this one included (each but the last a double match)."""
        open_keys = _open_keys(tops)
        for i, card, p, shared in plays_on(tops, hand):
            k = open_keys[p]
            if k >= 0 and SIX_SUIT_BY_KEY[k | SUIT_KEY[card]]:
                yield card, p, 1.0
            elif shared == 2 and plays > 1:
                after = (*tops[:p], card, *tops[p + 1:])
                v = self.next_turn(after, hand[:i] + hand[i + 1:], plays - 1)
                if v > 0.0:
                    yield card, p, v

    def best(self, tops: tuple[int, ...], hand: tuple[int, ...], plays: int) -> float:
        """The best of `options` (0 when none)."""
        if 6 - max(reaches(tops)) > plays:  # each play changes one pile
            return 0.0
        key = (tops, hand, plays)
        value = self.memo.get(key)
        if value is None:
            value = 0.0
            for _card, _p, v in self.options(tops, hand, plays):
                if v > value:
                    value = v
                    if v == 1.0:
                        break
            self.memo[key] = value
        return value

    def next_turn(self, tops: tuple[int, ...], held: tuple[int, ...], plays: int) -> float:
        """An extra turn on `tops`: the average over every possible next draw of the best
        play with the held cards and that draw."""
        if 6 - max(reaches(tops)) > plays:
            return 0.0
        if plays == 1:  # only an immediate finish counts: held cards, else the draw
            if self.best(tops, held, 1) == 1.0:
                return 1.0
            return self.finish_share(tops)
        pool = self.pool
        total = 0.0
        for d in pool:
            total += self.best(tops, tuple(sorted((*held, d))), plays)
        return total / len(pool)

    def finish_share(self, tops: tuple[int, ...]) -> float:
        """Share of the unseen cards that complete a six suit on `tops` in one play."""
        got = self.finish_memo.get(tops)
        if got is not None:
            return got
        open_keys = _open_keys(tops)
        piles = [(tops[p], k) for p, k in enumerate(open_keys) if k >= 0]
        count = 0
        if piles:
            for d in self.pool:
                row = SHARED[d]
                sk = SUIT_KEY[d]
                for top, k in piles:
                    if row[top] and SIX_SUIT_BY_KEY[k | sk]:
                        count += 1
                        break
        share = count / len(self.pool)
        self.finish_memo[tops] = share
        return share

    # ---- a chain of double matches on the seat's own piles, ended on any opponent -------
    def finishes_someone(self, hand: tuple[int, ...]) -> bool:
        return any(self.best(v, hand, 1) == 1.0 for v in self.victims)

    def own_options(self, mine: tuple[int, ...], hand: tuple[int, ...],
                    plays: int) -> Iterator[tuple[int, int, float]]:
        """Like `options`, for a chain kept going by double matches on the seat's own tops
        (never one that gives them a six suit) until a card finishes some opponent."""
        if plays <= 1:
            return
        for i, card, p, shared in plays_on(mine, hand):
            if shared != 2:
                continue
            after = (*mine[:p], card, *mine[p + 1:])
            if is_six_suit(after):
                continue
            v = self.own_next(after, hand[:i] + hand[i + 1:], plays - 1)
            if v > 0.0:
                yield card, p, v

    def own_best(self, mine: tuple[int, ...], hand: tuple[int, ...], plays: int) -> float:
        if self.finishes_someone(hand):
            return 1.0
        key = ("own", mine, hand, plays)
        value = self.memo.get(key)
        if value is None:
            value = max((v for _card, _p, v in self.own_options(mine, hand, plays)),
                        default=0.0)
            self.memo[key] = value
        return value

    def own_next(self, mine: tuple[int, ...], held: tuple[int, ...], plays: int) -> float:
        """An extra turn earned on the seat's own piles (see `next_turn`)."""
        if self.finishes_someone(held):
            return 1.0
        if plays == 1:
            if self.victim_share < 0.0:
                self.victim_share = sum(
                    self.finishes_someone((d,)) for d in self.pool) / len(self.pool)
            return self.victim_share
        total = 0.0
        for d in self.pool:
            total += self.own_best(mine, tuple(sorted((*held, d))), plays)
        return total / len(self.pool)


def _open_keys(tops: tuple[int, ...]) -> list[int]:
    """Per pile, the six-suit key of the other five tops when some card on that pile could
    still complete a six suit (the five agree on an attribute), else -1."""
    keys = [SUIT_KEY[c] for c in tops]
    out = []
    for p in range(6):
        k = 0
        for q in range(6):
            if q != p:
                k |= keys[q]
        out.append(k if SIX_SUIT_BY_KEY[k] else -1)
    return out


def chain_chances(s: SixSuitState, seat: int, pool: list[int],
                  plays: int = PLAYS) -> dict[tuple[int, int, int], float]:
    """(card, target, pile) -> chance that this play starts (or is) an elimination of an
    opponent within this turn, for every play that has a chance: on an opponent's pile, or
    a double match on the seat's own (the extra turn's draw may finish someone)."""
    hand = tuple(s.hands[seat])
    if not pool or not hand:
        return {}
    side = s.faction(seat)
    victims = [t for t in range(s.n) if s.alive[t] and s.faction(t) != side]
    planner = _Planner(pool, [tuple(s.tops[t * 6:t * 6 + 6]) for t in victims])
    depth = min(plays, 1 + s.options.max_extra_turns - s.chain)  # extra turns left
    out: dict[tuple[int, int, int], float] = {}
    if s.alive[seat] and (s.chain == 0 or s.chain_elim or s.chain_target == seat):
        mine = tuple(s.tops[seat * 6:seat * 6 + 6])
        for card, p, v in planner.own_options(mine, hand, depth):
            out[(card, seat, p)] = v
    for t in victims:
        chained = s.chain == 0 or s.chain_elim or t == s.chain_target
        tops = tuple(s.tops[t * 6:t * 6 + 6])
        for card, p, v in planner.options(tops, hand, depth if chained else 1):
            out[(card, t, p)] = v
    return out


def chain_move(engine: Any, s: SixSuitState, seat: int, normal: Any) -> Any:
    """The hard level's planned move: the play with the best chance of eliminating an
    opponent this turn, when that chance beats the normal move's by `MARGIN` (ties go to
    the play the normal AI rates higher); the normal move itself when it has the best
    chance, at least `MARGIN` (the search would only trade it for a smaller one); else None
    (the search decides)."""
    from engines.six_suit.ai import move_value, unknown_cards
    from engines.six_suit.rules import Play

    if s.phase != PLAY or s.current != seat or s.offer or s.in_free_time():
        return None
    chances = chain_chances(s, seat, unknown_cards(s, seat))
    if not chances:
        return None
    base = 0.0
    if isinstance(normal, Play):
        base = chances.get((normal.card, normal.target, normal.pile), 0.0)
    best_v = max(chances.values())
    if best_v < MARGIN:
        return None
    if base >= best_v - 1e-9:
        return normal  # already the best chance: the search may not trade it for less
    if best_v < base + MARGIN:
        return None
    best = [Play(c, t, p) for (c, t, p), v in chances.items() if v >= best_v - 1e-9]
    return max(best, key=lambda a: move_value(s, seat, a))
