"""Discord's rules for files sent with a message (multipart ``files[n]``), as documented.

From "Uploading Files" (reference.mdx), Create Message's limitations (message.mdx) and the
JSON error codes (opcodes-and-status-codes.mdx):

- at most 10 files in one message (30015, "Maximum number of attachments in a message
  reached (10)");
- each file at most 10 MiB, the default upload limit (it is higher only for Nitro users and
  boosted servers; a bot's messages get the default), and the whole request at most 25 MiB:
  beyond either Discord answers 413 with 40005 ("Request entity too large");
- every file part is named ``files[n]``, uniquely, and carries a filename;
- each entry of the ``attachments`` list names a file of this request by its ``n`` or, on an
  edit, an attachment the message already has; anything else is refused;
- ``attachment://name`` in an embed (image, thumbnail, author or footer icon) must name a
  file of this request or one the edit keeps, and only .jpg, .jpeg, .png, .webp and .gif
  may be used there.

The docs give no error code for the last two; the fake answers them as Invalid Form Body
(50035) naming the field, the way Discord reports a body it cannot use.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from .formerrors import FormErrors, Path
from .httputil import ApiError

JSON = dict[str, Any]

MAX_FILES = 10
FILE_LIMIT = 10 * 1024 * 1024
REQUEST_LIMIT = 25 * 1024 * 1024
EMBED_FILE_TYPES = (".jpg", ".jpeg", ".png", ".webp", ".gif")
_FIELD = re.compile(r"files\[(\d+)\]")
_SCHEME = "attachment://"


def check_files(files: list[JSON]) -> None:
    """Count and sizes: Discord answers these before it reads the body's fields."""
    if len(files) > MAX_FILES:
        raise ApiError(400, 30015, f"Maximum number of attachments in a message reached "
                       f"({MAX_FILES})")
    if any(f.get("size", 0) > FILE_LIMIT for f in files) or sum(
            f.get("size", 0) for f in files) > REQUEST_LIMIT:
        raise ApiError(413, 40005, "Request entity too large")


def check_attachments(message: Any, files: list[JSON], errors: FormErrors, base: Path,
                      kept: dict[str, str] | None) -> None:
    """The ``files[n]`` parts, the ``attachments`` list and ``attachment://`` references of
    one message body (`message`: the JSON at `base`). `kept`: on an edit, the message's
    current attachments (id -> filename); None when creating."""
    uploaded: dict[str, str] = {}
    for f in files:
        field = str(f.get("field") or "")
        match = _FIELD.fullmatch(field)
        if match is None or match[1] in uploaded:
            errors.add((field or "files",), "FILE_UPLOAD_INVALID_NAME",
                       "File parts must be named files[n], each n once.")
            continue
        if not f.get("filename"):
            errors.add((field,), "BASE_TYPE_REQUIRED", "This field is required")
        uploaded[match[1]] = str(f.get("filename") or "")
    if not isinstance(message, dict):
        return
    listing = message.get("attachments")
    names = set(uploaded.values())
    if isinstance(listing, list):
        names = set()
        for i, entry in enumerate(listing):
            ident = str(entry.get("id")) if isinstance(entry, dict) else None
            if ident in uploaded:
                names.add(uploaded[ident])
            elif kept is not None and ident in kept:
                names.add(kept[ident])
            else:
                errors.add((*base, "attachments", i, "id"), "ATTACHMENT_NOT_FOUND",
                           "No uploaded file or attachment of this message has this id.")
    elif kept is not None:  # an edit without a list keeps what the message has
        names |= set(kept.values())
    for path, url in _embed_urls(message.get("embeds"), (*base, "embeds")):
        name = url[len(_SCHEME):]
        if name not in names:
            errors.add(path, "EMBED_ATTACHMENT_NOT_FOUND",
                       f"No file named {name!r} is attached to this message.")
        elif not name.lower().endswith(EMBED_FILE_TYPES):
            errors.add(path, "EMBED_ATTACHMENT_INVALID_TYPE",
                       "Only .jpg, .jpeg, .png, .webp and .gif attachments can be shown "
                       "in an embed.")


def _embed_urls(embeds: Any, base: Path) -> Iterator[tuple[Path, str]]:
    if not isinstance(embeds, list):
        return
    for i, embed in enumerate(embeds):
        if not isinstance(embed, dict):
            continue
        for part, key in (("image", "url"), ("thumbnail", "url"), ("author", "icon_url"),
                          ("footer", "icon_url")):
            value = embed.get(part)
            url = value.get(key) if isinstance(value, dict) else None
            if isinstance(url, str) and url.startswith(_SCHEME):
                yield (*base, i, part, key), url
