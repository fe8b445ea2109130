"""World model and "what users see" queries (the part of the fake tests assert on)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from .gateway import INTENT_DIRECT_MESSAGES, INTENT_GUILD_MEMBERS, INTENT_GUILD_MESSAGES
from .models import (
    ADMINISTRATOR,
    CHANNEL_DM,
    CHANNEL_GUILD_TEXT,
    CHANNEL_PUBLIC_THREAD,
    DEFAULT_BOT_PERMISSIONS,
    DEFAULT_EVERYONE_PERMISSIONS,
    MANAGE_GUILD,
    THREAD_TYPES,
    Channel,
    Guild,
    Member,
    Message,
    Role,
    ShownModal,
    User,
    iso_now,
)
from .snowflake import next_snowflake
from .text import payload_text

if TYPE_CHECKING:
    from .gateway import Gateway

_log = logging.getLogger(__name__)

JSON = dict[str, Any]


class WorldMixin:
    """Guilds, channels, users, members and the message store of one fake."""

    gateway: Gateway
    bot_user: User
    application_id: int
    users: dict[int, User]
    guilds: dict[int, Guild]
    channels: dict[int, Channel]
    messages: dict[int, Message]
    _channel_order: dict[int, list[int]]
    _dm_channels: dict[int, Channel]
    _ephemerals: dict[int, list[Message]]
    _shown_modals: list[ShownModal]
    _shown_choices: dict[int, list[list[JSON]]]
    _bg_tasks: set[asyncio.Task[Any]]
    custom_emoji: dict[str, str]

    # -- building the world -------------------------------------------------------------
    def add_user(self, name: str, *, bot: bool = False, dm_open: bool = True) -> User:
        """Create an account. ``dm_open=False``: DMs from the bot fail with 403 / 50007."""
        user = User(next_snowflake(), name, bot=bot, dm_open=dm_open)
        self.users[user.id] = user
        return user

    def add_custom_emoji(self, name: str) -> str:
        """Create an application emoji; buttons and options may then use ``{"id": <it>}``."""
        emoji_id = str(next_snowflake())
        self.custom_emoji[emoji_id] = name
        return emoji_id

    def add_guild(self, name: str, *, bot_permissions: int = DEFAULT_BOT_PERMISSIONS) -> Guild:
        """Create a guild the bot is in (with @everyone and the bot's managed role)."""
        gid = next_snowflake()
        guild = Guild(
            gid,
            name,
            owner_id=next_snowflake(),
            everyone=Role(gid, "@everyone", DEFAULT_EVERYONE_PERMISSIONS),
        )
        self.guilds[gid] = guild
        bot_role = Role(
            next_snowflake(), self.bot_user.name, bot_permissions, position=1, managed=True
        )
        guild.roles.append(bot_role)
        guild.members[self.bot_user.id] = Member(guild, self.bot_user, roles=[bot_role])
        self._broadcast("GUILD_CREATE", None, guild=guild)
        return guild

    def add_channel(self, guild: Guild, name: str, *, type: int = CHANNEL_GUILD_TEXT
                    ) -> Channel:
        """Create a channel in ``guild``: a text channel unless ``type`` says otherwise (e.g.
        ``CHANNEL_GUILD_VOICE``, whose text chat takes messages but no threads)."""
        channel = Channel(next_snowflake(), name, type=type, guild=guild,
                          position=len(guild.channels))
        guild.channels.append(channel)
        self.channels[channel.id] = channel
        self._channel_order[channel.id] = []
        self._broadcast("CHANNEL_CREATE", channel.payload())
        return channel

    def add_member(
        self,
        guild: Guild,
        user: User,
        *,
        manage_guild: bool = False,
        administrator: bool = False,
        roles: Iterable[Role] = (),
    ) -> Member:
        """Put ``user`` in ``guild``; the flags add a "Manager" / "Admin" role with that permission."""
        member_roles = list(roles)
        if manage_guild:
            member_roles.append(guild.role_named("Manager", MANAGE_GUILD))
        if administrator:
            member_roles.append(guild.role_named("Admin", ADMINISTRATOR))
        member = Member(guild, user, roles=member_roles)
        guild.members[user.id] = member
        self._broadcast(
            "GUILD_MEMBER_ADD",
            {**member.payload(), "guild_id": str(guild.id)},
            intent=INTENT_GUILD_MEMBERS,
        )
        return member

    def delete_channel(self, channel: Channel) -> None:
        """Delete a guild channel or thread (a moderator's doing): later requests to it get
        404 Unknown Channel (10003). A thread's deletion is THREAD_DELETE with the id,
        guild_id, parent_id and type only (events/gateway-events.mdx); a channel's takes
        its threads with it."""
        assert channel.guild is not None
        if channel.is_thread:
            assert channel.parent is not None
            channel.guild.threads.remove(channel)
            self.channels.pop(channel.id, None)
            self._broadcast("THREAD_DELETE", {
                "id": str(channel.id), "guild_id": str(channel.guild.id),
                "parent_id": str(channel.parent.id), "type": channel.type})
            return
        channel.guild.channels.remove(channel)
        self.channels.pop(channel.id, None)
        for thread in [t for t in channel.guild.threads if t.parent is channel]:
            channel.guild.threads.remove(thread)
            self.channels.pop(thread.id, None)
        self._broadcast("CHANNEL_DELETE", channel.payload())

    # -- threads ------------------------------------------------------------------------
    def make_thread(self, parent: Channel, name: str, owner: User, *,
                    type: int = CHANNEL_PUBLIC_THREAD, thread_id: int | None = None,
                    auto_archive_duration: int = 1440) -> Channel:
        """A thread of ``parent`` started by ``owner`` (who joins it): the REST routes and
        tests that need one (a lobby opened inside a thread). THREAD_CREATE goes out with
        ``newly_created`` (events/gateway-events.mdx)."""
        assert parent.guild is not None and type in THREAD_TYPES
        now = iso_now()
        thread = Channel(thread_id or next_snowflake(), name, type=type, guild=parent.guild,
                         parent=parent, owner_id=owner.id,
                         auto_archive_duration=auto_archive_duration,
                         archive_timestamp=now, create_timestamp=now,
                         members={owner.id: now})
        parent.guild.threads.append(thread)
        self.channels[thread.id] = thread
        self._channel_order[thread.id] = []
        self._broadcast("THREAD_CREATE", {**thread.payload(member_of=self.bot_user.id),
                                          "newly_created": True})
        return thread

    def update_thread(self, thread: Channel, *, archived: bool | None = None,
                      locked: bool | None = None, name: str | None = None,
                      auto_archive_duration: int | None = None) -> None:
        """Change a thread as a moderator or Discord's auto-archive would (no permission
        checks here: the REST route checks the bot's); THREAD_UPDATE goes out."""
        assert thread.is_thread
        if archived is not None and archived != thread.archived:
            thread.archived = archived
            thread.archive_timestamp = iso_now()
        if locked is not None:
            thread.locked = locked
        if name is not None:
            thread.name = name
        if auto_archive_duration is not None:
            thread.auto_archive_duration = auto_archive_duration
            thread.archive_timestamp = iso_now()
        self._broadcast("THREAD_UPDATE", thread.payload(member_of=self.bot_user.id))

    def threads_of(self, channel: Channel) -> list[Channel]:
        """The threads made in ``channel`` (active and archived), oldest first."""
        assert channel.guild is not None
        return [t for t in channel.guild.threads if t.parent is channel]

    def bot_permissions(self, channel: Channel) -> int:
        """The bot's permissions in a guild channel or thread: its roles' less what the
        channel's (and a thread's parent's) overwrites deny it."""
        assert channel.guild is not None
        me = channel.guild.members.get(self.bot_user.id)
        return me.permissions & ~channel.denied if me is not None else 0

    def deny_bot(self, channel: Channel, permissions: int) -> None:
        """A channel overwrite denying the bot ``permissions`` (e.g. ``SEND_MESSAGES``):
        posting then gets 403 Missing Permissions (50013), and without ``VIEW_CHANNEL``
        every request to the channel gets 403 Missing Access (50001), as on Discord.
        Interactions from the channel carry the reduced ``app_permissions``. The overwrite
        shows in the channel's payload and goes out in CHANNEL_UPDATE, as a moderator's
        edit does on Discord (a thread has no overwrites: it inherits its parent's)."""
        self._set_bot_denied(channel, channel.bot_denied | permissions)

    def allow_bot(self, channel: Channel, permissions: int) -> None:
        """Lift what :meth:`deny_bot` denied (e.g. a moderator granting Attach Files back):
        the overwrite shrinks or goes, and CHANNEL_UPDATE goes out."""
        self._set_bot_denied(channel, channel.bot_denied & ~permissions)

    def _set_bot_denied(self, channel: Channel, denied: int) -> None:
        channel.bot_denied, channel.bot_id = denied, self.bot_user.id
        if not channel.is_thread and channel.guild is not None:
            self._broadcast("CHANNEL_UPDATE", channel.payload())

    def dm_channel(self, user: User) -> Channel:
        """The (single) DM channel between the bot and ``user``, created on first use."""
        channel = self._dm_channels.get(user.id)
        if channel is None:
            channel = Channel(next_snowflake(), f"dm-{user.name}", type=CHANNEL_DM, recipient=user)
            self._dm_channels[user.id] = channel
            self.channels[channel.id] = channel
            self._channel_order[channel.id] = []
        return channel

    def member(self, guild: Guild, user: User) -> Member | None:
        return guild.members.get(user.id)

    # -- what users see -------------------------------------------------------------------
    def channel_messages(self, channel: Channel | int, *, include_deleted: bool = False
                         ) -> list[Message]:
        """Current messages of a channel in order (edits applied; deleted ones removed unless
        ``include_deleted``, for tests about what was shown over time)."""
        cid = channel if isinstance(channel, int) else channel.id
        return [
            m for m in (self.messages[i] for i in self._channel_order.get(cid, []))
            if include_deleted or not m.deleted
        ]

    def dms(self, user: User) -> list[Message]:
        """Current messages in the bot's DM channel with ``user``."""
        channel = self._dm_channels.get(user.id)
        return self.channel_messages(channel) if channel is not None else []

    def ephemerals(self, user: User) -> list[Message]:
        """Ephemeral messages shown to ``user`` (responses and followups), edits applied."""
        return [m for m in self._ephemerals.get(user.id, []) if not m.deleted]

    def modals_shown(self, user: User) -> list[ShownModal]:
        """Modals the bot opened for ``user``, oldest first."""
        return [m for m in self._shown_modals if m.user.id == user.id]

    def visible_texts(self, user: User) -> list[str]:
        """Every text ``user`` could ever have read, one string per message version.

        Covers every version (including deleted messages) of every message in the channels
        of guilds the user is in, their DMs, their ephemerals, modals shown to them and
        autocomplete choices offered to them. Use it for "no hidden information leaks".
        """
        texts: list[str] = []
        for guild in self.guilds.values():
            if user.id not in guild.members:
                continue
            for channel in [*guild.channels, *guild.threads]:
                for mid in self._channel_order.get(channel.id, []):
                    texts.extend(self.messages[mid].version_texts())
        dm = self._dm_channels.get(user.id)
        if dm is not None:
            for mid in self._channel_order.get(dm.id, []):
                texts.extend(self.messages[mid].version_texts())
        for message in self._ephemerals.get(user.id, []):
            texts.extend(message.version_texts())
        for modal in self.modals_shown(user):
            texts.append(payload_text(modal.title, [], modal.components))
        for choices in self._shown_choices.get(user.id, []):
            texts.append("\n".join(str(c.get("name", "")) for c in choices))
        return [t for t in texts if t]

    def visible_text(self, user: User) -> str:
        """:meth:`visible_texts` joined with newlines (handy for ``"secret" not in ...``)."""
        return "\n".join(self.visible_texts(user))

    # -- message store -------------------------------------------------------------------
    def _store_message(self, message: Message) -> Message:
        self.messages[message.id] = message
        if message.ephemeral_for is not None:
            self._ephemerals.setdefault(message.ephemeral_for.id, []).append(message)
        else:
            self._channel_order.setdefault(message.channel_id, []).append(message.id)
            thread = self.channels.get(message.channel_id)
            if thread is not None and thread.is_thread and message.type != 21:
                thread.message_count += 1  # channel.mdx: the starter message not counted
                thread.total_message_sent += 1
            self._broadcast_message("MESSAGE_CREATE", message)
        return message

    def _message_event_payload(self, message: Message) -> JSON:
        data = message.payload()
        if message.guild_id is not None:
            guild = self.guilds.get(message.guild_id)
            member = guild.members.get(message.author.id) if guild else None
            if member is not None:
                data["member"] = {k: v for k, v in member.payload().items() if k != "user"}
        return data

    def _broadcast_message(self, event: str, message: Message) -> None:
        """MESSAGE_CREATE/UPDATE/DELETE, honouring the GUILD_MESSAGES / DIRECT_MESSAGES intents."""
        if message.ephemeral_for is not None:
            return
        intent = INTENT_GUILD_MESSAGES if message.guild_id is not None else INTENT_DIRECT_MESSAGES
        if event == "MESSAGE_DELETE":
            data: JSON = {"id": str(message.id), "channel_id": str(message.channel_id)}
            if message.guild_id is not None:
                data["guild_id"] = str(message.guild_id)
        else:
            data = self._message_event_payload(message)
        self._broadcast(event, data, intent=intent)

    def _broadcast(
        self,
        event: str,
        data: JSON | None,
        *,
        intent: int | None = None,
        guild: Guild | None = None,
    ) -> None:
        """Schedule a gateway dispatch to live sessions (no-op before the loop/bot exists)."""
        gateway = getattr(self, "gateway", None)
        if gateway is None or not any(s.ready for s in gateway.sessions.values()):
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return

        async def send() -> None:
            if guild is not None:
                for session in list(gateway.sessions.values()):
                    if session.ready and session.serves(guild.id):
                        await gateway.send_event(
                            session, event, gateway.guild_create_payload(session, guild)
                        )
            else:
                assert data is not None
                await gateway.dispatch(event, data, intent=intent)

        task = loop.create_task(send())
        self._bg_tasks.add(task)
        task.add_done_callback(self._bg_tasks.discard)

    async def _drain_broadcasts(self) -> None:
        """Let scheduled gateway dispatches go out (keeps event order deterministic)."""
        while self._bg_tasks:
            with contextlib.suppress(Exception):
                await asyncio.gather(*list(self._bg_tasks))
