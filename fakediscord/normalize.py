"""What Discord stores from a message body: the body is not echoed back as sent.

Discord answers a create/edit with the message as it stored it (MessageResponse in its
OpenAPI description): every component gets a numeric ``id`` (sequential, depth first, when
the bot gave none), selects get their ``min_values``/``max_values`` defaults, embeds get
``"type": "rich"`` and fields ``inline``, null values are dropped, and embed texts are
trimmed (resources/message.mdx: leading and trailing whitespace "are trimmed automatically").
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

JSON = dict[str, Any]

_EMBED_TEXTS = ("title", "description")
_SELECT_TYPES = {3, 5, 6, 7, 8}


def _without_nulls(data: JSON) -> JSON:
    return {k: v for k, v in data.items() if v is not None}


def normalize_embeds(embeds: list[Any]) -> list[JSON]:
    out = []
    for embed in embeds:
        if not isinstance(embed, dict):
            continue
        item = _without_nulls(embed)
        item["type"] = item.get("type") or "rich"
        for key in _EMBED_TEXTS:
            if isinstance(item.get(key), str):
                item[key] = item[key].strip()
        for key, inner in (("footer", "text"), ("author", "name")):
            if isinstance(item.get(key), dict):
                part = _without_nulls(item[key])
                if isinstance(part.get(inner), str):
                    part[inner] = part[inner].strip()
                item[key] = part
        if isinstance(item.get("fields"), list):
            item["fields"] = [
                {
                    "name": str(f.get("name", "")).strip(),
                    "value": str(f.get("value", "")).strip(),
                    "inline": bool(f.get("inline") or False),
                }
                for f in item["fields"]
                if isinstance(f, dict)
            ]
        out.append(item)
    return out


def normalize_components(components: list[Any]) -> list[JSON]:
    """Components as Discord returns them, numbered depth first from 1 where not given."""
    return _normalize(components, itertools.count(1))


def _normalize(components: list[Any], ids: Iterator[int]) -> list[JSON]:
    out = []
    for comp in components:
        if not isinstance(comp, dict):
            continue
        item = _without_nulls(comp)
        item["id"] = item["id"] if isinstance(item.get("id"), int) else next(ids)
        if isinstance(item.get("emoji"), dict):
            item["emoji"] = _emoji(item["emoji"])
        if item.get("type") in _SELECT_TYPES:
            item.setdefault("min_values", 1)
            item.setdefault("max_values", 1)
            if isinstance(item.get("options"), list):
                item["options"] = [_option(o) for o in item["options"] if isinstance(o, dict)]
        if isinstance(item.get("components"), list):
            item["components"] = _normalize(item["components"], ids)
        for key in ("accessory", "component"):
            if isinstance(item.get(key), dict):
                item[key] = _normalize([item[key]], ids)[0]
        out.append(item)
    return out


def _emoji(emoji: JSON) -> JSON:
    out = _without_nulls(emoji)
    if "id" in out:
        out["id"] = str(out["id"])
    return out


def _option(option: JSON) -> JSON:
    out = _without_nulls(option)
    if isinstance(out.get("emoji"), dict):
        out["emoji"] = _emoji(out["emoji"])
    return out
