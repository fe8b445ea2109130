"""The fake's world: users, guilds, channels, members and messages, plus their JSON payloads.

Objects are plain mutable dataclasses owned by one :class:`~fakediscord.FakeDiscord`. Tests
hold references to them (``alice = fake.add_user("alice")``) and pass them back to the
driving API, so identity matters more than equality: messages are *live* objects that
later edits update in place (an ``InteractionResult.message`` always shows the latest state).
"""

from __future__ import annotations

import copy
import datetime as dt
import time
from dataclasses import dataclass, field
from typing import Any

from .normalize import normalize_components, normalize_embeds
from .text import payload_text

JSON = dict[str, Any]

# Permission bits (https://discord.com/developers/docs/topics/permissions).
CREATE_INSTANT_INVITE = 1 << 0
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
USE_EXTERNAL_EMOJIS = 1 << 18
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
ALL_PERMISSIONS = (1 << 51) - 1

#: What @everyone may do in a freshly created guild (close to Discord's default).
DEFAULT_EVERYONE_PERMISSIONS = (
    CREATE_INSTANT_INVITE
    | ADD_REACTIONS
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_EXTERNAL_EMOJIS
    | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS
    | CREATE_PRIVATE_THREADS
    | SEND_MESSAGES_IN_THREADS
)
#: What the bot's managed role grants (what an invite link with sane scopes would ask for).
DEFAULT_BOT_PERMISSIONS = DEFAULT_EVERYONE_PERMISSIONS | MANAGE_MESSAGES

# Message flags (message.mdx, Message Flags): the one place the fake names them.
SUPPRESS_EMBEDS = 1 << 2
EPHEMERAL = 1 << 6
LOADING = 1 << 7
SUPPRESS_NOTIFICATIONS = 1 << 12
IS_VOICE_MESSAGE = 1 << 13
IS_COMPONENTS_V2 = 1 << 15

CHANNEL_GUILD_TEXT = 0
CHANNEL_DM = 1
CHANNEL_GUILD_VOICE = 2
CHANNEL_GUILD_ANNOUNCEMENT = 5
CHANNEL_ANNOUNCEMENT_THREAD = 10
CHANNEL_PUBLIC_THREAD = 11
CHANNEL_PRIVATE_THREAD = 12
THREAD_TYPES = (CHANNEL_ANNOUNCEMENT_THREAD, CHANNEL_PUBLIC_THREAD, CHANNEL_PRIVATE_THREAD)
#: channel.mdx, Thread Metadata: the only auto_archive_duration values (minutes)
AUTO_ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)
#: message.mdx, message flags: "this message has an associated thread, with the same id"
HAS_THREAD = 1 << 5


def iso_now() -> str:
    """Current UTC time in Discord's ISO-8601 format."""
    return dt.datetime.now(dt.UTC).isoformat()


@dataclass(eq=False)
class User:
    """A Discord account. ``dm_open=False`` makes DMs to it fail with 403 / code 50007."""

    id: int
    name: str
    bot: bool = False
    dm_open: bool = True

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
            "primary_guild": None,
        }

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass(eq=False)
class Role:
    id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "managed": self.managed,
            "mentionable": False,
            "icon": None,
            "unicode_emoji": None,
            "flags": 0,
        }


