"""Regenerate ``fakediscord/spec/routes.json`` from Discord's OpenAPI description.

The fake Discord validates request bodies (and its tests validate the fake's responses)
against the schemas Discord publishes. The whole description is 1.2 MB and describes ~150
paths; the fake emulates about twenty, so only those routes' request and response schemas,
and every component schema they reference, are vendored. Run it after updating the shared
copy of the spec::

    python -m scripts.vendor_discord_spec [--spec ../shared/discord-api-spec/openapi.json]

The spec is MIT-licensed (its LICENSE is copied next to the output). Where the spec and
Discord's documentation disagree the documentation wins; the few places the fake relies on
that are patched here (``DOC_OVERRIDES``), each with the page that says so.
"""

from __future__ import annotations

import argparse
import copy
import json
import shutil
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SPEC = ROOT.parent.parent / "shared" / "discord-api-spec" / "openapi.json"
OUT_DIR = ROOT / "fakediscord" / "spec"

#: The (method, path) pairs the fake emulates, spelled as in the spec.
ROUTES: list[tuple[str, str]] = [
    ("GET", "/users/@me"),
    ("GET", "/oauth2/applications/@me"),
    ("GET", "/applications/@me"),
    ("GET", "/gateway"),
    ("GET", "/gateway/bot"),
    ("GET", "/applications/{application_id}/commands"),
    ("PUT", "/applications/{application_id}/commands"),
    ("POST", "/applications/{application_id}/commands"),
    ("DELETE", "/applications/{application_id}/commands/{command_id}"),
    ("GET", "/applications/{application_id}/guilds/{guild_id}/commands"),
    ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands"),
    ("POST", "/applications/{application_id}/guilds/{guild_id}/commands"),
    ("DELETE", "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}"),
    ("POST", "/users/@me/channels"),
    ("GET", "/users/{user_id}"),
    ("GET", "/channels/{channel_id}"),
    ("PATCH", "/channels/{channel_id}"),
    ("POST", "/channels/{channel_id}/messages/{message_id}/threads"),
    ("POST", "/channels/{channel_id}/threads"),
    ("PUT", "/channels/{channel_id}/thread-members/@me"),
    ("POST", "/channels/{channel_id}/typing"),
    ("GET", "/channels/{channel_id}/messages"),
    ("POST", "/channels/{channel_id}/messages"),
    ("GET", "/channels/{channel_id}/messages/{message_id}"),
    ("PATCH", "/channels/{channel_id}/messages/{message_id}"),
    ("DELETE", "/channels/{channel_id}/messages/{message_id}"),
    ("PUT", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji_name}/@me"),
    ("GET", "/guilds/{guild_id}"),
    ("GET", "/guilds/{guild_id}/channels"),
    ("GET", "/guilds/{guild_id}/members/{user_id}"),
    ("POST", "/interactions/{interaction_id}/{interaction_token}/callback"),
    ("POST", "/webhooks/{webhook_id}/{webhook_token}"),
    ("GET", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"),
    ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"),
    ("DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"),
    ("GET", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"),
    ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"),
    ("DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"),
]

#: Where the documentation (which wins) differs from the spec: (schema, JSON path, new value, why).
DOC_OVERRIDES: list[tuple[str, list[str], Any, str]] = [
    (
        name,
        ["properties", "default_member_permissions"],
        {"type": ["string", "integer", "null"], "pattern": "^[0-9]+$", "minimum": 0},
        "interactions/application-commands.mdx: default_member_permissions is a "
        "'?string' (a permission bit set serialised as a string)",
    )
    for name in (
        "ApplicationCommandCreateRequest",
        "ApplicationCommandUpdateRequest",
        "ApplicationCommandPatchRequestPartial",
    )
]

#: Schemas replaced when validating *requests* only (responses keep the spec's, stricter, one).
REQUEST_OVERRIDES: dict[str, tuple[Any, str]] = {
    "SnowflakeType": (
        {
            "anyOf": [
                {"type": "string", "pattern": "^(0|[1-9][0-9]*)$"},
                {"type": "integer", "minimum": 0},
            ]
        },
        "reference.mdx 'Snowflakes': ids are *returned* as strings; requests may carry them "
        "as JSON integers too (discord.py sends recipient_id, message_reference and emoji ids "
        "as integers, and Discord accepts them)",
    ),
}


def _refs(node: Any) -> set[str]:
    """Every ``#/components/schemas/X`` name referenced anywhere under ``node``."""
    found: set[str] = set()
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
            found.add(ref.rsplit("/", 1)[1])
        for value in node.values():
            found |= _refs(value)
    elif isinstance(node, list):
        for value in node:
            found |= _refs(value)
    return found


def _json_schema(content: dict[str, Any] | None) -> Any:
    """The ``application/json`` schema of a request body or response, if any."""
    if not content:
        return None
    return (content.get("content") or {}).get("application/json", {}).get("schema")


def build(spec: dict[str, Any]) -> dict[str, Any]:
    """The vendored subset: routes with their request/response schemas, and the components."""
    all_schemas = spec["components"]["schemas"]
    routes: dict[str, Any] = {}
    wanted: set[str] = set()
    for method, path in ROUTES:
        op = spec["paths"][path][method.lower()]
        entry: dict[str, Any] = {"operation": op.get("operationId")}
        request = _json_schema(op.get("requestBody"))
        if request is not None:
            entry["request"] = request
        responses = {}
        for status, response in op.get("responses", {}).items():
            if status.startswith("2"):
                responses[status] = _json_schema(response)
        entry["responses"] = responses
        routes[f"{method} {path}"] = entry
        wanted |= _refs(entry)
    schemas: dict[str, Any] = {}
    todo = sorted(wanted)
    while todo:
        name = todo.pop()
        if name in schemas:
            continue
        schemas[name] = copy.deepcopy(all_schemas[name])
        todo.extend(sorted(_refs(schemas[name]) - set(schemas)))
    overrides = []
    for name, keys, value, why in DOC_OVERRIDES:
        if name not in schemas:
            continue
        node = schemas[name]
        for key in keys[:-1]:
            node = node[key]
        node[keys[-1]] = value
        overrides.append({"schema": name, "path": keys, "why": why})
    return {
        "source": spec["info"].get("title", "Discord HTTP API") + " " + spec["info"]["version"],
        "licence": "MIT, Copyright 2023 Discord (LICENSE in this directory)",
        "generated_by": "python -m scripts.vendor_discord_spec",
        "doc_overrides": overrides,
        "request_overrides": {
            name: {"schema": schema, "why": why} for name, (schema, why) in REQUEST_OVERRIDES.items()
        },
        "routes": routes,
        "components": {"schemas": dict(sorted(schemas.items()))},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spec", type=Path, default=DEFAULT_SPEC)
    args = parser.parse_args()
    spec = json.loads(args.spec.read_text())
    OUT_DIR.mkdir(exist_ok=True)
    out = OUT_DIR / "routes.json"
    out.write_text(json.dumps(build(spec), indent=1, sort_keys=False) + "\n")
    shutil.copyfile(args.spec.parent / "LICENSE", OUT_DIR / "LICENSE")
    print(f"wrote {out.relative_to(ROOT)} ({out.stat().st_size // 1024} KiB)")


if __name__ == "__main__":
    main()
