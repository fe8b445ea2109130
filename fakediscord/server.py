"""``FakeDiscord``: the aiohttp app on 127.0.0.1 that the real discord.py talks to."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Iterator
from typing import Any

import yarl
from aiohttp import web

from .driver import DriverMixin
from .gateway import Gateway
from .interactions import TOKEN_LIFETIME
from .models import User
from .ratelimit import RateLimiter
from .rest import PREFIX
from .snowflake import next_snowflake
from .watch import PendingRequests


class FakeDiscord(DriverMixin):
    """A fake Discord (REST + gateway) for end-to-end tests of a real discord.py bot.

    One fake outlives any number of bot logins: its world and recorded messages persist, so
    a test can close the bot, build a new one, log in again and see the old state.
    """

    def __init__(
        self,
        *,
        bot_name: str = "FakeBot",
        ack_deadline: float | None = 3.0,
        timeout: float = 5.0,
        rate_limits: bool = True,
    ) -> None:
        """``rate_limits=False`` is the only way out of Discord's rate limits (5 requests per
        5 s per route and top-level resource, 50/s in all: :mod:`.ratelimit`); a test that
        takes it says why (it tests something the limits would only slow down)."""
        self.application_id = next_snowflake()
        #: The bot's account (its id is the application id, as for modern Discord apps).
        self.bot_user = User(self.application_id, bot_name, bot=True)
        self.app_owner = User(next_snowflake(), "app-owner")
        #: Seconds a bot has to acknowledge an interaction (Discord: 3); None disables.
        self.ack_deadline = ack_deadline
        #: Seconds an interaction token works for followups and edits (Discord: 15 minutes).
        self.token_lifetime = TOKEN_LIFETIME
        #: Tokens of interactions dispatched up to this time (monotonic) are past their life
        #: whatever `token_lifetime` says (:meth:`expire_tokens`).
        self.tokens_expired_before = float("-inf")  # time.monotonic() starts near 0 at boot
        # Sharding (events/gateway.mdx): GET /gateway/bot recommends `recommended_shards`; an
        # IDENTIFY whose shard would hold more guilds than this is closed with 4011.
        self.recommended_shards = 1
        self.max_guilds_per_shard = 2500
        #: Default wait for the bot's answer in slash/click/... (seconds).
        self.default_timeout = timeout
        #: Refuse /commands the member could not see (default_member_permissions, DM
        #: availability) like the Discord client does. Off by default: server admins can
        #: override those defaults, so bots should check permissions themselves too.
        self.enforce_command_permissions = False
        self.users = {}
        self.guilds = {}
        self.channels = {}
        self.messages = {}
        #: Uploaded file bytes by attachment id (tests decode pictures from them); a
        #: benchmark that uploads thousands of pictures turns this off to save memory.
        self.keep_uploads = True
        self.uploads: dict[str, bytes] = {}
        self._channel_order = {}
        self._dm_channels = {}
        self._ephemerals = {}
        self._shown_modals = []
        self._shown_choices = {}
        self._bg_tasks = set()
        self.calls = []
        self.record_responses = False
        self.unknown_calls = []
        #: Requests the fake refused as Discord would a malformed one (400 Invalid Form Body
        #: or Cannot send an empty message): a bot that is right never gets one.
        self.refused_calls = []
        self.limiter = RateLimiter()
        if not rate_limits:
            self.limiter.disable()
        #: Requests watched bots started and have not finished (:meth:`watch_client`).
        self.pending = PendingRequests()
        self._injections = []
        self._stalls = []
        self._lost_answers = []
        self._nonces = {}
        self._stopping = asyncio.Event()
        self._inflight = 0
        self._last_activity = time.monotonic()
        self.busy_probes = []  # see DriverMixin.settle
        self._commands = {}
        self.custom_emoji = {}
        self.command_syncs = []
        self.interactions = {}
        self._by_token = {}
        self.ack_latencies = []
        self.late_acks = []
        self.gateway = Gateway(self)
        self._routes = [
            (method, _compile(rx), handler)
            for method, rx, handler in self._rest_routes() + self._interaction_routes()
        ]
        self._runner: web.AppRunner | None = None
        self.port = 0

    # -- lifecycle ---------------------------------------------------------------------
    async def start(self) -> FakeDiscord:
        """Bind 127.0.0.1 on a random port and serve. Returns self (``fake = await FakeDiscord().start()``)."""
        self._waiters = set()
        self.gateway._ready_cond = asyncio.Condition()
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/", self.gateway.handle)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_route("*", PREFIX + "/{tail:.*}", self._handle_rest)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        # Discord's edge accepts however many connections a bot opens at once; aiohttp's
        # default accept queue of 128 overflowed when hundreds of tables answered a burst of
        # clicks (each dropped connection attempt costs the bot a 1 s SYN retry: bench.load).
        site = web.TCPSite(self._runner, "127.0.0.1", 0, backlog=4096)
        await site.start()
        self.port = int(self._runner.addresses[0][1])
        self.pending.start()
        return self

    async def stop(self) -> None:
        """Close bot websockets and the server. Close your bots first (they would reconnect)."""
        self._stopping.set()  # stalled requests answer now
        self.pending.stop()
        await self._drain_broadcasts()
        await self.gateway.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def rest_base(self) -> str:
        """Value for ``discord.http.Route.BASE``."""
        return f"http://127.0.0.1:{self.port}{PREFIX}"

    @property
    def gateway_url(self) -> str:
        """The websocket URL (also sent as READY's ``resume_gateway_url``)."""
        return f"ws://127.0.0.1:{self.port}/"

    @property
    def connected(self) -> bool:
        """True while a bot session is identified and its socket is open."""
        return self.gateway.current is not None

    # -- pointing discord.py at the fake --------------------------------------------------
    def patch_discord(self, monkeypatch: Any = None) -> Any:
        """Point discord.py's REST base and gateway at this fake.

        With pytest's ``monkeypatch`` the change is undone at teardown. Without it, the
        previous values are returned as an undo callable: ``undo = fake.patch_discord(); ...; undo()``.
        """
        import discord.gateway
        import discord.http

        gateway = yarl.URL(self.gateway_url)
        if monkeypatch is not None:
            monkeypatch.setattr(discord.http.Route, "BASE", self.rest_base)
            monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", gateway)
            return lambda: None
        old_base = discord.http.Route.BASE
        old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
        discord.http.Route.BASE = self.rest_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = gateway

        def undo() -> None:
            discord.http.Route.BASE = old_base
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway

        return undo

    @contextlib.contextmanager
    def patched(self) -> Iterator[FakeDiscord]:
        """``with fake.patched(): ...`` — patch discord.py for the block (benchmark scripts)."""
        undo = self.patch_discord()
        try:
            yield self
        finally:
            undo()

    def watch_client(self, client: Any) -> None:
        """Let :meth:`settle` see the requests a discord.py client holds back: call it with
        the bot after the bot installed its own request wrappers (pacing, timeouts), so
        the time a request waits in them counts as the bot being busy. Without it, settle
        sees only the wire, which is quiet while discord.py sleeps on a spent bucket."""
        self.pending.watch(client.http)

    # -- gateway resilience helpers -------------------------------------------------------
    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT to the current session: the bot reconnects and RESUMEs."""
        from .gateway import OP_RECONNECT

        session = self.gateway.current
        if session is not None:
            await self.gateway.send_op(session, OP_RECONNECT)

    async def drop_connection(self, code: int = 4000) -> None:
        """Close the current bot socket abruptly (the bot should RESUME)."""
        session = self.gateway.current
        if session is not None and session.ws is not None:
            await session.ws.close(code=code)

    async def invalidate_session(self) -> None:
        """Send op 9 (not resumable): the bot must IDENTIFY again."""
        from .gateway import OP_INVALID_SESSION

        session = self.gateway.current
        if session is not None:
            self.gateway.sessions.pop(session.session_id, None)
            await self.gateway.send_op(session, OP_INVALID_SESSION, False)


def _compile(rx: str) -> Any:
    import re

    return re.compile(rx)
