"""A fake Discord (REST + gateway on 127.0.0.1) to test the real discord.py bot end to end.

discord.py needs two class attributes changed and nothing else: ``discord.http.Route.BASE``
(all REST, interaction callbacks and webhooks) and
``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` (a plain ``Bot`` never asks
``/gateway/bot``). :meth:`FakeDiscord.patch_discord` does both.

Fixture pattern (the e2e conftest)::

    import asyncio, pytest
    from fakediscord import FakeDiscord

    @pytest.fixture
    async def fake(monkeypatch):
        fake = await FakeDiscord().start()
        fake.patch_discord(monkeypatch)
        yield fake
        await fake.stop()

    @pytest.fixture
    async def world(fake):
        guild = fake.add_guild("Test Guild")
        channel = fake.add_channel(guild, "games")
        alice, bob = fake.add_user("alice"), fake.add_user("bob", dm_open=False)
        for user in (alice, bob):
            fake.add_member(guild, user)
        return guild, channel, alice, bob

    @pytest.fixture
    async def bot(fake, world, tmp_path):
        bot = create_bot(Settings(token="fake-token", database=tmp_path / "db.sqlite3"))
        async with running_bot(fake, bot):      # from fakediscord.pytest_plugin
            yield bot

Then, in a test::

    result = await fake.slash(alice, "suspense new", options={"points": 6}, channel=channel)
    await fake.settle()
    assert "Suspense" in result.text
    assert "secret" not in fake.visible_text(bob)

Or load ``fakediscord.pytest_plugin`` (``pytest_plugins = ["fakediscord.pytest_plugin"]``)
for ready-made ``fake`` and ``fake_world`` fixtures plus :func:`running_bot`.
"""

from .driver import BotDidNotRespond, FakeDiscordError
from .models import (
    ADMINISTRATOR,
    DEFAULT_BOT_PERMISSIONS,
    DEFAULT_EVERYONE_PERMISSIONS,
    MANAGE_GUILD,
    Call,
    Channel,
    Guild,
    InteractionResult,
    Member,
    Message,
    MessageVersion,
    Role,
    ShownModal,
    User,
)
from .ratelimit import Injection, RateLimitStats
from .runner import running_bot
from .server import FakeDiscord

__all__ = [
    "ADMINISTRATOR",
    "DEFAULT_BOT_PERMISSIONS",
    "DEFAULT_EVERYONE_PERMISSIONS",
    "MANAGE_GUILD",
    "BotDidNotRespond",
    "Call",
    "Channel",
    "FakeDiscord",
    "FakeDiscordError",
    "Guild",
    "Injection",
    "InteractionResult",
    "Member",
    "Message",
    "MessageVersion",
    "RateLimitStats",
    "Role",
    "ShownModal",
    "User",
    "running_bot",
]
