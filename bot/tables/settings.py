"""Options of a table: the game's own `Options` plus the framework's per-table settings.

Server moderators store defaults per game with /config; a host may override them at /new.
Both are validated by pydantic models, so a bad value never reaches an engine.
"""

from __future__ import annotations

import re
import shlex
import typing
from typing import Any, Literal

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
    table_place: Literal["thread", "channel"] = Field(
        "thread", description="Where a started game is played: in its own thread of the "
        "lobby's channel (the channel keeps the lobby and the result), or in the channel.")
    ratings: bool = Field(True, description="Skill ratings: /leaderboard ranks by rating, "
                          "/stats and results show it (off: ranked by wins and points; "
                          "ratings are still kept, so turning them on shows them up to "
                          "date).")


SERVER_KEY = "_server"  # the guild_settings row holding ServerSettings


class OptionsError(ValueError):
    """A user typed a bad option; the message says which and why."""


def option_fields(engine: Engine) -> dict[str, Any]:
    """Every configurable key for a game: its own options, then the table settings it does
    not define itself (a game's own `turn_seconds` wins, as in `resolve_options`)."""
    own = engine.Options.model_fields
    return {**own, **{k: f for k, f in TableSettings.model_fields.items() if k not in own}}


OPTIONS_TEXT_LIMIT = 400  # characters of `/<game> new options:` (every option fits easily)
_KEY = re.compile(r"[a-z_]{1,40}", re.ASCII)
_INT = re.compile(r"[+-]?[0-9]{1,9}", re.ASCII)  # ASCII digits only: no ², ٣ or 1e3
_HUGE = re.compile(r"[+-]?[0-9]{10,}", re.ASCII)
_FLOAT = re.compile(r"[+-]?[0-9]{1,9}(\.[0-9]{1,6})?", re.ASCII)  # no nan, inf or 1e9
_TRUE, _FALSE = ("true", "yes", "on"), ("false", "no", "off")
_SPACED_EQUALS = re.compile(r"\s*=\s*")
_NONE = ("none", "null", "off")


def parse_option_text(text: str | None) -> dict[str, str]:
    """Split `key=value key2=value2` into keys and their raw text; the values are read by
    `resolve_options`, each as its option's type says (`parse_value`). An option given twice
    is refused, naming it: taking the last value silently left the host with a lobby they
    did not ask for (found playing as a new user)."""
    result: dict[str, str] = {}
    if not text or not text.strip():
        return result
    if len(text) > OPTIONS_TEXT_LIMIT:
        raise OptionsError(f"That's too long for options ({len(text)} characters; at most "
                           f"{OPTIONS_TEXT_LIMIT}). Write them like `turn_seconds=120`.")
    # "turn_seconds = 120" is how many people write it: the spaces around = are dropped
    text = _SPACED_EQUALS.sub("=", text.replace(",", " "))
    try:
        parts = shlex.split(text)
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
        if key in result:
            raise OptionsError(f"`{key}` is given twice ({echo(result[key])} and "
                               f"{echo(raw.strip())}): give each option once, with the value "
                               "you want.")
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
    off. Raises OptionsError saying what the option takes (`allowed`), the input quoted
    short; `_read` puts the option's name in front."""
    text = raw.strip()
    low = text.lower()
    kinds, nullable = _kinds(field.annotation)
    if not text:
        raise OptionsError(f"takes {allowed(field)}, but no value was given.")
    if nullable and low in _NONE:
        return None
    if typing.get_origin(field.annotation) is typing.Literal:  # e.g. ai_level easy/normal/hard
        values = [str(v) for v in typing.get_args(field.annotation)]
        if low in values:
            return low
        raise OptionsError(f"is {allowed(field)}, and {echo(text)} isn't one of them.")
    if bool in kinds:
        if low in _TRUE:
            return True
        if low in _FALSE:
            return False
        raise OptionsError(f"is either on or off (write `on` or `off`), and {echo(text)} "
                           "is neither.")
    if int in kinds:
        if _INT.fullmatch(text):
            return int(text)
        if _HUGE.fullmatch(text):  # digits, just far too many of them
            how = "low" if text.startswith("-") else "high"
            raise OptionsError(f"takes {allowed(field)}, and {echo(text, 20)} is far too {how}.")
        raise OptionsError(f"takes {allowed(field)}, and {echo(text)} isn't a whole number.")
    if float in kinds:
        if _FLOAT.fullmatch(text):
            return float(text) + 0.0  # -0.0 becomes 0.0
        raise OptionsError(f"takes {allowed(field)}, and {echo(text)} isn't a number.")
    if str in kinds:
        return text
    raise OptionsError(f"takes {allowed(field)}, and {echo(text)} isn't one of those.")


def _bounds(field: FieldInfo) -> tuple[Any, Any]:
    """The smallest and largest value a number option allows (None where unbounded)."""
    low = high = None
    for rule in field.metadata:
        if getattr(rule, "ge", None) is not None:
            low = rule.ge
        if getattr(rule, "gt", None) is not None:
            low = rule.gt + 1 if isinstance(rule.gt, int) else rule.gt
        if getattr(rule, "le", None) is not None:
            high = rule.le
        if getattr(rule, "lt", None) is not None:
            high = rule.lt - 1 if isinstance(rule.lt, int) else rule.lt
    return low, high


