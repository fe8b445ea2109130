"""The real bot against the fake Discord: login, command sync, /help and error handling."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.e2e


async def test_bot_logs_in_and_syncs_every_command(fake, world, bot):
    synced = {c["name"]: c for c in fake.synced_commands(world.guild)}
    assert {"help", "leaderboard", "stats", "config"} <= set(synced)
    for ui in bot.tables.uis.values():
        assert ui.command in synced
        subs = {o["name"] for o in synced[ui.command]["options"]}
        assert {"new", "hand", "rules", "move", "cancel"} <= subs
    assert int(synced["config"]["default_member_permissions"]) == 1 << 5


async def test_help_is_an_ephemeral_overview(fake, world, bot):
    result = await fake.slash(world.alice, "help", channel=world.channel)
    assert result.ephemeral
    text = result.text
    for ui in bot.tables.uis.values():
        assert ui.engine.title in text and f"/{ui.command} new" in text
    assert "/leaderboard" in text and "/config" in text
    assert not fake.channel_messages(world.channel)  # nothing public


async def test_unknown_command_gets_a_friendly_error_and_bot_keeps_running(fake, world, bot):
    result = await fake.slash(world.alice, "nonsense", channel=world.channel)
    assert result.ephemeral and "/help" in result.text
    again = await fake.slash(world.alice, "help", channel=world.channel)
    assert again.ephemeral and "help" in again.text.lower()


async def test_failing_command_is_reported_and_bot_survives(fake, world, bot, monkeypatch):
    async def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(bot.storage, "leaderboard", broken)
    result = await fake.slash(world.alice, "leaderboard", {"game": "suspense"},
                              channel=world.channel)
    assert result.ephemeral and "went wrong" in result.text
    assert (await fake.slash(world.alice, "help", channel=world.channel)).ephemeral


async def test_a_games_own_time_limit_is_not_overridden_by_the_bot_default(fake, world, bots):
    """Hidden Rules has its own `turn_seconds` (60 s by default): the bot-wide timer default
    (here 300 s) applies only to games without one."""
    bot = await bots.start(turn_seconds=300)
    if "hidden_rules" not in bot.tables.uis:
        pytest.skip("Hidden Rules not loaded")
    lobby = await fake.slash(world.alice, "hiddenrules new", channel=world.channel)
    assert "turn_seconds` = **60**" in lobby.text


async def test_a_broken_cog_is_logged_and_the_other_games_still_load(fake, world, bots,
                                                                     monkeypatch, caplog):
    import bot.app as app

    monkeypatch.setattr(app, "cog_modules", lambda: ["cogs.help", "cogs.does_not_exist",
                                                     "cogs.suspense"])
    bot = await bots.start()
    assert "suspense" in bot.tables.uis
    assert "could not load cogs.does_not_exist" in caplog.text
    result = await fake.slash(world.alice, "help", channel=world.channel)
    assert "Suspense" in result.text
