"""Request/response plumbing shared by the REST handlers.

discord.py's ``json_or_text`` compares Content-Type *exactly* with ``application/json``;
aiohttp's ``web.json_response`` appends ``; charset=utf-8`` and silently turns every body
into a string, which breaks login. So every JSON reply goes through :func:`json_response`.
"""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web

JSON = dict[str, Any]


class ApiError(Exception):
    """Raised by a handler to answer with Discord's error JSON (``{"code", "message"}``)."""

    def __init__(
        self, status: int, code: int, message: str, errors: JSON | None = None
    ) -> None:
        super().__init__(f"{status} {code}: {message}" + (f" {errors}" if errors else ""))
        self.status = status
        self.code = code
        self.message = message
        #: Discord's nested ``errors`` object of an Invalid Form Body answer (50035).
        self.errors = errors

    def payload(self) -> JSON:
        """Discord's error body; ``Invalid Form Body`` answers add their ``errors`` object."""
        data: JSON = {"code": self.code, "message": self.message}
        if self.errors:
            data["errors"] = self.errors
        return data


def json_response(
    data: Any, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    """A JSON reply whose Content-Type is exactly ``application/json``."""
    all_headers = {"Content-Type": "application/json"}
    if headers:
        all_headers.update(headers)
    return web.Response(body=json.dumps(data).encode(), status=status, headers=all_headers)


def no_content(headers: dict[str, str] | None = None) -> web.Response:
    return web.Response(status=204, headers=headers or {})


async def read_body(request: web.Request) -> tuple[Any, list[JSON]]:
    """Parse a JSON or multipart (``payload_json`` + ``files[n]``) body.

    Returns ``(json_body, files)`` where files are ``{"field", "filename", "content_type",
    "size", "data"}`` dicts; the handler decides whether the bytes are kept
    (``FakeDiscord.keep_uploads``), and the call record drops them.
    """
    if not request.body_exists:
        return None, []
    ctype = request.content_type
    if ctype.startswith("multipart/"):
        body: Any = None
        files: list[JSON] = []
        reader = await request.multipart()
        while True:
            part = await reader.next()
            if part is None:
                break
            if part.name == "payload_json":
                body = json.loads(await part.text())  # type: ignore[union-attr]
            else:
                data = await part.read()  # type: ignore[union-attr]
                files.append(
                    {
                        "field": part.name,
                        "filename": part.filename,  # type: ignore[union-attr]
                        "content_type": part.headers.get("Content-Type"),
                        "size": len(data),
                        "data": data,
                    }
                )
        return body, files
    raw = await request.read()
    if not raw:
        return None, []
    try:
        return json.loads(raw), []
    except ValueError:
        return raw.decode(errors="replace"), []
