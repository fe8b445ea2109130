"""Game states for picture tests: seeded random play, so every run draws the same tables."""

from __future__ import annotations

from bot.game_ui import registered_uis
from bot.pictures.samples import random_state
from engines import ENGINES

GAMES = registered_uis()


def names_for(n: int) -> list[str]:
    return [f"player {i + 1}" for i in range(n)]


def played_state(game: str, n: int, moves: int = 60, seed: int = 3):
    """A state after up to `moves` random legal moves (not finished)."""
    return random_state(ENGINES[game], n, seed, moves)
