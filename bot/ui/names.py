"""The one place a name someone chose (a display name, typed text) becomes safe to show.

A member's display name is hostile input: `[free nitro](https://…)` would render as a link,
`**x**` as bold, `<@123>` or `@everyone` as a mention, a backtick could break out of a code
span, and a name can be long or hold line breaks and invisible characters. Every renderer
takes names through here:

- `clean_name` — one line, no invisible or control characters, at most `NAME_LIMIT`
  characters: what is stored for a seat and shown where Discord does not render markdown
  (button and select labels, autocomplete choices, embed footers and authors).
- `safe_name` — `clean_name`, then every markdown and mention character escaped with a
  backslash (Discord shows `\\*` as `*`), for message content, embed titles, descriptions
  and fields.
- `code_safe` — for text inside a code span, where backslashes do not escape: backticks are
  replaced by a look-alike so the span cannot be closed early.

Pings are a separate matter: every message also states who it may ping (`pings`), so even a
name that slipped through could not notify anyone.
"""

from __future__ import annotations

import functools
import re
import unicodedata

import discord

NAME_LIMIT = 32  # Discord's own limit for display names and nicknames
FALLBACK_NAME = "Player"
ECHO_LIMIT = 60  # characters of a user's input echoed back in a reply

_ZWJ, _ZWNJ = "\u200d", "\u200c"  # kept: emoji sequences and some scripts need them
# Characters with a meaning in Discord's markdown or mentions (its parser lets a backslash
# escape any ASCII punctuation, so escaping one that means nothing here is harmless too).
_MARKDOWN = set("\\*_~`|<>#-[]()@:")
_ESCAPE = re.compile("[" + re.escape("".join(sorted(_MARKDOWN))) + "]")
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0")  # Hangul fillers: letters that show nothing
_EVERYONE = re.compile(r"@(everyone|here)", re.IGNORECASE)


def _visible(char: str) -> str:
    """A character as a one-line name shows it: line breaks and tabs become spaces,
    invisible format characters (zero-width space, bidi overrides) disappear."""
    category = unicodedata.category(char)
    if category in ("Cc", "Zl", "Zp") or char.isspace():
        return " "
    if category in ("Cf", "Co", "Cs", "Cn") and char not in (_ZWJ, _ZWNJ):
        return ""
    if char in _BLANK_LETTERS:
        return " "
    return char


@functools.lru_cache(maxsize=4096)
def clean_name(raw: object, limit: int = NAME_LIMIT, fallback: str = FALLBACK_NAME) -> str:
    """A name on one line, without invisible characters, at most `limit` characters (cut
    with an ellipsis); `fallback` when nothing visible is left."""
    text = "".join(_visible(c) for c in str(raw or ""))
    text = " ".join(text.split())
    if len(text) > limit:
        text = text[:limit - 1]
        # do not end inside a joined emoji or on a combining mark
        while text and (text[-1] in (_ZWJ, _ZWNJ) or unicodedata.category(text[-1]) == "Mn"):
            text = text[:-1]
        text = text.rstrip() + "…"
    return text.strip(_ZWJ + _ZWNJ) or fallback


def escape_markdown(text: str) -> str:
    """`text` with every markdown and mention character escaped, so Discord shows it
    literally: no link, emphasis, spoiler, heading, quote, code, mention or custom emoji.
    `@everyone`/`@here` also get a zero-width space after the `@`."""
    text = _EVERYONE.sub(lambda m: "@\u200b" + m.group(1), text)
    return _ESCAPE.sub(lambda m: "\\" + m.group(0), text)


@functools.lru_cache(maxsize=4096)
def safe_name(raw: object, limit: int = NAME_LIMIT) -> str:
    """A name for any place Discord renders markdown (content, embed text). Cached: every
    board and view asks for every seat's name."""
    return escape_markdown(clean_name(raw, limit))


def safe_names(names: list[str]) -> list[str]:
    return [safe_name(n) for n in names]


def seat_names(raw: list[object], *, markdown: bool) -> list[str]:
    """The names of a table's seats as its screens show them (`safe_name`, or `clean_name`
    without markdown), told apart: display names are not unique on Discord, and two seats
    both called "Alex" (or two names with nothing visible, both "Player") made every line
    ("Alex plays ⚪3"), button ("On Alex") and suggestion ambiguous. Names shared by
    several seats (ignoring case) get their seat number: "Alex (1)", "Alex (3)"."""
    clean = [clean_name(n) for n in raw]
    keys = [c.casefold() for c in clean]
    if len(set(keys)) == len(keys):
        return [safe_name(n) for n in raw] if markdown else clean
    told = [f"{c} ({i + 1})" if keys.count(k) > 1 else c
            for i, (c, k) in enumerate(zip(clean, keys, strict=True))]
    return [escape_markdown(n) for n in told] if markdown else told


def said(text: str | None) -> str:
    """What a player says or hints with a move, as typed: invisible and control characters
    removed, spaces squeezed, line breaks kept (they separate the parts of what is said).
    Not escaped: the game counts and checks exactly what was typed, and every place that
    shows it escapes it (the engine marks it with `engines.core.typed`; `shown` escapes)."""
    lines = ("".join(_visible(c) for c in line) for line in str(text or "").splitlines())
    return "\n".join(" ".join(line.split()) for line in lines if line.strip())


def code_safe(text: str) -> str:
    """Text for inside a code span: a backtick would end the span, so it becomes `ˋ`."""
    return text.replace("`", "ˋ")


EMPTY_ECHO = "*(nothing)*"


def echo(text: object, limit: int = ECHO_LIMIT) -> str:
    """A user's input quoted back to them (`I couldn't read "…"`): one line, shortened,
    shown in a code span that it cannot break out of. Input with nothing visible in it is
    `EMPTY_ECHO`, never a display name's fallback ("Player")."""
    shown = clean_name(text, limit, fallback="")
    return f"`{code_safe(shown)}`" if shown else EMPTY_ECHO


def pings(*user_ids: int) -> discord.AllowedMentions:
    """Exactly these users may be pinged by a message, nobody else (no roles, no
    @everyone, no reply ping). With no ids: nobody."""
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=[discord.Object(id=uid) for uid in user_ids])


NO_PINGS = discord.AllowedMentions.none()