@dataclass(eq=False)
class Member:
    """A user's membership in a guild; permissions come from @everyone plus its roles."""

    guild: Guild
    user: User
    roles: list[Role] = field(default_factory=list)
    joined_at: str = field(default_factory=iso_now)
    nick: str | None = None

    @property
    def permissions(self) -> int:
        """Guild-level permissions, with administrator (and ownership) meaning everything."""
        perms = self.guild.everyone.permissions
        for role in self.roles:
            perms |= role.permissions
        if perms & ADMINISTRATOR or self.guild.owner_id == self.user.id:
            return ALL_PERMISSIONS
        return perms

    def payload(self, *, with_permissions: bool = False) -> JSON:
        data: JSON = {
            "user": self.user.payload(),
            "roles": [str(r.id) for r in self.roles],
            "joined_at": self.joined_at,
            "nick": self.nick,
            "avatar": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        if with_permissions:
            data["permissions"] = str(self.permissions)
        return data


@dataclass(eq=False)
class Channel:
    """A guild text channel (type 0), a DM channel (type 1, ``recipient`` set), or a thread
    (types 10-12: ``parent`` is the channel it was made in; topics/threads.mdx)."""

    id: int
    name: str
    type: int = CHANNEL_GUILD_TEXT
    guild: Guild | None = None
    position: int = 0
    recipient: User | None = None
    #: Permissions a channel overwrite denies the bot here (see ``FakeDiscord.deny_bot``).
    bot_denied: int = 0
    #: The bot user that overwrite names (set with it): channel payloads carry it as a member
    #: overwrite, as Discord's do, so the bot's cache computes the same permissions.
    bot_id: int | None = None
    # -- threads only --------------------------------------------------------------------
    parent: Channel | None = None
    owner_id: int | None = None
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440
    archive_timestamp: str = field(default_factory=iso_now)
    create_timestamp: str = field(default_factory=iso_now)
    #: user id -> join timestamp (thread members; the creator joins on creation)
    members: dict[int, str] = field(default_factory=dict)
    message_count: int = 0
    total_message_sent: int = 0

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    @property
    def denied(self) -> int:
        """What overwrites deny the bot here: a thread inherits its parent channel's
        (permissions.mdx, Inherited Permissions (Threads))."""
        return self.bot_denied | (self.parent.denied if self.parent is not None else 0)

    def thread_member(self, user_id: int) -> JSON | None:
        joined = self.members.get(user_id)
        if joined is None:
            return None
        return {"id": str(self.id), "user_id": str(user_id), "join_timestamp": joined,
                "flags": 0}

    def payload(self, *, member_of: int | None = None) -> JSON:
        """The channel object; for a thread, ``member_of`` (the bot's id) adds its thread
        member object when it has joined (channel.mdx, Get Channel)."""
        if self.type == CHANNEL_DM:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": CHANNEL_DM,
                "recipients": [self.recipient.payload()],
                "last_message_id": None,
                "flags": 0,
            }
        assert self.guild is not None
        if self.is_thread:
            assert self.parent is not None
            data: JSON = {
                "id": str(self.id),
                "type": self.type,
                "guild_id": str(self.guild.id),
                "parent_id": str(self.parent.id),
                "owner_id": str(self.owner_id),
                "name": self.name,
                "last_message_id": None,
                "rate_limit_per_user": 0,
                "flags": 0,
                "message_count": self.message_count,
                "member_count": min(50, len(self.members)),
                "total_message_sent": self.total_message_sent,
                "thread_metadata": {
                    "archived": self.archived,
                    "archive_timestamp": self.archive_timestamp,
                    "auto_archive_duration": self.auto_archive_duration,
                    "locked": self.locked,
                    "create_timestamp": self.create_timestamp,
                },
            }
            if self.type == CHANNEL_PRIVATE_THREAD:
                data["thread_metadata"]["invitable"] = True
            if member_of is not None and (member := self.thread_member(member_of)):
                data["member"] = member
            return data
        data = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild.id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": ([{"id": str(self.bot_id), "type": 1, "allow": "0",
                                        "deny": str(self.bot_denied)}]
                                      if self.bot_denied and self.bot_id is not None else []),
            "parent_id": None,
            "topic": None,
            "nsfw": False,
            "rate_limit_per_user": 0,
            "last_message_id": None,
            "flags": 0,
        }
        if self.type == CHANNEL_GUILD_VOICE:  # channel.mdx: a voice channel's own fields
            del data["topic"]
            data.update(bitrate=64000, user_limit=0, rtc_region=None, video_quality_mode=1)
        return data

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"


@dataclass(eq=False)
class Guild:
    """A server: channels, roles (the @everyone role id equals the guild id) and members."""

    id: int
    name: str
    owner_id: int
    everyone: Role
    roles: list[Role] = field(default_factory=list)
    channels: list[Channel] = field(default_factory=list)
    members: dict[int, Member] = field(default_factory=dict)
    #: threads of its channels (GUILD_CREATE sends the active ones apart from channels)
    threads: list[Channel] = field(default_factory=list)

    def role_named(self, name: str, permissions: int) -> Role:
        """Get or create a role by name (used for the manage_guild / administrator shortcuts)."""
        for role in self.roles:
            if role.name == name:
                return role
        from .snowflake import next_snowflake

        role = Role(next_snowflake(), name, permissions, position=len(self.roles) + 1)
        self.roles.append(role)
        return role

    def payload(self, *, members: list[Member] | None = None) -> JSON:
        """The GUILD_CREATE / GET /guilds/{id} shape; ``members`` defaults to all members."""
        member_list = list(self.members.values()) if members is None else members
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [self.everyone.payload()] + [r.payload() for r in self.roles],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": "en-US",
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "unavailable": False,
            "large": False,
            "member_count": len(self.members),
            "joined_at": iso_now(),
            "channels": [c.payload() for c in self.channels],
            # events/gateway-events.mdx, Guild Create: the active threads (archived ones
            # are not synced up front; topics/threads.mdx)
            "threads": [t.payload() for t in self.threads if not t.archived],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "members": [m.payload() for m in member_list],
        }


