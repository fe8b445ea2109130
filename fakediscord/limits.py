"""Discord's documented limits that its OpenAPI schema does not encode.

Every number here is from Discord's developer documentation (which wins over the spec;
``../shared/discord-api-docs/``): message content 2000 (the spec says 4000, the docs 2000:
resources/message.mdx "Create Message"), embed limits (resources/message.mdx "Embed Limits"),
component layout (components/reference.mdx), modals and autocomplete
(interactions/receiving-and-responding.mdx), command registration
(interactions/application-commands.mdx).

Lengths are counted in Unicode code points. The docs say "characters" without more; JSON
Schema's ``maxLength`` (which the spec uses for the same fields) counts code points, and so
does Python's ``len``: one emoji such as 🎴 is one character, a flag or a skin-toned emoji
(several code points) counts as several. Embed limits ignore leading and trailing whitespace,
as the docs say ("they are trimmed automatically").

Component emoji must be a fully-qualified Unicode emoji as listed by Unicode's
emoji-test.txt (via the ``emoji`` package), or a custom emoji (by id) the fake knows.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable
from typing import Any

import emoji as emoji_data

from .formerrors import FormErrors, Path
from .models import (
    EPHEMERAL,
    IS_COMPONENTS_V2,
    IS_VOICE_MESSAGE,
    SUPPRESS_EMBEDS,
    SUPPRESS_NOTIFICATIONS,
)

JSON = dict[str, Any]

CONTENT_MAX = 2000
EMBEDS_MAX = 10
EMBED_TOTAL_MAX = 6000
#: (key in the embed, key inside it or None, limit)
EMBED_TEXT_LIMITS: list[tuple[str, str | None, int]] = [
    ("title", None, 256),
    ("description", None, 4096),
    ("footer", "text", 2048),
    ("author", "name", 256),
]
EMBED_FIELDS_MAX = 25
FIELD_NAME_MAX = 256
FIELD_VALUE_MAX = 1024
ACTION_ROWS_MAX = 5
BUTTONS_PER_ROW_MAX = 5
SELECT_OPTIONS_MIN, SELECT_OPTIONS_MAX = 1, 25
OPTION_TEXT_MAX = 100  # select option label, value, description
PLACEHOLDER_MAX = 150
BUTTON_LABEL_MAX = 80
CUSTOM_ID_MIN, CUSTOM_ID_MAX = 1, 100
MODAL_TITLE_MAX = 45
MODAL_ROWS_MIN, MODAL_ROWS_MAX = 1, 5
TEXT_INPUT_LABEL_MAX = 45
TEXT_INPUT_VALUE_MAX = 4000
TEXT_INPUT_PLACEHOLDER_MAX = 100
AUTOCOMPLETE_CHOICES_MAX = 25
CHOICE_NAME_MIN, CHOICE_NAME_MAX = 1, 100
CHOICE_VALUE_MAX = 100
COMMAND_NAME_MIN, COMMAND_NAME_MAX = 1, 32
COMMAND_DESCRIPTION_MIN, COMMAND_DESCRIPTION_MAX = 1, 100
COMMAND_OPTIONS_MAX = 25
COMMAND_CHOICES_MAX = 25
COMMAND_SIZE_MAX = 8000
#: application-commands.mdx, Registering a Command: per scope (global, or one guild)
COMMANDS_PER_TYPE_MAX = {1: 100, 2: 15, 3: 15, 4: 1}
#: option types that take `choices` and `autocomplete` (the option structure's "Valid Types")
CHOICE_OPTION_TYPES = {3, 4, 10}

BUTTON = 2
SELECT_TYPES = {3, 5, 6, 7, 8}
TEXT_INPUT = 4
ACTION_ROW = 1
LINK_STYLE, PREMIUM_STYLE = 5, 6
SUB_COMMAND, SUB_COMMAND_GROUP, STRING = 1, 2, 3
CHAT_INPUT = 1

RESPONSE_MESSAGE, RESPONSE_DEFERRED, RESPONSE_UPDATE = 4, 5, 7
RESPONSE_AUTOCOMPLETE, RESPONSE_MODAL = 8, 9

# Message flags a request may set (message.mdx "Message Flags"; which ones each endpoint
# takes: Create Message's `flags`, Execute Webhook's `flags` with Create Followup Message's
# EPHEMERAL, and the callback's "Messages" data, where a deferral takes EPHEMERAL alone).
CREATE_FLAGS = SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | IS_VOICE_MESSAGE | IS_COMPONENTS_V2
FOLLOWUP_FLAGS = SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | IS_COMPONENTS_V2 | EPHEMERAL
CALLBACK_FLAGS = CREATE_FLAGS | EPHEMERAL
DEFERRED_FLAGS = EPHEMERAL

MESSAGE_ROUTES = {
    "POST /channels/{channel_id}/messages",
    "PATCH /channels/{channel_id}/messages/{message_id}",
    "POST /webhooks/{webhook_id}/{webhook_token}",
    "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original",
    "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
}
CALLBACK_ROUTE = "POST /interactions/{interaction_id}/{interaction_token}/callback"
CREATE_ROUTE = "POST /channels/{channel_id}/messages"
FOLLOWUP_ROUTE = "POST /webhooks/{webhook_id}/{webhook_token}"
#: The flags each message-creating route takes; edits may change only SUPPRESS_EMBEDS (and
#: set IS_COMPONENTS_V2), "unsupported flag changes are currently ignored without error"
#: (message.mdx, Edit Message): no entry, nothing refused (models.Message.apply_edit).
SETTABLE_FLAGS = {CREATE_ROUTE: CREATE_FLAGS, FOLLOWUP_ROUTE: FOLLOWUP_FLAGS}
COMMAND_LIST_ROUTES = {
    "PUT /applications/{application_id}/commands",
    "PUT /applications/{application_id}/guilds/{guild_id}/commands",
}
COMMAND_ROUTES = {
    "POST /applications/{application_id}/commands",
    "POST /applications/{application_id}/guilds/{guild_id}/commands",
}

KnownEmoji = Callable[[str], bool]


def check_body(route: str, body: Any, errors: FormErrors, known_emoji: KnownEmoji) -> None:
    """Add an error for every documented limit ``body`` breaks on ``route``."""
    if route in MESSAGE_ROUTES and isinstance(body, dict):
        check_message(body, (), errors, known_emoji)
        if route in SETTABLE_FLAGS:
            check_flags(body.get("flags"), ("flags",), errors, SETTABLE_FLAGS[route])
    elif route == CALLBACK_ROUTE and isinstance(body, dict):
        data = body.get("data")
        if not isinstance(data, dict):
            return
        rtype = body.get("type")
        if rtype in (RESPONSE_MESSAGE, RESPONSE_UPDATE):
            check_message(data, ("data",), errors, known_emoji)
            check_flags(data.get("flags"), ("data", "flags"), errors, CALLBACK_FLAGS)
        elif rtype == RESPONSE_DEFERRED:
            check_flags(data.get("flags"), ("data", "flags"), errors, DEFERRED_FLAGS)
        elif rtype == RESPONSE_MODAL:
            check_modal(data, ("data",), errors)
        elif rtype == RESPONSE_AUTOCOMPLETE:
            check_choices(data.get("choices"), ("data", "choices"), errors, AUTOCOMPLETE_CHOICES_MAX)
    elif route in COMMAND_LIST_ROUTES and isinstance(body, list):
        for i, command in enumerate(body):
            if isinstance(command, dict):
                check_command(command, (i,), errors)
        _check_command_counts(body, errors)
        _check_unique(
            [(c.get("name"), c.get("type", CHAT_INPUT)) for c in body if isinstance(c, dict)],
            [(i, "name") for i in range(len(body))],
            errors,
            "APPLICATION_COMMANDS_DUPLICATE_NAME",
            "Application command names must be unique",
        )
    elif route in COMMAND_ROUTES and isinstance(body, dict):
        check_command(body, (), errors)


# -- lengths ---------------------------------------------------------------------------------
def _too_long(errors: FormErrors, path: Path, value: Any, limit: int) -> None:
    if isinstance(value, str) and len(value) > limit:
        errors.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def _bad_length(errors: FormErrors, path: Path, value: Any, low: int, high: int) -> None:
    if isinstance(value, str) and not low <= len(value) <= high:
        errors.add(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")


def _too_many(errors: FormErrors, path: Path, items: Any, limit: int) -> None:
    if isinstance(items, list) and len(items) > limit:
        errors.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def _check_unique(
    values: list[Any], paths: list[Path], errors: FormErrors, code: str, message: str
) -> None:
    seen: set[Any] = set()
    for value, path in zip(values, paths, strict=False):
        if value is None:
            continue
        if value in seen:
            errors.add(path, code, message)
        seen.add(value)


def check_flags(flags: Any, at: Path, errors: FormErrors, allowed: int) -> None:
    """Only the documented flags may be set where a message is created (see SETTABLE_FLAGS).
    The docs give no error code for the others; the fake answers Invalid Form Body naming
    `flags`, as Discord reports a field it cannot take (stricter than Discord if Discord
    only drops them, which costs a bot nothing: such a flag would do nothing)."""
    if isinstance(flags, int) and not isinstance(flags, bool) and flags & ~allowed:
        names = ", ".join(str(1 << bit) for bit in range(flags.bit_length())
                          if flags & ~allowed & (1 << bit))
        errors.add(at, "MESSAGE_FLAGS_INVALID",
                   f"These message flags cannot be set here: {names}.")


# -- messages ----------------------------------------------------------------------------------
def check_message(body: JSON, at: Path, errors: FormErrors, known_emoji: KnownEmoji) -> None:
    """Content, embeds and (legacy) components of a message create/edit body."""
    _too_long(errors, (*at, "content"), body.get("content"), CONTENT_MAX)
    _check_allowed_mentions(body.get("allowed_mentions"), (*at, "allowed_mentions"), errors)
    embeds = body.get("embeds")
    if isinstance(embeds, list):
        check_embeds(embeds, (*at, "embeds"), errors)
    components = body.get("components")
    flags = body.get("flags") if isinstance(body.get("flags"), int) else 0
    if isinstance(components, list):
        check_components(components, (*at, "components"), errors, known_emoji, v2=bool(flags & IS_COMPONENTS_V2))
    if flags & IS_COMPONENTS_V2:
        # message.mdx, Create Message and Edit Message; webhook.mdx, Execute Webhook: with
        # IS_COMPONENTS_V2 a message holds components only ("will fail with a 400")
        for key in ("content", "embeds", "sticker_ids", "poll"):
            if body.get(key):
                errors.add((*at, key), "MESSAGE_COMPONENTS_V2_ONLY",
                           "A message with IS_COMPONENTS_V2 can only contain components.")


def _check_allowed_mentions(mentions: Any, at: Path, errors: FormErrors) -> None:
    """A mention type is either parsed from the content (`parse`) or listed by id (`users`,
    `roles`), never both: Discord refuses the pair (message.mdx, Allowed Mentions; the
    error Discord sends is MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE)."""
    if not isinstance(mentions, dict) or not isinstance(mentions.get("parse"), list):
        return
    for kind in ("users", "roles"):
        if kind in mentions["parse"] and mentions.get(kind):
            errors.add(at, "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                       f'parse:["{kind}"] and {kind}: [ids] are mutually exclusive.')


def _embed_text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


def check_embeds(embeds: list[Any], at: Path, errors: FormErrors) -> None:
    _too_many(errors, at, embeds, EMBEDS_MAX)
    total = 0
    for i, embed in enumerate(embeds):
        if not isinstance(embed, dict):
            continue
        _check_embed_parts(embed, (*at, i), errors)
        for key, inner, limit in EMBED_TEXT_LIMITS:
            part = embed.get(key)
            text = _embed_text(part.get(inner) if inner and isinstance(part, dict) else part)
            path = (*at, i, key, inner) if inner else (*at, i, key)
            _too_long(errors, path, text, limit)
            total += len(text)
        fields = embed.get("fields")
        if isinstance(fields, list):
            _too_many(errors, (*at, i, "fields"), fields, EMBED_FIELDS_MAX)
            for j, field in enumerate(fields):
                if not isinstance(field, dict):
                    continue
                name, value = _embed_text(field.get("name")), _embed_text(field.get("value"))
                for key, text in (("name", name), ("value", value)):
                    if not text:  # Discord trims it first: blank is missing
                        errors.add((*at, i, "fields", j, key), "BASE_TYPE_REQUIRED",
                                   "This field is required")
                _too_long(errors, (*at, i, "fields", j, "name"), name, FIELD_NAME_MAX)
                _too_long(errors, (*at, i, "fields", j, "value"), value, FIELD_VALUE_MAX)
                total += len(name) + len(value)
    if total > EMBED_TOTAL_MAX:
        errors.add(at, "MAX_EMBED_SIZE_EXCEEDED", f"Embed size exceeds maximum size of {EMBED_TOTAL_MAX}")


#: (part, key, schemes) of every embed URL the docs restrict (message.mdx, Embed Structure:
#: "only supports http(s) and attachments", the author's own url "only supports http(s)")
EMBED_URLS: list[tuple[str, str, tuple[str, ...]]] = [
    ("image", "url", ("http", "https", "attachment")),
    ("thumbnail", "url", ("http", "https", "attachment")),
    ("author", "icon_url", ("http", "https", "attachment")),
    ("author", "url", ("http", "https")),
    ("footer", "icon_url", ("http", "https", "attachment")),
]
#: the field an embed's author and footer cannot go without (message.mdx: not optional)
EMBED_REQUIRED = {"author": "name", "footer": "text"}


def _check_embed_parts(embed: JSON, at: Path, errors: FormErrors) -> None:
    """An author needs its name and a footer its text (blank counts as missing: Discord
    trims embed text); the URLs of images and icons use a scheme the docs allow."""
    for part, key in EMBED_REQUIRED.items():
        value = embed.get(part)
        if isinstance(value, dict) and not _embed_text(value.get(key)):
            errors.add((*at, part, key), "BASE_TYPE_REQUIRED", "This field is required")
    for part, key, schemes in EMBED_URLS:
        value = embed.get(part)
        url = value.get(key) if isinstance(value, dict) else None
        if not isinstance(url, str):
            continue
        scheme = url.split(":", 1)[0].lower() if ":" in url else ""
        if scheme not in schemes:
            allowed = ", ".join(repr(s) for s in schemes)
            errors.add((*at, part, key), "URL_TYPE_INVALID_SCHEME",
                       f'Scheme "{scheme}" is not supported. Scheme must be one of ({allowed}).')


def is_unicode_emoji(name: str) -> bool:
    """True for a fully-qualified emoji from Unicode's list (what Discord's pickers offer)."""
    data = emoji_data.EMOJI_DATA.get(name)
    return data is not None and data.get("status") == emoji_data.STATUS["fully_qualified"]


def _check_emoji(value: Any, at: Path, errors: FormErrors, known_emoji: KnownEmoji, code: str) -> None:
    if not isinstance(value, dict):
        return
    ident = value.get("id")
    if ident is not None:
        if not known_emoji(str(ident)):
            errors.add((*at, "id"), code, "Invalid emoji")
        return
    name = value.get("name")
    if not isinstance(name, str) or not is_unicode_emoji(name):
        errors.add((*at, "name"), code, "Invalid emoji")


def check_components(
    rows: list[Any], at: Path, errors: FormErrors, known_emoji: KnownEmoji, *, v2: bool = False
) -> None:
    """Legacy message components: up to 5 action rows of up to 5 buttons or one select."""
    if not v2:
        _too_many(errors, at, rows, ACTION_ROWS_MAX)
    custom_ids: list[Any] = []
    id_paths: list[Path] = []
    for i, row in enumerate(rows):
        if not isinstance(row, dict):
            continue
        if not v2 and row.get("type") != ACTION_ROW:
            errors.add((*at, i, "type"), "COMPONENT_TYPE_INVALID", "Top-level components must be action rows")
            continue
        children = row.get("components")
        if not isinstance(children, list):
            continue
        _too_many(errors, (*at, i, "components"), children, BUTTONS_PER_ROW_MAX)
        if len(children) > 1 and any(isinstance(c, dict) and c.get("type") in SELECT_TYPES for c in children):
            errors.add(
                (*at, i, "components"),
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "The specified component exceeds the maximum width",
            )
        for j, child in enumerate(children):
            if not isinstance(child, dict):
                continue
            path = (*at, i, "components", j)
            if child.get("type") == BUTTON:
                _check_button(child, path, errors, known_emoji)
            elif child.get("type") in SELECT_TYPES:
                _check_select(child, path, errors, known_emoji)
            if "custom_id" in child:
                _bad_length(errors, (*path, "custom_id"), child["custom_id"], CUSTOM_ID_MIN, CUSTOM_ID_MAX)
                custom_ids.append(child["custom_id"])
                id_paths.append((*path, "custom_id"))
    _check_unique(
        custom_ids, id_paths, errors, "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated"
    )


def _check_button(button: JSON, at: Path, errors: FormErrors, known_emoji: KnownEmoji) -> None:
    _too_long(errors, (*at, "label"), button.get("label"), BUTTON_LABEL_MAX)
    style = button.get("style")
    if style == LINK_STYLE:
        if not button.get("url"):
            errors.add((*at, "url"), "BASE_TYPE_REQUIRED", "This field is required")
        if button.get("custom_id") is not None:
            errors.add((*at, "custom_id"), "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED", "A link button cannot have a custom id")
    elif style != PREMIUM_STYLE:
        if button.get("custom_id") is None:
            errors.add((*at, "custom_id"), "BASE_TYPE_REQUIRED", "This field is required")
        if button.get("url") is not None:
            errors.add((*at, "url"), "BUTTON_COMPONENT_URL_NOT_ALLOWED", "Only link buttons can have a url")
    if button.get("emoji") is not None:
        _check_emoji(button["emoji"], (*at, "emoji"), errors, known_emoji, "BUTTON_COMPONENT_INVALID_EMOJI")


def _check_select(select: JSON, at: Path, errors: FormErrors, known_emoji: KnownEmoji) -> None:
    _too_long(errors, (*at, "placeholder"), select.get("placeholder"), PLACEHOLDER_MAX)
    options = select.get("options")
    if select.get("type") != 3 or not isinstance(options, list):
        return
    if not SELECT_OPTIONS_MIN <= len(options) <= SELECT_OPTIONS_MAX:
        errors.add(
            (*at, "options"),
            "BASE_TYPE_BAD_LENGTH",
            f"Must be between {SELECT_OPTIONS_MIN} and {SELECT_OPTIONS_MAX} in length.",
        )
    for k, option in enumerate(options):
        if not isinstance(option, dict):
            continue
        for key in ("label", "value", "description"):
            _too_long(errors, (*at, "options", k, key), option.get(key), OPTION_TEXT_MAX)
        if option.get("emoji") is not None:
            _check_emoji(
                option["emoji"], (*at, "options", k, "emoji"), errors, known_emoji, "SELECT_COMPONENT_OPTION_INVALID_EMOJI"
            )
    _check_unique(
        [o.get("value") for o in options if isinstance(o, dict)],
        [(*at, "options", k, "value") for k in range(len(options))],
        errors,
        "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
        "Select option values must be unique",
    )
    max_values = select.get("max_values")
    if isinstance(max_values, int) and max_values > len(options):
        errors.add(
            (*at, "max_values"),
            "SELECT_COMPONENT_MAX_VALUES_TOO_HIGH",
            f"max_values must be less than or equal to the number of options ({len(options)})",
        )


# -- modals and autocomplete --------------------------------------------------------------------
def check_modal(data: JSON, at: Path, errors: FormErrors) -> None:
    """Modal title and its rows: 1–5 rows, each an action row with one text input."""
    _bad_length(errors, (*at, "title"), data.get("title"), 1, MODAL_TITLE_MAX)
    rows = data.get("components")
    if not isinstance(rows, list):
        return
    if not MODAL_ROWS_MIN <= len(rows) <= MODAL_ROWS_MAX:
        errors.add(
            (*at, "components"),
            "BASE_TYPE_BAD_LENGTH",
            f"Must be between {MODAL_ROWS_MIN} and {MODAL_ROWS_MAX} in length.",
        )
    custom_ids: list[Any] = []
    id_paths: list[Path] = []
    for i, row in enumerate(rows):
        if not isinstance(row, dict) or row.get("type") != ACTION_ROW:
            continue  # labels and text displays are checked by the schema
        children = row.get("components")
        if not isinstance(children, list):
            continue
        if len(children) != 1 or not isinstance(children[0], dict) or children[0].get("type") != TEXT_INPUT:
            errors.add(
                (*at, "components", i, "components"),
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "A modal action row holds exactly one text input",
            )
            continue
        text_input = children[0]
        path = (*at, "components", i, "components", 0)
        _too_long(errors, (*path, "label"), text_input.get("label"), TEXT_INPUT_LABEL_MAX)
        _too_long(errors, (*path, "value"), text_input.get("value"), TEXT_INPUT_VALUE_MAX)
        _too_long(errors, (*path, "placeholder"), text_input.get("placeholder"), TEXT_INPUT_PLACEHOLDER_MAX)
        low, high = text_input.get("min_length"), text_input.get("max_length")
        if isinstance(low, int) and isinstance(high, int) and low > high:
            errors.add((*path, "min_length"), "TEXT_INPUT_LENGTH_INVALID", "min_length must not exceed max_length")
        custom_ids.append(text_input.get("custom_id"))
        id_paths.append((*path, "custom_id"))
    _check_unique(
        custom_ids, id_paths, errors, "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated"
    )


def check_choices(choices: Any, at: Path, errors: FormErrors, limit: int) -> None:
    """Command-option or autocomplete choices: how many, name 1–100, string value ≤ 100."""
    if not isinstance(choices, list):
        return
    _too_many(errors, at, choices, limit)
    for i, choice in enumerate(choices):
        if not isinstance(choice, dict):
            continue
        _bad_length(errors, (*at, i, "name"), choice.get("name"), CHOICE_NAME_MIN, CHOICE_NAME_MAX)
        _too_long(errors, (*at, i, "value"), choice.get("value"), CHOICE_VALUE_MAX)


# -- application commands -----------------------------------------------------------------------
def is_valid_command_name(name: str) -> bool:
    """``^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``, lowercase where a lowercase exists."""
    if not COMMAND_NAME_MIN <= len(name) <= COMMAND_NAME_MAX:
        return False
    for ch in name:
        allowed = (
            ch in "-_'"
            or unicodedata.category(ch)[0] in "LN"
            or "\u0900" <= ch <= "\u097f"  # Devanagari
            or "\u0e00" <= ch <= "\u0e7f"  # Thai
        )
        if not allowed or ch.lower() != ch:
            return False
    return True


def _longest(text: Any, localizations: Any) -> int:
    """A text's size toward the 8000 limit: the longest of it and its localizations."""
    sizes = [len(text)] if isinstance(text, str) else [0]
    if isinstance(localizations, dict):
        sizes += [len(v) for v in localizations.values() if isinstance(v, str)]
    return max(sizes)