def allowed(field: FieldInfo) -> str:
    """What an option takes, in words: "a whole number from 0 to 86400 (or `off`)",
    "`on` or `off`", "one of `easy`, `normal`, `hard`"."""
    kinds, nullable = _kinds(field.annotation)
    off = " (or `off`)" if nullable else ""
    if typing.get_origin(field.annotation) is typing.Literal:
        return "one of " + ", ".join(f"`{v}`" for v in typing.get_args(field.annotation))
    if bool in kinds:
        return "`on` or `off`"
    if int in kinds or float in kinds:
        what = "a whole number" if int in kinds else "a number"
        low, high = _bounds(field)
        if low is not None and high is not None:
            return f"{what} from {low} to {high}{off}"
        if low is not None:
            return f"{what} of at least {low}{off}"
        if high is not None:
            return f"{what} of at most {high}{off}"
        return what + off
    return "text" + off


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
                raise OptionsError(f"`{key}` {exc}") from None
        out[key] = value
    return out


_TOO_LOW = ("greater_than", "greater_than_equal")
_TOO_HIGH = ("less_than", "less_than_equal")


def _explain(exc: ValidationError, fields: dict[str, FieldInfo]) -> str:
    """pydantic's errors ("Input should be greater than or equal to 20") as plain sentences
    that name the option and what it takes: "`max_rounds` takes a whole number from 3 to
    500, and 2 is too low." The one place every option and server setting error is worded."""
    sentences = []
    for error in exc.errors():
        key = str(error["loc"][0]) if error["loc"] else ""
        field = fields.get(key)
        kind, value = error["type"], error.get("input")
        if field is None:
            sentences.append(f"`{key}` isn't an option here." if key else
                             error["msg"].removeprefix("Value error, ") + ".")
            continue
        takes = allowed(field)
        if kind in _TOO_LOW + _TOO_HIGH:
            how = "too low" if kind in _TOO_LOW else "too high"
            number = f"−{-value}" if isinstance(value, int | float) and value < 0 else value
            sentences.append(f"`{key}` takes {takes}, and {number} is {how}.")
        elif kind.endswith("_type") or kind in ("literal_error", "int_from_float",
                                                  "int_parsing", "bool_parsing"):
            sentences.append(f"`{key}` takes {takes}, and {echo(shown(value))} isn't one.")
        else:  # a rule of the option's own (a validator): its message, then what it takes
            reason = error["msg"].removeprefix("Value error, ").rstrip(".")
            sentences.append(f"`{key}`: {reason} (it takes {takes}).")
    return " ".join(sentences)


def _unknown(names: list[str]) -> str:
    """`a`, `b` and `c` (and 2 more): the unknown names someone typed, quoted short."""
    quoted = [echo(n, 40) for n in names[:3]]
    if len(names) > 3:
        quoted.append(f"{len(names) - 3} more")
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]


def resolve_options(engine: Engine, *layers: dict[str, Any]) -> tuple[GameOptions, TableSettings]:
    """Merge option layers (server defaults, then host overrides) and validate them
    strictly (`parse_value` reads typed text; stored values must already have their type)."""
    merged: dict[str, Any] = {}
    for layer in layers:
        merged.update(layer)
    known = option_fields(engine)
    unknown = sorted(set(merged) - set(known))
    if unknown:
        which = "an option" if len(unknown) == 1 else "options"
        raise OptionsError(f"{_unknown(unknown)} {'is' if len(unknown) == 1 else 'are'}n't "
                           f"{which} of {engine.title}. Its options: "
                           f"{', '.join(f'`{k}`' for k in sorted(known))}.")
    own = engine.Options.model_fields
    game_part = _read(engine.Options, {k: v for k, v in merged.items() if k in own})
    table_part = _read(TableSettings, {k: v for k, v in merged.items()
                                       if k in TableSettings.model_fields and k not in own})
    try:
        return (engine.Options.model_validate(game_part, strict=True),
                TableSettings.model_validate(table_part, strict=True))
    except ValidationError as exc:
        raise OptionsError(_explain(exc, known)) from None


def resolve_server(stored: dict[str, Any], **changes: Any) -> ServerSettings:
    """A server's settings from what is stored (plus changes); OptionsError if invalid."""
    unknown = sorted(set(changes) - set(ServerSettings.model_fields))
    if unknown:
        raise OptionsError(f"{_unknown(unknown)} isn't a server setting. The settings: "
                           f"{', '.join(f'`{k}`' for k in ServerSettings.model_fields)}.")
    known = {k: v for k, v in stored.items() if k in ServerSettings.model_fields}
    try:
        return ServerSettings.model_validate(_read(ServerSettings, {**known, **changes}),
                                             strict=True)
    except ValidationError as exc:
        raise OptionsError(_explain(exc, ServerSettings.model_fields)) from None


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
