"""Server side of interactions: the callback endpoint and the interaction-token webhooks.

Rules emulated from Discord (a bot that breaks them fails here as it would in production):
- one callback per interaction (a second answers 400 / 40060 "already acknowledged");
- the callback must arrive within ``ack_deadline`` (3 s) of the dispatch, else 404 / 10062
  "Unknown interaction";
- followups and ``@original`` need an acknowledged interaction (else 404 / 10015);
- after a deferred *message* (type 5) the first followup fills the "thinking" placeholder
  instead of creating a new message, and keeps the deferral's ephemerality;
- for component/modal interactions, ``@original`` is the message the component was on;
- a followup is a reply (type 19) to the original response, with its ``message_reference``
  and ``interaction_metadata``: what clients draw as the reply header above it.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from .formerrors import FormErrors
from .httputil import ApiError, json_response, no_content
from .models import EPHEMERAL, LOADING, Channel, Guild, Message, ShownModal, User
from .rest import RestMixin, refuse_empty

JSON = dict[str, Any]

INTERACTION_PING = 1
INTERACTION_COMMAND = 2
INTERACTION_COMPONENT = 3
INTERACTION_AUTOCOMPLETE = 4
INTERACTION_MODAL_SUBMIT = 5

RESPONSE_PONG = 1
RESPONSE_MESSAGE = 4
RESPONSE_DEFERRED_MESSAGE = 5
RESPONSE_DEFERRED_UPDATE = 6
RESPONSE_UPDATE = 7
RESPONSE_AUTOCOMPLETE = 8
RESPONSE_MODAL = 9


#: Callback types each interaction type accepts (receiving-and-responding.mdx, callback types).
_CALLBACKS_FOR: dict[int, set[int]] = {
    INTERACTION_PING: {RESPONSE_PONG},
    INTERACTION_COMMAND: {RESPONSE_MESSAGE, RESPONSE_DEFERRED_MESSAGE, RESPONSE_MODAL},
    INTERACTION_COMPONENT: {
        RESPONSE_MESSAGE,
        RESPONSE_DEFERRED_MESSAGE,
        RESPONSE_DEFERRED_UPDATE,
        RESPONSE_UPDATE,
        RESPONSE_MODAL,
    },
    INTERACTION_AUTOCOMPLETE: {RESPONSE_AUTOCOMPLETE},
    INTERACTION_MODAL_SUBMIT: {RESPONSE_MESSAGE, RESPONSE_DEFERRED_MESSAGE},
}

#: Option type -> (value types, Discord's error code and message) for autocomplete choices.
_CHOICE_VALUE_TYPES: dict[int, tuple[tuple[type, ...], str, str]] = {
    3: ((str,), "BASE_TYPE_STRING", "Could not interpret \"{value}\" as string."),
    4: ((int,), "NUMBER_TYPE_COERCE", "Value \"{value}\" is not int."),
    10: ((int, float), "NUMBER_TYPE_COERCE", "Value \"{value}\" is not a valid number."),
}

#: How long an interaction token works for followups and edits (Discord: 15 minutes).
TOKEN_LIFETIME = 15 * 60.0


@dataclass(eq=False)
class PendingInteraction:
    """An interaction the fake dispatched, and everything the bot did with its token."""

    id: int
    token: str
    type: int
    user: User
    channel: Channel
    guild: Guild | None
    description: str
    message: Message | None = None
    dispatched_at: float = field(default_factory=time.monotonic)
    acked_at: float | None = None
    response_type: int | None = None
    original: Message | None = None
    followups: list[Message] = field(default_factory=list)
    choices: list[JSON] | None = None
    modal: ShownModal | None = None
    #: for autocomplete: the type of the option being typed into (its choices' value type)
    focused_type: int | None = None
    #: Bumped on every followup / @original edit after the callback (used by waiters).
    touches: int = 0


class InteractionsMixin(RestMixin):
    """Callback + webhook routes; the pending-interaction registry."""

    interactions: dict[int, PendingInteraction]
    _by_token: dict[str, PendingInteraction]
    ack_latencies: list[float]
    late_acks: list[PendingInteraction]
    ack_deadline: float | None
    token_lifetime: float
    tokens_expired_before: float

    def _interaction_routes(self) -> list[tuple[str, str, Any]]:
        hook = r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)"
        return [
            ("POST", r"/interactions/(?P<iid>\d+)/(?P<token>[^/]+)/callback", self._callback),
            ("POST", hook, self._followup),
            ("GET", hook + r"/messages/(?P<mid>@original|\d+)", self._get_hook_message),
            ("PATCH", hook + r"/messages/(?P<mid>@original|\d+)", self._edit_hook_message),
            ("DELETE", hook + r"/messages/(?P<mid>@original|\d+)", self._delete_hook_message),
        ]

    # -- callback ------------------------------------------------------------------------
    async def _callback(
        self, request: web.Request, m: re.Match[str], body: Any, files: list[JSON]
    ) -> web.Response:
        pending = self.interactions.get(int(m["iid"]))
        if pending is None or pending.token != m["token"]:
            raise ApiError(404, 10062, "Unknown interaction")
        now = time.monotonic()
        latency = now - pending.dispatched_at
        if (
            self.ack_deadline is not None
            and latency > self.ack_deadline
            and pending.response_type is None
        ):
            self.late_acks.append(pending)
            raise ApiError(404, 10062, "Unknown interaction")
        if pending.response_type is not None:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        body = body or {}
        rtype = int(body.get("type", 0))
        data: JSON = body.get("data") or {}
        resource: JSON | None = None
        self._check_callback_fits(pending, rtype)

        if rtype == RESPONSE_MESSAGE:
            refuse_empty(data, files)
        elif rtype == RESPONSE_AUTOCOMPLETE:
            self._check_choice_types(pending, data.get("choices"))
        if rtype in (RESPONSE_MESSAGE, RESPONSE_DEFERRED_MESSAGE):
            message = self._interaction_message(
                pending, data, files, deferred=rtype == RESPONSE_DEFERRED_MESSAGE
            )
            pending.original = message
            resource = {"type": rtype, "message": message.payload()}
        elif rtype in (RESPONSE_DEFERRED_UPDATE, RESPONSE_UPDATE):
            assert pending.message is not None
            pending.original = pending.message
            if rtype == RESPONSE_UPDATE:
                pending.message.apply_edit(data, self.new_attachments(data, files, created=False))
                self._broadcast_message("MESSAGE_UPDATE", pending.message)
                resource = {"type": rtype, "message": pending.message.payload()}
        elif rtype == RESPONSE_AUTOCOMPLETE:
            pending.choices = list(data.get("choices") or [])
            self._shown_choices.setdefault(pending.user.id, []).append(pending.choices)
        elif rtype == RESPONSE_MODAL:
            pending.modal = ShownModal(
                user=pending.user,
                custom_id=str(data.get("custom_id")),
                title=str(data.get("title", "")),
                components=list(data.get("components") or []),
                source_interaction_id=pending.id,
                source_message=pending.message,
            )
            self._shown_modals.append(pending.modal)

        pending.response_type = rtype
        pending.acked_at = now
        self.ack_latencies.append(latency)
        original = pending.original
        interaction: JSON = {
            "id": str(pending.id),
            "type": pending.type,
            "response_message_id": str(original.id) if original is not None else None,
            "response_message_loading": rtype == RESPONSE_DEFERRED_MESSAGE,
            "response_message_ephemeral": bool(original is not None and original.ephemeral),
        }
        if original is None:
            interaction.pop("response_message_id")
        reply: JSON = {"interaction": interaction}
        if resource is not None:
            reply["resource"] = resource
        return json_response(reply)

    @staticmethod
    def _check_callback_fits(pending: PendingInteraction, rtype: int) -> None:
        """Refuse a callback type the interaction's type does not allow (the docs' table of
        callback types: 6 and 7 only for component-based interactions, i.e. a click or a
        form opened from a message; 8 only for autocomplete; 9 not for a form's submit; an
        autocomplete interaction takes nothing but 8; PONG only for a PING)."""
        allowed = _CALLBACKS_FOR.get(pending.type, set())
        if pending.type == INTERACTION_MODAL_SUBMIT and pending.message is not None:
            allowed = allowed | {RESPONSE_DEFERRED_UPDATE, RESPONSE_UPDATE}
        if rtype not in allowed:
            errors = FormErrors()
            errors.add(
                ["type"],
                "INTERACTION_CALLBACK_TYPE_INVALID",
                f"Callback type {rtype} is not valid for interaction type {pending.type}",
            )
            errors.raise_if_any()

    @staticmethod
    def _check_choice_types(pending: PendingInteraction, choices: Any) -> None:
        """An autocomplete choice's value has the type of the option being typed into
        (application-commands.mdx, Option Choice Structure: "Type of value depends on the
        option type"): a string for a string option, an integer for an integer option, a
        number for a number option; else Invalid Form Body at that value."""
        wanted = _CHOICE_VALUE_TYPES.get(pending.focused_type or 0)
        if wanted is None or not isinstance(choices, list):
            return
        errors = FormErrors()
        for i, choice in enumerate(choices):
            value = choice.get("value") if isinstance(choice, dict) else None
            if not isinstance(value, wanted[0]) or isinstance(value, bool):
                errors.add(["data", "choices", i, "value"], wanted[1], wanted[2].format(
                    value=str(value)[:50]))
        errors.raise_if_any()

    def _interaction_message(
        self, pending: PendingInteraction, data: JSON, files: list[JSON], *, deferred: bool
    ) -> Message:
        ephemeral = bool(int(data.get("flags") or 0) & EPHEMERAL)
        message = self.new_message(
            pending.channel,
            self.bot_user,
            {} if deferred else data,
            [] if deferred else files,
            webhook_id=self.application_id,
            application_id=self.application_id,
            interaction_id=pending.id,
            ephemeral_for=pending.user if ephemeral else None,
            interaction_metadata=self._metadata(pending),
        )
        message.flags = (EPHEMERAL if ephemeral else 0) | (
            LOADING if deferred else message.flags & ~EPHEMERAL
        )
        return self._store_message(message)

    def _metadata(self, pending: PendingInteraction) -> JSON:
        owners = {"0": str(pending.guild.id)} if pending.guild else {"0": "0"}
        data: JSON = {
            "id": str(pending.id),
            "type": pending.type,
            "user": pending.user.payload(),
            "authorizing_integration_owners": owners,
        }
        if pending.original is not None:
            data["original_response_message_id"] = str(pending.original.id)
        if pending.message is not None:
            data["interacted_message_id"] = str(pending.message.id)
        return data

    # -- webhooks (followups, @original) ------------------------------------------------
    def expire_tokens(self) -> None:
        """Every interaction token issued so far is past its 15 minutes from now on (as
        after a long pause in a game); tokens of later interactions work as usual."""
        self.tokens_expired_before = time.monotonic()

    def _hook_interaction(self, m: re.Match[str]) -> PendingInteraction:
        pending = self._by_token.get(m["token"])
        if pending is None or int(m["app"]) != self.application_id or pending.response_type is None:
            raise ApiError(404, 10015, "Unknown Webhook")
        if (time.monotonic() - pending.dispatched_at > self.token_lifetime
                or pending.dispatched_at <= self.tokens_expired_before):
            # receiving-and-responding.mdx: tokens are valid for 15 minutes; Discord then
            # answers 401 / 50027 "Invalid Webhook Token".
            raise ApiError(401, 50027, "Invalid Webhook Token")
        return pending

    def _hook_message(self, pending: PendingInteraction, mid: str) -> Message:
        if mid == "@original":
            message = pending.original
        else:
            message = next(
                (x for x in [pending.original, *pending.followups] if x and x.id == int(mid)), None
            )
        if message is None or message.deleted:
            raise ApiError(404, 10008, "Unknown Message")
        return message

    async def _followup(
        self, request: web.Request, m: re.Match[str], body: Any, files: list[JSON]
    ) -> web.StreamResponse:
        pending = self._hook_interaction(m)
        body = body or {}
        refuse_empty(body, files)
        original = pending.original
        if (
            pending.response_type == RESPONSE_DEFERRED_MESSAGE
            and original is not None
            and original.loading
        ):
            original.attachments = []
            original.apply_edit({**body, "flags": None},
                                self.new_attachments(body, files, created=True))
            original.flags &= ~LOADING
            self._broadcast_message("MESSAGE_UPDATE", original)
            message = original
        else:
            ephemeral = bool(int(body.get("flags") or 0) & EPHEMERAL)
            if not ephemeral:
                self._check_hook_channel(pending.channel, edit=False)
            message = self.new_message(
                pending.channel,
                self.bot_user,
                body,
                files,
                webhook_id=self.application_id,
                application_id=self.application_id,
                interaction_id=pending.id,
                ephemeral_for=pending.user if ephemeral else None,
                interaction_metadata=self._metadata(pending),
            )
            message.flags = (message.flags & ~EPHEMERAL) | (EPHEMERAL if ephemeral else 0)
            if original is not None:
                # A followup is shown as a reply to the interaction's original response: the
                # clicked message for a click answered by an update, else the reply. Clients
                # draw the reply header above it ("could not be loaded" when the original is
                # an ephemeral only its user saw; discord/discord-api-docs#2733).
                message.type = 19
                message.message_reference = {
                    "type": 0, "message_id": str(original.id),
                    "channel_id": str(pending.channel.id),
                    **({"guild_id": str(pending.guild.id)} if pending.guild else {})}
            self._store_message(message)
            pending.followups.append(message)
        pending.touches += 1
        if request.query.get("wait") in ("1", "true", "True"):
            return json_response(message.payload())
        return no_content()

    def _check_hook_channel(self, channel: Channel, *, edit: bool) -> None:
        """A public message by token goes where the interaction was: a deleted channel or
        thread takes none (404 / 10003), a thread only what it takes from the bot
        (RestMixin._check_thread_writable: archived, locked)."""
        if channel.id not in self.channels:
            raise ApiError(404, 10003, "Unknown Channel")
        if channel.is_thread:
            self._check_thread_writable(channel, edit=edit)

    async def _get_hook_message(
        self, request: web.Request, m: re.Match[str], body: Any, files: list[JSON]
    ) -> web.Response:
        pending = self._hook_interaction(m)
        return json_response(self._hook_message(pending, m["mid"]).payload())

    async def _edit_hook_message(
        self, request: web.Request, m: re.Match[str], body: Any, files: list[JSON]
    ) -> web.Response:
        pending = self._hook_interaction(m)
        message = self._hook_message(pending, m["mid"])
        if message.ephemeral_for is None:
            self._check_hook_channel(pending.channel, edit=True)
        message.apply_edit(body or {}, self.new_attachments(body, files, created=False))
        message.flags &= ~LOADING
        pending.touches += 1
        self._broadcast_message("MESSAGE_UPDATE", message)
        return json_response(message.payload())

    async def _delete_hook_message(
        self, request: web.Request, m: re.Match[str], body: Any, files: list[JSON]
    ) -> web.Response:
        pending = self._hook_interaction(m)
        message = self._hook_message(pending, m["mid"])
        message.deleted = True
        pending.touches += 1
        self._broadcast_message("MESSAGE_DELETE", message)
        return no_content()
