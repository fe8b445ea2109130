"""Discord's rate limits (on by default), their headers, and one-shot failure injection.

The limits follow the documented shape (topics/rate-limits.mdx): a per-route bucket scoped
by the top-level resource in the path (channel, guild, webhook id + token) — the docs name
only those three, so a route with none of them (Create DM, ``POST /users/@me/channels``,
whoever the recipient) is one bucket for the whole bot — 5 requests per 5 s as for
Discord's message bucket, and a global limit of 50 requests per second per bot.
Interaction callbacks are exempt from both, and interaction webhooks from the global limit
(receiving-and-responding.mdx). Every answer carries the ``X-RateLimit-*`` headers with the
bucket a hash of method and route; a request past a limit gets 429 with Discord's body.
``FakeDiscord(rate_limits=False)`` / ``disable_rate_limits`` turn enforcement off (the
headers then advertise a huge limit that never makes discord.py wait) for the few tests of
something else that the limits would only slow down.

discord.py keys its buckets on the ``X-RateLimit-Bucket`` hash plus the route's major
parameter and sleeps before a request when ``X-RateLimit-Remaining`` reached 0. A 429 is
only retried by discord.py if the response carries a ``Via`` header (otherwise it assumes a
Cloudflare ban and raises) and a JSON body with ``retry_after``; both are sent.
"""

from __future__ import annotations

import hashlib
import math
import re
import time
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any

#: Path segments that are ids or tokens, replaced to get the route template.
_TEMPLATES = [
    (re.compile(r"^/interactions/\d+/[^/]+"), "/interactions/{id}/{token}"),
    (re.compile(r"^/webhooks/\d+/[^/]+"), "/webhooks/{id}/{token}"),
]
_SNOWFLAKE = re.compile(r"/\d+(?=/|$)")
_MAJOR = re.compile(r"^/(channels|guilds|webhooks|interactions)/(\d+)(?:/([^/]+))?")


def route_template(path: str) -> str:
    """``/channels/123/messages/456`` → ``/channels/{id}/messages/{id}`` (tokens hidden too)."""
    for pattern, repl in _TEMPLATES:
        path = pattern.sub(repl, path)
    return _SNOWFLAKE.sub("/{id}", path)


def major_parameter(path: str) -> str:
    """The part of the path Discord scopes buckets by (channel id, guild id, webhook+token)."""
    match = _MAJOR.match(path)
    if not match:
        return ""
    kind, ident, token = match.groups()
    if kind in ("webhooks", "interactions") and token:
        return f"{kind}:{ident}:{token}"
    return f"{kind}:{ident}"


def bucket_hash(method: str, template: str) -> str:
    return hashlib.sha1(f"{method} {template}".encode()).hexdigest()[:16]


@dataclass
class Injection:
    """A scheduled failure: the next ``times`` requests matching method+path get ``status``."""

    method: str
    path_regex: re.Pattern[str]
    status: int
    retry_after: float
    global_: bool
    times: int
    code: int
    message: str
    hits: int = 0

    def matches(self, method: str, path: str) -> bool:
        return (self.method in ("*", method)) and bool(self.path_regex.search(path))


@dataclass
class RateLimitStats:
    """How many 429s the fake answered, per route template and for the global limit."""

    per_route: Counter[str] = field(default_factory=Counter)
    global_: int = 0
    injected: int = 0

    @property
    def total(self) -> int:
        return sum(self.per_route.values()) + self.global_ + self.injected


@dataclass
class _Window:
    start: float
    count: int = 0


