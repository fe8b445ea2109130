"""AI levels shared by every game: the `ai_level` table option (easy / normal / hard).

- normal: the game's own AI (`engine.ai_policy`) on one determinized state.
- easy: for beginners. Half of its required moves are the normal AI's, the other half a
  uniformly random legal move; it never volunteers an optional move (such as enforcing a rule
  out of turn) that the normal AI would not make. Legal, often sensible, clearly weaker.
- hard: flat information-set Monte Carlo around the normal AI. Candidates are the normal
  AI's move and its next best ones by the game's own ranking (`AiPlayer.rank`). Each is
  played in the same sampled worlds (`engine.determinize` of the real state, or the game's
  own `AiPlayer.worlds` sampler built on it: the AI never sees a hidden card) with the
  same random streams, then every seat plays on with the normal policy (or the game's
  cheaper `AiPlayer.playout`) until the game's horizon (the seat's next turn, the end of
  the match, a number of actions: its `SearchPlan`), where `engine.ai_value` judges it.
  The normal move is kept unless another one gains on it by more than `z` standard errors
  of the paired differences. The size of the search is a number of worlds, candidates and
  simulated actions, never wall-clock time, so a decision is reproducible from its rng.
  A move the game proves best (`AiPlayer.sure`, e.g. a sure elimination) is played at once,
  and so is one its own exact lookahead clearly prefers to the normal move
  (`AiPlayer.lookahead`, e.g. Six Suit's extra-turn chain planner).
  From `SearchPlan.own_first_at` players on, the game's own ranking gives the candidates and
  its first move is the one kept (Hidden Rules: its risk-counting card play, unsearched;
  Six Suit at large tables: its ranking that gives no one an easy kill).
  From `SearchPlan.larger_from` players on, the game's `larger` plan is searched instead
  (Taboo: at 5 and 6 players a shorter horizon judged by a fitted chance to win, with
  budgets of their own; Six Suit: from 5 players, teams or not, its unsearched ranking).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from engines.core import is_listed

if TYPE_CHECKING:
    from engines.core import Engine

AiLevel = Literal["easy", "normal", "hard"]
AI_LEVELS: tuple[str, ...] = ("easy", "normal", "hard")

EASY_RANDOM_SHARE = 0.5


@dataclass(frozen=True, slots=True)
class SearchPlan:
    """How much the hard level searches in one game, in simulated actions (never wall-clock
    time, so a decision is reproducible from its rng). Sized per game from the cost of its
    normal AI so that a hard decision stays within 300 ms p95 on 2 cores (`bench.ai`)."""

    worlds: int = 8  # sampled worlds with 2 players (fewer at larger tables: worlds_for)
    candidates: int = 3  # the normal AI's move plus its next best ones (the game's `rank`)
    depth: int = 40  # simulated actions per playout before the game's `value` judges it
    z: float = 1.0  # paired standard errors a move must gain over the normal move by
    # stop(start, state): the playout has gone far enough (e.g. the match is over)
    stop: Callable[[Any, Any], bool] | None = None
    # stop when the searching seat is to move for the k-th time (0: only depth and stop)
    my_turns: int = 0
    # A budget of simulated actions for the whole decision (0: none): after the `worlds`
    # worlds (worlds_for), more are searched one after another, every candidate in each,
    # until the actions played reach the budget or `max_worlds` are done. Short playouts (a
    # race near its end) get many worlds, long ones keep the usual few: still a count,
    # never time.
    budget: int = 0
    max_worlds: int = 0
    # at tables of at least this many players (0: never), the game's `rank` alone gives the
    # candidates: its own best move first, kept unless another gains on it clearly (a single
    # ranked move is played unsearched); elsewhere the normal AI's move comes first
    own_first_at: int = 0
    # at tables of at least `larger_from` players (0: never), the `larger` plan is used
    # instead of this one (a large table's search can need another size, gate or horizon)
    larger_from: int = 0
    larger: SearchPlan | None = None

    def at(self, players: int) -> SearchPlan:
        """The plan for a table of `players` (a `larger` plan may have a larger one again)."""
        if self.larger is not None and 0 < self.larger_from <= players:
            return self.larger.at(players)
        return self

    def for_state(self, state: Any) -> SearchPlan:
        """The plan for this table (`at` its number of players)."""
        return self.at(getattr(state, "n", 2))


DEFAULT_PLAN = SearchPlan()
# A searched move must also beat the normal move by at least this much (value in [0, 1]).
MIN_GAIN = 0.01


def chance(model: Sequence[float], facts: Sequence[float]) -> float:
    """A fitted logistic model's chance (e.g. a seat's chance to win) from its facts: the
    one place the games' win models are evaluated. The weighted sum is clamped to +-30 so
    that an extreme position cannot overflow `exp` (the chance is then within 1e-13 of 0
    or 1)."""
    z = sum(w * x for w, x in zip(model, facts, strict=True))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def ai_level_field() -> Any:
    """The `ai_level` field every game's Options declares (one line per game)."""
    return Field("normal", description="How well AI seats play: easy (for beginners), "
                 "normal, or hard (searches ahead; slower).")


