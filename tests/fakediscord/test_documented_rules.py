"""More of Discord's documented rules the fake holds requests to (an audit of the fake
against ../shared/discord-api-docs): each rule accepted at its edge and refused one past
it, with Discord's status and error.

- message flags: only those each endpoint lists may be set (message.mdx, Create Message;
  webhook.mdx, Execute Webhook; receiving-and-responding.mdx, the callback's "Messages" and
  its note on DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE); an edit's unsupported flag changes are
  ignored (message.mdx, Edit Message);
- IS_COMPONENTS_V2 messages carry components only (message.mdx, Create Message);
- a message needs something to show, also as an interaction's reply or followup
  (webhook.mdx, Execute Webhook: 50006);
- an embed's author needs its name and its footer its text; image and icon URLs are
  http(s) or attachments (message.mdx, Embed Structure);
- deleting someone else's message takes Manage Messages (message.mdx, Delete Message);
- autocomplete choice values have the type of the option typed into
  (application-commands.mdx, Option Choice Structure);
- commands: choices and autocomplete only on string, integer and number options, options
  only on slash commands, at most 100 slash commands a scope (application-commands.mdx).
"""

from __future__ import annotations

from typing import Any

import pytest

from fakediscord.interactions import (
    INTERACTION_AUTOCOMPLETE,
    INTERACTION_COMMAND,
    INTERACTION_COMPONENT,
)
from fakediscord.models import MANAGE_MESSAGES
from tests.fakediscord import test_strict_requests as strict
from tests.fakediscord.test_strict_requests import (
    Setup,
    assert_accepted,
    assert_refused,
    command,
    string_option,
)

JSON = dict[str, Any]
setup = strict.setup  # the fixture: a fake with a server, a channel and a member


# -- message flags ---------------------------------------------------------------------------
@pytest.mark.parametrize(("flags", "ok"), [
    (1 << 2, True), (1 << 12, True), ((1 << 2) | (1 << 12), True),
    (1 << 6, False), (1 << 1, False), (1 << 5, False),
], ids=["suppress-embeds", "suppress-notifications", "both", "ephemeral", "crosspost",
        "has-thread"])
async def test_create_message_takes_only_its_flags(setup: Setup, flags: int, ok: bool) -> None:
    answer = await setup.message({"content": "x", "flags": flags})
    if ok:
        assert_accepted(answer)
    else:
        assert_refused(answer, ("flags",), "MESSAGE_FLAGS_INVALID")


@pytest.mark.parametrize(("rtype", "flags", "ok"), [
    (4, 1 << 6, True), (4, (1 << 6) | (1 << 12), True), (4, 1 << 2, True),
    (4, 1 << 1, False), (4, 1 << 7, False),
    (5, 1 << 6, True), (5, 1 << 12, False), (5, 1 << 2, False),
], ids=["reply-ephemeral", "reply-ephemeral-silent", "reply-suppress-embeds",
        "reply-crosspost", "reply-loading", "defer-ephemeral", "defer-silent",
        "defer-suppress-embeds"])
async def test_a_callback_takes_only_its_flags(setup: Setup, rtype: int, flags: int,
                                               ok: bool) -> None:
    data: JSON = {"flags": flags} if rtype == 5 else {"content": "x", "flags": flags}
    answer = await setup.callback({"type": rtype, "data": data})
    if ok:
        assert_accepted(answer)
    else:
        assert_refused(answer, ("data", "flags"), "MESSAGE_FLAGS_INVALID")


async def test_a_followup_takes_only_its_flags(setup: Setup) -> None:
    pending = setup.pending(INTERACTION_COMMAND)
    assert_accepted(await setup.answer(pending, {"type": 4, "data": {"content": "x"}}))
    hook = f"/webhooks/{setup.fake.application_id}/{pending.token}"
    assert_accepted(await setup.send("POST", hook, {"content": "y", "flags": 64 | 4096}))
    assert_refused(await setup.send("POST", hook, {"content": "z", "flags": 1 << 13}),
                   ("flags",), "MESSAGE_FLAGS_INVALID")  # a voice message: not by webhook


async def test_an_edit_ignores_flags_it_cannot_change(setup: Setup) -> None:
    """Edit Message: only SUPPRESS_EMBEDS changes; other changes are ignored, no error."""
    _, sent = await setup.message({"content": "x", "flags": 1 << 12})
    path = f"/channels/{setup.channel.id}/messages/{sent['id']}"
    status, edited = await setup.send("PATCH", path, {"content": "y", "flags": 64 | 4})
    assert status == 200 and edited["flags"] == (1 << 12) | 4, edited


