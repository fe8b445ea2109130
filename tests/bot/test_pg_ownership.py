"""Shard ownership on PostgreSQL: two processes never hold the same shard, a dead owner's
shards pass to a waiting replacement, and a bad URL is one sentence for the operator."""

from __future__ import annotations

import asyncio
import uuid

import pytest

from bot.ownership import OwnershipError, ShardOwnership, shard_lock_key
from tests.bot.pg import require_postgres


@pytest.fixture
async def dsn() -> str:
    return await require_postgres()


@pytest.fixture
def namespace() -> str:
    """A fresh namespace per test, so parallel or repeated runs never share a lock."""
    return f"test-{uuid.uuid4().hex}"


def test_lock_keys_are_two_int32_and_distinct_per_shard_and_namespace():
    a0, a1 = shard_lock_key("a", 0), shard_lock_key("a", 1)
    assert a0[0] == a1[0] and a0[1] != a1[1]
    assert shard_lock_key("b", 0)[0] != a0[0]
    assert all(-2**31 <= k < 2**31 for key in (a0, a1) for k in key)
    with pytest.raises(ValueError):
        shard_lock_key("a", -1)


async def test_a_shard_has_one_owner(dsn, namespace):
    first = await ShardOwnership.claim(dsn, [0, 1], namespace=namespace)
    try:
        assert await first.holds()
        with pytest.raises(OwnershipError, match=r"shard\(s\) 1 "):
            await ShardOwnership.claim(dsn, [1, 2], namespace=namespace)
        other = await ShardOwnership.claim(dsn, [2, 3], namespace=namespace)  # disjoint: fine
        await other.release()
        # the failed claim released shard 2 it had taken: nothing leaks
        again = await ShardOwnership.claim(dsn, [2], namespace=namespace)
        await again.release()
    finally:
        await first.release()


async def test_namespaces_do_not_collide(dsn, namespace):
    first = await ShardOwnership.claim(dsn, [0], namespace=namespace)
    second = await ShardOwnership.claim(dsn, [0], namespace=namespace + "-other")
    await first.release()
    await second.release()


async def test_a_waiting_replacement_takes_over_when_the_owner_dies(dsn, namespace):
    owner = await ShardOwnership.claim(dsn, [0, 1], namespace=namespace)
    waiting = asyncio.create_task(
        ShardOwnership.claim(dsn, [0, 1], namespace=namespace, wait=30, poll=0.05))
    await asyncio.sleep(0.2)
    assert not waiting.done()
    owner.connection.terminate()  # the session dies as with kill -9: the server frees the locks
    replacement = await asyncio.wait_for(waiting, 30)
    assert await replacement.holds()
    assert not await owner.holds()
    await replacement.release()


async def test_wait_gives_up_with_a_sentence(dsn, namespace):
    owner = await ShardOwnership.claim(dsn, [5], namespace=namespace)
    try:
        with pytest.raises(OwnershipError, match="holds shard"):
            await ShardOwnership.claim(dsn, [5], namespace=namespace, wait=0.2, poll=0.05)
    finally:
        await owner.release()


async def test_an_unreachable_server_is_one_sentence():
    with pytest.raises(OwnershipError, match="Cannot reach the PostgreSQL server"):
        await ShardOwnership.claim("postgresql://postgres@127.0.0.1:1/none", [0])
