"""Pure game engines and the registry the bot and the generic checks iterate over."""

from __future__ import annotations

import importlib

from engines.core import Engine

GAME_PACKAGES = ("suspense", "suit_taboo", "hidden_rules", "taboo", "six_suit")

ENGINES: dict[str, Engine] = {}


def register(engine: Engine) -> Engine:
    """Add an engine to `ENGINES` under its contract name."""
    ENGINES[engine.name] = engine
    return engine


def _load_games() -> None:
    # Each game is a package: `rules` defines ENGINE, `ai` defines AI. The registry pairs
    # them, so a rules module never imports its AI.
    for package in GAME_PACKAGES:
        rules = importlib.import_module(f"engines.{package}.rules")
        ai = importlib.import_module(f"engines.{package}.ai")
        rules.ENGINE.ai = ai.AI
        register(rules.ENGINE)


_load_games()
