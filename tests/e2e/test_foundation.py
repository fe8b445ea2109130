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
    # /config show is for everyone; set and reset check Manage Server themselves
    assert synced["config"].get("default_member_permissions") is None


async def test_help_is_an_ephemeral_overview(fake, world, bot):
    result = await fake.slash(world.alice, "help", channel=world.channel)
    assert result.ephemeral
    text = result.text
    for ui in bot.tables.uis.values():
        assert ui.engine.title in text and f"/{ui.command} new" in text
    assert "/leaderboard" in text and "/config" in text
    # every command a new player or moderator can use is named (`/config server` was not)
    games = {ui.command for ui in bot.tables.uis.values()}
    for command in fake.synced_commands(world.guild):
        if command["name"] in games or command["name"] == "help":
            continue
        subs = [o["name"] for o in command.get("options") or [] if o.get("type") == 1]
        for sub in subs or [""]:
            name = f"/{command['name']} {sub}".strip()
            both = f"/{command['name']} set|reset"  # named together
            assert name in text or (sub in ("set", "reset") and both in text), name
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
    monkeypatch.setattr(bot.storage, "rated_leaderboard", broken)  # ratings on (default)
    result = await fake.slash(world.alice, "leaderboard", {"game": "suspense"},
                              channel=world.channel)
    assert result.ephemeral and "went wrong" in result.text
    assert (await fake.slash(world.alice, "help", channel=world.channel)).ephemeral


async def test_a_failing_button_is_reported_and_the_bot_survives(fake, world, bot, monkeypatch):
    """Clicks are routed by custom id (bot.ui.components.route): a bug behind a button gets
    the friendly answer a failing command gets, and the other buttons keep working."""
    lobby = (await fake.slash(world.alice, "suspense new", channel=world.channel)).message
    join = next(b["custom_id"] for b in lobby.buttons() if b.get("label") == "Join")

    async def broken(*args, **kwargs):
        raise RuntimeError("boom")

    original = bot.table_ui._op_join
    monkeypatch.setattr(bot.table_ui, "_op_join", broken)
    result = await fake.click(world.bob, lobby, join)
    assert result.ephemeral and "went wrong" in result.text
    monkeypatch.setattr(bot.table_ui, "_op_join", original)
    joined = await fake.click(world.bob, lobby, join)
    assert not joined.ephemeral and f"<@{world.bob.id}>" in joined.message.text


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


async def test_under_discords_global_limit_the_bot_spaces_its_requests_and_gets_no_429(
        fake, world, bots):
    """REST_REQUESTS_PER_SECOND: boards, notices and DMs wait for the budget instead of
    running into a global 429 (which would stall every request, clicks included).

    The game alone need not reach the limit: on a busy machine the bot sent fewer than 5
    requests a second and never waited (`budget.waits` was 0). So the test also makes a
    burst that must: twice the budget's requests started in one turn of the event loop,
    which takes every slot before any answer can come back, whatever the CPU's speed."""
    import asyncio

    from discord.http import Route

    from tests.e2e.driver import TableDriver

    fake.enforce_rate_limits(per_route=100, per_seconds=1, global_per_second=6)
    bot = await bots.start(rest_requests_per_second=5)
    budget = bot.request_budget
    assert budget is not None
    driver = TableDriver(fake, world, bots, "suspense")
    await driver.open(world.alice, [world.bob], ai=1)
    for _ in range(4):
        seat = await driver.next_human()
        text = await driver.take_turn(driver.seat_user(seat))
        assert "✅" in text, text
        await driver.synced()
    # the burst: 10 reads of the channel through the bot's own client (the path of every
    # request it makes), all queued at once; 5 take the slots, 5 must wait for them
    waits = budget.waits
    route = Route("GET", "/channels/{channel_id}", channel_id=world.channel.id)
    await asyncio.gather(*(bot.http.request(route) for _ in range(2 * budget.per_second)))
    assert budget.waits - waits >= budget.per_second
    stats = fake.rate_limit_stats
    assert stats.global_ == 0 and stats.total == 0, stats
    # nothing was lost on the way: the board shows the latest move (the AI seat's move after
    # the last human one included: boards go out through the click's token, outside the
    # budget, so the human move's delivery can finish before the AI has moved)
    await driver._wait_for_ai_idle()
    await driver.synced()
    assert driver.table.meta.get("delivered_version") == driver.table.version
    driver.assert_no_leaks()


async def test_the_process_bot_freezes_its_start_up_objects_once_ready(fake, world, bots):
    """`python -m bot` builds the bot with freeze_gc: once ready, the objects alive then
    leave the garbage collector's generations (shorter, rarer full collections under load)
    and the bot answers as before."""
    import asyncio
    import gc

    gc.unfreeze()
    try:
        await bots.start(bot_kwargs={"freeze_gc": True})
        for _ in range(200):
            if gc.get_freeze_count():
                break
            await asyncio.sleep(0.01)
        assert gc.get_freeze_count() > 10_000
        assert (await fake.slash(world.alice, "help", channel=world.channel)).ephemeral
    finally:
        gc.unfreeze()  # the other tests' bots are collected as usual
