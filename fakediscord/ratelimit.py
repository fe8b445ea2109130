"""Discord-like rate limits (on by default), their headers, and one-shot failure injection.

Following topics/rate-limits.mdx: every request counts in a per-route bucket, scoped by the
path's top-level resource (channel, guild, webhook id + token, interaction id + token), and
in the bot's global limit of 50 requests per second; interaction endpoints (the callback and
the interaction-token webhooks) are not bound to the global limit. Each answer carries
``X-RateLimit-Limit/Remaining/Reset/Reset-After/Bucket``, the bucket being a hash of method
and route (without the top-level resource, as the docs say). A route gets 5 requests per 5 s
per resource (Discord's message bucket, the number the docs and the issue name); Discord
does not publish the others, and tells bots to read the headers rather than hard-code them,
which is what discord.py does: it keys buckets on ``X-RateLimit-Bucket`` plus the major
parameter and waits once ``X-RateLimit-Remaining`` is 0. So every end-to-end test exercises
the bot's pacing.

A 429 is only retried by discord.py if the response carries a ``Via`` header (otherwise it
assumes a Cloudflare ban and raises) and a JSON body with ``retry_after``; both are sent.
``FakeDiscord.enforce_rate_limits`` changes the numbers (tests of the limiter itself).
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


#: Requests per bucket and window (seconds): Discord's message bucket, 5 per 5 s per channel.
PER_ROUTE, PER_SECONDS = 5, 5.0
#: Requests per second across all of a bot's requests (interaction endpoints excepted).
GLOBAL_PER_SECOND = 50


class RateLimiter:
    """Fixed-window per-bucket counting (like Discord's reset-after buckets) + a global window."""

    def __init__(self) -> None:
        self.per_route = PER_ROUTE
        self.per_seconds = PER_SECONDS
        self.global_per_second = GLOBAL_PER_SECOND
        self.stats = RateLimitStats()
        self._windows: dict[str, _Window] = {}
        self._global: deque[float] = deque()
        self._checks = 0

    def enforce(self, per_route: int, per_seconds: float, global_per_second: int) -> None:
        """Use other numbers (and start counting afresh)."""
        self.per_route = per_route
        self.per_seconds = per_seconds
        self.global_per_second = global_per_second
        self._windows.clear()
        self._global.clear()

    def exhausted_until(self) -> float:
        """When the last exhausted bucket resets (monotonic; 0 if none is exhausted): until
        then the bot may be holding a request back, as discord.py does at Remaining 0."""
        now = time.monotonic()
        ends = [w.start + self.per_seconds for w in self._windows.values()
                if w.count >= self.per_route and w.start + self.per_seconds > now]
        if len(self._global) >= self.global_per_second:
            ends.append(self._global[0] + 1.0)
        return max(ends, default=0.0)

    def check(self, method: str, path: str) -> tuple[dict[str, str], dict[str, Any] | None]:
        """Count one request. Returns (headers, None) if allowed or (headers, 429 body)."""
        now = time.monotonic()
        template = route_template(path)
        bucket = bucket_hash(method, template)
        key = f"{bucket}:{major_parameter(path)}"
        limit, period = self.per_route, self.per_seconds
        self._checks += 1
        if self._checks % 4096 == 0:  # forget reset windows (one per channel, token, ...)
            self._windows = {k: w for k, w in self._windows.items() if now - w.start < period}
        window = self._windows.get(key)
        if window is None or now - window.start >= period:
            window = self._windows[key] = _Window(now)
        reset_after = max(period - (now - window.start), 0.001)
        # Interaction endpoints: the callback and the interaction token's webhook routes.
        exempt_global = path.startswith(("/interactions/", "/webhooks/"))

        if not exempt_global:
            while self._global and now - self._global[0] >= 1.0:
                self._global.popleft()
            if len(self._global) >= self.global_per_second:
                retry = max(1.0 - (now - self._global[0]), 0.001)
                self.stats.global_ += 1
                headers = self._headers(bucket, limit, max(limit - window.count, 0), reset_after)
                headers.update(self._limited_headers(retry, scope="global"))
                return headers, self._body(retry, is_global=True)

        if window.count >= limit:
            self.stats.per_route[f"{method} {template}"] += 1
            headers = self._headers(bucket, limit, 0, reset_after)
            headers.update(self._limited_headers(reset_after, scope="user"))
            return headers, self._body(reset_after, is_global=False)

        window.count += 1
        if not exempt_global:
            self._global.append(now)
        return self._headers(bucket, limit, max(limit - window.count, 0), reset_after), None

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
        return {
            "message": "You are being rate limited.",
            "retry_after": round(retry_after, 3),
            "global": is_global,
            "code": 0,
        }

    @staticmethod
    def injected_429(inj: Injection) -> tuple[dict[str, str], dict[str, Any]]:
        """Headers and body for an injected 429, shaped so discord.py sleeps and retries."""
        headers = RateLimiter._limited_headers(
            inj.retry_after, scope="global" if inj.global_ else "user"
        )
        body = RateLimiter._body(inj.retry_after, is_global=inj.global_)
        return headers, body
