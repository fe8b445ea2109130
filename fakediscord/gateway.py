"""The gateway websocket: HELLO, heartbeats, IDENTIFY → READY + GUILD_CREATE, RESUME, dispatch.

Frames are plain JSON text; discord.py only zlib-inflates *binary* frames, so asking for
``compress=zlib-stream`` is harmless. Each connection that identifies becomes a
:class:`GatewaySession`; events are buffered per session so a RESUME after a dropped socket
replays what the bot missed, like Discord does. Interactions go to the newest live session,
which is how a restarted bot process (a second ``Bot`` on the same fake) takes over.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

if TYPE_CHECKING:
    from .server import FakeDiscord

_log = logging.getLogger(__name__)

JSON = dict[str, Any]

OP_DISPATCH = 0
OP_HEARTBEAT = 1
OP_IDENTIFY = 2
OP_PRESENCE = 3
OP_VOICE_STATE = 4
OP_RESUME = 6
OP_RECONNECT = 7
OP_REQUEST_MEMBERS = 8
OP_INVALID_SESSION = 9
OP_HELLO = 10
OP_HEARTBEAT_ACK = 11

INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12

HEARTBEAT_INTERVAL_MS = 41_250


@dataclass(eq=False)
class GatewaySession:
    """One identified bot session (survives socket drops until the bot re-identifies)."""

    session_id: str
    token: str
    intents: int
    seq: int = 0
    ws: web.WebSocketResponse | None = None
    ready: bool = False
    buffer: list[JSON] = field(default_factory=list)
    #: Serialises sends so frames leave in sequence order.
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: The ``[shard_id, num_shards]`` the session identified with (none = ``[0, 1]``).
    shard: tuple[int, int] = (0, 1)

    @property
    def live(self) -> bool:
        return self.ready and self.ws is not None and not self.ws.closed

    def serves(self, guild_id: int | None) -> bool:
        """events/gateway.mdx, Sharding: a guild's events go to shard
        ``(guild_id >> 22) % num_shards``; DMs only to shard 0."""
        shard_id, count = self.shard
        if guild_id is None:
            return shard_id == 0
        return (guild_id >> 22) % count == shard_id


def shard_of(guild_id: int | None, count: int) -> int:
    """The shard that receives a guild's events (DMs: shard 0)."""
    return 0 if guild_id is None else (guild_id >> 22) % count


def _guild_of(data: Any) -> int | None:
    raw = data.get("guild_id") if isinstance(data, dict) else None
    return int(raw) if raw else None


