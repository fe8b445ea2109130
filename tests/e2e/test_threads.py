"""Issue 16, a thread per table, end to end: the lobby stays in the channel, Start opens a
public thread from the lobby's message and the game is played there (boards, reposts, turn
pings, notices); the lobby's note links the thread; the result comes back to the channel
with **Play again** and the thread is archived (and locked where the bot may). Where the
bot can't make a thread it plays in the channel and says why once; a thread archived
during the game is reopened by the next board; a locked or deleted one pauses the table,
and `/<game> board` in the channel carries it on there; a restart finds the game in its
thread; `/config server table_place:channel` keeps the game in the channel."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from fakediscord.models import (
    CREATE_PUBLIC_THREADS,
    EMBED_LINKS,
    MANAGE_THREADS,
    SEND_MESSAGES_IN_THREADS,
)
from tests.e2e.driver import TableDriver, pings
from tests.e2e.test_one_board import eventually

pytestmark = pytest.mark.e2e


async def threaded(bots, **settings):
    return await bots.start(threads=True, **settings)


def board_count(fake, channel, table_id: int) -> int:
    marker = f"t:{table_id}:hand"
    return sum(1 for m in fake.channel_messages(channel, include_deleted=True)
               if any(marker in b.get("custom_id", "") for b in m.buttons()))


async def test_the_game_is_played_in_its_thread_and_the_result_comes_back(fake, world, bots):
    bot = await threaded(bots)
    d = TableDriver(fake, world, bots, "taboo")
    lobby = await d.open(world.alice, [world.bob, world.carol], options="max_turns=24")
    thread = d.thread
    assert thread is not None and thread.parent is world.channel
    assert thread.id == lobby.id, "started from the lobby's message"
    assert "Taboo" in thread.name and "alice" in thread.name and len(thread.name) <= 100
    assert await eventually(lambda: f"<#{thread.id}>" in fake.messages[lobby.id].text)
    assert not fake.messages[lobby.id].buttons()
    # the board, its reposts and the turn pings are in the thread, none in the channel
    await d.play_to_end()
    await d.result_posted()
    assert board_count(fake, thread, d.table_id) >= 2
    assert board_count(fake, world.channel, d.table_id) == 0
    for user in (world.alice, world.bob, world.carol):
        assert pings(fake, user, world.channel) == 0
        assert pings(fake, user, thread) >= 1
    # the channel: the lobby's note, Discord's "started a thread" line, the result
    result = next(m for m in fake.channel_messages(world.channel) if "game over" in m.text)
    assert any(b.get("label") == "Play again" for b in result.buttons())
    assert [m.type for m in fake.channel_messages(world.channel)] == [0, 18, 0]
    assert await eventually(lambda: thread.archived)
    assert not thread.locked, "locking needs Manage Threads"
    # the finished board in the archived thread still shows the whole game
    history = await d.history(world.outsider)
    assert "The game begins with 3 players." in history
    # Play again opens a lobby in the channel
    again = await fake.click(world.bob, result, d.custom_id(result, "Play again"))
    assert not again.ephemeral and again.message.channel_id == world.channel.id
    assert bot.tables.in_channel(world.channel.id) is not None


async def test_with_manage_threads_the_finished_thread_is_locked(fake, world, bots):
    next(r for r in world.guild.roles if r.managed).permissions |= MANAGE_THREADS
    await threaded(bots)
    d = TableDriver(fake, world, bots, "suspense")
    await d.open(world.alice, [], ai=1, options="points_target=2")
    thread = d.thread
    await d.play_to_end()
    assert await eventually(lambda: thread.archived and thread.locked)


async def test_without_the_permission_the_game_stays_in_the_channel_and_says_why(
        fake, world, bots):
    fake.deny_bot(world.channel, CREATE_PUBLIC_THREADS)
    await threaded(bots)
    d = TableDriver(fake, world, bots, "suspense")
    lobby = await d.open(world.alice, [world.bob])
    assert d.thread is None and not fake.threads_of(world.channel)
    note = fake.messages[lobby.id].text
    assert "couldn't open a thread" in note and "Create Public Threads" in note
    assert board_count(fake, world.channel, d.table_id) == 1
    said = [m for m in fake.channel_messages(world.channel) if "thread" in m.text]
    assert said == [fake.messages[lobby.id]], "said once, in the lobby's note"


async def test_a_thread_discord_refuses_falls_back_to_the_channel(fake, world, bots):
    await threaded(bots)
    fake.fail_next("POST", r"/threads$", 400, code=50024,
                   message="Cannot execute action on this channel type")
    d = TableDriver(fake, world, bots, "suspense")
    lobby = await d.open(world.alice, [world.bob])
    assert d.thread is None
    assert await eventually(lambda: "couldn't open a thread" in fake.messages[lobby.id].text)
    assert board_count(fake, world.channel, d.table_id) == 1
    result = await d.take_turn(world.alice if d.table.seat_of(world.alice.id) ==
                               await d.next_human() else world.bob)
    assert "✅" in result


async def test_a_lobby_in_a_thread_is_played_there(fake, world, bots):
    await threaded(bots)
    room = fake.make_thread(world.channel, "card room", world.alice)
    lobby = (await fake.slash(world.alice, "suspense new", channel=room)).message
    d = TableDriver(fake, world, bots, "suspense")
    d.game_channel = room
    d.table_id = int(d.custom_id(lobby, "Join").split(":")[1])
    await d.click(world.bob, lobby, "Join")
    await d.click(world.alice, lobby, "Start")
    await d.synced()
    assert fake.threads_of(world.channel) == [room]
    assert "already in a thread" in fake.messages[lobby.id].text
    assert board_count(fake, room, d.table_id) == 1


async def test_an_archived_thread_is_reopened_and_a_locked_one_pauses(fake, world, bots):
    await threaded(bots)
    d = TableDriver(fake, world, bots, "taboo")
    await d.open(world.alice, [world.bob], options="max_turns=40")
    thread = d.thread
    fake.update_thread(thread, archived=True)  # Discord's auto-archive, or a member
    user = d.seat_user(await d.next_human())
    assert "✅" in await d.take_turn(user)
    await d.synced()
    assert not thread.archived, "the next board reopened it"
    table = d.table
    assert table.paused is None and table.meta.get("delivered_version") == table.version
    fake.update_thread(thread, locked=True)  # a moderator
    user = d.seat_user(await d.next_human())
    await d.take_turn(user)
    assert await eventually(lambda: table.paused is not None)
    assert "locked" in table.paused
    await fake.settle()
    assert any("is paused" in m.text and f"<#{world.channel.id}>" in m.text
               for m in fake.dms(world.alice))


@pytest.mark.parametrize("denied", [SEND_MESSAGES_IN_THREADS, EMBED_LINKS])
async def test_a_thread_game_losing_a_permission_pauses_and_says_which(fake, world, bots,
                                                                        denied):
    """Permission removal mid-game, in a game's thread: Send Messages in Threads (the post
    is refused) or Embed Links (boards would go without their board) pauses the table, and
    the reason names the permission that went (discord.py reports Embed Links denied too
    where Send Messages in Threads is, which must not be taken for the reason)."""
    await threaded(bots, turn_seconds=1, timer_tick=0.05, pictures=False)
    d = TableDriver(fake, world, bots, "suspense")
    await d.open(world.alice, [], ai=1, options="turn_seconds=1 afk_turns=1")
    table = d.table
    assert table.row.parent_id == world.channel.id
    fake.deny_bot(world.channel, denied)
    assert await eventually(lambda: table.paused is not None, 15), "never paused"
    wanted = "Send Messages in Threads" if denied == SEND_MESSAGES_IN_THREADS else "Embed Links"
    assert wanted in table.paused, table.paused
    if denied == SEND_MESSAGES_IN_THREADS:
        assert "Embed Links permission there)" not in table.paused


async def test_a_deleted_thread_pauses_and_board_in_the_channel_carries_on(fake, world, bots):
    await threaded(bots, turn_seconds=1, timer_tick=0.05)
    d = TableDriver(fake, world, bots, "suspense")
    await d.open(world.alice, [], ai=1, options="turn_seconds=1 afk_turns=1")
    table, thread = d.table, d.thread
    fake.delete_channel(thread)
    assert await eventually(lambda: table.paused is not None), "never paused"
    assert "thread was deleted" in table.paused
    version = table.version
    await asyncio.sleep(1.3)
    assert table.version == version, "timers and the AI stay still"
    await fake.settle()
    assert any("is paused" in m.text for m in fake.dms(world.alice))
    # other commands in the channel point to the game's thread; /board there carries on
    carry_on = await fake.slash(world.alice, "suspense board", channel=world.channel)
    assert "Carrying on" in carry_on.text, carry_on.text
    assert await eventually(lambda: not table.paused and table.row.channel_id ==
                            world.channel.id and table.meta.get("delivered_version")
                            == table.version)
    await fake.settle()  # (delivered_version was already current: the repost may be drawing)
    assert board_count(fake, world.channel, d.table_id) >= 1
    assert (await d.bot.storage.get_table(table.id)).channel_id == world.channel.id


async def test_a_restart_finds_the_game_in_its_thread(fake, world, bots):
    await threaded(bots)
    d = TableDriver(fake, world, bots, "taboo")
    await d.open(world.alice, [world.bob], options="max_turns=30")
    thread = d.thread
    stored = await d.bot.storage.get_table(d.table_id)
    assert stored.channel_id == thread.id and stored.parent_id == world.channel.id
    await bots.restart(threads=True)
    assert d.table.row.channel_id == thread.id
    # commands in the channel point to the thread; in the thread they work
    pointed = await fake.slash(world.bob, "taboo hand", channel=world.channel)
    assert pointed.ephemeral and f"<#{thread.id}>" in pointed.text
    hand = await fake.slash(world.bob, "taboo hand", channel=thread)
    assert hand.ephemeral and "⚠️" not in hand.text
    user = d.seat_user(await d.next_human())
    assert "✅" in await d.take_turn(user)
    await d.synced()
    assert board_count(fake, world.channel, d.table_id) == 0


async def test_buttons_count_only_from_the_thread_or_the_lobbys_channel(fake, world, bots):
    await threaded(bots)
    d = TableDriver(fake, world, bots, "suspense")
    await d.open(world.alice, [world.bob])
    board = d.board()
    elsewhere = await fake.send_as(world.carol, world.other_channel, "hi")
    from tests.e2e.test_wrong_place import crafted, refusal

    text = refusal(await crafted(fake, world.bob, elsewhere, f"t:{d.table_id}:hand"))
    assert f"<#{d.thread.id}>" in text
    mine = await fake.click(world.bob, board, d.custom_id(board, "My hand"))
    assert mine.ephemeral and "⚠️" not in mine.text


async def test_the_channel_setting_keeps_the_game_in_the_channel(fake, world, bots):
    await threaded(bots)
    ok = await fake.slash(world.mod, "config server", {"setting": "table_place",
                                                      "value": "channel"},
                          channel=world.channel)
    assert "now **channel**" in ok.text
    d = TableDriver(fake, world, bots, "suspense")
    lobby = await d.open(world.alice, [world.bob])
    assert d.thread is None and not fake.threads_of(world.channel)
    assert "The board is below." in fake.messages[lobby.id].text
    assert "thread" not in fake.messages[lobby.id].text
    assert board_count(fake, world.channel, d.table_id) == 1


async def test_history_and_replay_of_a_thread_game_follow_the_channel(fake, world, bots):
    bot = await threaded(bots)
    d = TableDriver(fake, world, bots, "suspense")
    await d.open(world.alice, [], ai=1, options="points_target=2")
    thread = d.thread
    await d.play_to_end()
    assert await eventually(lambda: thread.archived)
    [match] = await bot.storage.history_matches(world.guild.id)
    assert match["channel_id"] == thread.id and match["parent_id"] == world.channel.id
    listed = await fake.slash(world.outsider, "history", channel=world.other_channel)
    assert f"`#{match['id']}`" in listed.text
    replay = await fake.slash(world.outsider, "replay", {"game": match["id"]},
                              channel=world.other_channel)
    assert "Move 0 of" in replay.text


async def test_a_cancelled_games_thread_is_archived(fake, world, bots):
    await threaded(bots)
    d = TableDriver(fake, world, bots, "suspense")
    lobby = await d.open(world.alice, [world.bob])
    thread = d.thread
    cancel = await fake.slash(world.alice, "suspense cancel", channel=thread)
    assert "Cancelled" in cancel.text
    assert await eventually(lambda: thread.archived)
    assert any("was cancelled" in m.text for m in fake.channel_messages(thread))
    # the channel's note no longer says the game is being played (found playing as new
    # users: it kept "▶️ Suspense has started … played in its thread" for good)
    note = fake.messages[lobby.id].text
    assert note.startswith("❌ **Suspense** with alice, bob was cancelled."), note
    assert f"<#{thread.id}>" in note and "has started" not in note, note


async def test_on_two_shards_a_thread_belongs_to_its_servers_shard(fake, world, tmp_path,
                                                                    database):
    """A thread's events (THREAD_DELETE here) go to the shard of its server, like its
    channel's: the bot running that shard pauses the game, the other one never hears."""
    from tests.e2e.conftest import BotRunner
    from tests.e2e.test_shards import other_server

    home, other_channel = await other_server(fake, world)
    runners = {}
    for shard in (0, 1):
        runners[shard] = BotRunner(fake, world, database if database.dialect == "postgresql"
                                   else tmp_path / f"shard{shard}.db")
        await runners[shard].start(shard_count=2, shard_ids=[shard], dev_guild_id=None,
                                   threads=True)
    try:
        world.channel, saved = other_channel, world.channel
        try:
            d = TableDriver(fake, world, runners[1 - home], "suspense")
            await d.open(world.alice, [world.bob])
        finally:
            world.channel = saved
        thread, table = d.thread, d.table
        assert thread is not None and thread.parent is other_channel
        assert not runners[home].current.tables.live
        fake.delete_channel(thread)
        assert await eventually(lambda: table.paused is not None)
        assert "thread was deleted" in table.paused
    finally:
        for runner in runners.values():
            await runner.stop()


