"""Ready-made pytest fixtures: ``pytest_plugins = ["fakediscord.pytest_plugin"]``.

- ``fake``: a started :class:`FakeDiscord` with discord.py patched to it (undone after).
- ``fake_world``: a guild "Test Guild" with channel "games", members alice, bob, carol
  and dave (carol has Manage Server; dave has DMs closed).

Build and run the bot in your own fixture with :func:`fakediscord.running_bot`, because
only the project knows how to construct it (``create_bot(settings)``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest

from .models import Channel, Guild, User
from .server import FakeDiscord


@dataclass
class FakeWorld:
    guild: Guild
    channel: Channel
    alice: User
    bob: User
    carol: User
    dave: User


@pytest.fixture
async def fake(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    fake = await FakeDiscord().start()
    fake.patch_discord(monkeypatch)
    try:
        yield fake
    finally:
        await fake.stop()


@pytest.fixture
def fake_world(fake: FakeDiscord) -> FakeWorld:
    guild = fake.add_guild("Test Guild")
    channel = fake.add_channel(guild, "games")
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    carol, dave = fake.add_user("carol"), fake.add_user("dave", dm_open=False)
    for user in (alice, bob, dave):
        fake.add_member(guild, user)
    fake.add_member(guild, carol, manage_guild=True)
    return FakeWorld(guild, channel, alice, bob, carol, dave)