class Gateway:
    """Owns the sessions of one fake and serves the websocket endpoint."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.sessions: dict[str, GatewaySession] = {}
        self.identify_count = 0
        self.resume_count = 0
        self._ready_cond = asyncio.Condition()
        self._sockets: set[web.WebSocketResponse] = set()

    # -- test-side ---------------------------------------------------------------------
    @property
    def current(self) -> GatewaySession | None:
        """The newest live session (the one interactions are delivered to)."""
        live = [s for s in self.sessions.values() if s.live]
        return live[-1] if live else None

    def for_guild(self, guild_id: int | None) -> GatewaySession | None:
        """The newest live session of the shard that serves `guild_id` (None: DMs)."""
        live = [s for s in self.sessions.values() if s.live and s.serves(guild_id)]
        return live[-1] if live else None

    async def wait_ready(self, timeout: float) -> GatewaySession:
        async with self._ready_cond:
            await asyncio.wait_for(
                self._ready_cond.wait_for(lambda: self.current is not None), timeout
            )
        assert self.current is not None
        return self.current

    async def dispatch(self, event: str, data: JSON, *, intent: int | None = None) -> None:
        """Send an op-0 event to every live session (that has ``intent``, if given) of the
        shard that serves the event's guild (shard 0 for events without one)."""
        guild_id = _guild_of(data)
        for session in list(self.sessions.values()):
            if not session.ready or not session.serves(guild_id):
                continue
            if intent is not None and not session.intents & intent:
                continue
            await self.send_event(session, event, data)

    async def send_event(self, session: GatewaySession, event: str, data: JSON, *,
                         on_send: Callable[[], None] | None = None) -> None:
        """`on_send` runs as the frame is handed to the socket (after this session's earlier
        frames and this one's encoding): an interaction's clock starts there, not while the
        fake is still encoding other clicks' events (its own work, which Discord does on its
        own machines)."""
        # Counts as activity for settle(): the bot needs a moment to react to an event.
        self.fake._last_activity = time.monotonic()
        async with session.lock:
            session.seq += 1
            frame = {"op": OP_DISPATCH, "t": event, "s": session.seq, "d": data}
            session.buffer.append(frame)
            del session.buffer[:-500]
            ws = session.ws
            text = json.dumps(frame)
            if on_send is not None:
                on_send()
            if ws is not None and not ws.closed:
                try:
                    await ws.send_str(text)
                except (ConnectionError, RuntimeError):
                    _log.debug("dropping %s for a closed socket (kept for RESUME)", event)

    async def send_op(self, session: GatewaySession, op: int, data: Any = None) -> None:
        if session.ws is not None and not session.ws.closed:
            await session.ws.send_str(json.dumps({"op": op, "d": data, "s": None, "t": None}))

    async def close_all(self) -> None:
        for ws in list(self._sockets):
            with contextlib.suppress(Exception):
                await ws.close(code=1001)

    # -- server-side -------------------------------------------------------------------
    async def handle(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        self._sockets.add(ws)
        session: GatewaySession | None = None
        await ws.send_str(
            json.dumps({"op": OP_HELLO, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}})
        )
        try:
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    payload = json.loads(msg.data)
                elif msg.type == WSMsgType.BINARY:
                    payload = json.loads(msg.data.decode())
                else:
                    break
                session = await self._on_frame(ws, session, payload)
        finally:
            self._sockets.discard(ws)
            if session is not None and session.ws is ws:
                session.ws = None
        return ws

    async def _on_frame(
        self, ws: web.WebSocketResponse, session: GatewaySession | None, payload: JSON
    ) -> GatewaySession | None:
        op = payload.get("op")
        data = payload.get("d")
        if op == OP_HEARTBEAT:
            await ws.send_str(json.dumps({"op": OP_HEARTBEAT_ACK, "d": None}))
        elif op == OP_IDENTIFY:
            session = await self._identify(ws, data)
        elif op == OP_RESUME:
            session = await self._resume(ws, data)
        elif op == OP_REQUEST_MEMBERS and session is not None:
            await self._members_chunk(session, data)
        elif op in (OP_PRESENCE, OP_VOICE_STATE):
            pass
        else:
            _log.warning("fake gateway ignoring op %s", op)
        return session

    async def _identify(self, ws: web.WebSocketResponse, data: JSON) -> GatewaySession | None:
        self.identify_count += 1
        fake = self.fake
        shard = self._shard(data.get("shard"))
        if shard is None:  # topics/opcodes-and-status-codes.mdx: 4010 Invalid shard
            await ws.close(code=4010, message=b"Invalid shard.")
            return None
        guilds = [g for g in fake.guilds.values() if shard_of(g.id, shard[1]) == shard[0]]
        if len(guilds) > fake.max_guilds_per_shard:  # 4011 Sharding required
            await ws.close(code=4011, message=b"Sharding required.")
            return None
        session = GatewaySession(
            session_id=secrets.token_hex(16),
            token=str(data.get("token", "")),
            intents=int(data.get("intents", 0)),
            shard=shard,
        )
        session.ws = ws
        self.sessions[session.session_id] = session
        ready = {
            "v": 10,
            "user": {**fake.bot_user.payload(), "verified": True, "mfa_enabled": False, "flags": 0},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "shard": list(shard),
            "session_id": session.session_id,
            "session_type": "normal",
            "resume_gateway_url": fake.gateway_url,
            "application": {"id": str(fake.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
            "auth_session_id_hash": "",
            "_trace": ["fake-discord"],
        }
        session.ready = True
        await self.send_event(session, "READY", ready)
        for guild in guilds:
            await self.send_event(
                session, "GUILD_CREATE", self.guild_create_payload(session, guild)
            )
        async with self._ready_cond:
            self._ready_cond.notify_all()
        return session

    @staticmethod
    def _shard(raw: Any) -> tuple[int, int] | None:
        """IDENTIFY's ``shard`` array, checked as Discord does: two integers, the count at
        least 1 and the id below it (absent = ``[0, 1]``). None = invalid (close 4010)."""
        if raw is None:
            return (0, 1)
        if (not isinstance(raw, list) or len(raw) != 2
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in raw)):
            return None
        shard_id, count = raw
        if count < 1 or not 0 <= shard_id < count:
            return None
        return (shard_id, count)

    def guild_create_payload(self, session: GatewaySession, guild: Any) -> JSON:
        """Members are all sent only with the GUILD_MEMBERS intent (then no chunking is needed)."""
        if session.intents & INTENT_GUILD_MEMBERS:
            return guild.payload()
        me = guild.members.get(self.fake.bot_user.id)
        payload: JSON = guild.payload(members=[me] if me else [])
        return payload

    async def _resume(self, ws: web.WebSocketResponse, data: JSON) -> GatewaySession | None:
        session = self.sessions.get(str(data.get("session_id")))
        if session is None:
            await ws.send_str(json.dumps({"op": OP_INVALID_SESSION, "d": False}))
            return None
        self.resume_count += 1
        if session.ws is not None and session.ws is not ws and not session.ws.closed:
            await session.ws.close(code=4000)
        last = int(data.get("seq") or 0)
        async with session.lock:
            session.ws = ws
            for frame in [f for f in session.buffer if f["s"] > last]:
                await ws.send_str(json.dumps(frame))
        await self.send_event(session, "RESUMED", {"_trace": ["fake-discord"]})
        async with self._ready_cond:
            self._ready_cond.notify_all()
        return session

    async def _members_chunk(self, session: GatewaySession, data: JSON) -> None:
        guild = self.fake.guilds.get(int(data.get("guild_id", 0)))
        if guild is None:
            return
        wanted = {int(u) for u in data.get("user_ids") or []}
        query = (data.get("query") or "").lower()
        members = [
            m
            for m in guild.members.values()
            if (not wanted or m.user.id in wanted) and m.user.name.lower().startswith(query)
        ]
        chunk: JSON = {
            "guild_id": str(guild.id),
            "members": [m.payload() for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        await self.send_event(session, "GUILD_MEMBERS_CHUNK", chunk)