def level_of(engine: Engine, state: Any) -> str:
    return getattr(engine.options_of(state), "ai_level", "normal")


def with_level(state: Any, level: str) -> Any:
    """A copy of `state` whose table plays AI seats at `level`: how benchmarks seat a hard
    AI at a normal table, and how tests ask one position at another level."""
    clone = state.clone()
    clone.options = clone.options.model_copy(update={"ai_level": level})
    return clone


def choose_at_level(engine: Engine, state: Any, seat: int, rng: random.Random,
                    level: str) -> Any:
    """The move an AI seat at `level` makes from the real `state` (it only ever hands the
    game's policy determinized states)."""
    normal = engine.ai_policy(engine.determinize(state, seat, rng), seat, rng)
    if level == "easy":
        return _easy(engine, state, seat, rng, normal)
    if level == "hard":
        return _hard(engine, state, seat, rng, normal)
    return normal


def _easy(engine: Engine, state: Any, seat: int, rng: random.Random, normal: Any) -> Any:
    if seat not in engine.waiting_for(state) or rng.random() >= EASY_RANDOM_SHARE:
        return normal  # an optional move is only made when the normal AI would make it
    return rng.choice(list(engine.legal_actions(state, seat)))


def _hard(engine: Engine, state: Any, seat: int, rng: random.Random, normal: Any) -> Any:
    """Flat information-set Monte Carlo around the normal AI.

    Candidates are the normal AI's move and its next best ones (the game's `rank`, in one
    sampled world; without it, the normal AI's picks in other worlds). Each candidate is
    played in the same sampled worlds with the same random streams (common random numbers),
    then every seat plays on with the normal policy for `plan.depth` actions and the game's
    `ai_value` judges the result. The normal move is kept unless another one gains on it
    clearly: by more than `plan.z` standard errors of the paired differences, world by
    world. Short playouts are noisy, and a move the search only thinks is better loses to
    the normal move on a near tie."""
    legal = list(engine.legal_actions(state, seat))
    if len(legal) <= 1 and normal is not None:
        return normal
    sure = getattr(engine.ai, "sure", None)
    lookahead = getattr(engine.ai, "lookahead", None)
    if sure is not None or lookahead is not None:
        # a proven move, then one the game's exact lookahead prefers: judged in a world of
        # their own, so the search's rng streams stay as they were
        own = engine.determinize(state, seat, random.Random(0))
        move = sure(engine, own, seat) if sure else None
        if (move is None or not is_listed(move, legal)) and lookahead:
            move = lookahead(engine, own, seat, normal)
        if move is not None and is_listed(move, legal):
            return move
    plan = (getattr(engine.ai, "plan", None) or DEFAULT_PLAN).for_state(state)
    candidates = _candidates(engine, state, seat, rng, normal, legal, plan)
    if len(candidates) <= 1:
        return candidates[0] if candidates else normal
    least = worlds_for(plan, state)
    count = max(least, plan.max_worlds) if plan.budget else least
    seeds = [rng.randrange(2**31) for _ in range(count)]
    sample = getattr(engine.ai, "worlds", None)
    worlds = (sample(engine, state, seat, random.Random(seeds[0] - 1), len(seeds)) if sample
              else (engine.determinize(state, seat, random.Random(s)) for s in seeds))
    values: list[list[float]] = [[] for _ in candidates]
    played = [0]  # simulated actions so far (the budget's count)
    for world_seed, world in zip(seeds, worlds, strict=True):  # the same worlds and streams
        for i, move in enumerate(candidates):
            values[i].append(_playout(engine, world, seat, move,
                                      random.Random(world_seed + 1), plan, played))
        if plan.budget and played[0] >= plan.budget and len(values[0]) >= least:
            break
    best, best_gain = candidates[0], 0.0
    base = values[0]
    for move, vals in zip(candidates[1:], values[1:], strict=True):
        diffs = [v - b for v, b in zip(vals, base, strict=True)]
        gain = sum(diffs) / len(diffs)
        spread = (sum((d - gain) ** 2 for d in diffs) / max(1, len(diffs) - 1)) ** 0.5
        if gain > max(MIN_GAIN, plan.z * spread / len(diffs) ** 0.5, best_gain):
            best, best_gain = move, gain
    return best


