"""A fake Discord (REST + gateway on 127.0.0.1) to test the real discord.py bot end to end.

discord.py needs two class attributes changed and nothing else: ``discord.http.Route.BASE``
(all REST, interaction callbacks and webhooks) and
``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` (a plain ``Bot`` never asks
``/gateway/bot``). :meth:`FakeDiscord.patch_discord` does both.

Fixture pattern (the e2e conftest)::

    import pytest
    from fakediscord import FakeDiscord, running_bot

    @pytest.fixture
    async def fake(monkeypatch):
        fake = await FakeDiscord().start()          # 127.0.0.1, random port
        fake.patch_discord(monkeypatch)             # Route.BASE + DEFAULT_GATEWAY, undone after
        yield fake
        await fake.stop()

    @pytest.fixture
    def world(fake):
        guild = fake.add_guild("Card Club")         # the bot is a member automatically
        channel = fake.add_channel(guild, "games")
        alice, bob = fake.add_user("alice"), fake.add_user("bob", dm_open=False)
        fake.add_member(guild, alice)
        fake.add_member(guild, bob, manage_guild=True)
        return guild, channel, alice, bob

    @pytest.fixture
    async def bot(fake, world, tmp_path):
        bot = create_bot(settings, guild_ready_timeout=0.05)   # the project's factory
        async with running_bot(fake, bot):          # start task, wait ready, close + re-raise
            yield bot

A restart is ``await bot.close()`` then a new ``create_bot(...)`` started on the same fake:
the world and every recorded message persist. Benchmark scripts without pytest use
``with fake.patched(): ...`` (or ``undo = fake.patch_discord(); ...; undo()``).

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
