"""Test-side driving API: what a user does in the Discord client, and waiting for the bot.

Each action builds the INTERACTION_CREATE Discord would send (fields discord.py 2.7 needs:
``id, application_id, type, token, version, attachment_size_limit``, ``member`` with
``user/roles/flags/permissions`` in a guild or ``user`` in a DM, ``channel``, ``guild_id``),
dispatches it to the newest live bot session, and waits for the callback. A bot that never
answers raises :class:`BotDidNotRespond` naming the action and any unemulated routes it hit.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable, Mapping
from typing import Any

from .interactions import (
    INTERACTION_AUTOCOMPLETE,
    INTERACTION_COMMAND,
    INTERACTION_COMPONENT,
    INTERACTION_MODAL_SUBMIT,
    RESPONSE_AUTOCOMPLETE,
    RESPONSE_DEFERRED_MESSAGE,
    RESPONSE_DEFERRED_UPDATE,
    InteractionsMixin,
    PendingInteraction,
)
from .models import (
    ADMINISTRATOR,
    ALL_PERMISSIONS,
    CHANNEL_DM,
    Channel,
    Guild,
    InteractionResult,
    Message,
    Role,
    ShownModal,
    User,
)
from .snowflake import next_snowflake
from .text import iter_custom_ids
from .watch import PendingRequests

JSON = dict[str, Any]

#: Option types (https://discord.com/developers/docs/interactions/application-commands).
OPT_SUB_COMMAND, OPT_GROUP, OPT_STRING, OPT_INTEGER, OPT_BOOLEAN = 1, 2, 3, 4, 5
OPT_USER, OPT_CHANNEL, OPT_ROLE, OPT_NUMBER = 6, 7, 8, 10

#: Permissions Discord reports for the app in a DM (everything but administrator).
DM_APP_PERMISSIONS = ALL_PERMISSIONS & ~ADMINISTRATOR


class FakeDiscordError(AssertionError):
    """A test drove the fake into something a real Discord client could not do."""


class BotDidNotRespond(FakeDiscordError):
    """The bot did not acknowledge (or finish a deferred response to) an interaction in time."""


class DriverMixin(InteractionsMixin):
    """slash / click / select / autocomplete / submit_modal / settle."""

    default_timeout: float
    enforce_command_permissions: bool
    pending: PendingRequests

    # -- waiting -------------------------------------------------------------------------
    async def wait_for_bot(self, timeout: float = 5.0) -> None:
        """Wait until a bot session has identified (READY sent)."""
        try:
            await self.gateway.wait_ready(timeout)
        except TimeoutError:
            raise FakeDiscordError(
                f"no bot connected to the fake gateway within {timeout}s"
            ) from None

    async def settle(self, quiet: float = 0.05, timeout: float = 30.0) -> None:
        """Wait until no REST request is in flight, no watched bot holds one back
        (:meth:`FakeDiscord.watch_client`: waiting for its own pacing or for a spent
        rate-limit bucket), and none started (and no gateway event was dispatched) for
        ``quiet`` seconds.

        Use after an action: the bot typically answers, then edits a board, posts a turn
        message and sends DMs. Under Discord's rate limits that can take seconds, so the
        timeout is generous; a test of a long game waits for what the players see (the
        e2e driver's ``synced``), not for quiet after every move. Raises
        :class:`FakeDiscordError` if the bot never goes quiet.

        `busy_probes` (callables a test adds) report work the bot does off the REST path
        that ends in a request, e.g. a picture being drawn before its message is sent: while
        any says busy, the bot counts as busy, so the quiet time starts when it ends.
        """
        await self._drain_broadcasts()
        deadline = time.monotonic() + timeout
        step = max(quiet / 5, 0.005)
        last_busy = 0.0
        while True:
            now = time.monotonic()
            busy = (self._inflight or self.pending.count
                    or any(probe() for probe in self.busy_probes))
            if busy:
                last_busy = now
            elif now - max(self._last_activity, last_busy) >= quiet:
                return
            if now > deadline:
                raise FakeDiscordError(
                    f"bot still busy after {timeout}s (in flight: {self._inflight}, held "
                    f"back by the bot: {self.pending.count})"
                )
            await asyncio.sleep(step)

    async def _wait_until(self, predicate: Callable[[], bool], timeout: float) -> bool:
        """Wait until `predicate()` holds (checked after every REST call the bot makes).

        Waiters are futures checked by `_wake_waiters`, not tasks on one shared Condition:
        with hundreds of clicks in flight, every callback woke every waiting click's task to
        re-check its predicate, one lock hand-off at a time; now a callback costs one
        predicate call per waiter and wakes only the waits it completes."""
        if predicate():
            return True
        waiter = (predicate, asyncio.get_running_loop().create_future())
        self._waiters.add(waiter)
        try:
            await asyncio.wait_for(waiter[1], timeout)
        except TimeoutError:
            return predicate()
        finally:
            self._waiters.discard(waiter)
        return True

    # -- public actions ------------------------------------------------------------------
    async def slash(
        self,
        user: User,
        command: str,
        options: Mapping[str, Any] | None = None,
        *,
        channel: Channel | None = None,
        dm: bool = False,
        timeout: float | None = None,
    ) -> InteractionResult:
        """Run ``/command`` ("game new" = subcommand, "a b c" = group + subcommand) as ``user``.

        Option types come from the synced schema when there is one, else from the Python
        value (bool, int, float, str, :class:`User`, :class:`Channel`, :class:`Role`).
        """
        channel, guild = self._context(user, channel, dm)
        data = self._command_data(command, dict(options or {}), guild)
        if self.enforce_command_permissions:
            self._check_command_visible(user, command, guild)
        pending = self._new_pending(INTERACTION_COMMAND, user, channel, guild, f"/{command}")
        return await self._run(pending, data, timeout)

    async def autocomplete(
        self,
        user: User,
        command: str,
        options: Mapping[str, Any] | None = None,
        *,
        focused: str,
        channel: Channel | None = None,
        dm: bool = False,
        timeout: float | None = None,
    ) -> list[JSON]:
        """Type into option ``focused`` of ``/command``; returns the offered choices."""
        channel, guild = self._context(user, channel, dm)
        opts = dict(options or {})
        opts.setdefault(focused, "")
        data = self._command_data(command, opts, guild, focused=focused)
        pending = self._new_pending(
            INTERACTION_AUTOCOMPLETE, user, channel, guild, f"/{command} (autocomplete)"
        )
        pending.focused_type = _focused_type(data)
        result = await self._run(pending, data, timeout)
        if result.type != RESPONSE_AUTOCOMPLETE:
            raise FakeDiscordError(f"autocomplete answered with callback type {result.type}")
        return result.choices or []

    async def click(
        self, user: User, message: Message, custom_id: str, *, timeout: float | None = None
    ) -> InteractionResult:
        """Press the button ``custom_id`` on ``message`` (must exist and be enabled)."""
        comp = self._component(user, message, custom_id)
        if comp.get("type") != 2:
            raise FakeDiscordError(f"{custom_id!r} is not a button (type {comp.get('type')})")
        return await self._component_interaction(user, message, comp, {}, timeout)

    async def select(
        self,
        user: User,
        message: Message,
        custom_id: str,
        values: list[str],
        *,
        timeout: float | None = None,
    ) -> InteractionResult:
        """Pick ``values`` in the select menu ``custom_id`` on ``message``."""
        comp = self._component(user, message, custom_id)
        if comp.get("type") not in (3, 5, 6, 7, 8):
            raise FakeDiscordError(f"{custom_id!r} is not a select menu (type {comp.get('type')})")
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if not lo <= len(values) <= hi:
            raise FakeDiscordError(f"{custom_id!r} takes {lo}..{hi} values, got {len(values)}")
        if comp.get("type") == 3:
            allowed = {o["value"] for o in comp.get("options", [])}
            if not set(values) <= allowed:
                raise FakeDiscordError(
                    f"{custom_id!r} has no option(s) {sorted(set(values) - allowed)}"
                )
        return await self._component_interaction(
            user, message, comp, {"values": list(values)}, timeout
        )

    async def submit_modal(
        self,
        user: User,
        custom_id: str,
        fields: Mapping[str, str | list[str]],
        *,
        timeout: float | None = None,
    ) -> InteractionResult:
        """Submit the modal ``custom_id`` last shown to ``user``; ``fields`` maps input custom_id → value."""
        shown = next(
            (
                m
                for m in reversed(self._shown_modals)
                if m.user.id == user.id and m.custom_id == custom_id
            ),
            None,
        )
        if shown is None:
            raise FakeDiscordError(f"no modal {custom_id!r} was shown to {user.name}")
        source = self.interactions[shown.source_interaction_id]
        components = _modal_answer(shown, dict(fields))
        pending = self._new_pending(
            INTERACTION_MODAL_SUBMIT,
            user,
            source.channel,
            source.guild,
            f"modal {custom_id}",
            shown.source_message,
        )
        return await self._run(pending, {"custom_id": custom_id, "components": components}, timeout)

    async def send_as(self, user: User, channel: Channel, content: str) -> Message:
        """``user`` posts a plain message (MESSAGE_CREATE is dispatched if intents allow)."""
        message = self.new_message(channel, user, {"content": content}, [])
        self._store_message(message)
        await self._drain_broadcasts()
        return message

    # -- internals -------------------------------------------------------------------------
    def _context(
        self, user: User, channel: Channel | None, dm: bool, *, component: bool = False
    ) -> tuple[Channel, Guild | None]:
        if dm:
            return self.dm_channel(user), None
        if channel is None:
            channel = next(
                (
                    g.channels[0]
                    for g in self.guilds.values()
                    if user.id in g.members and g.channels
                ),
                None,
            )
            if channel is None:
                raise FakeDiscordError(
                    f"{user.name} is in no guild with a channel; pass channel= or dm=True"
                )
        if channel.type == CHANNEL_DM:
            if channel.recipient is None or channel.recipient.id != user.id:
                raise FakeDiscordError(f"{user.name} cannot use someone else's DM channel")
            return channel, None
        assert channel.guild is not None
        if user.id not in channel.guild.members:
            raise FakeDiscordError(f"{user.name} is not a member of guild {channel.guild.name!r}")
        if channel.is_thread and channel.archived and not component:
            # topics/threads.mdx: users cannot use application commands in archived threads
            raise FakeDiscordError(f"#{channel.name} is an archived thread: Discord's client "
                                   "offers no commands there")
        if channel.id not in self.channels:
            raise FakeDiscordError(f"#{channel.name} was deleted")
        return channel, channel.guild

    def _new_pending(
        self,
        itype: int,
        user: User,
        channel: Channel,
        guild: Guild | None,
        description: str,
        message: Message | None = None,
    ) -> PendingInteraction:
        pending = PendingInteraction(
            id=next_snowflake(),
            token=f"fake-token-{secrets.token_urlsafe(24)}",
            type=itype,
            user=user,
            channel=channel,
            guild=guild,
            description=description,
            message=message,
        )
        self.interactions[pending.id] = pending
        self._by_token[pending.token] = pending
        return pending

    def _check_command_visible(self, user: User, command: str, guild: Guild | None) -> None:
        """Discord hides commands whose ``default_member_permissions`` the member lacks, and
        guild-only commands in DMs (server admins can override the former, hence opt-in)."""
        top, _ = self._find_schema(command.split(), guild)
        if top is None:
            return
        if guild is None:
            contexts = top.get("contexts")
            if top.get("dm_permission") is False or (contexts is not None and 1 not in contexts):
                raise FakeDiscordError(f"/{command} is not available in DMs")
            return
        needed = top.get("default_member_permissions")
        if needed is not None:
            have = guild.members[user.id].permissions
            if int(needed) & ~have:
                raise FakeDiscordError(
                    f"{user.name} cannot see /{command} (needs permissions {needed})"
                )

    def _find_schema(
        self, names: list[str], guild: Guild | None
    ) -> tuple[JSON | None, JSON | None]:
        """Returns (top-level command, the leaf whose ``options`` are the arguments)."""
        pools = ([self._commands.get(guild.id, [])] if guild else []) + [
            self._commands.get(None, [])
        ]
        for pool in pools:
            top = next(
                (c for c in pool if c.get("name") == names[0] and c.get("type", 1) == 1), None
            )
            if top is None:
                continue
            leaf: JSON | None = top
            for name in names[1:]:
                opts = leaf.get("options") or [] if leaf else []
                leaf = next(
                    (o for o in opts if o.get("name") == name and o.get("type") in (1, 2)), None
                )
            return top, leaf
        return None, None

    def _command_data(
        self, command: str, options: dict[str, Any], guild: Guild | None, focused: str | None = None
    ) -> JSON:
        names = command.strip().lstrip("/").split()
        if not names:
            raise FakeDiscordError("empty command name")
        top, leaf = self._find_schema(names, guild)
        schema_opts = {o["name"]: o for o in (leaf or {}).get("options") or []}
        resolved: dict[str, dict[str, JSON]] = {}
        built: list[JSON] = []
        for name, value in options.items():
            declared = schema_opts.get(name)
            if top is not None and declared is None:
                raise FakeDiscordError(f"/{command} has no option {name!r} in the synced schema")
            otype = declared["type"] if declared else _infer_type(value)
            opt: JSON = {
                "name": name,
                "type": otype,
                "value": self._option_value(value, otype, guild, resolved),
            }
            if name == focused:
                opt["focused"] = True
                opt["value"] = str(value)
            built.append(opt)
        if top is not None and focused is None:
            missing = [n for n, o in schema_opts.items() if o.get("required") and n not in options]
            if missing:
                raise FakeDiscordError(f"/{command} is missing required option(s) {missing}")
        # nest: group → subcommand → options
        for depth in range(len(names) - 1, 0, -1):
            sub_type = OPT_SUB_COMMAND if depth == len(names) - 1 else OPT_GROUP
            built = [{"name": names[depth], "type": sub_type, "options": built}]
        data: JSON = {
            "id": top["id"] if top else str(_stable_id(names[0])),
            "name": names[0],
            "type": 1,
            "options": built,
        }
        if top is not None and top.get("guild_id"):
            data["guild_id"] = top["guild_id"]
        if resolved:
            data["resolved"] = resolved
        return data

    def _option_value(
        self, value: Any, otype: int, guild: Guild | None, resolved: dict[str, dict[str, JSON]]
    ) -> Any:
        if otype == OPT_USER:
            user = value if isinstance(value, User) else self.users[int(value)]
            resolved.setdefault("users", {})[str(user.id)] = user.payload()
            member = guild.members.get(user.id) if guild else None
            if member is not None:
                data = member.payload(with_permissions=True)
                data.pop("user")
                resolved.setdefault("members", {})[str(user.id)] = data
            return str(user.id)
        if otype == OPT_CHANNEL:
            channel = value if isinstance(value, Channel) else self.channels[int(value)]
            payload = channel.payload()
            payload["permissions"] = str(ALL_PERMISSIONS)
            resolved.setdefault("channels", {})[str(channel.id)] = payload
            return str(channel.id)
        if otype == OPT_ROLE:
            role = value
            if not isinstance(role, Role):
                raise FakeDiscordError("role options need a fakediscord Role")
            resolved.setdefault("roles", {})[str(role.id)] = role.payload()
            return str(role.id)
        if otype == OPT_INTEGER and isinstance(value, bool | float):
            raise FakeDiscordError(f"integer option given {value!r}")
        return value

    def _component(self, user: User, message: Message, custom_id: str) -> JSON:
        if message.deleted:
            raise FakeDiscordError(f"message {message.id} was deleted")
        if message.ephemeral_for is not None and message.ephemeral_for.id != user.id:
            raise FakeDiscordError(f"{user.name} cannot see the ephemeral message {message.id}")
        comps = list(iter_custom_ids(message.components))
        comp = next((c for c in comps if c.get("custom_id") == custom_id), None)
        if comp is None:
            ids = [c.get("custom_id") for c in comps]
            raise FakeDiscordError(
                f"message {message.id} has no component {custom_id!r}; it has {ids}"
            )
        if comp.get("disabled"):
            raise FakeDiscordError(f"component {custom_id!r} is disabled")
        return comp

    async def _component_interaction(
        self, user: User, message: Message, comp: JSON, extra: JSON, timeout: float | None
    ) -> InteractionResult:
        channel = self.channels.get(message.channel_id)
        if channel is None:
            raise FakeDiscordError(f"message {message.id}'s channel was deleted")
        channel, guild = self._context(user, channel, channel.type == CHANNEL_DM,
                                       component=True)
        pending = self._new_pending(
            INTERACTION_COMPONENT, user, channel, guild, f"component {comp['custom_id']!r}", message
        )
        data = {"custom_id": comp["custom_id"], "component_type": comp["type"], **extra}
        return await self._run(pending, data, timeout)

    def _payload(self, pending: PendingInteraction, data: JSON) -> JSON:
        guild, channel, user = pending.guild, pending.channel, pending.user
        payload: JSON = {
            "id": str(pending.id),
            "application_id": str(self.application_id),
            "type": pending.type,
            "token": pending.token,
            "version": 1,
            "attachment_size_limit": 10 * 1024 * 1024,
            "locale": "en-US",
            "entitlements": [],
            "entitlement_sku_ids": [],
            "data": data,
            "channel_id": str(channel.id),
            "channel": {**channel.payload(), "permissions": str(ALL_PERMISSIONS)},
        }
        if guild is not None:
            member = guild.members[user.id]
            me = guild.members.get(self.bot_user.id)
            payload.update(
                guild_id=str(guild.id),
                guild={"id": str(guild.id), "locale": "en-US", "features": []},
                guild_locale="en-US",
                member=member.payload(with_permissions=True),
                app_permissions=str(self.bot_permissions(channel) if me else 0),
                context=0,
                authorizing_integration_owners={"0": str(guild.id)},
            )
        else:
            payload.update(
                user=user.payload(),
                app_permissions=str(DM_APP_PERMISSIONS),
                context=1,
                authorizing_integration_owners={"0": "0"},
            )
        if pending.message is not None:
            payload["message"] = pending.message.payload()
        return payload

    async def _run(
        self, pending: PendingInteraction, data: JSON, timeout: float | None
    ) -> InteractionResult:
        timeout = self.default_timeout if timeout is None else timeout
        # the shard that serves the interaction's guild (DMs: shard 0), as Discord routes it
        session = self.gateway.for_guild(pending.guild.id if pending.guild else None)
        if session is None:
            raise FakeDiscordError(f"{pending.description}: no bot is connected to the fake "
                                   "(on the shard of its guild)")
        await self._drain_broadcasts()
        since = self.mark()
        payload = self._payload(pending, data)

        def sent() -> None:
            pending.dispatched_at = time.monotonic()

        await self.gateway.send_event(session, "INTERACTION_CREATE", payload, on_send=sent)

        if not await self._wait_until(
            lambda: pending.response_type is not None or bool(self._late_acks_for(pending)), timeout
        ):
            raise BotDidNotRespond(self._no_answer(pending, since, timeout, "never acknowledged"))
        if pending.response_type is None:
            raise BotDidNotRespond(
                self._no_answer(pending, since, timeout, f"acknowledged after {self.ack_deadline}s")
            )
        rtype = pending.response_type
        if rtype == RESPONSE_DEFERRED_MESSAGE:
            original = pending.original
            assert original is not None
            done = await self._wait_until(lambda: not original.loading or original.deleted, timeout)
            if not done:
                raise BotDidNotRespond(
                    self._no_answer(pending, since, timeout, "deferred but never followed up")
                )
        elif rtype == RESPONSE_DEFERRED_UPDATE:
            await self._wait_touch_or_quiet(pending, timeout)
        message = pending.original
        return InteractionResult(
            interaction_id=pending.id,
            type=rtype,
            message=message,
            ephemeral=bool(message is not None and message.ephemeral),
            deferred=rtype in (RESPONSE_DEFERRED_MESSAGE, RESPONSE_DEFERRED_UPDATE),
            latency=(pending.acked_at or 0) - pending.dispatched_at,
            choices=pending.choices,
            modal=pending.modal,
            followups=pending.followups,
        )

    def _late_acks_for(self, pending: PendingInteraction) -> list[PendingInteraction]:
        return [p for p in self.late_acks if p is pending]

    async def _wait_touch_or_quiet(
        self, pending: PendingInteraction, timeout: float, quiet: float = 0.05
    ) -> None:
        """After a deferred update: wait for an edit/followup, or for the bot to go quiet."""
        touches = pending.touches
        deadline = time.monotonic() + timeout
        while pending.touches == touches and time.monotonic() < deadline:
            if not (self._inflight or self.pending.count) and time.monotonic() - self._last_activity >= quiet:
                return
            await asyncio.sleep(0.005)

    def _no_answer(self, pending: PendingInteraction, since: int, timeout: float, what: str) -> str:
        unknown = [f"{c.method} {c.path}" for c in self.unknown_calls if c in self.calls[since:]]
        errors = [
            f"{c.method} {c.path} -> {c.status}"
            for c in self.calls[since:]
            if (c.status or 0) >= 400
        ]
        return (
            f"bot {what} for {pending.description} by {pending.user.name} (timeout {timeout}s, "
            f"Discord's limit is 3s). REST errors since dispatch: {errors or 'none'}; "
            f"unemulated routes: {unknown or 'none'}"
        )


def _infer_type(value: Any) -> int:
    if isinstance(value, bool):
        return OPT_BOOLEAN
    if isinstance(value, int):
        return OPT_INTEGER
    if isinstance(value, float):
        return OPT_NUMBER
    if isinstance(value, User):
        return OPT_USER
    if isinstance(value, Channel):
        return OPT_CHANNEL
    if isinstance(value, Role):
        return OPT_ROLE
    return OPT_STRING


_ids: dict[str, int] = {}


def _stable_id(name: str) -> int:
    """A command id for unsynced commands, stable per name for the process."""
    return _ids.setdefault(name, next_snowflake())


def _modal_answer(shown: ShownModal, fields: dict[str, str | list[str]]) -> list[JSON]:
    """Mirror the modal's layout (action rows or labels) with the user's values filled in."""
    unknown = set(fields) - {c.get("custom_id") for c in iter_custom_ids(shown.components)}
    if unknown:
        raise FakeDiscordError(f"modal {shown.custom_id!r} has no input(s) {sorted(unknown)}")

    def answer(comp: JSON) -> JSON:
        value = fields.get(comp["custom_id"], comp.get("value") or "")
        if comp.get("type") == 4:
            if comp.get("required", True) and not value:
                raise FakeDiscordError(f"modal input {comp['custom_id']!r} is required")
            return {"type": 4, "custom_id": comp["custom_id"], "value": value}
        values = value if isinstance(value, list) else [value] if value else []
        return {"type": comp["type"], "custom_id": comp["custom_id"], "values": values}

    out: list[JSON] = []
    for comp in shown.components:
        if comp.get("type") == 1:
            out.append(
                {
                    "type": 1,
                    "components": [
                        answer(c) for c in comp.get("components", []) if "custom_id" in c
                    ],
                }
            )
        elif comp.get("type") == 18 and isinstance(comp.get("component"), dict):
            out.append(
                {"type": 18, "id": comp.get("id", 0), "component": answer(comp["component"])}
            )
        elif "custom_id" in comp:
            out.append(answer(comp))
    return out


def _focused_type(data: JSON) -> int | None:
    """The type of the option marked ``focused`` in an autocomplete's command data."""
    for option in data.get("options") or []:
        if option.get("focused"):
            return int(option["type"])
        found = _focused_type(option)
        if found is not None:
            return found
    return None