@dataclass
class MessageVersion:
    """One rendered state of a message (the state before an edit is kept in ``edits``)."""

    content: str
    embeds: list[JSON]
    components: list[JSON]
    flags: int
    time: float
    _text: str | None = field(default=None, repr=False, compare=False)

    @property
    def text(self) -> str:
        # Versions are immutable once recorded, so the (leak-check hot path) text is cached.
        if self._text is None:
            self._text = payload_text(self.content, self.embeds, self.components)
        return self._text


@dataclass(eq=False)
class Message:
    """A message as Discord stores it. Live: edits update it and push the old state on ``edits``."""

    id: int
    channel_id: int
    author: User
    content: str = ""
    embeds: list[JSON] = field(default_factory=list)
    components: list[JSON] = field(default_factory=list)
    flags: int = 0
    attachments: list[JSON] = field(default_factory=list)
    edits: list[MessageVersion] = field(default_factory=list)
    deleted: bool = False
    created: float = field(default_factory=time.monotonic)
    timestamp: str = field(default_factory=iso_now)
    edited_timestamp: str | None = None
    guild_id: int | None = None
    webhook_id: int | None = None
    application_id: int | None = None
    interaction_id: int | None = None
    #: The user an ephemeral message is shown to (None for normal messages).
    ephemeral_for: User | None = None
    #: For interaction responses: Discord's ``interaction_metadata`` (who triggered it).
    interaction_metadata: JSON | None = None
    message_reference: JSON | None = None
    #: Discord's message type: 0 DEFAULT, 19 REPLY (a followup shows as a reply to the
    #: interaction's original response: discord/discord-api-docs#2733).
    type: int = 0
    #: The ``nonce`` the message was created with (Create Message), echoed back as Discord does.
    nonce: str | None = None
    #: The thread started from this message (Start Thread from Message; same id)
    thread: Channel | None = None

    @property
    def text(self) -> str:
        """Everything readable in the current version (content, embeds, component labels)."""
        return payload_text(self.content, self.embeds, self.components)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def shows_header(self) -> bool:
        """True if a Discord client draws a header above this message: the reply line of a
        reply (an interaction's followup is one: "could not be loaded" when it replies to
        an ephemeral message) or the "<user> used /command" line of an interaction's
        answer. A plain channel message has neither."""
        return self.message_reference is not None or self.interaction_metadata is not None

    @property
    def loading(self) -> bool:
        """True while this is a deferred "Bot is thinking..." placeholder."""
        return bool(self.flags & LOADING)

    def current(self) -> MessageVersion:
        return MessageVersion(
            self.content,
            copy.deepcopy(self.embeds),
            copy.deepcopy(self.components),
            self.flags,
            time.monotonic(),
        )

    def versions(self) -> list[MessageVersion]:
        """Every state this message has been shown in, oldest first (current last)."""
        return [*self.edits, self.current()]

    def version_texts(self) -> list[str]:
        """The text of every version, oldest first (cheap: no copies)."""
        return [*(v.text for v in self.edits), self.text]

    def buttons(self) -> list[JSON]:
        """Every component with a custom_id (buttons, selects), in display order."""
        from .text import iter_custom_ids

        return list(iter_custom_ids(self.components))

    def apply_edit(self, body: JSON, new: list[JSON] | None = None) -> None:
        """Apply a PATCH body: only the keys present change, as on Discord. ``new`` are the
        attachments built from the request's files: with an ``attachments`` list they
        follow the kept ones (API v10: the list names every attachment the message keeps,
        old and new); without one they are appended (Discord's "Edit Message")."""
        self.edits.append(self.current())
        if "content" in body:
            self.content = body["content"] or ""
        if "embeds" in body:
            self.embeds = normalize_embeds(body["embeds"] or [])
        elif "embed" in body:
            self.embeds = normalize_embeds([body["embed"]] if body["embed"] else [])
        if "components" in body:
            self.components = normalize_components(body["components"] or [])
        if "flags" in body and body["flags"] is not None:
            # message.mdx, Edit Message: SUPPRESS_EMBEDS can be set and unset, IS_COMPONENTS_V2
            # only set; "unsupported flag changes are currently ignored without error"
            wanted = int(body["flags"])
            self.flags = ((self.flags & ~SUPPRESS_EMBEDS) | (wanted & SUPPRESS_EMBEDS)
                          | (wanted & IS_COMPONENTS_V2))
        if "attachments" in body and body["attachments"] is not None:
            self.attachments = [a for a in self.attachments if _kept(a, body["attachments"])]
            for kept in self.attachments:  # description may be updated on existing ones
                listed = _listed(kept, body["attachments"])
                if listed and "description" in listed:
                    kept["description"] = listed["description"]
        self.attachments = [*self.attachments, *(new or [])]
        self.resolve_attachment_urls()
        self.edited_timestamp = iso_now()

    def resolve_attachment_urls(self) -> None:
        """``attachment://name`` in an embed's image or thumbnail becomes that attachment's
        URL, as Discord answers it (an unknown name is left as sent)."""
        by_name = {a.get("filename"): a for a in self.attachments}
        for embed in self.embeds:
            for key in ("image", "thumbnail"):
                part = embed.get(key)
                url = part.get("url") if isinstance(part, dict) else None
                if isinstance(url, str) and url.startswith("attachment://"):
                    found = by_name.get(url[len("attachment://"):])
                    if found is not None:
                        embed[key] = {**part, "url": found["url"],
                                      "proxy_url": found["proxy_url"]}

    def payload(self) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "type": self.type,
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": self.attachments,
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "flags": self.flags,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            data["application_id"] = str(self.application_id)
        if self.message_reference is not None:
            data["message_reference"] = self.message_reference
        if self.interaction_metadata is not None:
            data["interaction_metadata"] = self.interaction_metadata
        if self.nonce is not None:
            data["nonce"] = self.nonce
        if self.thread is not None:
            data["thread"] = self.thread.payload()
            data["flags"] = self.flags | HAS_THREAD
        return data