class RateLimiter:
    """Fixed-window per-bucket counting (like Discord's reset-after buckets) + a global window."""

    #: What the headers advertise when not enforcing (``disable``): effectively unlimited.
    RELAXED_LIMIT = 10_000

    def __init__(self) -> None:
        self.enforcing = True
        self.per_route = 5
        self.per_seconds = 5.0
        self.global_per_second = 50
        self.stats = RateLimitStats()
        self._windows: dict[str, _Window] = {}
        self._global: deque[float] = deque()

    def enforce(self, per_route: int, per_seconds: float, global_per_second: int) -> None:
        self.enforcing = True
        self.per_route = per_route
        self.per_seconds = per_seconds
        self.global_per_second = global_per_second
        self._windows.clear()
        self._global.clear()

    def disable(self) -> None:
        self.enforcing = False
        self._windows.clear()
        self._global.clear()

    def check(self, method: str, path: str) -> tuple[dict[str, str], dict[str, Any] | None]:
        """Count one request. Returns (headers, None) if allowed or (headers, 429 body)."""
        now = time.monotonic()
        template = route_template(path)
        bucket = bucket_hash(method, template)
        # A route without a top-level resource (Create DM, POST /users/@me/channels, among
        # them) is one bucket for the whole bot: the docs scope per-route limits only by
        # channel, guild and webhook ids, so opening many players' DMs shares one bucket.
        key = f"{bucket}:{major_parameter(path)}"
        limit = self.per_route if self.enforcing else self.RELAXED_LIMIT
        period = self.per_seconds if self.enforcing else 1.0
        window = self._windows.get(key)
        if window is None or now - window.start >= period:
            window = self._windows[key] = _Window(now)
        reset_after = max(period - (now - window.start), 0.001)
        exempt_route = path.startswith("/interactions/")
        exempt_global = exempt_route or path.startswith("/webhooks/")

        if self.enforcing and not exempt_global:
            while self._global and now - self._global[0] >= 1.0:
                self._global.popleft()
            if len(self._global) >= self.global_per_second:
                retry = max(1.0 - (now - self._global[0]), 0.001)
                self.stats.global_ += 1
                headers = self._headers(bucket, limit, max(limit - window.count, 0), reset_after)
                headers.update(self._limited_headers(retry, scope="global"))
                return headers, self._body(retry, is_global=True)

        if self.enforcing and not exempt_route and window.count >= limit:
            self.stats.per_route[f"{method} {template}"] += 1
            headers = self._headers(bucket, limit, 0, reset_after)
            headers.update(self._limited_headers(reset_after, scope="user"))
            return headers, self._body(reset_after, is_global=False)

        window.count += 1
        if self.enforcing and not exempt_global:
            self._global.append(now)
        remaining = max(limit - window.count, 0)
        if exempt_route:
            limit, remaining = self.RELAXED_LIMIT, self.RELAXED_LIMIT - 1
        return self._headers(bucket, limit, remaining, reset_after), None

    @staticmethod
    def _headers(bucket: str, limit: int, remaining: int, reset_after: float) -> dict[str, str]:
        return {
            "X-RateLimit-Bucket": bucket,
            "X-RateLimit-Limit": str(limit),
            "X-RateLimit-Remaining": str(remaining),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
        }

    @staticmethod
    def _limited_headers(retry_after: float, *, scope: str) -> dict[str, str]:
        headers = {
            "Retry-After": str(max(1, math.ceil(retry_after))),
            "X-RateLimit-Scope": scope,
            "Via": "1.1 google",
        }
        if scope == "global":
            headers["X-RateLimit-Global"] = "true"
        return headers

    @staticmethod
    def _body(retry_after: float, *, is_global: bool) -> dict[str, Any]:
        return {  # as rate-limits.mdx shows it: no `code` (it is only "for some limits")
            "message": "You are being rate limited.",
            "retry_after": round(retry_after, 3),
            "global": is_global,
        }

    @staticmethod
    def injected_429(inj: Injection) -> tuple[dict[str, str], dict[str, Any]]:
        """Headers and body for an injected 429, shaped so discord.py sleeps and retries."""
        headers = RateLimiter._limited_headers(
            inj.retry_after, scope="global" if inj.global_ else "user"
        )
        body = RateLimiter._body(inj.retry_after, is_global=inj.global_)
        return headers, body
