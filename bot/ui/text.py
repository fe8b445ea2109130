"""Small text helpers every game's renderer uses (Discord's field limit included)."""

from __future__ import annotations

FIELD_LIMIT = 1024  # characters in one embed field value


def clip(text: str, limit: int = FIELD_LIMIT) -> str:
    """Shorten to `limit` characters, ending with an ellipsis when cut."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


def plural(count: int, word: str, plural_form: str | None = None) -> str:
    """`1 card`, `2 cards` (or the given plural form)."""
    return f"{count} {word if count == 1 else plural_form or word + 's'}"
