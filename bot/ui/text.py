"""Text helpers every renderer uses: Discord's length limits and cutting text to fit them.

Discord counts a text's length in Unicode code points, as Python's `len` does (its API is
Python: discord/discord-api-docs#1315); so do the fake's limits. `clip` is the one place
text is shortened: by whole lines, else whole words, with an ellipsis, and never inside
markdown (a cut never leaves `**`, `__`, `~~`, `||`, `*`, `_` or a backtick unclosed, and
never splits a code span, a link, a mention or a timestamp).
"""

from __future__ import annotations

import re
from typing import Literal

from bot.ui.names import escape_markdown
from engines.core import TYPED_START, render_seats, typed_parts

# Discord's documented limits (characters = code points)
CONTENT_LIMIT = 2000  # message content
TITLE_LIMIT = 256  # embed title, author name, field name
DESCRIPTION_LIMIT = 4096  # embed description
FIELD_LIMIT = 1024  # embed field value
FIELD_NAME_LIMIT = 256
FOOTER_LIMIT = 2048
OPTION_LIMIT = 100  # select option label / description, autocomplete choice name
BUTTON_LABEL_LIMIT = 80
MODAL_TITLE_LIMIT = 45  # a modal's title and a text input's label
INPUT_PLACEHOLDER_LIMIT = 100  # a text input's placeholder
COMMAND_DESCRIPTION_LIMIT = 100  # a slash command's or option's description

ELLIPSIS = "…"

# Spans a cut must never split, and whose insides do not count as emphasis markers:
# code blocks, code spans, links, mentions/channels/roles/emoji/timestamps (<...>).
# A backslash escape (`\*`, as escaped names carry, bot.ui.names) is an atom too: no marker.
_ATOM = re.compile(r"```.*?```|``.+?``|`[^`]*`|\[[^\]\n]*\]\([^)\s]*\)|<[@#:a-zA-Z!&]?[^<>\s]*>"
                   r"|\\[^\w\s]", re.S)
# A character escaped with a backslash: shown literally, never markdown.
_ESCAPED = re.compile(r"\\([^A-Za-z0-9\s])")
# Emphasis and spoiler delimiters that must come in pairs; longest first.
_PAIRED = ("***", "**", "__", "~~", "||")


def clip(text: str, limit: int = FIELD_LIMIT, *, keep: Literal["start", "end"] = "start"
         ) -> str:
    """`text` shortened to at most `limit` characters as Discord counts them.

    It keeps whole lines (the first ones, or the last ones with keep="end", e.g. the newest
    entries of a log), marking the cut with a line holding only "…"; when not even one line
    fits, it keeps whole words of that line followed by "…". A cut never falls inside
    markdown. Text within the limit comes back unchanged."""
    if len(text) <= limit:
        return text
    if limit <= len(ELLIPSIS):
        return ELLIPSIS[:max(limit, 0)]
    lines = text.split("\n")
    if keep == "end":
        kept = _last_lines(lines, limit - len(ELLIPSIS) - 1)
        if kept:
            return ELLIPSIS + "\n" + "\n".join(kept)
        return _words(lines[-1], limit)
    kept = _first_lines(lines, limit - len(ELLIPSIS) - 1)
    if kept:
        return "\n".join(kept) + "\n" + ELLIPSIS
    return _words(lines[0], limit)


def plain(text: str, limit: int) -> str:
    """`text` for a place that shows markdown raw (button and select labels, autocomplete
    choices, command descriptions): markdown removed, then clipped."""
    return clip(strip_markdown(text), limit)


def chunks(text: str, limit: int) -> list[str]:
    """`text` split into parts of at most `limit` characters at line breaks, for a text
    that must be shown whole over several fields or embeds (a line too long on its own is
    clipped). Blank lines between parts are dropped."""
    parts: list[str] = []
    current: list[str] = []
    size = -1
    for line in text.split("\n"):
        line = clip(line, limit)
        if current and size + 1 + len(line) > limit:
            parts.append("\n".join(current).strip("\n"))
            current, size = [], -1
        current.append(line)
        size += 1 + len(line)
    parts.append("\n".join(current).strip("\n"))
    return [part for part in parts if part.strip()] or [""]


def pages_of(parts: list[str], most: int, limit: int, joiner: str = "\n"
             ) -> list[tuple[int, int]]:
    """Where each page of `parts` (shown joined by `joiner`) starts and ends: at most `most`
    parts and `limit` characters a page, so a page is never cut to fit and its last parts
    lost from every page (a part too long on its own gets a page of its own). Filled from
    the first part on, so a full page never changes as parts are added at the end."""
    pages: list[tuple[int, int]] = []
    start, size = 0, -len(joiner)
    for i, part in enumerate(parts):
        entry = len(joiner) + len(part)
        if i > start and (i - start == most or size + entry > limit):
            pages.append((start, i))
            start, size = i, -len(joiner)
        size += entry
    pages.append((start, len(parts)))
    return pages


def _first_lines(lines: list[str], budget: int) -> list[str]:
    size, count = -1, 0
    for line in lines:
        if size + 1 + len(line) > budget:
            break
        size += 1 + len(line)
        count += 1
    while count and not balanced("\n".join(lines[:count])):
        count -= 1  # e.g. a code block opened and not yet closed
    return lines[:count]


