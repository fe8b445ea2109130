"""What a human can read in a message payload.

Hidden-information games leak through any visible string, not only ``content``: embed
fields, footers, button labels, select options, Components-V2 text displays, modal labels
and autocomplete choices. Everything a client renders is collected here, in one place, so
leak tests can search a single string per message version.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

JSON = dict[str, Any]


def embed_texts(embed: JSON) -> Iterator[str]:
    """Yield the rendered strings of one embed (title, description, fields, footer, author)."""
    for key in ("title", "description"):
        if embed.get(key):
            yield str(embed[key])
    for field in embed.get("fields") or []:
        for key in ("name", "value"):
            if field.get(key):
                yield str(field[key])
    for key in ("footer", "author", "provider"):
        part = embed.get(key) or {}
        name = part.get("text") or part.get("name")
        if name:
            yield str(name)


def component_texts(components: Iterable[JSON]) -> Iterator[str]:
    """Yield labels, placeholders, option labels/descriptions and text displays, recursively."""
    for comp in components or []:
        for key in ("label", "placeholder", "content", "title", "description"):
            value = comp.get(key)
            if isinstance(value, str) and value:
                yield value
        for option in comp.get("options") or []:
            if option.get("label"):
                yield str(option["label"])
            if option.get("description"):
                yield str(option["description"])
        children: list[JSON] = list(comp.get("components") or [])
        for key in ("accessory", "component"):
            if isinstance(comp.get(key), dict):
                children.append(comp[key])
        yield from component_texts(children)


def payload_text(content: str | None, embeds: Iterable[JSON], components: Iterable[JSON]) -> str:
    """Join everything visible in a message version into one newline-separated string."""
    parts: list[str] = [content] if content else []
    for embed in embeds or []:
        parts.extend(embed_texts(embed))
    parts.extend(component_texts(components))
    return "\n".join(parts)


def iter_custom_ids(components: Iterable[JSON]) -> Iterator[JSON]:
    """Yield every interactive component (anything with a ``custom_id``), recursively."""
    for comp in components or []:
        if "custom_id" in comp:
            yield comp
        children: list[JSON] = list(comp.get("components") or [])
        for key in ("accessory", "component"):
            if isinstance(comp.get(key), dict):
                children.append(comp[key])
        yield from iter_custom_ids(children)
