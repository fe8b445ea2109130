"""The fake refuses what Discord refuses: one test per documented limit (limit accepted,
limit + 1 refused with 400 / 50035 naming the field the way Discord does).

Requests are sent raw (aiohttp), so the bodies are exactly the ones under test. Interaction
callbacks are answered on interactions the fake registers itself (no bot needed).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

import aiohttp
import pytest

from fakediscord import FakeDiscord
from fakediscord.formerrors import leaf_errors
from fakediscord.interactions import (
    INTERACTION_AUTOCOMPLETE,
    INTERACTION_COMMAND,
    INTERACTION_COMPONENT,
    INTERACTION_MODAL_SUBMIT,
    PendingInteraction,
)
from fakediscord.limits import command_size
from fakediscord.models import Channel, Guild, User

JSON = dict[str, Any]


@dataclass
class Setup:
    fake: FakeDiscord
    guild: Guild
    channel: Channel
    user: User
    session: aiohttp.ClientSession

    async def send(self, method: str, path: str, body: Any) -> tuple[int, Any]:
        async with self.session.request(method, self.fake.rest_base + path, json=body) as resp:
            return resp.status, (await resp.json() if resp.status != 204 else None)

    async def message(self, body: JSON) -> tuple[int, Any]:
        return await self.send("POST", f"/channels/{self.channel.id}/messages", body)

    async def commands(self, body: list[JSON]) -> tuple[int, Any]:
        path = f"/applications/{self.fake.application_id}/guilds/{self.guild.id}/commands"
        return await self.send("PUT", path, body)

    def pending(self, itype: int, *, on_message: bool = False) -> PendingInteraction:
        """An interaction as if the fake had just dispatched it (optionally from a message)."""
        message = None
        if on_message:
            message = self.fake.new_message(self.channel, self.fake.bot_user, {"content": "m"}, [])
            self.fake._store_message(message)
        return self.fake._new_pending(
            itype, self.user, self.channel, self.guild, "test", message=message
        )

    async def answer(self, pending: PendingInteraction, body: JSON) -> tuple[int, Any]:
        return await self.send("POST", f"/interactions/{pending.id}/{pending.token}/callback", body)

    async def callback(self, body: JSON, itype: int = INTERACTION_COMMAND) -> tuple[int, Any]:
        pending = self.pending(itype, on_message=itype == INTERACTION_COMPONENT)
        return await self.answer(pending, body)


@pytest.fixture
async def setup() -> AsyncIterator[Setup]:
    # these tests check request bodies with raw requests, several a second at one route:
    # the rate limits have their own tests (test_fake_discord.py)
    fake = await FakeDiscord(rate_limits=False).start()
    guild = fake.add_guild("g")
    channel = fake.add_channel(guild, "c")
    user = fake.add_user("u")
    fake.add_member(guild, user)
    async with aiohttp.ClientSession() as session:
        yield Setup(fake, guild, channel, user, session)
    await fake.stop()


def assert_refused(answer: tuple[int, Any], path: tuple[Any, ...], code: str | None = None) -> None:
    status, body = answer
    assert status == 400, body
    assert body["code"] == 50035 and body["message"] == "Invalid Form Body"
    leaf = leaf_errors(body["errors"], path)
    assert leaf, f"no error at {path}: {body['errors']}"
    if code is not None:
        assert code in [e["code"] for e in leaf], leaf


def assert_accepted(answer: tuple[int, Any]) -> None:
    status, body = answer
    assert status in (200, 201, 204), body


# -- builders ------------------------------------------------------------------------------
def button(custom_id: str, **extra: Any) -> JSON:
    return {"type": 2, "style": 1, "label": "b", "custom_id": custom_id, **extra}


def row(*components: JSON) -> JSON:
    return {"type": 1, "components": list(components)}


def select(options: list[JSON], **extra: Any) -> JSON:
    return {"type": 3, "custom_id": "s", "options": options, **extra}


def option(value: str = "v", **extra: Any) -> JSON:
    return {"label": "l", "value": value, **extra}


def embed(**fields: Any) -> JSON:
    return {"embeds": [fields]}


def text_input(**extra: Any) -> JSON:
    return {"type": 4, "custom_id": "t", "style": 1, "label": "L", **extra}


def modal(**extra: Any) -> JSON:
    data = {"custom_id": "m", "title": "T", "components": [row(text_input())], **extra}
    return {"type": 9, "data": data}


def command(**extra: Any) -> JSON:
    return {"name": "game", "description": "d", "type": 1, **extra}


def string_option(name: str = "o", **extra: Any) -> JSON:
    return {"type": 3, "name": name, "description": "d", **extra}


def sized_command(size: int) -> JSON:
    """A command whose names, descriptions and choices count exactly ``size`` characters."""
    cmd = command(name="big", description="d" * 100)
    cmd["options"] = [string_option(f"o{i}", description="d" * 100) for i in range(2)]
    choices = [{"name": f"{k:03d}" + "c" * 97, "value": "v"} for k in range(50)]
    spare = size - command_size({**cmd, "options": cmd["options"]}) - 50 * 101
    assert 0 <= spare <= 50 * 99
    for choice in choices:
        extra = min(99, spare)
        choice["value"] += "v" * extra
        spare -= extra
    cmd["options"][0]["choices"], cmd["options"][1]["choices"] = choices[:25], choices[25:]
    assert command_size(cmd) == size
    return cmd


# -- one case per limit: (name, send, body for n, limit, error path, code) ------------------
@dataclass
class Limit:
    name: str
    kind: str  # "message" | "callback" | "autocomplete" | "commands"
    body: Callable[[int], Any]
    limit: int
    path: tuple[Any, ...]
    code: str | None = None


LIMITS = [
    Limit("content 2000", "message", lambda n: {"content": "x" * n}, 2000, ("content",)),
    Limit(
        "content counts code points",
        "message",
        lambda n: {"content": "🎴" * n},
        2000,
        ("content",),
    ),
    Limit("10 embeds", "message", lambda n: {"embeds": [{"title": "t"}] * n}, 10, ("embeds",)),
    Limit(
        "embeds total 6000",
        "message",
        lambda n: {"embeds": [{"description": "d" * 4000}, {"description": "d" * (n - 4000)}]},
        6000,
        ("embeds",),
        "MAX_EMBED_SIZE_EXCEEDED",
    ),
    Limit("embed title 256", "message", lambda n: embed(title="t" * n), 256, ("embeds", 0, "title")),
    Limit(
        "embed description 4096",
        "message",
        lambda n: embed(description="d" * n),
        4096,
        ("embeds", 0, "description"),
    ),
    Limit(
        "25 embed fields",
        "message",
        lambda n: embed(fields=[{"name": "n", "value": "v"}] * n),
        25,
        ("embeds", 0, "fields"),
    ),
    Limit(
        "field name 256",
        "message",
        lambda n: embed(fields=[{"name": "n" * n, "value": "v"}]),
        256,
        ("embeds", 0, "fields", 0, "name"),
    ),
    Limit(
        "field value 1024",
        "message",
        lambda n: embed(fields=[{"name": "n", "value": "v" * n}]),
        1024,
        ("embeds", 0, "fields", 0, "value"),
    ),
    Limit(
        "footer 2048",
        "message",
        lambda n: embed(footer={"text": "f" * n}),
        2048,
        ("embeds", 0, "footer", "text"),
    ),
    Limit(
        "author name 256",
        "message",
        lambda n: embed(author={"name": "a" * n}),
        256,
        ("embeds", 0, "author", "name"),
    ),
    Limit(
        "5 action rows",
        "message",
        lambda n: {"components": [row(button(f"b{i}")) for i in range(n)]},
        5,
        ("components",),
    ),
    Limit(
        "5 buttons a row",
        "message",
        lambda n: {"components": [row(*(button(f"b{i}") for i in range(n)))]},
        5,
        ("components", 0, "components"),
    ),
    Limit(
        "25 select options",
        "message",
        lambda n: {"components": [row(select([option(f"v{i}") for i in range(n)]))]},
        25,
        ("components", 0, "components", 0, "options"),
    ),
    Limit(
        "option label 100",
        "message",
        lambda n: {"components": [row(select([option(label="l" * n)]))]},
        100,
        ("components", 0, "components", 0, "options", 0, "label"),
    ),
    Limit(
        "option value 100",
        "message",
        lambda n: {"components": [row(select([option("v" * n)]))]},
        100,
        ("components", 0, "components", 0, "options", 0, "value"),
    ),
    Limit(
        "option description 100",
        "message",
        lambda n: {"components": [row(select([option(description="d" * n)]))]},
        100,
        ("components", 0, "components", 0, "options", 0, "description"),
    ),
    Limit(
        "placeholder 150",
        "message",
        lambda n: {"components": [row(select([option()], placeholder="p" * n))]},
        150,
        ("components", 0, "components", 0, "placeholder"),
    ),
    Limit(
        "button label 80",
        "message",
        lambda n: {"components": [row(button("b", label="l" * n))]},
        80,
        ("components", 0, "components", 0, "label"),
    ),
    Limit(
        "custom_id 100",
        "message",
        lambda n: {"components": [row(button("c" * n))]},
        100,
        ("components", 0, "components", 0, "custom_id"),
    ),
    Limit(
        "message via callback: content 2000",
        "callback",
        lambda n: {"type": 4, "data": {"content": "x" * n}},
        2000,
        ("data", "content"),
    ),
    Limit(
        "modal title 45",
        "callback",
        lambda n: modal(title="t" * n),
        45,
        ("data", "title"),
    ),
    Limit(
        "modal 5 rows",
        "callback",
        lambda n: modal(components=[row(text_input(custom_id=f"t{i}")) for i in range(n)]),
        5,
        ("data", "components"),
    ),
    Limit(
        "text input label 45",
        "callback",
        lambda n: modal(components=[row(text_input(label="l" * n))]),
        45,
        ("data", "components", 0, "components", 0, "label"),
    ),
    Limit(
        "text input placeholder 100",
        "callback",
        lambda n: modal(components=[row(text_input(placeholder="p" * n))]),
        100,
        ("data", "components", 0, "components", 0, "placeholder"),
    ),
    Limit(
        "text input value 4000",
        "callback",
        lambda n: modal(components=[row(text_input(value="v" * n))]),
        4000,
        ("data", "components", 0, "components", 0, "value"),
    ),
    Limit(
        "25 autocomplete choices",
        "autocomplete",
        lambda n: {"type": 8, "data": {"choices": [{"name": f"c{i}", "value": f"{i}"} for i in range(n)]}},
        25,
        ("data", "choices"),
    ),
    Limit(
        "autocomplete name 100",
        "autocomplete",
        lambda n: {"type": 8, "data": {"choices": [{"name": "c" * n, "value": "v"}]}},
        100,
        ("data", "choices", 0, "name"),
    ),
    Limit(
        "autocomplete value 100",
        "autocomplete",
        lambda n: {"type": 8, "data": {"choices": [{"name": "c", "value": "v" * n}]}},
        100,
        ("data", "choices", 0, "value"),
    ),
    Limit("command name 32", "commands", lambda n: [command(name="g" * n)], 32, (0, "name")),
    Limit(
        "command description 100",
        "commands",
        lambda n: [command(description="d" * n)],
        100,
        (0, "description"),
    ),
    Limit(
        "25 options",
        "commands",
        lambda n: [command(options=[string_option(f"o{i}") for i in range(n)])],
        25,
        (0, "options"),
    ),
    Limit(
        "25 subcommands",
        "commands",
        lambda n: [command(options=[{"type": 1, "name": f"s{i}", "description": "d"} for i in range(n)])],
        25,
        (0, "options"),
    ),
    Limit(
        "option name 32",
        "commands",
        lambda n: [command(options=[string_option("o" * n)])],
        32,
        (0, "options", 0, "name"),
    ),
    Limit(
        "option description 100",
        "commands",
        lambda n: [command(options=[string_option(description="d" * n)])],
        100,
        (0, "options", 0, "description"),
    ),
    Limit(
        "25 option choices",
        "commands",
        lambda n: [
            command(options=[string_option(choices=[{"name": f"c{i}", "value": f"{i}"} for i in range(n)])])
        ],
        25,
        (0, "options", 0, "choices"),
    ),
    Limit(
        "choice name 100",
        "commands",
        lambda n: [command(options=[string_option(choices=[{"name": "c" * n, "value": "v"}])])],
        100,
        (0, "options", 0, "choices", 0, "name"),
    ),
    Limit(
        "8000 characters a command",
        "commands",
        lambda n: [sized_command(n)],
        8000,
        (0,),
        "APPLICATION_COMMAND_TOO_LARGE",
    ),
]


async def _send(setup: Setup, case: Limit, n: int) -> tuple[int, Any]:
    body = case.body(n)
    if case.kind == "message":
        return await setup.message(body)
    if case.kind == "commands":
        return await setup.commands(body)
    if case.kind == "autocomplete":
        return await setup.callback(body, INTERACTION_AUTOCOMPLETE)
    return await setup.callback(body)


@pytest.mark.parametrize("case", LIMITS, ids=[c.name for c in LIMITS])
async def test_limit_accepted_and_one_more_refused(setup: Setup, case: Limit) -> None:
    assert_accepted(await _send(setup, case, case.limit))
    assert_refused(await _send(setup, case, case.limit + 1), case.path, case.code)


# -- lower bounds and rules that are not a count -------------------------------------------
@pytest.mark.parametrize(
    ("kind", "body", "path"),
    [
        ("message", {"components": [row(button(""))]}, ("components", 0, "components", 0, "custom_id")),
        ("message", {"components": [row(select([]))]}, ("components", 0, "components", 0, "options")),
        ("autocomplete", {"type": 8, "data": {"choices": [{"name": "", "value": "v"}]}}, ("data", "choices", 0, "name")),
        ("commands", [command(name="")], (0, "name")),
        ("commands", [command(description="")], (0, "description")),
        ("callback", modal(title=""), ("data", "title")),
        ("callback", modal(components=[]), ("data", "components")),
    ],
    ids=["custom_id 1", "1 select option", "choice name 1", "name 1", "description 1", "modal title 1", "modal 1 row"],
)
async def test_lower_bounds_refused(setup: Setup, kind: str, body: Any, path: tuple[Any, ...]) -> None:
    case = Limit("", kind, lambda n: body, 0, path)
    assert_refused(await _send(setup, case, 0), path)


async def test_a_select_is_alone_in_its_row(setup: Setup) -> None:
    assert_accepted(await setup.message({"components": [row(select([option()])), row(button("b"))]}))
    assert_refused(
        await setup.message({"components": [row(select([option()]), button("b"))]}),
        ("components", 0, "components"),
        "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
    )


async def test_custom_ids_are_unique_in_a_message(setup: Setup) -> None:
    assert_accepted(await setup.message({"components": [row(button("a")), row(button("b"))]}))
    assert_refused(
        await setup.message({"components": [row(button("a")), row(button("a"))]}),
        ("components", 1, "components", 0, "custom_id"),
        "COMPONENT_CUSTOM_ID_DUPLICATED",
    )


async def test_a_modal_row_holds_one_text_input(setup: Setup) -> None:
    two = row(text_input(custom_id="a"), text_input(custom_id="b"))
    assert_refused(await setup.callback(modal(components=[two])), ("data", "components", 0, "components"))


@pytest.mark.parametrize(
    ("name", "ok"),
    [("🃏", True), ("▶️", True), ("👍🏽", True), ("🂠", False), ("▶", False), ("x", False), ("", False)],
    ids=["joker", "play fully qualified", "skin tone", "card back U+1F0A0", "play unqualified", "letter", "empty"],
)
async def test_component_emoji_must_be_a_fully_qualified_unicode_emoji(
    setup: Setup, name: str, ok: bool
) -> None:
    body = {"components": [row(button("b", emoji={"name": name}))]}
    answer = await setup.message(body)
    if ok:
        assert_accepted(answer)
    else:
        assert_refused(answer, ("components", 0, "components", 0, "emoji", "name"))
    answer = await setup.message({"components": [row(select([option(emoji={"name": name})]))]})
    if ok:
        assert_accepted(answer)
    else:
        assert_refused(answer, ("components", 0, "components", 0, "options", 0, "emoji", "name"))


async def test_custom_emoji_only_if_the_fake_knows_it(setup: Setup) -> None:
    known = setup.fake.add_custom_emoji("card")
    ok = await setup.message({"components": [row(button("b", emoji={"id": known, "name": "card"}))]})
    assert_accepted(ok)
    refused = await setup.message({"components": [row(button("b", emoji={"id": "1234", "name": "x"}))]})
    assert_refused(refused, ("components", 0, "components", 0, "emoji", "id"), "BUTTON_COMPONENT_INVALID_EMOJI")


@pytest.mark.parametrize(
    ("name", "ok"),
    [("game", True), ("six-suit_2", True), ("ställ", True), ("Game", False), ("two words", False), ("a!", False)],
)
async def test_command_name_rules(setup: Setup, name: str, ok: bool) -> None:
    answer = await setup.commands([command(name=name)])
    if ok:
        assert_accepted(answer)
    else:
        assert_refused(answer, (0, "name"))


async def test_required_options_come_first(setup: Setup) -> None:
    good = [string_option("a", required=True), string_option("b")]
    assert_accepted(await setup.commands([command(options=good)]))
    bad = [string_option("a"), string_option("b", required=True)]
    assert_refused(
        await setup.commands([command(options=bad)]),
        (0, "options", 1, "required"),
        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
    )


async def test_schema_errors_name_the_field(setup: Setup) -> None:
    """From the OpenAPI schema itself: a wrong type and a missing field, at their paths."""
    assert_refused(await setup.message({"content": 5}), ("content",), "BASE_TYPE_STRING")
    assert_refused(
        await setup.message({"components": [row({"type": 2, "custom_id": "b", "label": "x"})]}),
        ("components", 0, "components", 0, "style"),
        "BASE_TYPE_REQUIRED",
    )
    assert_refused(
        await setup.message({"embeds": [{"fields": [{"name": "n"}]}]}),
        ("embeds", 0, "fields", 0, "value"),
        "BASE_TYPE_REQUIRED",
    )


async def test_a_blank_embed_field_name_or_value_is_missing(setup: Setup) -> None:
    """Discord trims embed text first: a field whose name or value is empty or only
    whitespace is refused as missing (a zero-width space is not whitespace: accepted)."""
    for blank in ("", "   ", "\n"):
        assert_refused(
            await setup.message({"embeds": [{"fields": [{"name": "n", "value": blank}]}]}),
            ("embeds", 0, "fields", 0, "value"),
            "BASE_TYPE_REQUIRED",
        )
        assert_refused(
            await setup.message({"embeds": [{"fields": [{"name": blank, "value": "v"}]}]}),
            ("embeds", 0, "fields", 0, "name"),
            "BASE_TYPE_REQUIRED",
        )
    status, _ = await setup.message({"embeds": [{"fields": [{"name": "\u200b",
                                                               "value": "\u200b"}]}]})
    assert status == 200


async def test_multipart_payload_json_is_validated(setup: Setup) -> None:
    form = aiohttp.FormData()
    form.add_field("payload_json", '{"content": "' + "x" * 2001 + '"}', content_type="application/json")
    form.add_field("files[0]", b"abc", filename="a.txt")
    url = f"{setup.fake.rest_base}/channels/{setup.channel.id}/messages"
    async with setup.session.post(url, data=form) as resp:
        answer = resp.status, await resp.json()
    assert_refused(answer, ("content",), "BASE_TYPE_MAX_LENGTH")


# -- interaction callbacks -------------------------------------------------------------------
@pytest.mark.parametrize(
    ("itype", "on_message", "rtype", "ok"),
    [
        (INTERACTION_COMMAND, False, 7, False),
        (INTERACTION_COMMAND, False, 6, False),
        (INTERACTION_COMMAND, False, 8, False),
        (INTERACTION_COMMAND, False, 4, True),
        (INTERACTION_COMPONENT, True, 7, True),
        (INTERACTION_COMPONENT, True, 6, True),
        (INTERACTION_AUTOCOMPLETE, False, 4, False),
        (INTERACTION_AUTOCOMPLETE, False, 8, True),
        (INTERACTION_MODAL_SUBMIT, False, 9, False),
        (INTERACTION_MODAL_SUBMIT, False, 7, False),
        (INTERACTION_MODAL_SUBMIT, True, 7, True),
    ],
    ids=[
        "update for a command",
        "deferred update for a command",
        "autocomplete result for a command",
        "message for a command",
        "update for a click",
        "deferred update for a click",
        "message for autocomplete",
        "autocomplete result for autocomplete",
        "modal for a modal submit",
        "update for a modal from a command",
        "update for a modal from a message",
    ],
)
async def test_callback_type_must_fit_the_interaction(
    setup: Setup, itype: int, on_message: bool, rtype: int, ok: bool
) -> None:
    data: JSON = {"choices": []} if rtype == 8 else {"content": "c"}
    body = modal() if rtype == 9 else {"type": rtype, "data": {} if rtype == 6 else data}
    answer = await setup.answer(setup.pending(itype, on_message=on_message), body)
    if ok:
        assert_accepted(answer)
    else:
        assert_refused(answer, ("type",))


async def test_second_callback_is_already_acknowledged(setup: Setup) -> None:
    pending = setup.pending(INTERACTION_COMMAND)
    assert_accepted(await setup.answer(pending, {"type": 4, "data": {"content": "one"}}))
    status, body = await setup.answer(pending, {"type": 4, "data": {"content": "two"}})
    assert (status, body["code"]) == (400, 40060)


async def test_callback_after_three_seconds_is_unknown_interaction(setup: Setup) -> None:
    pending = setup.pending(INTERACTION_COMMAND)
    pending.dispatched_at -= 3.01
    status, body = await setup.answer(pending, {"type": 4, "data": {"content": "late"}})
    assert (status, body["code"]) == (404, 10062)


async def test_token_works_for_fifteen_minutes_only(setup: Setup) -> None:
    pending = setup.pending(INTERACTION_COMMAND)
    assert_accepted(await setup.answer(pending, {"type": 5}))
    hook = f"/webhooks/{setup.fake.application_id}/{pending.token}"
    pending.dispatched_at -= 14 * 60
    assert_accepted(await setup.send("PATCH", hook + "/messages/@original", {"content": "ok"}))
    pending.dispatched_at -= 61
    for method, path in (("POST", hook), ("PATCH", hook + "/messages/@original")):
        status, body = await setup.send(method, path, {"content": "too late"})
        assert (status, body["code"]) == (401, 50027)


@pytest.mark.parametrize("mentions, ok", [
    ({"parse": [], "users": ["1"]}, True),
    ({"parse": ["users"]}, True),
    ({"parse": ["roles"], "users": ["1"]}, True),
    ({"parse": ["users"], "users": []}, True),
    ({"parse": ["users"], "users": ["1"]}, False),
    ({"parse": ["roles", "everyone"], "roles": ["2"]}, False),
], ids=["users-listed", "users-parsed", "other-type-parsed", "empty-list", "users-both",
        "roles-both"])
async def test_a_mention_type_is_parsed_or_listed_not_both(setup: Setup, mentions: JSON,
                                                          ok: bool) -> None:
    body = {"content": "<@1> hi", "allowed_mentions": mentions}
    for answer, at in ((await setup.message(body), ()),
                       (await setup.callback({"type": 4, "data": body}), ("data",))):
        if ok:
            assert_accepted(answer)
        else:
            assert_refused(answer, (*at, "allowed_mentions"),
                           "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE")
