"""Engine actions as JSON, so a game's moves can be stored and replayed.

Every engine's actions are frozen dataclasses whose fields hold ints, strings, booleans,
None, tuples and other such dataclasses (a `Card`). One generic encoding covers them all,
without each game writing its own: a dataclass becomes `{"ClassName": [field, ...]}` (its
init fields in order, compare=False ones included: what a Hidden Rules player said is part
of the move), a tuple a JSON array. Decoding looks the class up by name in the engine's own
rules module (where its actions and the `Card` it uses are defined or imported), so a stored
record can only ever build that engine's actions.

Why not the index of the move in `legal_actions`: moves carry free text no list can hold,
and a turn timer's move (Hidden Rules' time-out) is never listed.
"""

from __future__ import annotations

import dataclasses
import sys
from typing import Any

from engines.core import Engine


class CodecError(ValueError):
    """An action that cannot be encoded, or stored JSON that is no action of this engine."""


def encode_action(action: Any) -> Any:
    """A JSON-ready form of `action` (see the module docstring)."""
    if action is None or type(action) in (bool, int, str):
        return action
    if type(action) is float:
        return action
    if type(action) is tuple:
        return [encode_action(item) for item in action]
    if dataclasses.is_dataclass(action) and not isinstance(action, type):
        values = [encode_action(getattr(action, f.name))
                  for f in dataclasses.fields(action) if f.init]
        return {type(action).__name__: values}
    raise CodecError(f"can't store a {type(action).__name__} in a move: {action!r}")


def _classes(engine: Engine) -> dict[str, type]:
    module = sys.modules[type(engine).__module__]
    return {name: value for name, value in vars(module).items()
            if isinstance(value, type) and dataclasses.is_dataclass(value)}


def decode_action(engine: Engine, data: Any) -> Any:
    """The action `encode_action` stored, rebuilt with `engine`'s own classes."""
    return _decode(_classes(engine), data)


def _decode(classes: dict[str, type], data: Any) -> Any:
    if data is None or type(data) in (bool, int, str, float):
        return data
    if type(data) is list:
        return tuple(_decode(classes, item) for item in data)
    if type(data) is dict and len(data) == 1:
        [(name, values)] = data.items()
        cls = classes.get(name)
        if cls is None or type(values) is not list:
            raise CodecError(f"not a move of this game: {name!r}")
        fields = [f for f in dataclasses.fields(cls) if f.init]
        if len(values) != len(fields):
            raise CodecError(f"{name} takes {len(fields)} values, the record has "
                             f"{len(values)}")
        try:
            return cls(*(_decode(classes, v) for v in values))
        except (TypeError, ValueError) as exc:
            raise CodecError(f"can't rebuild {name}: {exc}") from None
    raise CodecError(f"not a stored move: {data!r}")
