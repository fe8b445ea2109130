"""Request bodies checked against Discord's own OpenAPI description (vendored in ``spec/``).

``spec/routes.json`` holds, for every route the fake emulates, the request and response
schemas from Discord's OpenAPI description (MIT; regenerate with
``python -m scripts.vendor_discord_spec``). A request body is validated with ``jsonschema``
against its route's schema; each failure becomes a Discord-style error at the field's path
(:mod:`fakediscord.formerrors`). Compiled validators are cached per route.

Discord's spec writes unions (a component is a button *or* a select *or* ...) as ``oneOf``
of objects told apart by their ``type`` field. Validating every branch of every component
cost ~6 ms per board message, so at load time such a union becomes "``type`` is one of these,
and if ``type`` is N then branch N" (``if``/``then``): the same verdict, one branch checked,
and an error is named inside the branch the value was meant for (a too-long button label at
``components.0.components.1.label``, not "matches none of seven component types").
"""

from __future__ import annotations

import functools
import json
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from jsonschema.validators import extend

from .formerrors import FormErrors

SPEC_FILE = Path(__file__).with_name("spec") / "routes.json"


@functools.cache
def vendored_spec() -> dict[str, Any]:
    """The vendored subset of Discord's OpenAPI description (routes + component schemas)."""
    return json.loads(SPEC_FILE.read_text())


@functools.cache
def _route_patterns() -> list[tuple[str, re.Pattern[str], str]]:
    """(method, compiled path regex, spec key); literal paths (``@me``) before templated ones."""
    out = []
    for key in vendored_spec()["routes"]:
        method, path = key.split(" ", 1)
        rx = re.escape(path)
        rx = re.sub(r"\\\{[a-z_]+\\\}", "[^/]+", rx)
        out.append((method, re.compile(rx), key))
    out.sort(key=lambda item: item[2].count("{"))
    return out


def spec_route(method: str, path: str) -> str | None:
    """The spec's ``"METHOD /path/{template}"`` key for a concrete request, or None."""
    for m, rx, key in _route_patterns():
        if m == method and rx.fullmatch(path):
            return key
    return None


@functools.cache
def _validator(route: str, part: str) -> Any:
    """A compiled validator for a route's request schema or a response (``part`` = status)."""
    spec = vendored_spec()
    entry = spec["routes"][route]
    schema = entry.get("request") if part == "request" else entry["responses"].get(part)
    if schema is None:
        return None
    # The route schema refers to "#/components/schemas/X": give it the components as its root.
    schemas = spec["components"]["schemas"]
    if part == "request":
        overrides = spec.get("request_overrides", {})
        schemas = {**schemas, **{name: o["schema"] for name, o in overrides.items()}}
    schemas = {name: _discriminate(node, schemas) for name, node in schemas.items()}
    root = {**_discriminate(schema, schemas), "components": {"schemas": schemas}}
    return _REQUEST_VALIDATOR(root) if part == "request" else _RESPONSE_VALIDATOR(root)


def _memoizing_validator() -> Any:
    """Draft 2020-12, remembering which (``$ref``, value) pairs were valid.

    jsonschema is pure Python: a board message (embed + buttons) took ~7 ms, mostly walking
    component and embed objects that the bot sends again and again unchanged. A value found
    valid against a schema stays valid, so a repeat is skipped; anything invalid is checked
    afresh, so every error is still reported with its path. One cache per validator kind
    (requests and responses resolve ``SnowflakeType`` differently).
    """
    valid: set[tuple[str, str]] = set()

    def ref(validator: Any, ref: str, instance: Any, schema: Any) -> Any:
        if not isinstance(instance, dict | list):
            yield from validator._validate_reference(ref=ref, instance=instance)
            return
        key = (ref, json.dumps(instance, sort_keys=True, separators=(",", ":")))
        if key in valid:
            return
        errors = list(validator._validate_reference(ref=ref, instance=instance))
        if not errors:
            if len(valid) >= _MEMO_MAX:
                valid.clear()
            valid.add(key)
        yield from errors

    return extend(Draft202012Validator, {"$ref": ref})


_MEMO_MAX = 100_000
_REQUEST_VALIDATOR = _memoizing_validator()
_RESPONSE_VALIDATOR = _memoizing_validator()


def _type_values(ref: Any, schemas: dict[str, Any]) -> list[Any] | None:
    """The ``type`` values a union branch (a ``$ref`` to an object schema) accepts, if fixed."""
    if not isinstance(ref, dict) or set(ref) != {"$ref"}:
        return None
    target = schemas.get(ref["$ref"].rsplit("/", 1)[1], {})
    prop = (target.get("properties") or {}).get("type") or {}
    if "const" in prop:
        return [prop["const"]]
    values = prop.get("enum")
    return list(values) if isinstance(values, list) and "type" in target.get("required", []) else None


def _discriminate(node: Any, schemas: dict[str, Any]) -> Any:
    """Rewrite every ``oneOf``/``anyOf`` of objects told apart by ``type`` as if/then."""
    if isinstance(node, list):
        return [_discriminate(x, schemas) for x in node]
    if not isinstance(node, dict):
        return node
    out = {k: _discriminate(v, schemas) for k, v in node.items()}
    for key in ("oneOf", "anyOf"):
        branches = out.get(key)
        if not isinstance(branches, list) or len(branches) < 2:
            continue
        values = [_type_values(b, schemas) for b in branches]
        flat = [v for vs in values if vs for v in vs]
        if any(v is None for v in values) or len(flat) != len(set(flat)):
            continue
        del out[key]
        out["type"] = "object"
        out["required"] = sorted({*out.get("required", []), "type"})
        out["properties"] = {**out.get("properties", {}), "type": {"enum": flat}}
        out["allOf"] = [*out.get("allOf", [])] + [
            {"if": {"properties": {"type": {"enum": vs}}, "required": ["type"]}, "then": b}
            for vs, b in zip(values, branches, strict=True)
        ]
    return out


