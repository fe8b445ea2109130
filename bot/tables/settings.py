"""Options of a table: the game's own `Options` plus the framework's per-table settings.

Server moderators store defaults per game with /config; a host may override them at /new.
Both are validated by pydantic models, so a bad value never reaches an engine.
"""

from __future__ import annotations

import json
import shlex
from typing import Any

from pydantic import Field, ValidationError

from engines.core import Engine, GameOptions


class TableSettings(GameOptions):
    """Framework settings that every game's table has."""

    turn_seconds: int = Field(300, ge=0, le=86_400,
                              description="Turn timer in seconds (0 = no timer).")
    afk_turns: int = Field(2, ge=1, le=20,
                           description="Timed-out turns in a row before an AI takes the seat.")
    shuffle_seats: bool = Field(False, description="Shuffle the seating order at the start "
                                "(otherwise seats follow join order).")
    host_options: bool = Field(True, description="Hosts may change options when opening a "
                               "lobby (off: only the server's defaults apply).")


class ServerSettings(GameOptions):
    """Settings of a whole server (not of one game), stored like a game's defaults under
    the key `SERVER_KEY`."""

    lobby_idle_minutes: int = Field(30, ge=1, le=10_080, description="A lobby closes after "
                                    "this many minutes without a join, leave or change.")
    leaderboard_min_games: int = Field(3, ge=1, le=1000, description="Finished games a "
                                       "player needs to appear on /leaderboard.")
    pictures: bool = Field(True, description="Boards and hands also show as pictures (the "
                           "text stays complete; members can turn pictures off for "
                           "themselves with /pictures).")


SERVER_KEY = "_server"  # the guild_settings row holding ServerSettings


class OptionsError(ValueError):
    """A user typed a bad option; the message says which and why."""


def option_fields(engine: Engine) -> dict[str, Any]:
    """Every configurable key for a game: its own options and the table settings."""
    return {**engine.Options.model_fields, **TableSettings.model_fields}


def parse_option_text(text: str | None) -> dict[str, Any]:
    """Parse `key=value key2=value2` (values as JSON where possible, else strings)."""
    result: dict[str, Any] = {}
    if not text:
        return result
    try:
        parts = shlex.split(text.replace(",", " "))
    except ValueError as exc:
        raise OptionsError(f"I couldn't read those options ({exc}).") from None
    for part in parts:
        if "=" not in part:
            raise OptionsError(f"`{part}` should look like `name=value`.")
        key, _, raw = part.partition("=")
        result[key.strip().lower()] = parse_value(raw.strip())
    return result


def parse_value(raw: str) -> Any:
    low = raw.lower()
    if low in ("none", "null"):
        return None
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    try:
        return json.loads(raw)
    except ValueError:
        return raw


def _explain(exc: ValidationError) -> str:
    return "; ".join(f"`{'.'.join(str(p) for p in e['loc'])}`: {e['msg']}" for e in exc.errors())


def resolve_options(engine: Engine, *layers: dict[str, Any]) -> tuple[GameOptions, TableSettings]:
    """Merge option layers (server defaults, then host overrides) and validate them."""
    merged: dict[str, Any] = {}
    for layer in layers:
        merged.update(layer)
    known = option_fields(engine)
    unknown = sorted(set(merged) - set(known))
    if unknown:
        raise OptionsError(f"Unknown option(s) for {engine.title}: {', '.join(unknown)}. "
                           f"Known: {', '.join(sorted(known))}.")
    game_part = {k: v for k, v in merged.items() if k in engine.Options.model_fields}
    table_part = {k: v for k, v in merged.items() if k in TableSettings.model_fields
                  and k not in engine.Options.model_fields}
    try:
        return engine.Options.model_validate(game_part), TableSettings.model_validate(table_part)
    except ValidationError as exc:
        raise OptionsError(f"Invalid option: {_explain(exc)}.") from None


def resolve_server(stored: dict[str, Any], **changes: Any) -> ServerSettings:
    """A server's settings from what is stored (plus changes); OptionsError if invalid."""
    unknown = sorted(set(changes) - set(ServerSettings.model_fields))
    if unknown:
        raise OptionsError(f"Unknown server setting: {', '.join(unknown)}. Known: "
                           f"{', '.join(ServerSettings.model_fields)}.")
    known = {k: v for k, v in stored.items() if k in ServerSettings.model_fields}
    try:
        return ServerSettings.model_validate({**known, **changes})
    except ValidationError as exc:
        raise OptionsError(f"Invalid setting: {_explain(exc)}.") from None


def describe_model(model: GameOptions) -> list[str]:
    """`name = value — description` lines for any settings model."""
    return [f"`{key}` = **{'off' if getattr(model, key) is None else getattr(model, key)}** "
            f"— {field.description}" for key, field in type(model).model_fields.items()]


def describe_options(engine: Engine, options: GameOptions, table: TableSettings) -> list[str]:
    """`name = value — description` lines for lobby and /config."""
    own = engine.Options.model_fields
    return describe_model(options) + [line for key, line in zip(
        TableSettings.model_fields, describe_model(table), strict=True) if key not in own]
