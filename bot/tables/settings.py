"""Options of a table: the game's own `Options` plus the framework's per-table settings.

Server moderators store defaults per game with /config; a host may override them at /new.
Both are validated by pydantic models, so a bad value never reaches an engine.
"""

from __future__ import annotations

import re
import shlex
import typing
from typing import Any

from pydantic import Field, ValidationError
from pydantic.fields import FieldInfo

from bot.ui.names import echo
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
    lobbies_per_member: int = Field(3, ge=1, le=50, description="Open lobbies one member "
                                    "may host at a time on this server.")
    leaderboard_min_games: int = Field(3, ge=1, le=1000, description="Finished games a "
                                       "player needs to appear on /leaderboard.")
    pictures: bool = Field(True, description="Boards and hands also show as pictures (the "
                           "text stays complete; members can turn pictures off for "
                           "themselves with /pictures).")
    ratings: bool = Field(True, description="Skill ratings: /leaderboard ranks by rating, "
                          "/stats and results show it (off: ranked by wins and points; "
                          "ratings are still kept, so turning them on shows them up to "
                          "date).")


SERVER_KEY = "_server"  # the guild_settings row holding ServerSettings


class OptionsError(ValueError):
    """A user typed a bad option; the message says which and why."""


def option_fields(engine: Engine) -> dict[str, Any]:
    """Every configurable key for a game: its own options and the table settings."""
    return {**engine.Options.model_fields, **TableSettings.model_fields}


OPTIONS_TEXT_LIMIT = 400  # characters of `/<game> new options:` (every option fits easily)
_KEY = re.compile(r"[a-z_]{1,40}", re.ASCII)
_INT = re.compile(r"[+-]?[0-9]{1,9}", re.ASCII)  # ASCII digits only: no ², ٣ or 1e3
_FLOAT = re.compile(r"[+-]?[0-9]{1,9}(\.[0-9]{1,6})?", re.ASCII)  # no nan, inf or 1e9
_TRUE, _FALSE = ("true", "yes", "on"), ("false", "no", "off")
_NONE = ("none", "null", "off")


def parse_option_text(text: str | None) -> dict[str, str]:
    """Split `key=value key2=value2` into keys and their raw text; the values are read by
    `resolve_options`, each as its option's type says (`parse_value`)."""
    result: dict[str, str] = {}
    if not text or not text.strip():
        return result
    if len(text) > OPTIONS_TEXT_LIMIT:
        raise OptionsError(f"That's too long for options ({len(text)} characters; at most "
                           f"{OPTIONS_TEXT_LIMIT}). Write them like `turn_seconds=120`.")
    try:
        parts = shlex.split(text.replace(",", " "))
    except ValueError:
        raise OptionsError("I couldn't read those options (a quote is not closed). Write "
                           "them like `turn_seconds=120 shuffle_seats=on`.") from None
    for part in parts:
        key, eq, raw = part.partition("=")
        key = key.strip().lower()
        if not eq:
            raise OptionsError(f"{echo(part)} should look like `name=value`.")
        if not _KEY.fullmatch(key):
            raise OptionsError(f"{echo(key)} isn't an option name (they look like "
                               "`turn_seconds`).")
        result[key] = raw.strip()
    return result


def _kinds(annotation: Any) -> tuple[set[type], bool]:
    """The value types an option accepts, and whether it may be None ("off")."""
    args = typing.get_args(annotation) or (annotation,)
    kinds = {a for a in args if a is not type(None)}
    return kinds, type(None) in args