def command_size(node: JSON) -> int:
    """Characters counted toward the 8000 limit: names, descriptions, choice names/values."""
    size = _longest(node.get("name"), node.get("name_localizations"))
    size += _longest(node.get("description"), node.get("description_localizations"))
    for choice in node.get("choices") or []:
        if isinstance(choice, dict):
            size += _longest(choice.get("name"), choice.get("name_localizations"))
            size += len(str(choice.get("value", "")))
    for option in node.get("options") or []:
        if isinstance(option, dict):
            size += command_size(option)
    return size


def _check_command_counts(commands: list[Any], errors: FormErrors) -> None:
    """At most 100 slash commands (15 user, 15 message, 1 entry point) in one scope."""
    for ctype, limit in COMMANDS_PER_TYPE_MAX.items():
        count = sum(1 for c in commands if isinstance(c, dict) and c.get("type", CHAT_INPUT) == ctype)
        if count > limit:
            errors.add((), "APPLICATION_COMMANDS_MAX_REACHED",
                       f"Maximum number of application commands of type {ctype} reached ({limit})")


def check_command(command: JSON, at: Path, errors: FormErrors) -> None:
    """Names, descriptions, options (≤ 25, required first, unique names) and total size."""
    chat_input = command.get("type", CHAT_INPUT) in (CHAT_INPUT, None)
    name = command.get("name")
    if chat_input and isinstance(name, str) and not is_valid_command_name(name):
        errors.add((*at, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
    if not chat_input and command.get("options"):
        # application-commands.mdx: "`options` can only be set for ... `CHAT_INPUT`"
        errors.add((*at, "options"), "APPLICATION_COMMAND_OPTIONS_INVALID",
                   "Only slash commands can have options")
    if chat_input:
        _bad_length(
            errors, (*at, "description"), command.get("description") or "", COMMAND_DESCRIPTION_MIN, COMMAND_DESCRIPTION_MAX
        )
        _check_options(command.get("options"), (*at, "options"), errors)
        if command_size(command) > COMMAND_SIZE_MAX:
            errors.add(at, "APPLICATION_COMMAND_TOO_LARGE", f"Command exceeds maximum size ({COMMAND_SIZE_MAX})")


def _check_options(options: Any, at: Path, errors: FormErrors) -> None:
    if not isinstance(options, list):
        return
    _too_many(errors, at, options, COMMAND_OPTIONS_MAX)
    seen_optional = False
    for i, option in enumerate(options):
        if not isinstance(option, dict):
            continue
        path = (*at, i)
        name = option.get("name")
        if isinstance(name, str) and not is_valid_command_name(name):
            errors.add((*path, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
        _bad_length(
            errors, (*path, "description"), option.get("description") or "", COMMAND_DESCRIPTION_MIN, COMMAND_DESCRIPTION_MAX
        )
        if option.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP):
            _check_options(option.get("options"), (*path, "options"), errors)
            continue
        if option.get("required"):
            if seen_optional:
                errors.add(
                    (*path, "required"),
                    "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                    "Required options must be placed before non-required options",
                )
        else:
            seen_optional = True
        check_choices(option.get("choices"), (*path, "choices"), errors, COMMAND_CHOICES_MAX)
        for key in ("choices", "autocomplete"):
            if option.get(key) and option.get("type") not in CHOICE_OPTION_TYPES:
                errors.add((*path, key), "APPLICATION_COMMAND_OPTION_TYPE_INVALID",
                           f"Only string, integer and number options can have {key}")
        if option.get("autocomplete") and option.get("choices"):
            errors.add(
                (*path, "autocomplete"),
                "APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_CHOICES",
                "Autocomplete cannot be set with choices",
            )
    _check_unique(
        [o.get("name") for o in options if isinstance(o, dict)],
        [(*at, i, "name") for i in range(len(options))],
        errors,
        "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS",
        "Option names must be unique",
    )


def iter_emoji(components: Iterable[JSON]) -> Iterable[JSON]:
    """Every emoji object on buttons and select options (for audits and tests)."""
    for comp in components or []:
        if isinstance(comp.get("emoji"), dict):
            yield comp["emoji"]
        for option in comp.get("options") or []:
            if isinstance(option, dict) and isinstance(option.get("emoji"), dict):
                yield option["emoji"]
        yield from iter_emoji(comp.get("components") or [])