def _kept(attachment: JSON, keep: list[JSON]) -> bool:
    return _listed(attachment, keep) is not None


def _listed(attachment: JSON, listing: list[JSON]) -> JSON | None:
    """The entry of an ``attachments`` request list naming this (existing) attachment."""
    for entry in listing:
        if isinstance(entry, dict) and str(entry.get("id")) == str(attachment.get("id")):
            return entry
    return None


@dataclass
class Call:
    """One REST request the bot made. ``status`` is None while the request is in flight."""

    method: str
    path: str
    query: dict[str, str]
    json: Any
    time: float
    status: int | None = None
    route: str = ""
    files: list[JSON] = field(default_factory=list)
    #: The JSON the fake answered (kept only while ``FakeDiscord.record_responses`` is on).
    response: Any = None
    #: The request's headers (Authorization reduced to its scheme): what a traffic audit
    #: checks (X-Audit-Log-Reason, User-Agent, content types).
    headers: dict[str, str] = field(default_factory=dict)
    #: Discord's error body when the fake refused the request's body (400 / 50035, 50006).
    refusal: Any = None

    def __repr__(self) -> str:
        return f"<Call {self.method} {self.path} -> {self.status}>"


@dataclass
class ShownModal:
    """A modal the bot opened for a user (response type 9)."""

    user: User
    custom_id: str
    title: str
    components: list[JSON]
    #: The interaction that opened it; a submit carries its message (for edit_message).
    source_interaction_id: int
    source_message: Message | None


@dataclass
class InteractionResult:
    """What the user got back from one interaction.

    ``type`` is the callback type (4 message, 5 deferred message, 6 deferred update, 7 update,
    8 autocomplete, 9 modal). ``message`` is the live reply (for 5, after the followup/edit
    arrived; for 6/7, the clicked message), ``followups`` the messages sent with the token.
    """

    interaction_id: int
    type: int
    message: Message | None
    ephemeral: bool
    deferred: bool
    latency: float
    choices: list[JSON] | None = None
    modal: ShownModal | None = None
    followups: list[Message] = field(default_factory=list)

    @property
    def text(self) -> str:
        """Text of the reply message (empty if there is none)."""
        return self.message.text if self.message is not None else ""
