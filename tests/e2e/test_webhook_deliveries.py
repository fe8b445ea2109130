"""Boards delivered through the interaction token of the move (issue #20: deliveries outside
Discord's global limit), the channel endpoints as the fallback, and the fake's rule that a
token edits only messages sent with it. These run with `WEBHOOK_DELIVERIES=always`; the
default, `auto`, takes this path only when the bot is congested (tests/e2e/test_one_board.py).
"""

from __future__ import annotations

import re

import aiohttp
import pytest

import bot.hooks as hooks
from tests.e2e.driver import CONFIRM, TableDriver, public_calls

pytestmark = pytest.mark.e2e

HOOK = re.compile(r"^/webhooks/")


@pytest.fixture
async def bot(bots):
    return await bots.start(webhook_deliveries="always")


async def play(d: TableDriver, moves: int) -> list:
    """`moves` human moves; the public calls each one cost."""
    per_move = []
    for _ in range(moves):
        seat = await d.next_human()
        if seat is None:
            break
        mark = d.fake.mark()
        assert CONFIRM in await d.take_turn(d.seat_user(seat))
        await d.synced()
        per_move.append(public_calls(d.fake, d.channel, mark))
    return per_move


async def test_a_click_posts_and_edits_the_board_with_its_token_not_the_channel(
        fake, world, bots, bot):
    """After the first move every board post, edit and delete goes through an interaction
    webhook (not counted toward the global limit); the channel shows one current board."""
    d = TableDriver(fake, world, bots, "sixsuit")
    await d.open(world.alice, [world.bob])
    per_move = await play(d, 8)
    assert len(per_move) == 8
    later = [call for calls in per_move[1:] for call in calls]
    assert later and all(HOOK.match(c.path) for c in later), [c.route for c in later]
    live = [m for m in fake.channel_messages(world.channel)
            if any(f"t:{d.table_id}:hand" in b.get("custom_id", "") for b in m.buttons())]
    assert live == [d.board()]
    assert d.board().interaction_metadata is not None  # posted as a move's followup


async def test_without_a_fresh_token_the_board_goes_through_the_channel(
        fake, world, bots, bot, monkeypatch):
    """Tokens older than the bot's margin (here: all of them) are never used."""
    monkeypatch.setattr(hooks, "TOKEN_SECONDS", 0)
    d = TableDriver(fake, world, bots, "sixsuit")
    await d.open(world.alice, [world.bob])
    per_move = await play(d, 4)
    calls = [call for calls in per_move for call in calls]
    assert calls and not any(HOOK.match(c.path) for c in calls)


async def test_a_token_discord_refuses_falls_back_to_the_channel(fake, world, bots, bot):
    """Discord refuses a token past its life (401 Invalid Webhook Token): the board still
    follows the game, through the channel.

    The tokens issued so far expire, as after a long pause; each later click's own token
    works, as on Discord. (Refusing every token, the click's own too, made the test hang
    on the bot's way of answering rather than on the board: a move whose save was slow is
    acknowledged first and confirmed through its token, tests/e2e/test_one_answer.py.)"""
    d = TableDriver(fake, world, bots, "sixsuit")
    await d.open(world.alice, [world.bob])
    await play(d, 2)
    fake.expire_tokens()  # every followup, edit and delete by an earlier token is refused
    version, mark = d.table.version, fake.mark()
    await play(d, 3)
    assert d.table.version > version
    assert d.table.meta.get("delivered_version") == d.table.version
    board = d.board()
    assert not board.deleted
    assert fake.calls_matching(path=r"^/webhooks/", status=401), "the token was never tried"
    assert fake.calls_matching(path=rf"^/channels/{world.channel.id}/messages", since=mark)


async def test_an_interaction_token_edits_only_messages_sent_with_it(fake, world, bots, bot):
    """receiving-and-responding.mdx: PATCH /webhooks/{app}/{token}/messages/{id} edits a
    message *sent with that token*; another token's message (or a channel message) is
    Unknown Message to it, as on Discord."""
    d = TableDriver(fake, world, bots, "sixsuit")
    await d.open(world.alice, [world.bob])
    await play(d, 4)
    board = d.board()
    owner = next(p for p in fake.interactions.values() if board in p.followups)
    other = next(p for p in fake.interactions.values()
                 if p is not owner and p.response_type is not None
                 and p.channel.id == world.channel.id)
    url = f"{fake.rest_base}/webhooks/{fake.application_id}/{{}}/messages/{board.id}"
    async with aiohttp.ClientSession() as session:
        async with session.patch(url.format(other.token), json={"content": "x"}) as resp:
            assert resp.status == 404 and (await resp.json())["code"] == 10008
        async with session.patch(url.format(owner.token), json={"content": "y"}) as resp:
            assert resp.status == 200
    assert board.content == "y"


@pytest.mark.rate_limited("the test's own raw requests go past a global limit of 2/s")
async def test_interaction_webhooks_do_not_count_toward_the_global_limit(fake, world, bots,
                                                                          bot):
    """rate-limits.mdx: interaction endpoints are not bound to the global limit; channel
    endpoints are."""
    d = TableDriver(fake, world, bots, "sixsuit")
    await d.open(world.alice, [world.bob])
    await play(d, 2)
    board = d.board()
    owner = next(p for p in fake.interactions.values() if board in p.followups)
    fake.enforce_rate_limits(per_route=1000, per_seconds=1, global_per_second=2)
    hook = f"{fake.rest_base}/webhooks/{fake.application_id}/{owner.token}/messages/{board.id}"
    async with aiohttp.ClientSession() as session:
        statuses = []
        for n in range(5):
            async with session.patch(hook, json={"content": f"n{n}"}) as resp:
                statuses.append(resp.status)
        assert statuses == [200] * 5
        channel = f"{fake.rest_base}/channels/{world.channel.id}/messages/{board.id}"
        statuses = []
        for _ in range(3):
            async with session.get(channel) as resp:
                statuses.append(resp.status)
        assert statuses[-1] == 429
