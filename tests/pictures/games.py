"""Game states for picture tests: seeded random play, so every run draws the same tables."""

from __future__ import annotations

import random

from engines import ENGINES


def _uis() -> dict:
    from cogs.six_suit.cog import SixSuitUI

    return {"six_suit": SixSuitUI()}


GAMES = _uis()


def names_for(n: int) -> list[str]:
    return [f"player {i + 1}" for i in range(n)]


def played_state(game: str, n: int, moves: int = 60, seed: int = 3):
    """A state after up to `moves` random legal moves (not finished)."""
    engine = ENGINES[game]
    state = engine.new_game(n, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        step_seat = sorted(engine.to_act(state))[0]
        nxt = engine.apply(state, step_seat,
                           rng.choice(list(engine.legal_actions(state, step_seat)))).state
        if engine.outcome(nxt) is not None:
            break
        state = nxt
    return state