async def test_a_lobby_in_a_voice_channels_chat_is_played_there(fake, world, bots):
    from fakediscord.models import CHANNEL_GUILD_VOICE

    await threaded(bots)
    voice = fake.add_channel(world.guild, "voice", type=CHANNEL_GUILD_VOICE)
    d = TableDriver(fake, dataclasses.replace(world, channel=voice), bots, "suspense")
    lobby = await d.open(world.alice, [world.bob])
    assert d.thread is None and not fake.threads_of(voice)
    assert "threads can't be made in this kind of channel" in fake.messages[lobby.id].text
    assert board_count(fake, voice, d.table_id) == 1


@pytest.mark.parametrize("manage", [False, True], ids=["member", "moderator"])
async def test_a_thread_someone_made_on_the_lobby_is_played_in_and_closed_only_if_allowed(
        fake, world, bots, manage):
    """Someone opens a thread on the lobby's message before Start: Discord refuses a second
    one (160004) and the game is played in theirs. Archiving a thread the bot did not make
    takes Manage Threads (topics/threads.mdx, Editing & Deleting Threads): without it the
    bot leaves the thread as it is, rather than be refused (a 403 counts toward Discord's
    invalid-request limit)."""
    if manage:
        next(r for r in world.guild.roles if r.managed).permissions |= MANAGE_THREADS
    await threaded(bots)
    d = TableDriver(fake, world, bots, "suspense")

    async def their_thread(lobby):
        fake.messages[lobby.id].thread = fake.make_thread(world.channel, "talk", world.carol,
                                                          thread_id=lobby.id)

    lobby = await d.open(world.alice, [], ai=1, options="points_target=2",
                         before_start=their_thread)
    thread = d.thread
    assert thread is not None and thread.id == lobby.id and thread.owner_id == world.carol.id
    await d.play_to_end()
    await d.result_posted()
    # no refusal that counts toward Discord's invalid-request limit (rate-limits.mdx)
    assert not [c for c in fake.calls if c.status in (401, 403, 429)]
    if manage:
        assert await eventually(lambda: thread.archived and thread.locked)
    else:
        assert not thread.archived


async def test_in_an_announcement_channel_a_thread_without_the_lobby_is_an_announcement_thread(
        fake, world, bots):
    """The lobby's message gone when the thread is made: a thread without a message, of the
    kind the channel has (channel.mdx: announcement channels have announcement threads, 10;
    a public thread, 11, is refused there)."""
    from fakediscord.models import CHANNEL_ANNOUNCEMENT_THREAD, CHANNEL_GUILD_ANNOUNCEMENT

    await threaded(bots)
    news = fake.add_channel(world.guild, "news", type=CHANNEL_GUILD_ANNOUNCEMENT)
    fake.fail_next("POST", r"/messages/\d+/threads$", 404, code=10008, message="Unknown Message")
    d = TableDriver(fake, dataclasses.replace(world, channel=news), bots, "suspense")
    await d.open(world.alice, [world.bob])
    assert d.thread is not None and d.thread.type == CHANNEL_ANNOUNCEMENT_THREAD
    assert d.thread.parent is news