def request_validator(route: str) -> Any:
    return _validator(route, "request")


def response_validator(route: str, status: str) -> Any:
    return _validator(route, status)


def check_request(route: str, body: Any, errors: FormErrors) -> None:
    """Add an error for every way ``body`` breaks the route's request schema."""
    validator = request_validator(route)
    if validator is None:
        return
    for error in validator.iter_errors(body):
        _report(error, errors)


def schema_errors(validator: Any, instance: Any) -> FormErrors:
    """Every schema error of ``instance``, in Discord's shape (used for responses too)."""
    errors = FormErrors()
    for error in validator.iter_errors(instance):
        _report(error, errors)
    return errors


def _report(error: ValidationError, errors: FormErrors) -> None:
    if error.validator in ("oneOf", "anyOf") and error.context and all(
            sub.validator == "const" and len(sub.relative_path) == 0 for sub in error.context):
        # a union of constants is the spec's way of writing an enum (an auto-archive
        # duration, a button style): Discord answers it as a choice among the values
        values = {sub.validator_value for sub in error.context}
        errors.add(list(error.absolute_path), "BASE_TYPE_CHOICES",
                   f"Value must be one of {values}.")
        return
    if error.validator in ("oneOf", "anyOf") and error.context:
        branch = _matching_branch(error)
        if branch is not None:
            for sub in branch:
                _report(sub, errors)
            return
    path = list(error.absolute_path)
    if error.validator == "required":
        missing = re.match(r"'([^']+)'", error.message)
        path.append(missing.group(1) if missing else "?")
    code, message = _code_and_message(error)
    errors.add(path, code, message)


def _matching_branch(error: ValidationError) -> list[ValidationError] | None:
    """The errors of the one union branch the value was meant for, if exactly one fits.

    A branch is ruled out when the value fails it at its discriminator: the wrong JSON type
    at the union's own level, or a wrong ``type`` field (``enum``/``const`` on ``type``).
    """
    by_branch: dict[Any, list[ValidationError]] = defaultdict(list)
    depth = len(error.absolute_path)
    for sub in error.context or []:
        by_branch[sub.relative_schema_path[0]].append(sub)
    fitting = []
    for subs in by_branch.values():
        ruled_out = any(
            (len(s.absolute_path) == depth and s.validator == "type")
            or (
                list(s.absolute_path)[depth:] == ["type"]
                and s.validator in ("enum", "const", "type")
            )
            for s in subs
        )
        if not ruled_out:
            fitting.append(subs)
    if len(fitting) > 1:
        # Discord validates against the one shape that applies (Start Thread without
        # Message: a forum thread's or a text channel's), so a body meant for the text
        # channel's shape is told about its own field, not "matches neither": the branch
        # with strictly the fewest errors is the one meant
        fewest = min(len(subs) for subs in fitting)
        closest = [subs for subs in fitting if len(subs) == fewest]
        return closest[0] if len(closest) == 1 else None
    return fitting[0] if fitting else None


_JSON_TYPE_CODES = {
    "string": ("BASE_TYPE_STRING", "Could not interpret {value} as string."),
    "integer": ("NUMBER_TYPE_COERCE", "Value {value} is not int."),
    "number": ("NUMBER_TYPE_COERCE", "Value {value} is not a valid number."),
    "boolean": ("BASE_TYPE_BOOLEAN", "Must be either true or false."),
    "object": ("MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType"),
    "array": ("BASE_TYPE_LIST", "Must be a list."),
}


def _code_and_message(error: ValidationError) -> tuple[str, str]:
    """Discord's error code and message for one failed JSON Schema keyword."""
    kind, limit, schema = error.validator, error.validator_value, error.schema
    if kind == "required":
        return "BASE_TYPE_REQUIRED", "This field is required"
    if kind in ("maxLength", "minLength", "maxItems", "minItems"):
        low_key, high_key = ("minLength", "maxLength") if "Length" in kind else ("minItems", "maxItems")
        low, high = schema.get(low_key), schema.get(high_key)
        if low is not None and high is not None and low > 0:
            return "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length."
        if kind.startswith("max"):
            return "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length."
        return "BASE_TYPE_MIN_LENGTH", f"Must be {limit} or more in length."
    if kind in ("enum", "const"):
        choices = limit if kind == "enum" else [limit]
        return "BASE_TYPE_CHOICES", f"Value must be one of {set(choices)}."
    if kind == "type":
        wanted = limit if isinstance(limit, str) else next(t for t in limit if t != "null")
        code, message = _JSON_TYPE_CODES.get(wanted, ("BASE_TYPE_INVALID", "Invalid value."))
        return code, message.format(value=json.dumps(error.instance)[:50])
    if kind == "pattern":
        return "STRING_TYPE_REGEX", f"String value did not match validation regex {limit}."
    if kind == "minimum":
        return "NUMBER_TYPE_MIN", f"int value should be greater than or equal to {limit}."
    if kind == "maximum":
        return "NUMBER_TYPE_MAX", f"int value should be less than or equal to {limit}."
    if kind == "format":
        return "BASE_TYPE_INVALID_FORMAT", f"Not a well formed {limit}."
    if kind in ("oneOf", "anyOf"):
        return "UNION_TYPE_CHOICES", "Value does not match any of the allowed types."
    if kind == "uniqueItems":
        return "LIST_ITEM_VALUE_DUPLICATE", "List items must be unique."
    return "BASE_TYPE_INVALID", error.message[:200]