async def test_a_components_v2_message_has_components_only(setup: Setup) -> None:
    text = {"type": 10, "content": "hello"}
    assert_accepted(await setup.message({"flags": 1 << 15, "components": [text]}))
    assert_refused(await setup.message({"flags": 1 << 15, "components": [text],
                                        "content": "x"}),
                   ("content",), "MESSAGE_COMPONENTS_V2_ONLY")


# -- empty messages ----------------------------------------------------------------------------
async def test_a_reply_and_a_followup_need_something_to_show(setup: Setup) -> None:
    for data in ({}, {"content": ""}, {"embeds": [], "components": []}):
        status, body = await setup.callback({"type": 4, "data": data})
        assert (status, body["code"]) == (400, 50006), body
    pending = setup.pending(INTERACTION_COMMAND)
    assert_accepted(await setup.answer(pending, {"type": 5}))  # a deferral shows "thinking"
    hook = f"/webhooks/{setup.fake.application_id}/{pending.token}"
    status, body = await setup.send("POST", hook, {"content": ""})
    assert (status, body["code"]) == (400, 50006), body
    assert_accepted(await setup.send("POST", hook, {"content": "done"}))


# -- embeds ----------------------------------------------------------------------------------
@pytest.mark.parametrize(("embed", "path"), [
    ({"author": {"url": "https://example.com"}}, ("embeds", 0, "author", "name")),
    ({"title": "t", "footer": {"icon_url": "https://example.com/i.png"}},
     ("embeds", 0, "footer", "text")),
    ({"title": "t", "footer": {"text": "  "}}, ("embeds", 0, "footer", "text")),
], ids=["author-without-name", "footer-without-text", "blank-footer"])
async def test_an_embed_author_needs_a_name_and_a_footer_its_text(
        setup: Setup, embed: JSON, path: tuple[Any, ...]) -> None:
    assert_refused(await setup.message({"embeds": [embed]}), path, "BASE_TYPE_REQUIRED")


@pytest.mark.parametrize(("part", "key", "url", "ok"), [
    ("image", "url", "https://example.com/a.png", True),
    ("image", "url", "ftp://example.com/a.png", False),
    ("thumbnail", "url", "data:image/png;base64,AAAA", False),
    ("author", "icon_url", "file:///etc/passwd", False),
    ("author", "url", "attachment://a.png", False),
    ("footer", "icon_url", "http://example.com/a.png", True),
], ids=["https-image", "ftp-image", "data-thumbnail", "file-icon", "attachment-author-link",
        "http-footer-icon"])
async def test_embed_urls_are_http_or_attachments(setup: Setup, part: str, key: str, url: str,
                                                 ok: bool) -> None:
    body = {"title": "t", part: {key: url}}
    if part in ("author", "footer"):
        body[part]["name" if part == "author" else "text"] = "x"
    answer = await setup.message({"embeds": [body]})
    if ok:
        assert_accepted(answer)
    else:
        assert_refused(answer, ("embeds", 0, part, key), "URL_TYPE_INVALID_SCHEME")


# -- deleting ----------------------------------------------------------------------------------
async def test_deleting_someone_elses_message_takes_manage_messages(setup: Setup) -> None:
    fake, channel = setup.fake, setup.channel
    theirs = fake._store_message(fake.new_message(channel, setup.user, {"content": "hi"}, []))
    fake.deny_bot(channel, MANAGE_MESSAGES)
    path = f"/channels/{channel.id}/messages/{theirs.id}"
    status, body = await setup.send("DELETE", path, None)
    assert (status, body["code"]) == (403, 50013), body
    _, mine = await setup.message({"content": "mine"})
    status, _ = await setup.send("DELETE", f"/channels/{channel.id}/messages/{mine['id']}", None)
    assert status == 204  # its own, always
    fake.allow_bot(channel, MANAGE_MESSAGES)
    status, _ = await setup.send("DELETE", path, None)
    assert status == 204


# -- autocomplete ------------------------------------------------------------------------------
@pytest.mark.parametrize(("otype", "value", "ok"), [
    (3, "a", True), (3, 7, False), (4, 7, True), (4, "7", False), (4, True, False),
    (10, 2.5, True), (10, "2.5", False),
], ids=["string-string", "string-int", "int-int", "int-string", "int-bool",
        "number-float", "number-string"])
