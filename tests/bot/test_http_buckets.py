"""discord.py's rate-limit buckets are swept for idle ones in amortised constant time."""

from __future__ import annotations

import asyncio

import discord
from discord.http import HTTPClient, Ratelimit

from bot import http_buckets
from bot.app import create_bot
from bot.settings import Settings


async def test_new_buckets_do_not_each_walk_every_live_bucket():
    """discord.py walked all buckets for every new one once it held 256; with 3,000 live
    buckets, 1,000 new ones must cost about one walk, not 1,000."""
    http = HTTPClient(asyncio.get_running_loop())
    sweeper = http_buckets.install(http)
    assert sweeper is not None
    for i in range(3000):
        http.get_ratelimit(f"live:{i}")
    walks_before = sweeper.walks
    for i in range(1000):
        http.get_ratelimit(f"new:{i}")
    assert sweeper.walks - walks_before <= 1
    assert len(http._buckets) == 4000  # all live: nothing may be dropped


async def test_idle_buckets_are_still_dropped():
    """Buckets idle for five minutes (discord.py's rule) go at the next walk, which comes
    at the latest when the number of buckets has doubled."""
    http = HTTPClient(asyncio.get_running_loop())
    sweeper = http_buckets.install(http)
    for i in range(300):
        bucket = http.get_ratelimit(f"old:{i}")
        bucket._last_request -= 301  # idle for more than five minutes
    for i in range(600):
        http.get_ratelimit(f"new:{i}")
    assert not any(key.startswith("old:") for key in http._buckets)
    assert sweeper.walks >= 1
    assert len(http._buckets) <= 2 * 600


def test_a_discord_py_without_the_hook_keeps_its_own_cleanup():
    class Other:
        pass

    assert http_buckets.install(Other()) is None


async def test_the_bot_installs_the_sweeper():
    bot = create_bot(Settings(discord_token="t", database_path=":memory:"))
    assert isinstance(bot.bucket_sweeper, http_buckets.BucketSweeper)
    assert bot.http._try_clear_expired_ratelimits is bot.bucket_sweeper
    assert isinstance(bot.http.get_ratelimit("a"), Ratelimit)
    assert discord.version_info.major == 2
