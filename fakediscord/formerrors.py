"""Discord's ``Invalid Form Body`` answer: 400, code 50035, errors keyed by the field path.

Discord names the offending field by nesting objects keyed by field name or list index, with
the leaf holding ``{"_errors": [{"code": ..., "message": ...}]}``::

    {"code": 50035, "message": "Invalid Form Body",
     "errors": {"components": {"0": {"components": {"1": {"emoji": {"name": {"_errors": [
         {"code": "BUTTON_COMPONENT_INVALID_EMOJI", "message": "Invalid emoji"}]}}}}}}}}

Errors about the body as a whole (e.g. an empty message) sit at the top: ``{"_errors": [...]}``.
Both the schema validation (:mod:`fakediscord.validation`) and the documented limits
(:mod:`fakediscord.limits`) collect into one :class:`FormErrors`, so a body with several
problems is answered with all of them, as Discord does.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .httputil import ApiError

Path = tuple[str | int, ...]


class InvalidFormBody(ApiError):
    """A 400 / 50035 answer carrying Discord's nested ``errors`` object."""

    def __init__(self, errors: dict[str, Any]) -> None:
        super().__init__(400, 50035, "Invalid Form Body", errors)


class FormErrors:
    """Collects ``(path, code, message)`` triples into Discord's nested errors object."""

    def __init__(self) -> None:
        self.tree: dict[str, Any] = {}

    def __bool__(self) -> bool:
        return bool(self.tree)

    def add(self, path: Iterable[str | int], code: str, message: str) -> None:
        node = self.tree
        for key in path:
            node = node.setdefault(str(key), {})
        errors = node.setdefault("_errors", [])
        entry = {"code": code, "message": message}
        if entry not in errors:
            errors.append(entry)

    def flat(self) -> list[str]:
        """``["components.0.label: BASE_TYPE_MAX_LENGTH", ...]``: for readable test failures."""
        out: list[str] = []

        def walk(node: dict[str, Any], path: list[str]) -> None:
            for entry in node.get("_errors", []):
                out.append(f"{'.'.join(path) or '<body>'}: {entry['code']}")
            for key, child in node.items():
                if key != "_errors":
                    walk(child, [*path, key])

        walk(self.tree, [])
        return out

    def raise_if_any(self) -> None:
        if self.tree:
            raise InvalidFormBody(self.tree)


def leaf_errors(errors: dict[str, Any], path: Iterable[str | int]) -> list[dict[str, str]]:
    """The ``_errors`` list at ``path`` of an errors object (``[]`` if none): for tests."""
    node: Any = errors
    for key in path:
        if not isinstance(node, dict) or str(key) not in node:
            return []
        node = node[str(key)]
    return list(node.get("_errors", [])) if isinstance(node, dict) else []
