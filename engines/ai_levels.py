"""AI levels shared by every game: the `ai_level` table option (easy / normal / hard).

- normal: the game's own AI (`engine.ai_policy`) on one determinized state.
- easy: for beginners. Half of its required moves are the normal AI's, the other half a
  uniformly random legal move; it never volunteers an optional move (such as enforcing a rule
  out of turn) that the normal AI would not make. Legal, often sensible, clearly weaker.
- hard: flat information-set Monte Carlo. Candidate moves are the normal AI's choices over a
  few determinizations plus a few other legal moves; each candidate is tried in the same
  sampled worlds (`engine.determinize` of the real state: the AI never sees a hidden card),
  followed by a playout in which every seat plays the normal policy, cut after
  SEARCH_BUDGET / (worlds x candidates) actions and scored by `engine.ai_value`. The budget is a number of
  simulated actions, never wall-clock time, so a decision is deterministic given its rng.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from engines.core import is_listed

if TYPE_CHECKING:
    from engines.core import Engine

AiLevel = Literal["easy", "normal", "hard"]
AI_LEVELS: tuple[str, ...] = ("easy", "normal", "hard")

EASY_RANDOM_SHARE = 0.5
HARD_WORLDS = 4  # sampled worlds (determinizations) each candidate is tried in
HARD_CANDIDATES = 4  # at most this many candidate moves
# Simulated actions per decision (split over worlds x candidates), sized per game from its
# normal AI's cost per decision so that a hard decision stays within 300 ms p95 on 2 cores.
SEARCH_BUDGET = {"suspense": 16, "hidden_rules": 100, "suit_taboo": 320, "six_suit": 480}
DEFAULT_BUDGET = 480
# A searched move must beat the normal AI's move by this much (value in [0, 1]) to replace
# it: short playouts are noisy, and the normal move is the better bet on a near tie.
HARD_MARGIN = 0.1


def ai_level_field() -> Any:
    """The `ai_level` field every game's Options declares (one line per game)."""
    return Field("normal", description="How well AI seats play: easy (for beginners), "
                 "normal, or hard (searches ahead; slower).")


def level_of(engine: Engine, state: Any) -> str:
    return getattr(engine.options_of(state), "ai_level", "normal")


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
    legal = list(engine.legal_actions(state, seat))
    if len(legal) <= 1 and normal is not None:
        return normal
    candidates: list[Any] = [normal]
    for _ in range(HARD_CANDIDATES):  # what the normal AI would do in other worlds
        if len(candidates) >= HARD_CANDIDATES // 2:
            break
        other = engine.ai_policy(engine.determinize(state, seat, rng), seat, rng)
        if other not in candidates:
            candidates.append(other)
    pool = [a for a in legal if a not in candidates]
    rng.shuffle(pool)
    candidates.extend(pool[:HARD_CANDIDATES - len(candidates)])
    seeds = [rng.randrange(2**31) for _ in range(HARD_WORLDS)]
    budget = SEARCH_BUDGET.get(engine.name, DEFAULT_BUDGET)
    depth = max(1, budget // (len(seeds) * len(candidates)))
    best, best_value = normal, float("-inf")
    for move in candidates:
        total = 0.0
        for world_seed in seeds:  # the same worlds for every candidate (common numbers)
            world_rng = random.Random(world_seed)
            world = engine.determinize(state, seat, world_rng)
            total += _playout(engine, world, seat, move, world_rng, depth)
        # the normal move keeps a head start: the search must find a clear gain
        value = total / len(seeds) + (HARD_MARGIN if move is normal else 0.0)
        if value > best_value:
            best, best_value = move, value
    return best


def _playout(engine: Engine, world: Any, seat: int, move: Any, rng: random.Random,
             depth: int) -> float:
    """Play `move` in a sampled world, then let the normal policy play every seat."""
    if move is None:
        state = world
    else:
        if not is_listed(move, engine.legal_actions(world, seat)) and not _say_variant(move):
            return float("-inf")
        try:
            state = engine.apply(world, seat, move).state
        except ValueError:
            return float("-inf")
    for _ in range(depth):
        actors = sorted(engine.waiting_for(state)) or sorted(engine.to_act(state))
        if not actors or engine.outcome(state) is not None:
            break
        actor = actors[rng.randrange(len(actors))]
        action = engine.ai_policy(state, actor, rng)
        if action is None:
            action = engine.default_action(state, actor)
        state = engine.apply(state, actor, action).state
    return engine.ai_value(state, seat)


def _say_variant(move: Any) -> bool:
    """Moves carrying free text (Hidden Rules' `say`) are not listed verbatim; apply judges."""
    return bool(getattr(move, "say", ""))