def worlds_for(plan: SearchPlan, state: Any) -> int:
    """Worlds to sample: the plan's number is for 2 players; a playout to the seat's next turn
    grows with the table, so larger tables sample fewer worlds (at least 4) and a decision
    keeps about the same cost."""
    return max(4, plan.worlds * 2 // max(2, getattr(state, "n", 2)))


def _candidates(engine: Engine, state: Any, seat: int, rng: random.Random, normal: Any,
                legal: list[Any], plan: SearchPlan) -> list[Any]:
    """The normal move first, then the game's next best moves (or the normal AI's picks in
    other worlds when the game ranks nothing). At tables of `plan.own_first_at` players or
    more, the game's ranking alone, its first move first (the normal move only if ranked)."""
    own = 0 < plan.own_first_at <= getattr(state, "n", 2)
    candidates: list[Any] = [] if own else [normal]
    rank = getattr(engine.ai, "rank", None)
    if rank is not None:
        ranked = rank(engine, engine.determinize(state, seat, rng), seat, rng)
    else:
        ranked = [engine.ai_policy(engine.determinize(state, seat, rng), seat, rng)
                  for _ in range(plan.candidates)]
    for move in ranked:
        if len(candidates) >= plan.candidates:
            break
        if move is not None and move not in candidates and (
                is_listed(move, legal) or _say_variant(move)):
            candidates.append(move)
    return candidates


def _playout(engine: Engine, world: Any, seat: int, move: Any, rng: random.Random,
             plan: SearchPlan, played: list[int] | None = None) -> float:
    """Play `move` in a sampled world, then let the normal policy play every seat (optional
    actors too: one that does not want to act is asked again after the next move). The
    actions simulated are added to `played[0]`."""
    if move is None:
        state = world
    else:
        if not is_listed(move, engine.legal_actions(world, seat)) and not _say_variant(move):
            return 0.0
        try:
            state = engine.apply(world, seat, move).state
        except ValueError:
            return 0.0
    policy = getattr(engine.ai, "playout", None) or engine.ai.choose
    declined: set[int] = set()
    turns = 0
    mine = True  # the searching seat was to move at the last step (it just moved)
    for _ in range(plan.depth):
        if engine.outcome(state) is not None or (plan.stop and plan.stop(world, state)):
            break
        waiting = seat in engine.waiting_for(state)
        if waiting and not mine:
            turns += 1
            if turns == plan.my_turns:
                break
        mine = waiting
        actors = sorted(engine.to_act(state))
        ready = [a for a in actors if a not in declined]
        if not ready:
            break
        actor = ready[rng.randrange(len(ready))]
        action = policy(engine, state, actor, rng)
        if action is None:
            if actor not in engine.waiting_for(state):
                declined.add(actor)
                continue
            action = engine.default_action(state, actor)
        state = engine.apply(state, actor, action).state
        declined = set()
        if played is not None:
            played[0] += 1
    return engine.ai_value(state, seat)


def _say_variant(move: Any) -> bool:
    """Moves carrying free text (Hidden Rules' `say`) are not listed verbatim; apply judges."""
    return bool(getattr(move, "say", ""))