async def test_autocomplete_values_have_the_option_type(setup: Setup, otype: int, value: Any,
                                                       ok: bool) -> None:
    pending = setup.pending(INTERACTION_AUTOCOMPLETE)
    pending.focused_type = otype
    answer = await setup.answer(pending, {"type": 8, "data": {
        "choices": [{"name": "c", "value": value}]}})
    if ok:
        assert_accepted(answer)
    elif isinstance(value, bool):  # no choice value at all: the spec's schema refuses it
        assert_refused(answer, ("data",))
    else:
        assert_refused(answer, ("data", "choices", 0, "value"))


# -- commands --------------------------------------------------------------------------------
async def test_choices_and_autocomplete_only_on_string_integer_number(setup: Setup) -> None:
    choices = [{"name": "a", "value": 1}]
    assert_accepted(await setup.commands([command(options=[
        {"type": 4, "name": "n", "description": "d", "choices": choices},
        string_option("s", autocomplete=True)])]))
    boolean = {"type": 5, "name": "b", "description": "d"}
    for extra, key in (({"choices": [{"name": "a", "value": "a"}]}, "choices"),
                       ({"autocomplete": True}, "autocomplete")):
        assert_refused(await setup.commands([command(options=[{**boolean, **extra}])]),
                       (0, "options", 0, key), "APPLICATION_COMMAND_OPTION_TYPE_INVALID")


async def test_only_slash_commands_have_options(setup: Setup) -> None:
    assert_accepted(await setup.commands([{"name": "Look", "type": 2}]))
    assert_refused(await setup.commands([{"name": "Look", "type": 2,
                                          "options": [string_option()]}]),
                   (0, "options"), "APPLICATION_COMMAND_OPTIONS_INVALID")


async def test_at_most_100_slash_commands(setup: Setup) -> None:
    assert_accepted(await setup.commands([command(name=f"c{i}") for i in range(100)]))
    assert_refused(await setup.commands([command(name=f"c{i}") for i in range(101)]), (),
                   "APPLICATION_COMMANDS_MAX_REACHED")


async def test_a_refused_body_is_kept_for_the_e2e_check(setup: Setup) -> None:
    """tests/e2e/conftest.py fails a test whose bot got one of these (refused_calls)."""
    assert not setup.fake.refused_calls
    await setup.message({"content": "x" * 2001})
    await setup.callback({"type": 4, "data": {}})
    await setup.callback({"type": 7, "data": {"content": "ok"}}, INTERACTION_COMPONENT)
    assert [c.refusal["code"] for c in setup.fake.refused_calls] == [50035, 50006]


async def test_refusals_of_any_route_are_kept_and_injected_ones_are_not(setup: Setup) -> None:
    """The e2e check sees a refused body on every route (here a thread's and a command
    sync's, besides messages and callbacks above), but not an error a test injects with
    `fail_next`: that one is the test's doing, not a body Discord would refuse."""
    await setup.send("POST", f"/channels/{setup.channel.id}/threads", {"type": 11})
    await setup.commands([command(name=f"c{i}") for i in range(101)])
    assert [(c.method, c.path.rsplit("/", 1)[-1]) for c in setup.fake.refused_calls] == [
        ("POST", "threads"), ("PUT", "commands")]
    setup.fake.fail_next("POST", r"/messages$", 400, code=50035, message="Invalid Form Body")
    status, body = await setup.message({"content": "fine"})
    assert (status, body["code"]) == (400, 50035)
    assert len(setup.fake.refused_calls) == 2


# -- error shapes of union schemas -----------------------------------------------------------
@pytest.mark.parametrize(("body", "path", "code"), [
    ({"name": "n" * 101, "type": 11}, ("name",), "BASE_TYPE_BAD_LENGTH"),
    ({"name": "", "type": 11}, ("name",), "BASE_TYPE_BAD_LENGTH"),
    ({"type": 11}, ("name",), "BASE_TYPE_REQUIRED"),
    ({"name": "n", "type": 11, "auto_archive_duration": 30}, ("auto_archive_duration",),
     "BASE_TYPE_CHOICES"),
], ids=["name-101", "name-empty", "no-name", "archive-30"])
async def test_a_thread_body_error_names_its_field(setup: Setup, body: JSON,
                                                   path: tuple[Any, ...], code: str) -> None:
    """Start Thread without Message's body is a forum thread's or a text channel's (the
    spec's union): a body for a text channel is told about its own field, as Discord
    tells it (channel.mdx: name 1-100, auto_archive_duration 60, 1440, 4320 or 10080)."""
    answer = await setup.send("POST", f"/channels/{setup.channel.id}/threads", body)
    assert_refused(answer, path, code)
    assert_accepted(await setup.send("POST", f"/channels/{setup.channel.id}/threads",
                                     {"name": "n" * 100, "type": 11,
                                      "auto_archive_duration": 10080}))
