"""The fake answers like Discord: every response the real bot received during a game is
checked against the response schema of its route in Discord's OpenAPI description, and every
INTERACTION_CREATE against the documented interaction object."""

from __future__ import annotations

import dataclasses

import pytest

from fakediscord.ratelimit import route_template
from fakediscord.validation import response_validator, schema_errors, spec_route
from tests.e2e.driver import TableDriver

pytestmark = pytest.mark.e2e

#: interactions/receiving-and-responding.mdx, "Interaction Structure": fields without "?".
INTERACTION_REQUIRED = {
    "id", "application_id", "type", "token", "version", "app_permissions", "entitlements",
    "authorizing_integration_owners", "attachment_size_limit",
}

#: Routes the bot uses in a game (the test fails if one is no longer seen: update it).
ROUTES_EXPECTED = {
    "GET /users/@me",
    "PUT /applications/{application_id}/guilds/{guild_id}/commands",
    "POST /interactions/{interaction_id}/{interaction_token}/callback",
    "POST /channels/{channel_id}/messages",
    "PATCH /channels/{channel_id}/messages/{message_id}",
    "POST /users/@me/channels",
}


#: ... and those it adds when the game has its own thread (bot.threads)
THREAD_ROUTES = {
    "POST /channels/{channel_id}/messages/{message_id}/threads",
    "PATCH /channels/{channel_id}",
}


@pytest.mark.parametrize("threads", [False, True], ids=["channel", "thread"])
async def test_every_response_matches_discords_response_schema(fake, world, bots, threads):
    fake.record_responses = True
    await bots.start(threads=threads)
    d = TableDriver(fake, world, bots, "suspense")
    await d.open(world.alice, [world.bob], options="points_target=3")
    await d.click(world.alice, d.board(), "My hand")
    for _ in range(4):
        seat = await d.next_human()
        if seat is None:
            break
        await d.take_turn(d.seat_user(seat))
    await fake.slash(world.alice, "suspense rules", channel=world.channel)
    if threads:  # to its end: the thread is archived
        await d.play_to_end()
        await d.result_posted()
    await fake.settle()

    seen, problems = set(), []
    for call in fake.calls:
        route = spec_route(call.method, route_template(call.path))
        if route is None or call.status is None or not 200 <= call.status < 300:
            continue
        seen.add(route)
        validator = response_validator(route, str(call.status))
        if call.status == 204:
            assert call.response is None, f"{call.route}: 204 with a body"
            continue
        assert validator is not None, f"{route} answered {call.status}, not in the spec"
        errors = schema_errors(validator, call.response)
        if errors:
            problems += [f"{call.route} {call.status} {e}" for e in errors.flat()]
    assert not problems, "\n".join(sorted(set(problems)))
    expected = ROUTES_EXPECTED | (THREAD_ROUTES if threads else set())
    assert seen >= expected, expected - seen


async def test_interaction_create_is_the_documented_interaction_object(fake, world, bots):
    await bots.start()
    sent = []
    original = fake.gateway.send_event

    async def spy(session, name, payload, **kwargs):
        if name == "INTERACTION_CREATE":
            sent.append(payload)
        return await original(session, name, payload, **kwargs)

    fake.gateway.send_event = spy
    d = TableDriver(fake, world, bots, "suspense")
    await d.open(world.alice, [world.bob])
    await d.click(world.bob, d.board(), "My hand")
    await bots.restart(threads=True)  # a click in a game's thread: the thread as channel
    d = TableDriver(fake, dataclasses.replace(world, channel=world.other_channel), bots,
                    "suspense")
    await d.open(world.alice, [world.bob])
    await d.click(world.bob, d.board(), "My hand")
    assert d.thread is not None
    assert sent[-1]["channel"]["type"] == 11 and "thread_metadata" in sent[-1]["channel"]
    assert sent
    for payload in sent:
        assert payload.keys() >= INTERACTION_REQUIRED, INTERACTION_REQUIRED - payload.keys()
        assert isinstance(payload["id"], str) and isinstance(payload["application_id"], str)
        assert ("member" in payload) != ("user" in payload)  # member in a guild, user in a DM
        assert isinstance(payload["app_permissions"], str) and isinstance(payload["data"], dict)
        if "message" in payload:  # components get Discord's numeric ids
            assert all("id" in c for c in payload["message"]["components"])
