"""Shards (issue #20): the fake routes each server's events to its shard as Discord does,
and bots on disjoint SHARD_IDS each run the tables of their own servers."""

from __future__ import annotations

import asyncio
import json

import aiohttp
import pytest

from bot.settings import Settings
from fakediscord.gateway import shard_of
from tests.e2e.conftest import BotRunner
from tests.e2e.driver import CONFIRM, TableDriver

pytestmark = pytest.mark.e2e


async def guild_on_shard(fake, shard: int, count: int):
    """A new server whose id falls on `shard` (ids carry the millisecond they were made)."""
    while True:
        guild = fake.add_guild("Other Club")
        if shard_of(guild.id, count) == shard:
            return guild
        await asyncio.sleep(0.001)


async def other_server(fake, world):
    """The shard (of 2) of the world's server, and a channel of a new server on the other
    shard where alice and bob are members too."""
    home = shard_of(world.guild.id, 2)
    other_guild = await guild_on_shard(fake, 1 - home, 2)
    other_channel = fake.add_channel(other_guild, "games")
    for user in (world.alice, world.bob):
        fake.add_member(other_guild, user)
    return home, other_channel


async def identify(fake, shard) -> int | None:
    """IDENTIFY with `shard` on a raw socket; the close code the fake answers (None: READY)."""
    async with aiohttp.ClientSession() as session, session.ws_connect(fake.gateway_url) as ws:
        await ws.receive()  # HELLO
        await ws.send_str(json.dumps({"op": 2, "d": {"token": "fake-token", "intents": 1,
                                                     "properties": {}, "shard": shard}}))
        message = await ws.receive()
        if message.type == aiohttp.WSMsgType.TEXT:
            assert json.loads(message.data)["t"] == "READY"
            return None
        return ws.close_code


async def test_a_wrong_shard_array_is_refused_like_discord(fake, world):
    """opcodes-and-status-codes.mdx: 4010 Invalid shard; 4011 Sharding required."""
    assert await identify(fake, [2, 2]) == 4010
    assert await identify(fake, [0, 0]) == 4010
    assert await identify(fake, "0,1") == 4010
    assert await identify(fake, [1, 2]) is None
    fake.max_guilds_per_shard = 0
    assert await identify(fake, [0, 1]) == 4011


async def test_two_bots_on_two_shards_each_run_their_own_servers(fake, world, tmp_path,
                                                                  database):
    """Each server's clicks and commands reach only the bot running its shard; a bot loads
    only its shards' tables when it starts. On PostgreSQL both bots share one database (on
    SQLite each has its file: one process per file)."""
    home, other_channel = await other_server(fake, world)
    runners = {}
    for shard in (0, 1):
        runner = BotRunner(fake, world, database if database.dialect == "postgresql"
                           else tmp_path / f"shard{shard}.db")
        runners[shard] = runner
        await runner.start(shard_count=2, shard_ids=[shard], dev_guild_id=None)
    try:
        home_bot, other_bot = runners[home].current, runners[1 - home].current
        assert home_bot.shard_ids == [home] and other_bot.shard_ids == [1 - home]
        sessions = [s for s in fake.gateway.sessions.values() if s.live]
        assert sorted(s.shard for s in sessions) == [(0, 2), (1, 2)]
        for runner, channel in ((runners[home], world.channel),
                                (runners[1 - home], other_channel)):
            world.channel, saved = channel, world.channel
            try:
                d = TableDriver(fake, world, runner, "suspense")
                await d.open(world.alice, [world.bob])
                seat = await d.next_human()
                assert CONFIRM in await d.take_turn(d.seat_user(seat))
                await d.synced()
            finally:
                world.channel = saved
        assert [t.row.channel_id for t in home_bot.tables.live.values()] == [world.channel.id]
        assert [t.row.channel_id for t in other_bot.tables.live.values()] == [other_channel.id]
        for runner in runners.values():  # restarted, each loads only its shard's table
            await runner.restart(shard_count=2, shard_ids=runner.current.shard_ids,
                                 dev_guild_id=None)
        home_bot, other_bot = runners[home].current, runners[1 - home].current
        assert [t.row.channel_id for t in home_bot.tables.live.values()] == [world.channel.id]
        assert [t.row.channel_id for t in other_bot.tables.live.values()] == [other_channel.id]
    finally:
        for runner in runners.values():
            await runner.stop()


async def test_get_gateway_bot_recommends_the_fakes_shard_count(fake, world):
    """events/gateway.mdx: Get Gateway Bot answers the recommended number of shards."""
    fake.recommended_shards = 3
    async with aiohttp.ClientSession() as session, session.get(
            f"{fake.rest_base}/gateway/bot", headers={"Authorization": "Bot fake-token"}) as r:
        assert r.status == 200
        answer = await r.json()
    assert answer["shards"] == 3 and answer["url"] == fake.gateway_url
    assert answer["session_start_limit"]["max_concurrency"] == 1


def test_shard_settings_are_checked():
    with pytest.raises(ValueError, match="SHARD_IDS needs SHARD_COUNT"):
        Settings(_env_file=None, shard_ids="0")
    with pytest.raises(ValueError, match="distinct numbers from 0 to 1"):
        Settings(_env_file=None, shard_count=2, shard_ids="1,2")
    settings = Settings(_env_file=None, shard_count=4, shard_ids="1, 3")
    assert settings.shard_ids == [1, 3]
    assert settings.owns(1 << 22) and settings.owns(3 << 22) and not settings.owns(2 << 22)
    assert not settings.owns(None)  # DMs are shard 0's
