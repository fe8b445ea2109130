"""The bot's traffic as a server sees it by default (a thread per table, pictures on), for
each of the five games: lobby, My hand, a whole game in its thread, the result with Play
again, and the commands around a game (/config, /notify, /pictures, /history, /replay,
Export, /leave, /cancel, a restart). Every request must be accepted by the fake, which
refuses what Discord's docs refuse; with E2E_TRAFFIC_LOG set (tests/e2e/conftest.py) the
requests are written out for an audit against the docs (scripts/traffic_audit.py)."""

from __future__ import annotations

import pytest

from tests.e2e.driver import TableDriver
from tests.e2e.test_one_board import eventually

pytestmark = pytest.mark.e2e

GAMES = {"suspense": (1, "points_target=2"), "taboo": (1, "max_turns=20"),
         "hiddenrules": (3, None), "suittaboo": (3, None), "sixsuit": (2, None)}


def refused(fake) -> list[str]:
    """Requests the fake refused, but for the refusals the bot expects and handles."""
    return [f"{c.method} {c.path} -> {c.status}: {c.json}" for c in fake.calls
            if c.status is not None and c.status >= 400]


def without_discord_agent(fake) -> set[str]:
    """Routes of requests that did not name the bot's library as Discord asks
    (reference.mdx, User Agent: `DiscordBot (url, version)`)."""
    return {c.route for c in fake.calls
            if not c.headers.get("User-Agent", "").startswith("DiscordBot (")}


def button(message, label: str) -> str:
    return next(b["custom_id"] for b in message.buttons() if b.get("label") == label)


@pytest.mark.parametrize("command", list(GAMES))
async def test_a_default_game_makes_only_requests_discord_accepts(fake, world, bots, command):
    bot = await bots.start(threads=True, pictures=True)
    ai, options = GAMES[command]
    d = TableDriver(fake, world, bots, command)
    await d.open(world.alice, [world.bob], ai=ai, options=options)
    thread = d.thread
    assert thread is not None
    await d.click(world.bob, d.board(), "My hand")
    await fake.slash(world.bob, f"{command} hand", channel=d.channel)
    await fake.slash(world.bob, "notify", {"mode": "dm"}, channel=world.channel)
    await bots.restart(threads=True, pictures=True)
    await d.synced()
    await d.play_to_end(check_leaks_every=50)
    result = await d.result_posted()
    await fake.click(world.bob, result, button(result, "Play again"))
    await fake.settle()
    assert bot is not bots.current
    # the finished game's thread stays archived: nothing was posted in it after its result
    assert await eventually(lambda: thread.archived)
    last = fake.channel_messages(thread)[-1]
    assert last.id < result.id, "a board posted after the result reopened the thread"
    assert not refused(fake), "\n".join(refused(fake))
    assert not without_discord_agent(fake)


async def test_commands_around_a_game_make_only_requests_discord_accepts(fake, world, bots):
    await bots.start(threads=True, pictures=True)
    await fake.slash(world.mod, "config server", channel=world.channel)
    await fake.slash(world.mod, "config set", {"game": "suspense", "option": "points_target",
                                               "value": "2"}, channel=world.channel)
    await fake.slash(world.mod, "config show", {"game": "suspense"}, channel=world.channel)
    await fake.slash(world.alice, "pictures", channel=world.channel)
    await fake.slash(world.alice, "help", channel=world.channel)
    await fake.slash(world.alice, "suspense rules", channel=world.channel)
    d = TableDriver(fake, world, bots, "suspense")
    await d.open(world.alice, [world.bob, world.carol])
    await fake.slash(world.carol, "suspense leave", channel=d.channel)
    await d.synced()
    await d.play_to_end(check_leaks_every=50)
    result = await d.result_posted()
    await fake.slash(world.outsider, "history", channel=world.channel)
    replay = await fake.click(world.outsider, result, button(result, "Replay"))
    await fake.click(world.outsider, replay.message, button(replay.message, "Next"))
    await fake.click(world.outsider, replay.message, button(replay.message, "Export"))
    await fake.autocomplete(world.outsider, "replay", focused="game", options={"game": ""},
                            channel=world.channel)
    d2 = TableDriver(fake, world, bots, "taboo")
    await d2.open(world.alice, [world.bob])
    await fake.slash(world.alice, "taboo cancel", channel=d2.channel)
    await fake.settle()
    assert not refused(fake), "\n".join(refused(fake))
    assert not without_discord_agent(fake)
