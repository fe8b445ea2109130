"""REST: the catch-all ``/api/v10/...`` handler and the non-interaction routes.

Every request is recorded as a :class:`~fakediscord.models.Call` *before* it is answered
(so :meth:`settle` sees in-flight work), then failure injection and the rate limiter get a
chance to answer 429/5xx, then a handler from the route table runs. Unknown routes answer
404 with a message naming the route, and are kept in ``unknown_calls`` so a missing
emulation fails loudly instead of silently.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from .formerrors import FormErrors
from .httputil import ApiError, json_response, no_content, read_body
from .limits import CALLBACK_ROUTE, MESSAGE_ROUTES, check_body
from .models import (
    ATTACH_FILES,
    CHANNEL_ANNOUNCEMENT_THREAD,
    CHANNEL_DM,
    CHANNEL_GUILD_ANNOUNCEMENT,
    CHANNEL_GUILD_TEXT,
    CHANNEL_PRIVATE_THREAD,
    CHANNEL_PUBLIC_THREAD,
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    EMBED_LINKS,
    EPHEMERAL,
    MANAGE_CHANNELS,
    MANAGE_MESSAGES,
    MANAGE_THREADS,
    READ_MESSAGE_HISTORY,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
    Call,
    Channel,
    Message,
    User,
    iso_now,
)
from .normalize import normalize_components, normalize_embeds
from .ratelimit import Injection, RateLimiter, route_template
from .snowflake import next_snowflake
from .uploads import check_attachments, check_files
from .validation import check_request, spec_route
from .world import WorldMixin

JSON = dict[str, Any]
Handler = Callable[[web.Request, "re.Match[str]", Any, list[JSON]], Awaitable[web.StreamResponse]]

PREFIX = "/api/v10"
#: Routes that take files (multipart ``files[n]``): their upload rules are checked.
UPLOAD_ROUTES = MESSAGE_ROUTES | {CALLBACK_ROUTE}
#: How long Create Message remembers a nonce for ``enforce_nonce`` (message.mdx: "the past
#: few minutes"; the shortest reading, so a bot cannot lean on a longer memory than Discord's).
NONCE_SECONDS = 120.0
#: Error codes of a request body Discord cannot take: Invalid Form Body, an empty message.
BODY_REFUSALS = (50035, 50006)
#: GATEWAY intent that lets an app read other people's message content (gateway.mdx).
INTENT_MESSAGE_CONTENT = 1 << 15


def refuse_empty(body: Any, files: list[JSON]) -> None:
    """A new message needs something to show: content, embeds, components, stickers, files
    or a poll (message.mdx, Create Message; webhook.mdx, Execute Webhook, which followups
    follow); else 400 / 50006 "Cannot send an empty message"."""
    body = body if isinstance(body, dict) else {}
    if not (files or any(body.get(key) for key in ("content", "embeds", "embed", "components",
                                                    "sticker_ids", "poll"))):
        raise ApiError(400, 50006, "Cannot send an empty message")


def _permissions(value: Any) -> str | None:
    """A permission set as Discord returns it: a decimal string (or null)."""
    return None if value is None else str(value)


class RestMixin(WorldMixin):
    """Request recording, failure injection, rate limiting and the plain REST routes."""

    calls: list[Call]
    unknown_calls: list[Call]
    refused_calls: list[Call]
    limiter: RateLimiter
    _injections: list[Injection]
    _stalls: list[list[Any]]
    _lost_answers: list[list[Any]]
    #: (author id, nonce) -> (when, message id): Create Message's ``enforce_nonce`` memory
    _nonces: dict[tuple[int, str], tuple[float, int]]
    _stopping: asyncio.Event
    _inflight: int
    #: Keep each answer's JSON on its Call (tests of the response shapes; off for benchmarks).
    record_responses: bool
    _last_activity: float
    # (predicate, future) pairs of the driver's waits, checked after every REST call
    _waiters: set[tuple[Callable[[], bool], asyncio.Future[None]]]
    _routes: list[tuple[str, re.Pattern[str], Handler]]
    _commands: dict[int | None, list[JSON]]
    app_owner: User
    command_syncs: list[tuple[int | None, list[JSON]]]

    def _wake_waiters(self) -> None:
        """Resolve every driver wait whose condition now holds (see DriverMixin._wait_until)."""
        for predicate, future in list(self._waiters):
            if future.done():
                continue
            try:
                if predicate():
                    future.set_result(None)
            except Exception as exc:  # the waiting driver call hears of it, not the bot
                future.set_exception(exc)

    def _rest_routes(self) -> list[tuple[str, str, Handler]]:
        return [
            ("GET", r"/users/@me", self._get_me),
            ("GET", r"/oauth2/applications/@me", self._get_app),
            ("GET", r"/applications/@me", self._get_app),
            ("GET", r"/gateway", self._get_gateway),
            ("GET", r"/gateway/bot", self._get_gateway),
            (
                "GET",
                r"/applications/(?P<app>\d+)(?:/guilds/(?P<guild>\d+))?/commands",
                self._get_commands,
            ),
            (
                "PUT",
                r"/applications/(?P<app>\d+)(?:/guilds/(?P<guild>\d+))?/commands",
                self._put_commands,
            ),
            (
                "POST",
                r"/applications/(?P<app>\d+)(?:/guilds/(?P<guild>\d+))?/commands",
                self._post_command,
            ),
            (
                "DELETE",
                r"/applications/(?P<app>\d+)(?:/guilds/(?P<guild>\d+))?/commands/(?P<cmd>\d+)",
                self._delete_command,
            ),
            ("POST", r"/users/@me/channels", self._create_dm),
            ("GET", r"/users/(?P<user>\d+)", self._get_user),
            ("GET", r"/channels/(?P<channel>\d+)", self._get_channel),
            ("PATCH", r"/channels/(?P<channel>\d+)", self._modify_channel),
            ("POST", r"/channels/(?P<channel>\d+)/messages/(?P<message>\d+)/threads",
             self._thread_from_message),
            ("POST", r"/channels/(?P<channel>\d+)/threads", self._thread_without_message),
            ("PUT", r"/channels/(?P<channel>\d+)/thread-members/@me", self._join_thread),
            ("POST", r"/channels/(?P<channel>\d+)/typing", self._typing),
            ("GET", r"/channels/(?P<channel>\d+)/messages", self._list_messages),
            ("POST", r"/channels/(?P<channel>\d+)/messages", self._post_message),
            ("GET", r"/channels/(?P<channel>\d+)/messages/(?P<message>\d+)", self._get_message),
            ("PATCH", r"/channels/(?P<channel>\d+)/messages/(?P<message>\d+)", self._edit_message),
            (
                "DELETE",
                r"/channels/(?P<channel>\d+)/messages/(?P<message>\d+)",
                self._delete_message,
            ),
            (
                "PUT",
                r"/channels/(?P<channel>\d+)/messages/(?P<message>\d+)/reactions/[^/]+/@me",
                self._add_reaction,
            ),
            ("GET", r"/guilds/(?P<guild>\d+)", self._get_guild),
            ("GET", r"/guilds/(?P<guild>\d+)/channels", self._get_guild_channels),
            ("GET", r"/guilds/(?P<guild>\d+)/members/(?P<user>\d+)", self._get_member),
        ]

    # -- failure injection / limiter (public) ---------------------------------------------
    def fail_next(
        self,
        method: str,
        path_regex: str,
        status: int = 429,
        retry_after: float = 0.05,
        global_: bool = False,
        *,
        times: int = 1,
        code: int = 0,
        message: str | None = None,
    ) -> Injection:
        """Answer the next ``times`` requests matching ``method`` ("*" = any) and the path regex
        (searched in the path after ``/api/v10``) with ``status``. A 429 carries ``Via``,
        ``Retry-After``, X-RateLimit-* headers and ``retry_after`` so discord.py sleeps and
        retries; other statuses get ``{"code", "message"}``. Returns the injection (``.hits``).
        """
        inj = Injection(
            method=method.upper(),
            path_regex=re.compile(path_regex),
            status=status,
            retry_after=retry_after,
            global_=global_,
            times=times,
            code=code,
            message=message
            or ("You are being rate limited." if status == 429 else f"Injected error {status}"),
        )
        self._injections.append(inj)
        return inj

    def stall_next(self, method: str, path_regex: str, seconds: float, *, times: int = 1
                   ) -> None:
        """Answer the next ``times`` matching requests only after ``seconds`` (a slow
        endpoint; a large value is a hung one). Stalls end early when the fake stops."""
        self._stalls.append([method.upper(), re.compile(path_regex), seconds, times])

    def lose_answer_next(self, method: str, path_regex: str, *, status: int = 500,
                         stall: float | None = None, times: int = 1) -> None:
        """The next ``times`` matching requests are carried out, then their answer is lost:
        the bot gets ``status`` instead (Discord's edge failing after the work was done), or
        with ``stall`` the real answer only after ``stall`` seconds (the bot's own timeout
        fires first). Either way the bot cannot know the message was created."""
        self._lost_answers.append([method.upper(), re.compile(path_regex), status, stall, times])

    def enforce_rate_limits(
        self, per_route: int = 5, per_seconds: float = 5.0, global_per_second: int = 50
    ) -> None:
        """Answer 429 like Discord (the default: 5 per 5 s, 50/s) with other numbers:
        ``per_route`` requests per ``per_seconds`` per bucket (route + channel/guild/webhook)
        and ``global_per_second`` overall; the windows start afresh. Interaction callbacks
        are exempt, as on Discord."""
        self.limiter.enforce(per_route, per_seconds, global_per_second)

    def disable_rate_limits(self) -> None:
        """No 429s from here on: only for a test of something else that the limits would
        only slow down (say why where you call it)."""
        self.limiter.disable()

    @property
    def rate_limit_stats(self) -> Any:
        """:class:`~fakediscord.ratelimit.RateLimitStats`: 429s answered, per route and global."""
        return self.limiter.stats

    # -- recorded calls (public) -----------------------------------------------------------
    def mark(self) -> int:
        """Index into ``calls``; pass as ``since=`` to look only at later calls."""
        return len(self.calls)

    def calls_matching(
        self,
        method: str | None = None,
        path: str | None = None,
        *,
        since: int = 0,
        status: int | None = None,
    ) -> list[Call]:
        """Recorded calls filtered by method, path regex (``re.search``) and status."""
        rx = re.compile(path) if path else None
        return [
            c
            for c in self.calls[since:]
            if (method is None or c.method == method.upper())
            and (rx is None or rx.search(c.path))
            and (status is None or c.status == status)
        ]

    def count_calls(
        self, method: str | None = None, path: str | None = None, *, since: int = 0
    ) -> int:
        return len(self.calls_matching(method, path, since=since))

    def calls_by_route(self, *, since: int = 0) -> dict[str, int]:
        """``{"POST /channels/{id}/messages": 3, ...}`` — for per-action benchmarks."""
        counts: dict[str, int] = {}
        for c in self.calls[since:]:
            counts[c.route] = counts.get(c.route, 0) + 1
        return counts

    # -- the catch-all handler -------------------------------------------------------------
    async def _handle_rest(self, request: web.Request) -> web.StreamResponse:
        path = request.path[len(PREFIX) :] or "/"
        method = request.method
        try:
            body, files = await read_body(request)
        except Exception as exc:  # a malformed body is the bot's bug: make it loud
            body, files = {"_unparseable": repr(exc)}, []
        call = Call(
            method,
            path,
            dict(request.query),
            body,
            time.monotonic(),
            route=f"{method} {route_template(path)}",
            files=files,
            headers=_recorded_headers(request),
        )
        self.calls.append(call)
        self._inflight += 1
        self._last_activity = time.monotonic()
        try:
            response = await self._answer(request, call)
        finally:
            self._inflight -= 1
            self._last_activity = time.monotonic()
            for f in files:  # the call record keeps names and sizes, not the bytes
                f.pop("data", None)
        call.status = response.status
        if self.record_responses and isinstance(response, web.Response) and response.body:
            call.response = json.loads(response.body)  # type: ignore[arg-type]
        self._wake_waiters()
        return response

    async def _answer(self, request: web.Request, call: Call) -> web.StreamResponse:
        for stall in self._stalls:
            method, rx, seconds, times = stall
            if times > 0 and method in ("*", call.method) and rx.search(call.path):
                stall[3] -= 1
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(self._stopping.wait(), seconds)
                break
        for inj in self._injections:
            if inj.times > 0 and inj.matches(call.method, call.path):
                inj.times -= 1
                inj.hits += 1
                self._injections = [i for i in self._injections if i.times > 0]
                if inj.status == 429:
                    self.limiter.stats.injected += 1
                    headers, body = RateLimiter.injected_429(inj)
                    return json_response(body, 429, headers)
                return json_response({"code": inj.code, "message": inj.message}, inj.status)

        headers, limited = self.limiter.check(call.method, call.path)
        if limited is not None:
            return json_response(limited, 429, headers)

        for method, rx, handler in self._routes:
            if method != call.method:
                continue
            match = rx.fullmatch(call.path)
            if match is None:
                continue
            try:
                self._check_request(call)
                response = await handler(request, match, call.json, call.files)
            except ApiError as err:
                if err.status == 400 and err.code in BODY_REFUSALS:
                    call.refusal = err.payload()
                    self.refused_calls.append(call)
                return json_response(err.payload(), err.status, headers)
            response.headers.update(headers)
            return await self._maybe_lose(call, response)

        self.unknown_calls.append(call)
        message = (
            f"fakediscord: route not emulated: {call.method} {call.path} (add it to fakediscord)"
        )
        return json_response({"code": 0, "message": message}, 404, headers)

    async def _maybe_lose(self, call: Call, response: web.StreamResponse
                          ) -> web.StreamResponse:
        """The answer of a request done, lost on its way back (`lose_answer_next`)."""
        for lost in self._lost_answers:
            method, rx, status, stall, times = lost
            if times > 0 and method in ("*", call.method) and rx.search(call.path):
                lost[4] -= 1
                self._lost_answers = [x for x in self._lost_answers if x[4] > 0]
                if stall is not None:
                    with contextlib.suppress(asyncio.TimeoutError):
                        await asyncio.wait_for(self._stopping.wait(), stall)
                    return response
                return json_response({"code": 0, "message": f"Injected error {status} "
                                      "(after the request was carried out)"}, status)
        return response

    def _check_request(self, call: Call) -> None:
        """Refuse a body Discord would refuse: its route's schema from Discord's OpenAPI
        description, then the documented limits the schema does not encode (400 / 50035)."""
        route = spec_route(call.method, route_template(call.path))
        if route is None:
            return
        errors = FormErrors()
        if call.files or route in UPLOAD_ROUTES:
            check_files(call.files)
            body, base = call.json, ()
            if route == CALLBACK_ROUTE:
                body, base = (call.json or {}).get("data"), ("data",)
            check_attachments(body, call.files, errors, base, self._kept_attachments(call))
        if call.json is not None:
            check_request(route, call.json, errors)
            check_body(route, call.json, errors, self.knows_emoji)
        errors.raise_if_any()

    def _kept_attachments(self, call: Call) -> dict[str, str] | None:
        """An edit's target message's attachments (id -> filename), which its
        ``attachments`` list may keep; None for a new message."""
        message: Message | None = None
        edit = re.fullmatch(r"/(?:channels|webhooks)/\d+/(?:[^/]+/)?messages/(\d+|@original)",
                            call.path)
        if call.method == "PATCH" and edit:
            if edit[1] == "@original":
                pending = self._by_token.get(call.path.split("/")[3])
                message = pending.original if pending is not None else None
            else:
                message = self.messages.get(int(edit[1]))
        elif call.path.endswith("/callback") and (call.json or {}).get("type") == 7:
            pending = self._by_token.get(call.path.split("/")[3])
            message = pending.message if pending is not None else None
        else:
            return None
        if message is None:
            return {}
        return {str(a["id"]): str(a.get("filename")) for a in message.attachments}

    def knows_emoji(self, emoji_id: str) -> bool:
        """True if a custom emoji with this id exists (the bot may use it on components)."""
        return emoji_id in self.custom_emoji

    # -- lookups -----------------------------------------------------------------------
    def _channel_or_404(self, cid: str | int) -> Channel:
        channel = self.channels.get(int(cid))
        if channel is None:
            raise ApiError(404, 10003, "Unknown Channel")
        if channel.denied & VIEW_CHANNEL:
            raise ApiError(403, 50001, "Missing Access")
        return channel

    def _message_or_404(self, channel: Channel, mid: str | int) -> Message:
        message = self.messages.get(int(mid))
        if (
            message is None
            or message.deleted
            or message.channel_id != channel.id
            or message.ephemeral_for
        ):
            raise ApiError(404, 10008, "Unknown Message")
        return message

    def new_message(
        self, channel: Channel, author: User, body: JSON, files: list[JSON], **extra: Any
    ) -> Message:
        """Build (not store) a message from a create body, with attachments from ``files``."""
        body = body or {}
        embeds = list(body.get("embeds") or ([body["embed"]] if body.get("embed") else []))
        attachments = self.new_attachments(body, files, created=True)
        message = Message(
            id=next_snowflake(),
            channel_id=channel.id,
            author=author,
            content=body.get("content") or "",
            embeds=normalize_embeds(embeds),
            components=normalize_components(body.get("components") or []),
            flags=int(body.get("flags") or 0),
            attachments=attachments,
            guild_id=channel.guild.id if channel.guild else None,
            message_reference=body.get("message_reference"),
            **extra,
        )
        message.resolve_attachment_urls()
        return message

    def new_attachments(self, body: JSON | None, files: list[JSON], *, created: bool
                        ) -> list[JSON]:
        """Attachment objects for a request's ``files[n]``, as Discord documents them
        ("Uploading Files"): each file's metadata (``description``) comes from the entry of
        the ``attachments`` list whose ``id`` is its ``n``. On an edit that sends an
        ``attachments`` list, a file it does not name is not added. Bytes are kept in
        ``uploads`` (by attachment id) when ``keep_uploads`` is on."""
        listing = (body or {}).get("attachments")
        out = []
        for f in files:
            field = str(f.get("field") or "")
            n = field[len("files["):-1] if field.startswith("files[") else None
            entry = next((a for a in listing or [] if isinstance(a, dict)
                          and str(a.get("id")) == n), None)
            if listing is not None and entry is None and not created:
                continue
            attachment_id = str(next_snowflake())
            name = f.get("filename") or "file"
            attachment = {
                "id": attachment_id,
                "filename": name,
                "size": f.get("size", 0),
                "url": f"https://cdn.invalid/attachments/{attachment_id}/{name}",
                "proxy_url": f"https://media.invalid/attachments/{attachment_id}/{name}",
                "content_type": f.get("content_type"),
            }
            if entry and entry.get("description") is not None:
                attachment["description"] = entry["description"]
            if self.keep_uploads and "data" in f:
                self.uploads[attachment_id] = f["data"]
            out.append(attachment)
        return out

    def upload_data(self, attachment: JSON) -> bytes:
        """The bytes uploaded for an attachment (tests decode pictures from them)."""
        return self.uploads[str(attachment["id"])]

    # -- login ------------------------------------------------------------------------
    async def _get_me(
        self, request: web.Request, m: re.Match[str], body: Any, files: list[JSON]
    ) -> web.Response:
        return json_response(
            {
                **self.bot_user.payload(),
                "verified": True,
                "mfa_enabled": False,
                "flags": 0,
                "locale": "en-US",
            }
        )

    async def _get_app(
        self, request: web.Request, m: re.Match[str], body: Any, files: list[JSON]
    ) -> web.Response:
        owner = self.app_owner
        return json_response(
            {
                "id": str(self.application_id),
                "name": self.bot_user.name,
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": owner.payload(),
                "verify_key": "0" * 64,
                "flags": 0,
                "team": None,
                "summary": "",
                "interactions_endpoint_url": None,
                "bot": self.bot_user.payload(),
                "type": None,
                "flags_new": "0",
                "redirect_uris": [],
                "role_connections_verification_url": None,
                "approximate_guild_count": len(self.guilds),
                "approximate_user_install_count": 0,
                "approximate_user_authorization_count": 0,
                "explicit_content_filter": 0,
                "eligible_oauth2_scopes": ["bot", "applications.commands"],
            }
        )

    async def _get_gateway(
        self, request: web.Request, m: re.Match[str], body: Any, files: list[JSON]
    ) -> web.Response:
        url = self.gateway_url  # type: ignore[attr-defined]
        return json_response(
            {
                "url": url,
                "shards": self.recommended_shards,  # type: ignore[attr-defined]
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )

    # -- application commands ------------------------------------------------------------
    def synced_commands(self, guild: Any = None) -> list[JSON]:
        """The command list last synced globally (``guild=None``) or to ``guild``."""
        key = None if guild is None else (guild if isinstance(guild, int) else guild.id)
        return list(self._commands.get(key, []))

    def _command_payload(self, cmd: JSON, guild_id: int | None, existing: list[JSON]) -> JSON:
        old = next(
            (
                c
                for c in existing
                if c["name"] == cmd.get("name") and c.get("type", 1) == cmd.get("type", 1)
            ),
            None,
        )
        out = {
            "type": 1,
            "description": "",
            "options": [],
            "dm_permission": True,
            "nsfw": False,
            **{k: v for k, v in cmd.items() if v is not None},
            # Discord stores what it was sent, with its defaults where the body had none.
            "integration_types": cmd.get("integration_types") or [0],
            "default_member_permissions": _permissions(cmd.get("default_member_permissions")),
            "id": old["id"] if old else str(next_snowflake()),
            "application_id": str(self.application_id),
            "version": str(next_snowflake()),
        }
        if guild_id is not None:
            out["guild_id"] = str(guild_id)
        return out

    @staticmethod
    def _guild_key(m: re.Match[str]) -> int | None:
        return int(m["guild"]) if m["guild"] else None

    async def _get_commands(
        self, request: web.Request, m: re.Match[str], body: Any, files: list[JSON]
    ) -> web.Response:
        return json_response(self._commands.get(self._guild_key(m), []))

    async def _put_commands(
        self, request: web.Request, m: re.Match[str], body: Any, files: list[JSON]
    ) -> web.Response:
        key = self._guild_key(m)
        if key is not None and key not in self.guilds:
            raise ApiError(403, 50001, "Missing Access")
        existing = self._commands.get(key, [])
        commands = [self._command_payload(c, key, existing) for c in body or []]
        self._commands[key] = commands
        self.command_syncs.append((key, commands))
        return json_response(commands)

    async def _post_command(
        self, request: web.Request, m: re.Match[str], body: Any, files: list[JSON]
    ) -> web.Response:
        key = self._guild_key(m)
        existing = self._commands.get(key, [])
        cmd = self._command_payload(body, key, existing)
        self._commands[key] = [c for c in existing if c["id"] != cmd["id"]] + [cmd]
        return json_response(cmd, 201)

    async def _delete_command(
        self, request: web.Request, m: re.Match[str], body: Any, files: list[JSON]
    ) -> web.Response:
        key = self._guild_key(m)
        self._commands[key] = [c for c in self._commands.get(key, []) if c["id"] != m["cmd"]]
        return no_content()

    # -- users, guilds, channels -------------------------------------------------------
    async def _get_user(
        self, request: web.Request, m: re.Match[str], body: Any, files: list[JSON]
    ) -> web.Response:
        uid = int(m["user"])
        user = self.users.get(uid) or (self.bot_user if uid == self.bot_user.id else None)
        if user is None:
            raise ApiError(404, 10013, "Unknown User")
        return json_response(user.payload())

    async def _create_dm(
        self, request: web.Request, m: re.Match[str], body: Any, files: list[JSON]
    ) -> web.Response:
        user = self.users.get(int((body or {}).get("recipient_id", 0)))
        if user is None:
            raise ApiError(400, 50035, "Invalid Form Body: recipient_id")
        return json_response(self.dm_channel(user).payload())

    async def _get_channel(
        self, request: web.Request, m: re.Match[str], body: Any, files: list[JSON]
    ) -> web.Response:
        # channel.mdx, Get Channel: a thread comes with the bot's thread member object
        return json_response(self._channel_or_404(m["channel"]).payload(
            member_of=self.bot_user.id))

    # -- threads (topics/threads.mdx, channel.mdx) ----------------------------------------
    def _thread_parent(self, channel: Channel) -> int:
        """The thread type a channel's threads get; 400 / 50024 where there can be none (a
        thread's own threads, a voice channel's chat, a DM)."""
        if channel.type == CHANNEL_GUILD_TEXT:
            return CHANNEL_PUBLIC_THREAD
        if channel.type == CHANNEL_GUILD_ANNOUNCEMENT:
            return CHANNEL_ANNOUNCEMENT_THREAD
        raise ApiError(400, 50024, "Cannot execute action on this channel type")

    def _need(self, channel: Channel, permission: int) -> None:
        if not self.bot_permissions(channel) & permission:
            raise ApiError(403, 50013, "Missing Permissions")

    async def _thread_from_message(
        self, request: web.Request, m: re.Match[str], body: Any, files: list[JSON]
    ) -> web.Response:
        """Start Thread from Message: a public (or announcement) thread with the message's
        id; one per message (400 / 160004); needs Create Public Threads. Fires THREAD_CREATE
        and MESSAGE_UPDATE of the message, which now carries the thread. As on Discord, a
        thread made from an earlier message leaves a THREAD_CREATED note in the channel,
        and the thread opens with a THREAD_STARTER_MESSAGE pointing at the message."""
        channel = self._channel_or_404(m["channel"])
        kind = self._thread_parent(channel)
        message = self._message_or_404(channel, m["message"])
        if message.thread is not None:
            raise ApiError(400, 160004, "A thread has already been created for this message")
        self._need(channel, CREATE_PUBLIC_THREADS)
        thread = self.make_thread(channel, body["name"], self.bot_user, type=kind,
                                  thread_id=message.id,
                                  auto_archive_duration=body.get("auto_archive_duration")
                                  or 1440)
        message.thread = thread
        self._broadcast_message("MESSAGE_UPDATE", message)
        assert channel.guild is not None
        where = {"guild_id": str(channel.guild.id), "channel_id": str(channel.id),
                 "message_id": str(message.id)}
        self._store_message(Message(
            next_snowflake(), thread.id, message.author, type=21, guild_id=channel.guild.id,
            message_reference={**where, "type": 0}))
        self._store_message(Message(
            next_snowflake(), channel.id, self.bot_user, content=thread.name, type=18,
            guild_id=channel.guild.id,
            message_reference={"guild_id": str(channel.guild.id),
                               "channel_id": str(thread.id), "type": 0}))
        return json_response(thread.payload(member_of=self.bot_user.id), 201)

    async def _thread_without_message(
        self, request: web.Request, m: re.Match[str], body: Any, files: list[JSON]
    ) -> web.Response:
        """Start Thread without Message: `type` defaults to a *private* thread (channel.mdx;
        pass 11 for a public one); public needs Create Public Threads, private Create
        Private Threads and a text channel."""
        channel = self._channel_or_404(m["channel"])
        kind = self._thread_parent(channel)
        wanted = body.get("type")
        wanted = CHANNEL_PRIVATE_THREAD if wanted is None else int(wanted)
        if wanted == CHANNEL_PRIVATE_THREAD:
            if kind != CHANNEL_PUBLIC_THREAD:
                raise ApiError(400, 50024, "Cannot execute action on this channel type")
            self._need(channel, CREATE_PRIVATE_THREADS)
        elif wanted == kind:
            self._need(channel, CREATE_PUBLIC_THREADS)
        else:
            errors = FormErrors()
            errors.add(["type"], "BASE_TYPE_CHOICES", f"Value must be one of {{{kind}, 12}}.")
            errors.raise_if_any()
        thread = self.make_thread(channel, body["name"], self.bot_user, type=wanted,
                                  auto_archive_duration=body.get("auto_archive_duration")
                                  or 1440)
        return json_response(thread.payload(member_of=self.bot_user.id), 201)

    async def _modify_channel(
        self, request: web.Request, m: re.Match[str], body: Any, files: list[JSON]
    ) -> web.Response:
        """Modify Channel. For a thread (topics/threads.mdx, Editing & Deleting Threads): an
        archived thread takes only a request that unarchives it (else 400 / 50083); `locked`
        needs Manage Threads; `name`, `archived` and `auto_archive_duration` need Manage
        Threads or being the thread's creator; a locked thread is unarchived only with
        Manage Threads. Names are 1-100 characters (the docs; the spec allows 0). Fires
        THREAD_UPDATE. Other channels need Manage Channels (only `name` is emulated)."""
        channel = self._channel_or_404(m["channel"])
        body = body or {}
        if channel.type == CHANNEL_DM:
            raise ApiError(403, 50003, "Cannot execute action on a DM channel")
        manage = bool(self.bot_permissions(channel) & MANAGE_THREADS)
        if "name" in body and body["name"] is not None and not 1 <= len(body["name"]) <= 100:
            errors = FormErrors()
            errors.add(["name"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
            errors.raise_if_any()
        if not channel.is_thread:
            self._need(channel, MANAGE_CHANNELS)
            if body.get("name"):
                channel.name = body["name"]
            self._broadcast("CHANNEL_UPDATE", channel.payload())
            return json_response(channel.payload())
        archived, locked = body.get("archived"), body.get("locked")
        if channel.archived and archived is not False:
            raise ApiError(400, 50083, "Thread is archived")
        if locked is not None and not manage:
            raise ApiError(403, 50013, "Missing Permissions")
        creator = channel.owner_id == self.bot_user.id
        renames = any(body.get(k) is not None for k in ("name", "auto_archive_duration"))
        if (renames or archived is True) and not (manage or creator):
            raise ApiError(403, 50013, "Missing Permissions")
        if archived is False and channel.archived:
            if channel.locked and not manage:
                raise ApiError(403, 50013, "Missing Permissions")
            if self.bot_user.id not in channel.members and not manage:
                raise ApiError(403, 50001, "Missing Access")
        self.update_thread(channel, archived=archived, locked=locked, name=body.get("name"),
                           auto_archive_duration=body.get("auto_archive_duration"))
        return json_response(channel.payload(member_of=self.bot_user.id))

    async def _join_thread(
        self, request: web.Request, m: re.Match[str], body: Any, files: list[JSON]
    ) -> web.Response:
        """Join Thread: not in an archived thread (400 / 50083)."""
        channel = self._channel_or_404(m["channel"])
        if not channel.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        if channel.archived:
            raise ApiError(400, 50083, "Thread is archived")
        channel.members.setdefault(self.bot_user.id, iso_now())
        return no_content()

    def _check_thread_writable(self, channel: Channel, *, edit: bool) -> None:
        """Writing in a thread (topics/threads.mdx): Send Messages in Threads, not Send
        Messages; a locked thread takes nothing from a bot without Manage Threads (archived:
        400 / 50083, else 403 / 160005); an archived one takes no edit (50083), while a new
        message unarchives it (THREAD_UPDATE) and makes the bot a member."""
        perms = self.bot_permissions(channel)
        if not perms & SEND_MESSAGES_IN_THREADS:
            raise ApiError(403, 50013, "Missing Permissions")
        if channel.locked and not perms & MANAGE_THREADS:
            if channel.archived:
                raise ApiError(400, 50083, "Thread is archived")
            raise ApiError(403, 160005, "Thread is locked")
        if channel.archived:
            if edit or channel.locked:
                raise ApiError(400, 50083, "Thread is archived")
            self.update_thread(channel, archived=False)
        if not edit:
            channel.members.setdefault(self.bot_user.id, iso_now())

    async def _get_guild(
        self, request: web.Request, m: re.Match[str], body: Any, files: list[JSON]
    ) -> web.Response:
        guild = self.guilds.get(int(m["guild"]))
        if guild is None:
            raise ApiError(404, 10004, "Unknown Guild")
        data = guild.payload()
        for key in (
            "channels",
            "members",
            "threads",
            "voice_states",
            "presences",
            "joined_at",
            "large",
        ):
            data.pop(key, None)
        return json_response(data)

    async def _get_guild_channels(
        self, request: web.Request, m: re.Match[str], body: Any, files: list[JSON]
    ) -> web.Response:
        guild = self.guilds.get(int(m["guild"]))
        if guild is None:
            raise ApiError(404, 10004, "Unknown Guild")
        return json_response([c.payload() for c in guild.channels])

    async def _get_member(
        self, request: web.Request, m: re.Match[str], body: Any, files: list[JSON]
    ) -> web.Response:
        guild = self.guilds.get(int(m["guild"]))
        if guild is None:
            raise ApiError(404, 10004, "Unknown Guild")
        member = guild.members.get(int(m["user"]))
        if member is None:
            raise ApiError(404, 10007, "Unknown Member")
        return json_response(member.payload())

    async def _typing(
        self, request: web.Request, m: re.Match[str], body: Any, files: list[JSON]
    ) -> web.Response:
        self._channel_or_404(m["channel"])
        return no_content()

    # -- channel messages --------------------------------------------------------------
    def _check_can_send(self, channel: Channel) -> None:
        if channel.type == CHANNEL_DM:
            assert channel.recipient is not None
            if not channel.recipient.dm_open or channel.recipient.bot:
                raise ApiError(403, 50007, "Cannot send messages to this user")
            return
        assert channel.guild is not None
        if self.bot_user.id not in channel.guild.members:
            raise ApiError(403, 50001, "Missing Access")
        if channel.is_thread:
            self._check_thread_writable(channel, edit=False)
        elif channel.bot_denied & SEND_MESSAGES:
            raise ApiError(403, 50013, "Missing Permissions")

    def _check_can_upload(self, channel: Channel, files: list[JSON]) -> None:
        """Uploading files in a server channel takes Attach Files (topics/permissions.mdx:
        "Allows for uploading images and files"); without it Discord refuses the whole
        message, 403 Missing Permissions (50013)."""
        if (files and channel.type != CHANNEL_DM
                and not self.bot_permissions(channel) & ATTACH_FILES):
            raise ApiError(403, 50013, "Missing Permissions")

    def _without_embeds_unless_allowed(self, channel: Channel, body: Any, files: list[JSON],
                                       *, creating: bool = True) -> Any:
        """Embeds in a server channel take Embed Links. Discord's docs say only "links sent
        by users with this permission will be auto-embedded", but a bot without it has its
        rich embeds dropped without an error when the message has anything else (content,
        components, files), and an embed-only message refused, 403 Missing Permissions
        (discord/discord-api-docs#2601; bots' "embed not shown" reports)."""
        if (not isinstance(body, dict) or channel.type == CHANNEL_DM
                or self.bot_permissions(channel) & EMBED_LINKS
                or not (body.get("embeds") or body.get("embed"))):
            return body
        body = {key: value for key, value in body.items() if key not in ("embeds", "embed")}
        if creating and not (body.get("content") or body.get("components") or files):
            raise ApiError(403, 50013, "Missing Permissions")
        return {**body, "embeds": []}

    async def _post_message(
        self, request: web.Request, m: re.Match[str], body: Any, files: list[JSON]
    ) -> web.Response:
        channel = self._channel_or_404(m["channel"])
        self._check_can_send(channel)
        self._check_can_upload(channel, files)
        body = self._without_embeds_unless_allowed(channel, body or {}, files)
        refuse_empty(body, files)
        nonce = body.get("nonce")
        if nonce is not None:
            nonce = str(nonce)
            if len(nonce) > 25:  # message.mdx: "up to 25 characters"
                errors = FormErrors()
                errors.add(["nonce"], "BASE_TYPE_MAX_LENGTH",
                           "Must be 25 or fewer in length.")
                errors.raise_if_any()
            if body.get("enforce_nonce"):
                # message.mdx, enforce_nonce: a message by the same author with the same
                # nonce in the past few minutes is returned, and no new one is created
                now = time.monotonic()
                seen = self._nonces.get((self.bot_user.id, nonce))
                if seen is not None and now - seen[0] < NONCE_SECONDS:
                    earlier = self.messages.get(seen[1])
                    if earlier is not None:
                        return json_response(earlier.payload())
        message = self.new_message(channel, self.bot_user, body, files)
        message.flags &= ~EPHEMERAL  # ephemeral only exists for interaction responses
        message.nonce = nonce
        if nonce is not None and body.get("enforce_nonce"):
            self._nonces[(self.bot_user.id, nonce)] = (time.monotonic(), message.id)
        self._store_message(message)
        return json_response(message.payload())

    async def _list_messages(
        self, request: web.Request, m: re.Match[str], body: Any, files: list[JSON]
    ) -> web.Response:
        """Get Channel Messages (message.mdx): newest first; `limit` 1-100 (default 50);
        `before`, `after` and `around` are mutually exclusive (refused here when combined);
        without READ_MESSAGE_HISTORY no messages; without the MESSAGE_CONTENT intent other
        people's messages come with their content fields empty (gateway.mdx)."""
        channel = self._channel_or_404(m["channel"])
        q = request.query
        try:
            limit = int(q.get("limit", 50))
        except ValueError:
            limit = 0
        anchors = [key for key in ("before", "after", "around") if key in q]
        if not 1 <= limit <= 100 or len(anchors) > 1:
            errors = FormErrors()
            errors.add(["limit" if len(anchors) <= 1 else anchors[1]], "INVALID_QUERY",
                       "limit must be 1-100; before, after and around are exclusive")
            errors.raise_if_any()
        if channel.denied & READ_MESSAGE_HISTORY:
            return json_response([])
        msgs = list(reversed(self.channel_messages(channel)))  # newest first, like Discord
        if "before" in q:
            msgs = [x for x in msgs if x.id < int(q["before"])]
        if "after" in q:
            msgs = [x for x in msgs if x.id > int(q["after"])][-limit:]
        if "around" in q:
            pivot = int(q["around"])
            older = [x for x in msgs if x.id <= pivot]
            newer = [x for x in msgs if x.id > pivot]
            msgs = newer[-(limit // 2):] + older if limit > 1 else older
            msgs = msgs[:limit]
        content = any(s.intents & INTENT_MESSAGE_CONTENT
                      for s in self.gateway.sessions.values())  # type: ignore[attr-defined]
        return json_response([self._as_listed(x, content) for x in msgs[:limit]])

    def _as_listed(self, message: Message, content_intent: bool) -> JSON:
        data = message.payload()
        mine = message.author.id == self.bot_user.id
        if not (content_intent or mine or f"<@{self.bot_user.id}>" in message.content):
            data.update(content="", embeds=[], attachments=[], components=[])
        return data

    async def _get_message(
        self, request: web.Request, m: re.Match[str], body: Any, files: list[JSON]
    ) -> web.Response:
        """Get Channel Message (message.mdx): in a server channel it takes Read Message
        History as well as View Channel; without it Discord answers 403 Missing Access
        (unlike Get Channel Messages, which answers an empty list)."""
        channel = self._channel_or_404(m["channel"])
        if channel.guild is not None and channel.denied & READ_MESSAGE_HISTORY:
            raise ApiError(403, 50001, "Missing Access")
        return json_response(self._message_or_404(channel, m["message"]).payload())

    async def _edit_message(
        self, request: web.Request, m: re.Match[str], body: Any, files: list[JSON]
    ) -> web.Response:
        channel = self._channel_or_404(m["channel"])
        message = self._message_or_404(channel, m["message"])
        # Interaction responses are authored by the bot too, so (non-ephemeral ones) can be
        # edited here as well - the usual way to edit them after the 15-minute token expiry.
        if message.author.id != self.bot_user.id:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        if channel.is_thread:
            self._check_thread_writable(channel, edit=True)
        self._check_can_upload(channel, files)
        body = self._without_embeds_unless_allowed(channel, body or {}, files, creating=False)
        message.apply_edit(body, self.new_attachments(body, files, created=False))
        self._broadcast_message("MESSAGE_UPDATE", message)
        return json_response(message.payload())

    async def _delete_message(
        self, request: web.Request, m: re.Match[str], body: Any, files: list[JSON]
    ) -> web.Response:
        channel = self._channel_or_404(m["channel"])
        message = self._message_or_404(channel, m["message"])
        if message.author.id != self.bot_user.id:
            # message.mdx, Delete Message: someone else's message takes Manage Messages in
            # a server channel, and cannot be deleted at all in a DM
            if channel.type == CHANNEL_DM:
                raise ApiError(403, 50003, "Cannot execute action on a DM channel")
            self._need(channel, MANAGE_MESSAGES)
        if (channel.is_thread and channel.archived and channel.locked
                and not self.bot_permissions(channel) & MANAGE_THREADS):
            # topics/threads.mdx, Locked Threads: deleting only while the thread is active
            raise ApiError(400, 50083, "Thread is archived")
        message.deleted = True
        self._broadcast_message("MESSAGE_DELETE", message)
        return no_content()

    async def _add_reaction(
        self, request: web.Request, m: re.Match[str], body: Any, files: list[JSON]
    ) -> web.Response:
        channel = self._channel_or_404(m["channel"])
        self._message_or_404(channel, m["message"])
        return no_content()


def _recorded_headers(request: web.Request) -> dict[str, str]:
    """The request's headers as a call record keeps them: the token never, only its scheme."""
    headers = dict(request.headers)
    if "Authorization" in headers:
        headers["Authorization"] = headers["Authorization"].split(" ", 1)[0] + " ..."
    return headers
