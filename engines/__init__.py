"""Pure game engines and the registry the bot and the generic checks iterate over."""

from __future__ import annotations

import importlib

from engines.core import Engine

GAME_MODULES = ("suspense", "suit_taboo", "hidden_rules", "taboo", "six_suit")

ENGINES: dict[str, Engine] = {}


def register(engine: Engine) -> Engine:
    """Add an engine to `ENGINES` under its contract name."""
    ENGINES[engine.name] = engine
    return engine


def _load_games() -> None:
    # Each game module registers itself by defining ENGINE. A module that does not exist yet
    # is simply absent from the registry (games land one by one).
    for module_name in GAME_MODULES:
        try:
            module = importlib.import_module(f"engines.{module_name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"engines.{module_name}":
                raise
            continue
        register(module.ENGINE)


_load_games()
