"""Tables to draw without a bot: seeded random legal play (the README's pictures, the picture
benchmark and the picture tests draw the same kind of tables)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any


def random_states(engine: Any, n_players: int, seed: int, moves: int,
                  options: Any = None) -> Iterator[Any]:
    """The state after each of up to `moves` seeded random legal moves, stopping before the
    move that would end the game (a finished table has nothing left to hide)."""
    rng = random.Random(seed)
    state = engine.new_game(n_players, seed, options)
    for _ in range(moves):
        seat = rng.choice(sorted(engine.to_act(state)))
        following = engine.apply(state, seat,
                                 rng.choice(list(engine.legal_actions(state, seat)))).state
        if engine.outcome(following) is not None:
            return
        state = following
        yield state


def random_state(engine: Any, n_players: int, seed: int, moves: int,
                 options: Any = None) -> Any:
    """The last state `random_states` reaches (the new game if it reaches none)."""
    state = engine.new_game(n_players, seed, options)
    for state in random_states(engine, n_players, seed, moves, options):  # noqa: B007
        pass
    return state
