"""The fake Discord against a tiny real discord.py bot (not the project's bot).

Each test starts a fresh fake and bot (~0.1 s). They check the fake behaves like Discord
where the project's bot depends on it: slash commands, views, dynamic items, ephemerals,
defer + followup, DMs (open and closed), command sync, 429 retries and reconnecting.
"""

from __future__ import annotations

import asyncio
import io
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands

from fakediscord import BotDidNotRespond, FakeDiscord, FakeDiscordError, running_bot
from fakediscord.models import Channel, Guild, User


class Counter(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.n = 0

    @discord.ui.button(label="Count 0", custom_id="count")
    async def count(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        self.n += 1
        button.label = f"Count {self.n}"
        await interaction.response.edit_message(content=f"count={self.n}", view=self)


class Roll(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"roll:(?P<n>\d+)"):
    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"Roll {n}", custom_id=f"roll:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> Roll:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"rolled {self.n}", ephemeral=True)


class Flip(discord.ui.View):
    @discord.ui.button(label="Flip", custom_id="flip")
    async def flip(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(content="flipped", view=None)


class Picker(discord.ui.View):
    @discord.ui.select(
        custom_id="pick",
        placeholder="Pick a suit",
        options=[discord.SelectOption(label=s, value=s.lower()) for s in ("Hearts", "Spades")],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select[Any]) -> None:
        await interaction.response.send_message(f"picked {select.values[0]}", ephemeral=True)


class Bid(discord.ui.Modal, title="Your bid"):
    amount: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Amount", custom_id="amount")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"bid {self.amount.value}")


def make_bot() -> commands.Bot:
    bot = commands.Bot(
        command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=0.05
    )
    tree = bot.tree
    game = app_commands.Group(name="game", description="Games")

    @game.command(name="new", description="Start a game")
    async def game_new(interaction: discord.Interaction, points: int, name: str = "x") -> None:
        await interaction.response.send_message(f"new {name} to {points}", view=Counter())

    tree.add_command(game)

    @tree.command(description="Pong")
    async def ping(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pong")

    @tree.command(description="Your hand")
    async def hand(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("your hand: 7♥", ephemeral=True, view=Counter())

    @tree.command(description="Slow")
    async def slow(interaction: discord.Interaction, private: bool = False) -> None:
        await interaction.response.defer(thinking=True, ephemeral=private)
        await asyncio.sleep(0.02)
        await interaction.followup.send("done slowly")

    @tree.command(description="DM someone")
    async def poke(interaction: discord.Interaction, target: discord.User) -> None:
        try:
            await target.send(f"poked by {interaction.user.name}")
        except discord.Forbidden as exc:
            await interaction.response.send_message(f"closed {exc.code}", ephemeral=True)
        else:
            await interaction.response.send_message("sent", ephemeral=True)

    @tree.command(description="Dynamic")
    async def roll(interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(Roll(3))
        await interaction.response.send_message("roll?", view=view)

    @tree.command(description="Select")
    async def pick(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pick one", view=Picker())

    @tree.command(description="Modal")
    async def bid(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(Bid())

    @tree.command(description="Play a card")
    async def play(interaction: discord.Interaction, card: str) -> None:
        await interaction.response.send_message(f"played {card}")

    @play.autocomplete("card")
    async def card_autocomplete(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        cards = ["7 hearts", "8 hearts", "king spades"]
        return [app_commands.Choice(name=c, value=c) for c in cards if current in c]

    @tree.command(description="Post in the channel")
    async def post(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("posting", ephemeral=True)
        assert interaction.channel is not None
        await interaction.channel.send(
            embed=discord.Embed(title="Board", description="empty"), view=Counter()
        )

    @tree.command(description="Moderators only")
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def admin(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("admin ok", ephemeral=True)

    @tree.command(description="Deferred update")
    async def flip(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("heads", view=Flip())

    @tree.command(description="Upload")
    async def upload(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            "file", file=discord.File(io.BytesIO(b"abc"), "a.txt")
        )

    @tree.command(description="Too slow")
    async def late(interaction: discord.Interaction) -> None:
        await asyncio.sleep(0.15)
        try:
            await interaction.response.send_message("too late")
        except discord.NotFound as exc:
            bot.late_errors.append(exc.code)  # type: ignore[attr-defined]

    async def setup_hook() -> None:
        bot.add_dynamic_items(Roll)

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    bot.late_errors = []  # type: ignore[attr-defined]
    return bot


@dataclass
class World:
    fake: FakeDiscord
    guild: Guild
    channel: Channel
    alice: User
    bob: User
    closed: User
    bot: commands.Bot


@pytest.fixture
async def fake(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    fake = await FakeDiscord().start()
    fake.patch_discord(monkeypatch)
    yield fake
    await fake.stop()


@pytest.fixture
async def world(fake: FakeDiscord) -> AsyncIterator[World]:
    guild = fake.add_guild("Test Guild")
    channel = fake.add_channel(guild, "games")
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    closed = fake.add_user("closed", dm_open=False)
    for user in (alice, bob, closed):
        fake.add_member(guild, user)
    bot = make_bot()
    async with running_bot(fake, bot):
        yield World(fake, guild, channel, alice, bob, closed, bot)


async def test_login_sees_guild_channel_and_application(world: World) -> None:
    bot = world.bot
    assert bot.application_id == world.fake.application_id
    assert bot.user is not None and bot.user.id == world.fake.bot_user.id
    guild = bot.get_guild(world.guild.id)
    assert guild is not None and guild.name == "Test Guild"
    assert [c.name for c in guild.text_channels] == ["games"]
    assert world.fake.unknown_calls == []


async def test_slash_with_subcommand_options_and_button_edit(world: World) -> None:
    fake = world.fake
    result = await fake.slash(world.alice, "game new", options={"points": 6}, channel=world.channel)
    assert result.type == 4 and not result.ephemeral and not result.deferred
    assert result.message is not None and result.message.content == "new x to 6"
    assert "Count 0" in result.text

    click = await fake.click(world.bob, result.message, "count")
    assert click.type == 7
    assert result.message.content == "count=1" and "Count 1" in result.message.text
    assert [v.content for v in result.message.edits] == ["new x to 6"]
    assert fake.channel_messages(world.channel) == [result.message]
    assert fake.ack_latencies and max(fake.ack_latencies) < 3


async def test_many_clicks_at_once_are_each_answered_to_their_own_caller(world: World) -> None:
    """Driver waits are resolved by the bot's REST calls, each wait by the call that
    completes it (not every waiting click woken by every call)."""
    fake = world.fake
    first = await fake.slash(world.alice, "game new", options={"points": 6}, channel=world.channel)
    results = await asyncio.gather(*(fake.slash(world.alice, "hand") for _ in range(20)),
                                   fake.click(world.bob, first.message, "count"))
    assert all(r.ephemeral for r in results[:-1]) and results[-1].type == 7
    assert len({r.interaction_id for r in results}) == 21
    assert not fake._waiters  # nothing left waiting


async def test_a_failing_wait_condition_reaches_its_caller_not_the_bot(world: World) -> None:
    fake = world.fake
    checks = []

    def breaks_on_the_second_check() -> bool:
        checks.append(1)
        if len(checks) > 1:
            raise KeyError("boom")
        return False

    waiting = asyncio.ensure_future(fake._wait_until(breaks_on_the_second_check, 5.0))
    await asyncio.sleep(0)
    result = await fake.slash(world.alice, "hand")  # the bot's callback still succeeds
    assert result.ephemeral
    with pytest.raises(KeyError):
        await waiting
    assert not fake._waiters


async def test_ephemeral_reply_and_clicking_it(world: World) -> None:
    fake = world.fake
    result = await fake.slash(world.alice, "hand")
    assert result.ephemeral and result.message is not None
    assert fake.ephemerals(world.alice) == [result.message]
    assert fake.channel_messages(world.channel) == []
    assert any("7♥" in t for t in fake.visible_texts(world.alice))
    assert not any("7♥" in t for t in fake.visible_texts(world.bob))
    with pytest.raises(FakeDiscordError):
        await fake.click(world.bob, result.message, "count")
    click = await fake.click(world.alice, result.message, "count")
    assert click.ephemeral and result.message.content == "count=1"


async def test_defer_then_followup_fills_the_placeholder(world: World) -> None:
    fake = world.fake
    result = await fake.slash(world.alice, "slow")
    assert result.deferred and result.type == 5
    assert result.message is not None and result.message.content == "done slowly"
    assert not result.message.loading and result.followups == []
    private = await fake.slash(world.alice, "slow", options={"private": True})
    assert private.ephemeral and private.message in fake.ephemerals(world.alice)


async def test_dm_open_and_closed(world: World) -> None:
    fake = world.fake
    ok = await fake.slash(world.alice, "poke", options={"target": world.bob})
    assert ok.text == "sent"
    assert [m.content for m in fake.dms(world.bob)] == ["poked by alice"]
    closed = await fake.slash(world.alice, "poke", options={"target": world.closed})
    assert closed.text == "closed 50007"
    assert fake.dms(world.closed) == []
    assert len(fake.calls_matching("POST", r"^/channels/\d+/messages$", status=403)) == 1


async def test_dynamic_item_select_modal_autocomplete(world: World) -> None:
    fake = world.fake
    rolled = await fake.slash(world.alice, "roll")
    assert rolled.message is not None
    roll = await fake.click(world.bob, rolled.message, "roll:3")
    assert roll.ephemeral and roll.text == "rolled 3"

    picker = await fake.slash(world.alice, "pick")
    assert picker.message is not None
    picked = await fake.select(world.alice, picker.message, "pick", ["spades"])
    assert picked.text == "picked spades"
    with pytest.raises(FakeDiscordError):
        await fake.select(world.alice, picker.message, "pick", ["clubs"])

    opened = await fake.slash(world.alice, "bid")
    assert opened.type == 9 and opened.modal is not None and opened.modal.title == "Your bid"
    submitted = await fake.submit_modal(world.alice, opened.modal.custom_id, {"amount": "12"})
    assert submitted.text == "bid 12"

    choices = await fake.autocomplete(world.alice, "play", {"card": "hearts"}, focused="card")
    assert [c["name"] for c in choices] == ["7 hearts", "8 hearts"]


async def test_channel_send_with_view_then_settle(world: World) -> None:
    fake = world.fake
    result = await fake.slash(world.alice, "post")
    await fake.settle()
    [board] = fake.channel_messages(world.channel)
    assert board.embeds[0]["title"] == "Board" and "empty" in board.text
    assert board is not result.message
    await fake.click(world.alice, board, "count")
    assert board.content == "count=1"


async def test_slash_in_dm(world: World) -> None:
    result = await world.fake.slash(world.alice, "ping", dm=True)
    assert result.text == "pong"
    assert world.fake.dms(world.alice) == [result.message]


async def test_tree_sync_to_guild_records_commands(world: World) -> None:
    fake, bot = world.fake, world.bot
    target = discord.Object(id=world.guild.id)
    bot.tree.copy_global_to(guild=target)
    synced = await bot.tree.sync(guild=target)
    names = sorted(c["name"] for c in fake.synced_commands(world.guild))
    assert names == sorted(c.name for c in synced)
    assert {"game", "ping", "poke"} <= set(names)
    game = next(c for c in fake.synced_commands(world.guild) if c["name"] == "game")
    assert game["options"][0]["name"] == "new" and game["options"][0]["type"] == 1
    # With a schema, option names are checked and the guild command is targeted.
    result = await fake.slash(world.alice, "game new", {"points": 3, "name": "y"})
    assert result.text.startswith("new y to 3")
    with pytest.raises(FakeDiscordError):
        await fake.slash(world.alice, "game new", {"pointz": 3})


async def test_injected_429_is_retried(world: World) -> None:
    fake, bot = world.fake, world.bot
    inj = fake.fail_next("POST", r"^/channels/\d+/messages$", status=429, retry_after=0.05)
    channel = bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    start = time.monotonic()
    await channel.send("after a 429")
    assert time.monotonic() - start >= 0.05
    assert inj.hits == 1
    assert [c.status for c in fake.calls_matching("POST", r"^/channels/\d+/messages$")] == [
        429,
        200,
    ]
    assert fake.rate_limit_stats.injected == 1
    # Interaction callbacks go through discord.py's webhook adapter; it retries too.
    fake.fail_next("POST", r"/callback$", status=429, retry_after=0.02)
    assert (await fake.slash(world.alice, "ping")).text == "pong"


async def test_enforced_rate_limit_answers_429_with_headers(fake: FakeDiscord) -> None:
    guild = fake.add_guild("g")
    channel = fake.add_channel(guild, "c")
    fake.enforce_rate_limits(per_route=2, per_seconds=5)
    url = f"{fake.rest_base}/channels/{channel.id}/messages"
    async with aiohttp.ClientSession() as session:
        statuses = []
        for _ in range(3):
            async with session.post(url, json={"content": "x"}) as resp:
                statuses.append(resp.status)
                last_headers, last_body = resp.headers, await resp.json()
    assert statuses == [200, 200, 429]
    assert last_headers["X-RateLimit-Remaining"] == "0" and "Via" in last_headers
    assert last_body["retry_after"] > 0 and last_body["global"] is False
    assert fake.rate_limit_stats.per_route == {"POST /channels/{id}/messages": 1}


async def test_discords_rate_limits_are_on_by_default(fake: FakeDiscord) -> None:
    """Without any call to enforce them: 5 messages per 5 s per channel (the 6th in one
    channel gets 429 with Discord's body and headers, another channel is not affected),
    and the interaction endpoints' exemptions."""
    guild = fake.add_guild("g")
    one, two = fake.add_channel(guild, "one"), fake.add_channel(guild, "two")
    base = fake.rest_base
    async with aiohttp.ClientSession() as session:
        statuses = []
        for _ in range(6):
            async with session.post(f"{base}/channels/{one.id}/messages",
                                    json={"content": "x"}) as resp:
                statuses.append(resp.status)
                headers, body = resp.headers, await resp.json()
        assert statuses == [200] * 5 + [429]
        assert set(body) >= {"message", "retry_after", "global"} and body["global"] is False
        assert 0 < body["retry_after"] <= 5 and headers["X-RateLimit-Scope"] == "user"
        assert headers["X-RateLimit-Limit"] == "5" and headers["X-RateLimit-Bucket"]
        async with session.post(f"{base}/channels/{two.id}/messages",
                                json={"content": "x"}) as resp:
            assert resp.status == 200 and resp.headers["X-RateLimit-Remaining"] == "4"
    assert fake.rate_limit_stats.per_route == {"POST /channels/{id}/messages": 1}
    assert fake.limiter.enforcing and fake.limiter.global_per_second == 50


async def test_create_dm_is_one_bucket_for_the_whole_bot(fake: FakeDiscord) -> None:
    """POST /users/@me/channels names no channel, guild or webhook, the only top-level
    resources Discord scopes per-route limits by (rate-limits.mdx): six DMs opened within
    5 s for six different players share one bucket, and the sixth gets Discord's 429."""
    users = [fake.add_user(f"u{i}") for i in range(6)]
    statuses, buckets = [], set()
    async with aiohttp.ClientSession() as session:
        for user in users:
            async with session.post(f"{fake.rest_base}/users/@me/channels",
                                    json={"recipient_id": str(user.id)}) as resp:
                statuses.append(resp.status)
                buckets.add(resp.headers["X-RateLimit-Bucket"])
                headers, body = resp.headers, await resp.json()
    assert statuses == [200] * 5 + [429]
    assert len(buckets) == 1
    assert body["message"] == "You are being rate limited." and body["global"] is False
    assert 0 < body["retry_after"] <= 5
    assert headers["X-RateLimit-Limit"] == "5" and headers["X-RateLimit-Remaining"] == "0"
    assert headers["X-RateLimit-Scope"] == "user" and "Via" in headers
    assert int(headers["Retry-After"]) >= 1 and "X-RateLimit-Global" not in headers
    assert fake.rate_limit_stats.per_route == {"POST /users/@me/channels": 1}


async def test_discordpy_respects_enforced_bucket(world: World) -> None:
    fake = world.fake
    fake.enforce_rate_limits(per_route=2, per_seconds=0.2)
    channel = world.bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    await asyncio.gather(*(channel.send(f"m{i}") for i in range(5)))
    assert sorted(m.content for m in fake.channel_messages(world.channel)) == [
        f"m{i}" for i in range(5)
    ]


async def test_unknown_route_is_loud(world: World) -> None:
    with pytest.raises(discord.NotFound, match="route not emulated"):
        await world.bot.http.request(
            discord.http.Route("GET", "/guilds/{guild_id}/bans", guild_id=world.guild.id)
        )
    assert [c.path for c in world.fake.unknown_calls] == [f"/guilds/{world.guild.id}/bans"]


async def test_bot_that_never_answers_raises(world: World) -> None:
    world.fake.ack_deadline = None
    with pytest.raises(BotDidNotRespond, match="nosuchcommand"):
        await world.fake.slash(world.alice, "nosuchcommand", timeout=0.2)


async def test_resume_after_reconnect_request(world: World) -> None:
    fake = world.fake
    session = fake.gateway.current
    await fake.request_reconnect()
    async with asyncio.timeout(5):
        while fake.gateway.resume_count == 0 or not fake.connected:
            await asyncio.sleep(0.01)
    assert fake.gateway.current is session and fake.gateway.identify_count == 1
    assert (await fake.slash(world.alice, "ping")).text == "pong"


async def test_second_bot_logs_in_to_same_fake(world: World) -> None:
    fake = world.fake
    first = await fake.slash(world.alice, "ping")
    await world.bot.close()
    second = make_bot()
    async with running_bot(fake, second):
        result = await fake.slash(world.alice, "ping")
        assert result.text == "pong"
        assert fake.channel_messages(world.channel) == [first.message, result.message]
        assert fake.gateway.identify_count == 2


async def test_deferred_update_then_edit_original(world: World) -> None:
    fake = world.fake
    coin = await fake.slash(world.alice, "flip")
    assert coin.message is not None
    result = await fake.click(world.bob, coin.message, "flip")
    assert result.type == 6 and result.deferred and result.message is coin.message
    assert coin.message.content == "flipped" and coin.message.components == []
    with pytest.raises(FakeDiscordError, match="no component"):
        await fake.click(world.bob, coin.message, "flip")


async def test_multipart_upload(world: World) -> None:
    result = await world.fake.slash(world.alice, "upload")
    assert result.message is not None and result.message.content == "file"
    assert [a["filename"] for a in result.message.attachments] == ["a.txt"]
    [call] = world.fake.calls_matching("POST", "/callback$")
    assert call.json["type"] == 4 and call.files[0]["size"] == 3


async def test_late_ack_breaks_the_three_second_rule(world: World) -> None:
    fake = world.fake
    fake.ack_deadline = 0.1
    with pytest.raises(BotDidNotRespond, match="acknowledged after"):
        await fake.slash(world.alice, "late")
    await fake.settle()
    assert world.bot.late_errors == [10062]  # type: ignore[attr-defined]


async def test_resume_after_dropped_socket_replays_missed_events(world: World) -> None:
    fake = world.fake
    await fake.drop_connection()
    # Sent while the bot is disconnected: buffered and replayed on RESUME.
    message = await fake.send_as(world.alice, world.channel, "hello while away")
    async with asyncio.timeout(5):
        while fake.gateway.resume_count == 0 or not fake.connected:
            await asyncio.sleep(0.01)
    async with asyncio.timeout(5):
        while not any(m.id == message.id for m in world.bot.cached_messages):
            await asyncio.sleep(0.01)
    assert (await fake.slash(world.alice, "ping")).text == "pong"


async def test_global_rate_limit(fake: FakeDiscord) -> None:
    fake.enforce_rate_limits(per_route=100, per_seconds=1, global_per_second=3)
    async with aiohttp.ClientSession() as session:
        statuses = []
        for _ in range(4):
            async with session.get(f"{fake.rest_base}/users/@me") as resp:
                statuses.append(resp.status)
                body, headers = await resp.json(), resp.headers
    assert statuses == [200, 200, 200, 429]
    assert body["global"] is True and headers["X-RateLimit-Global"] == "true"
    assert fake.rate_limit_stats.global_ == 1 and fake.rate_limit_stats.total == 1


async def test_command_permissions_opt_in(world: World) -> None:
    fake = world.fake
    mod = fake.add_user("mod")
    fake.add_member(world.guild, mod, manage_guild=True)
    await world.bot.tree.sync()
    assert (await fake.slash(world.alice, "admin")).text == "admin ok"  # not enforced by default
    fake.enforce_command_permissions = True
    with pytest.raises(FakeDiscordError, match="cannot see /admin"):
        await fake.slash(world.alice, "admin")
    with pytest.raises(FakeDiscordError, match="not available in DMs"):
        await fake.slash(mod, "admin", dm=True)
    assert (await fake.slash(mod, "admin")).text == "admin ok"
