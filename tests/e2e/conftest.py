"""End-to-end fixtures: the real bot (built by `create_bot`) against the fake Discord.

`bots.start()` launches a bot process-equivalent on a database; calling it again after
`bots.stop()` on the same database is how restart tests simulate a new process. Every test
that uses `bots` (or `bot`) runs twice: on a SQLite file and on a fresh PostgreSQL database
(the `database` fixture, tests/databases.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot import pictures
from bot.app import CardTableBot, create_bot
from bot.settings import Settings
from fakediscord import Channel, FakeDiscord, Guild, User
from tests.databases import Database
from tests.stacks import asyncio_stacks

# bot.close() waits at most 30 s for queued saves (bot.storage.CLOSE_SECONDS) and 5 s for
# the read pool; more than this is a hang
CLOSE_SECONDS = 60.0


@dataclass
class World:
    guild: Guild
    channel: Channel
    other_channel: Channel
    alice: User
    bob: User
    carol: User
    dave: User
    mod: User
    outsider: User


@pytest.fixture(autouse=True)
def no_avoidable_429(request):
    """Every end-to-end test runs under Discord's rate limits (the fake's default) and fails
    if the bot got a 429 from them: discord.py reads the buckets' headers and the bot paces
    itself under the global limit, so a 429 means a request it could have held back (each
    one counts toward Discord's invalid-request ban). 429s a test injects on purpose
    (`fail_next`) are not counted; a test that provokes real ones says so with
    `@pytest.mark.rate_limited("why")`."""
    if "fake" not in request.fixturenames or request.node.get_closest_marker("rate_limited"):
        yield
        return
    stats = request.getfixturevalue("fake").rate_limit_stats
    yield
    refused = dict(stats.per_route)
    if stats.global_:
        refused["global"] = stats.global_
    assert not refused, f"the bot got avoidable 429s: {refused}"


@pytest.fixture(autouse=True)
def no_refused_bodies(request):
    """Every end-to-end test fails if the fake refused a request of the bot the way Discord
    refuses a malformed one (400 Invalid Form Body, 50035, or an empty message, 50006): on
    Discord that request would have failed too, and the bot often only logs it (a board
    not posted, an answer not shown). Errors a test injects (`fail_next`) are not counted;
    a test that has the bot send such a body on purpose says so with
    `@pytest.mark.refused_bodies("why")`."""
    if "fake" not in request.fixturenames or request.node.get_closest_marker("refused_bodies"):
        yield
        return
    server = request.getfixturevalue("fake")
    yield
    refused = [f"{call.method} {call.path}: {str(call.json)[:400]} -> {call.refusal}"
               for call in server.refused_calls]
    assert not refused, "Discord would have refused these requests:\n" + "\n".join(refused)


@pytest.fixture
async def fake(monkeypatch, request):
    server = await FakeDiscord().start()
    server.patch_discord(monkeypatch)
    yield server
    await server.stop()
    if os.environ.get("E2E_TRAFFIC_LOG"):
        dump_traffic(server, request.node.nodeid, Path(os.environ["E2E_TRAFFIC_LOG"]))


def dump_traffic(fake: FakeDiscord, test: str, path: Path) -> None:
    """Append every request the bot made in one test to a JSON-lines file, each with the
    type of the interaction its token belongs to: the material of a traffic audit against
    Discord's docs (scripts/traffic_audit.py sums it up)."""
    with path.open("a") as out:
        for call in fake.calls:
            token = call.path.split("/")[3] if call.path.startswith(("/webhooks/",
                                                                     "/interactions/")) else ""
            pending = fake._by_token.get(token)
            parts = call.path.split("/")
            target = (fake.channels.get(int(parts[2])) if parts[1] == "channels"
                      and parts[2].isdigit() else None)
            out.write(json.dumps({
                "test": test, "method": call.method, "route": call.route, "path": call.path,
                "query": call.query, "status": call.status, "json": call.json,
                "files": call.files, "headers": call.headers,
                "interaction_type": pending.type if pending else None,
                "interaction_message": bool(pending and pending.message),
                "channel_type": (pending.channel.type if pending else
                                 target.type if target else None),
            }, default=str) + "\n")


@pytest.fixture
def world(fake) -> World:
    guild = fake.add_guild("Card Club")
    channel = fake.add_channel(guild, "games")
    other = fake.add_channel(guild, "more-games")
    users = {name: fake.add_user(name) for name in
             ("alice", "bob", "carol", "dave", "outsider")}
    mod = fake.add_user("mod")
    for user in users.values():
        fake.add_member(guild, user)
    fake.add_member(guild, mod, manage_guild=True)
    return World(guild, channel, other, users["alice"], users["bob"], users["carol"],
                 users["dave"], mod, users["outsider"])


class BotRunner:
    """Starts and stops bots against the fake; a new start on the same db = a restart."""

    def __init__(self, fake: FakeDiscord, world: World, database: Database | Path) -> None:
        if isinstance(database, Path):
            database = Database("sqlite", database)
        self.fake, self.world, self.database = fake, world, database
        self.current: CardTableBot | None = None
        self._task: asyncio.Task | None = None
        # every picture the bots drew: its bytes -> (players' names, seat drawn for; None =
        # the public view), for the picture leak scan (TableDriver.assert_no_leaks)
        self.drawn: dict[bytes, set[tuple[tuple[str, ...], int | None]]] = {}
        self._unpatch: Callable[[], None] | None = None

    def _record_pictures(self) -> None:
        """Wrap the bot's picture drawing to remember what each picture was drawn from."""
        from bot.ui import render

        if self._unpatch is not None:
            return
        real = render.render_off_loop

        async def recording(job):
            picture = await real(job)
            if picture is not None:
                self.drawn.setdefault(picture.data, set()).add((tuple(job.names), job.seat))
            return picture

        render.render_off_loop = recording

        def undo() -> None:
            render.render_off_loop = real

        self._unpatch = undo

    def settings(self, **overrides) -> Settings:
        values = dict(discord_token="fake-token", **self.database.settings, ai_delay=0.0,
                      # AI seats move at once, also while a human could still enforce
                      # (test_hidden_rules: test_an_ai_holds_its_card_while_a_human_may_enforce)
                      ai_hold_seconds=0.0, turn_seconds=0, timer_tick=0.05, dev_guild_id=self.world.guild.id,
                      log_level="INFO", game_seed=int(os.environ.get("E2E_GAME_SEED", "1")),
                      # tests click fast on purpose; test_abuse checks the cooldowns
                      command_cooldown=0,
                      # games in their lobby's channel, where these tests look for them;
                      # tests/e2e/test_threads.py plays them in threads (the default)
                      threads=os.environ.get("E2E_THREADS") == "1",
                      # pictures on, as a real bot runs (fake.settle() waits for pictures
                      # being drawn: a busy probe on bot.pictures.drawing, set in start);
                      # E2E_PICTURES=0 runs the suite text only
                      pictures=os.environ.get("E2E_PICTURES", "1") != "0")
        values.update(overrides)
        return Settings(_env_file=None, **values)

    async def start(self, *, bot_kwargs: dict | None = None, **overrides) -> CardTableBot:
        bot = create_bot(self.settings(**overrides), guild_ready_timeout=0.05,
                         **(bot_kwargs or {}))
        if pictures.drawing not in self.fake.busy_probes:
            self.fake.busy_probes.append(pictures.drawing)
        self._record_pictures()
        # outermost, after the bot's own budget: settle() waits for what the bot holds back
        self.fake.watch_client(bot)
        self._task = asyncio.create_task(bot.start("fake-token"))
        waiter = asyncio.create_task(bot.wait_until_ready())
        done, _ = await asyncio.wait({self._task, waiter}, timeout=15,
                                     return_when=asyncio.FIRST_COMPLETED)
        if self._task in done:
            waiter.cancel()
            self._task.result()  # re-raise the crash
        assert waiter in done, "bot did not become ready"
        self.current = bot
        await self.fake.settle()
        return bot

    async def stop(self) -> None:
        if self.current is None:
            return
        try:
            # a shutdown that never ends is a bug of the bot (SIGTERM would hang too): say
            # so, with where its tasks wait, instead of eating the test's whole timeout
            await asyncio.wait_for(asyncio.shield(self.current.close()), CLOSE_SECONDS)
        except TimeoutError:
            raise AssertionError(f"bot.close() did not finish in {CLOSE_SECONDS:.0f} s; its "
                                 f"tasks:\n{asyncio_stacks()}") from None
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(self._task, 10)
        self.current = None

    async def restart(self, **overrides) -> CardTableBot:
        await self.stop()
        return await self.start(**overrides)


@pytest.fixture
async def bots(fake, world, database):
    runner = BotRunner(fake, world, database)
    yield runner
    await runner.stop()
    if runner._unpatch is not None:
        runner._unpatch()


@pytest.fixture
async def bot(bots):
    return await bots.start()