def _last_lines(lines: list[str], budget: int) -> list[str]:
    size, count = -1, 0
    for line in reversed(lines):
        if size + 1 + len(line) > budget:
            break
        size += 1 + len(line)
        count += 1
    while count and not balanced("\n".join(lines[len(lines) - count:])):
        count -= 1
    return lines[len(lines) - count:]


def _words(line: str, limit: int, *, may_strip: bool = True) -> str:
    """The longest start of `line` that ends between words, outside any code span or link,
    followed by the closing markers of emphasis still open there (`**a b**…`) and the
    ellipsis; if no such start fits, the line without markdown, cut the same way (or, for
    one endless word, cut inside it)."""
    budget = limit - len(ELLIPSIS)
    atoms = [m.span() for m in _ATOM.finditer(line)]
    ends = [m.start() for m in re.finditer(r"\s+", line) if 0 < m.start() <= budget]
    for end in reversed(ends):
        if any(start < end < stop for start, stop in atoms):
            continue
        head = line[:end].rstrip()
        still_open = open_markers(head)
        if not head or still_open is None:
            continue
        closing = "".join(reversed(still_open))
        if len(head) + len(closing) <= budget and balanced(head + closing):
            return head + closing + ELLIPSIS
    plain = strip_markdown(line)
    if may_strip and plain != line:
        return plain if len(plain) <= limit else _words(plain, limit, may_strip=False)
    return strip_markdown(line[:budget]).rstrip() + ELLIPSIS


def open_markers(text: str) -> list[str] | None:
    """The emphasis and spoiler markers left open at the end of `text`, innermost last;
    None if a code span or a link is left open (those cannot be closed by appending)."""
    rest = _ATOM.sub(" ", _ESCAPED.sub("  ", text))
    if "`" in rest or rest.count("[") != rest.count("]"):
        return None
    stack: list[str] = []
    i = 0
    while i < len(rest):
        marker = next((m for m in (*_PAIRED, "*", "_") if rest.startswith(m, i)), None)
        if marker is None:
            i += 1
            continue
        inside_word = (marker == "_" and i > 0 and rest[i - 1].isalnum()
                       and i + 1 < len(rest) and rest[i + 1].isalnum())
        if not inside_word:  # a lone underscore inside a word (points_target) is plain
            if marker in stack:
                del stack[stack.index(marker):]
            else:
                stack.append(marker)
        i += len(marker)
    return stack


def balanced(text: str) -> bool:
    """No emphasis, spoiler, code span or link left open (outside code spans and links)."""
    return open_markers(text) == []


def strip_markdown(text: str) -> str:
    """`text` without markdown: what a place that shows markdown raw should get. Escaped
    characters (`\\*` in a player's name made safe for markdown) become the plain character."""
    literals: list[str] = []

    def keep(match: re.Match) -> str:
        literals.append(match.group(1))
        return f"\0{len(literals) - 1}\0"

    text = _ESCAPED.sub(keep, text)
    text = re.sub(r"\[([^\]\n]*)\]\([^)\s]*\)", r"\1", text)
    text = re.sub(r"`+", "", text)
    for marker in _PAIRED:
        text = text.replace(marker, "")
    text = text.replace("*", "")  # asterisks mark emphasis even inside a word
    text = re.sub(r"(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])", "", text)
    return re.sub("\0(\\d+)\0", lambda m: literals[int(m.group(1))], text)


def plural(count: int, word: str, plural_form: str | None = None) -> str:
    """`1 card`, `2 cards` (or the given plural form)."""
    return f"{count} {word if count == 1 else plural_form or word + 's'}"


_HYPHEN_MINUS = re.compile(r"(?<![\w\-−/“\"'`])-(?=\d)")


def signs(text: str) -> str:
    """One minus sign everywhere: a hyphen before a number (`-2`) becomes `−2`, as the
    games' own renderers write it; ranges such as `2-10` are left alone, and so is what
    someone is to type or said (right after an opening quote or backtick)."""
    return _HYPHEN_MINUS.sub("−", text)


def shown(text: str, names: list[str], *, markdown: bool = True) -> str:
    """An engine's text as players read it: seat placeholders as names, one minus sign, and
    what a player typed (`engines.core.typed`) shown literally — escaped for markdown unless
    the place shows text raw (`markdown=False`: labels, footers, with plain names)."""
    if TYPED_START not in text:
        return signs(render_seats(text, names))
    return "".join((escape_markdown(piece) if markdown else piece) if is_typed
                   else signs(render_seats(piece, names))
                   for piece, is_typed in typed_parts(text))


def cap_note(done: int, cap: int, unit: str) -> str | None:
    """A safety cap worth mentioning only when it is near (the last tenth, at least the
    last 3), counting the turn or round under way: `⚠️ 4 turns left before the safety cap,
    this one included`, then `⚠️ Last turn before the safety cap`. `done` counts the units
    finished before the current one. None while the cap is far away or already passed."""
    left = cap - done
    if left > max(3, cap // 10) or left <= 0:
        return None
    if left == 1:
        return f"⚠️ Last {unit} before the safety cap"
    return f"⚠️ {plural(left, unit)} left before the safety cap, this one included"