def parse_value(raw: str, field: FieldInfo) -> Any:
    """Read a typed value as its option's type says, strictly: a boolean is `on`/`off`
    (`true`/`false`, `yes`/`no`), never a number; a number is ASCII digits, never a
    boolean, and whole for a whole-number option; "off"/"none" only where an option can be
    off. Raises OptionsError with a friendly reason (the input quoted short)."""
    text = raw.strip()
    low = text.lower()
    kinds, nullable = _kinds(field.annotation)
    if nullable and low in _NONE:
        return None
    if typing.get_origin(field.annotation) is typing.Literal:  # e.g. ai_level easy/normal/hard
        values = [str(v) for v in typing.get_args(field.annotation)]
        if low in values:
            return low
        raise OptionsError(f"{echo(text)} isn't one of " + ", ".join(f"`{v}`" for v in values)
                           + ".")
    if bool in kinds:
        if low in _TRUE:
            return True
        if low in _FALSE:
            return False
        raise OptionsError(f"{echo(text)} isn't on or off: write `on` or `off`.")
    if int in kinds:
        if _INT.fullmatch(text):
            return int(text)
        off = " (or `off`)" if nullable else ""
        raise OptionsError(f"{echo(text)} isn't a whole number: write digits like `120`{off}.")
    if float in kinds:
        if _FLOAT.fullmatch(text):
            return float(text) + 0.0  # -0.0 becomes 0.0
        raise OptionsError(f"{echo(text)} isn't a number: write it like `1.5`.")
    if str in kinds:
        return text
    raise OptionsError(f"{echo(text)} isn't a value this option takes.")


def _read(model: type[GameOptions], layer: dict[str, Any]) -> dict[str, Any]:
    """Typed text (from /new or /config) read per field; stored values pass as they are
    (the strict validation below checks them)."""
    fields = model.model_fields
    out = {}
    for key, value in layer.items():
        if isinstance(value, str) and key in fields:
            try:
                value = parse_value(value, fields[key])
            except OptionsError as exc:
                raise OptionsError(f"`{key}`: {exc}") from None
        out[key] = value
    return out


def _explain(exc: ValidationError) -> str:
    return "; ".join(f"`{'.'.join(str(p) for p in e['loc'])}`: {e['msg']}" for e in exc.errors())


def _unknown(names: list[str]) -> str:
    shown = ", ".join(echo(n, 40) for n in names[:3])
    return shown + (f" and {len(names) - 3} more" if len(names) > 3 else "")


def resolve_options(engine: Engine, *layers: dict[str, Any]) -> tuple[GameOptions, TableSettings]:
    """Merge option layers (server defaults, then host overrides) and validate them
    strictly (`parse_value` reads typed text; stored values must already have their type)."""
    merged: dict[str, Any] = {}
    for layer in layers:
        merged.update(layer)
    known = option_fields(engine)
    unknown = sorted(set(merged) - set(known))
    if unknown:
        raise OptionsError(f"Unknown option(s) for {engine.title}: {_unknown(unknown)}. "
                           f"Known: {', '.join(sorted(known))}.")
    own = engine.Options.model_fields
    game_part = _read(engine.Options, {k: v for k, v in merged.items() if k in own})
    table_part = _read(TableSettings, {k: v for k, v in merged.items()
                                       if k in TableSettings.model_fields and k not in own})
    try:
        return (engine.Options.model_validate(game_part, strict=True),
                TableSettings.model_validate(table_part, strict=True))
    except ValidationError as exc:
        raise OptionsError(f"Invalid option: {_explain(exc)}.") from None


def resolve_server(stored: dict[str, Any], **changes: Any) -> ServerSettings:
    """A server's settings from what is stored (plus changes); OptionsError if invalid."""
    unknown = sorted(set(changes) - set(ServerSettings.model_fields))
    if unknown:
        raise OptionsError(f"Unknown server setting: {_unknown(unknown)}. Known: "
                           f"{', '.join(ServerSettings.model_fields)}.")
    known = {k: v for k, v in stored.items() if k in ServerSettings.model_fields}
    try:
        return ServerSettings.model_validate(_read(ServerSettings, {**known, **changes}),
                                             strict=True)
    except ValidationError as exc:
        raise OptionsError(f"Invalid setting: {_explain(exc)}.") from None


def shown(value: Any) -> str:
    """An option's value as lobbies and /config show it (and as it can be typed back)."""
    if value is None:
        return "off"
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def describe_model(model: GameOptions) -> list[str]:
    """`name = value — description` lines for any settings model."""
    return [f"`{key}` = **{shown(getattr(model, key))}** "
            f"— {field.description}" for key, field in type(model).model_fields.items()]


def describe_options(engine: Engine, options: GameOptions, table: TableSettings) -> list[str]:
    """`name = value — description` lines for lobby and /config."""
    own = engine.Options.model_fields
    return describe_model(options) + [line for key, line in zip(
        TableSettings.model_fields, describe_model(table), strict=True) if key not in own]
