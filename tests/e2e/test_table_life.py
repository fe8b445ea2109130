"""Issue 16, leave, resign, remove, kick, expire, rematch, end to end through the fake:
a player leaves a running game (an AI takes the seat, the result records it, the channel is
told), the host removes an AI seat or a player before the start, an idle lobby closes by
itself after the server's setting, and the result's **Play again** opens a lobby with the
same seats and options that the other players confirm by joining."""

from __future__ import annotations

import asyncio
import re

import pytest

from tests.e2e.driver import TableDriver

pytestmark = pytest.mark.e2e


def texts_of(fake, channel) -> str:
    return "\n".join(v.text for m in fake.channel_messages(channel, include_deleted=True)
                     for v in m.versions())



def _game_over_message(fake, world):
    """The latest result message in the table's channel."""
    return next(m for m in reversed(fake.channel_messages(world.channel))
                if "game over" in m.text)


async def _finished_suspense_with_play_again(fake, world, bots):
    """alice, bob and one AI play Suspense to the end: the driver, the result message and
    its Play again button's custom id."""
    d = TableDriver(fake, world, bots, "suspense")
    await d.open(world.alice, [world.bob], ai=1, options="points_target=2")
    await d.play_to_end()
    result = _game_over_message(fake, world)
    return d, result, d.custom_id(result, "Play again")

async def test_a_player_leaves_a_running_game_and_an_ai_finishes_it(fake, world, bots, bot):
    d = TableDriver(fake, world, bots, "taboo")
    await d.open(world.alice, [world.bob, world.carol], options="max_turns=24")
    seat = d.table.seat_of(world.bob.id)
    ask = await d.click(world.bob, d.board(), "Leave")
    assert ask.ephemeral and "An AI plays your seat" in ask.text
    assert not d.table.is_ai(seat), "asking changes nothing"
    outsider = await d.click(world.outsider, d.board(), "Leave")
    assert outsider.ephemeral and "not playing at this table" in outsider.text
    done = await fake.click(world.bob, ask.message, d.custom_id(ask.message, "Leave the game"))
    assert "You left" in done.text
    await d.synced()
    table = d.table
    assert table.is_ai(seat) and table.seats[seat]["left"]
    assert "🚪 bob left the game; an AI plays their seat" in texts_of(fake, world.channel)
    # bob's buttons and commands now say why they do nothing
    again = await d.click(world.bob, d.board(), "My hand")
    assert again.ephemeral and "You left this game" in again.text
    typed = await fake.slash(world.bob, "taboo draw", channel=world.channel)
    assert typed.ephemeral and "You left this game" in typed.text
    await d.play_to_end()
    result = _game_over_message(fake, world)
    assert "bob (left)" in result.text and "left during the game" in result.text
    assert any(b.get("label") == "Play again" for b in result.buttons())
    stats = {r.name: r for r in await bot.storage.player_stats(world.guild.id, world.bob.id)}
    assert stats["bob"].played == 1 and stats["bob"].wins == 0


async def test_the_last_player_leaving_cancels_the_game(fake, world, bots, bot):
    d = TableDriver(fake, world, bots, "taboo")
    await d.open(world.alice, [], ai=1, options="max_turns=24")
    ask = await fake.slash(world.alice, "taboo leave", channel=world.channel)
    done = await fake.click(world.alice, ask.message, d.custom_id(ask.message,
                                                                   "Leave the game"))
    assert "cancelled" in done.text
    assert bot.tables.in_channel(world.channel.id) is None


async def test_the_host_removes_an_ai_seat_and_a_player_before_the_start(fake, world, bots,
                                                                         bot):
    lobby = (await fake.slash(world.alice, "taboo new", channel=world.channel)).message
    await fake.click(world.bob, lobby, next(b["custom_id"] for b in lobby.buttons()
                                            if b.get("label") == "Join"))
    ai = next(b["custom_id"] for b in lobby.buttons() if b.get("label") == "Add AI")
    await fake.click(world.alice, lobby, ai)
    await fake.click(world.alice, lobby, ai)
    table = bot.tables.in_channel(world.channel.id)
    assert [s["name"] for s in table.seats] == ["alice", "bob", "🤖 Ada", "🤖 Babbage"]
    menu = next(c for c in lobby.buttons() if c["custom_id"].startswith("lr:"))
    labels = [o["label"] for o in menu["options"]]
    assert labels == ["Remove bob", "Remove 🤖 Ada", "Remove 🤖 Babbage"]
    refused = await fake.select(world.bob, lobby, menu["custom_id"], ["2"])
    assert refused.ephemeral and "Only the host" in refused.text
    assert len(table.seats) == 4
    await fake.select(world.alice, lobby, menu["custom_id"], ["2"])  # an AI added by mistake
    assert [s["name"] for s in table.seats] == ["alice", "bob", "🤖 Babbage"]
    await fake.select(world.alice, lobby, menu["custom_id"], ["1"])  # and bob
    assert [s["name"] for s in table.seats] == ["alice", "🤖 Babbage"]
    assert "bob" not in lobby.text
    # a removed player can't come straight back; others still can, and so can AI seats
    version = table.version
    back = await fake.click(world.bob, lobby, d_join := next(
        b["custom_id"] for b in lobby.buttons() if b.get("label") == "Join"))
    assert back.ephemeral and "The host removed you from this lobby" in back.text
    assert table.version == version and "bob" not in lobby.text
    assert not (await fake.click(world.carol, lobby, d_join)).ephemeral
    await fake.click(world.alice, lobby, ai)
    assert [s["name"] for s in table.seats] == ["alice", "🤖 Babbage", "carol", "🤖 Ada"]


async def test_the_host_leaving_the_lobby_hands_it_over_and_the_last_one_closes_it(
        fake, world, bots, bot):
    lobby = (await fake.slash(world.alice, "taboo new", channel=world.channel)).message
    join = next(b["custom_id"] for b in lobby.buttons() if b.get("label") == "Join")
    leave = next(b["custom_id"] for b in lobby.buttons() if b.get("label") == "Leave")
    await fake.click(world.bob, lobby, join)
    await fake.click(world.carol, lobby, join)
    table = bot.tables.in_channel(world.channel.id)
    await fake.click(world.alice, lobby, leave)
    assert table.row.host_id == world.bob.id, "the next player hosts"
    assert f"<@{world.bob.id}> 👑" in lobby.text and f"<@{world.alice.id}>" not in lobby.text
    start = next(b["custom_id"] for b in lobby.buttons() if b.get("label") == "Start")
    assert (await fake.click(world.carol, lobby, start)).ephemeral, "carol doesn't host"
    await fake.click(world.bob, lobby, leave)
    await fake.click(world.carol, lobby, leave)
    assert "everyone left" in lobby.text and not lobby.buttons()
    assert bot.tables.in_channel(world.channel.id) is None


async def test_an_idle_lobby_closes_after_the_servers_setting(fake, world, bots):
    bot = await bots.start(timer_tick=0.05)
    refused = await fake.slash(world.alice, "config server",
                               {"setting": "lobby_idle_minutes", "value": "5"},
                               channel=world.channel)
    assert refused.ephemeral and "Manage Server" in refused.text
    seen = await fake.slash(world.alice, "config server", channel=world.channel)
    assert "lobby_idle_minutes` = **30**" in seen.text, "anyone may see them"
    ok = await fake.slash(world.mod, "config server",
                          {"setting": "lobby_idle_minutes", "value": "5"}, channel=world.channel)
    assert "now **5**" in ok.text
    bad = await fake.slash(world.mod, "config server",
                           {"setting": "lobby_idle_minutes", "value": "0"},
                           channel=world.channel)
    assert "⚠️" in bad.text and "Nothing was changed" in bad.text
    lobby = (await fake.slash(world.alice, "suspense new", channel=world.channel)).message
    table = bot.tables.in_channel(world.channel.id)
    assert table.meta["idle_seconds"] == 300
    await asyncio.sleep(0.3)
    assert bot.tables.in_channel(world.channel.id) is table, "not idle long enough yet"
    table.meta["touched"] -= 301  # five minutes pass without a click
    for _ in range(200):
        await asyncio.sleep(0.05)
        if bot.tables.in_channel(world.channel.id) is None:
            break
    assert bot.tables.in_channel(world.channel.id) is None
    # the lobby message is edited after the table is dropped: wait for it (on a loaded
    # machine settle() could return before the edit was sent)
    for _ in range(200):
        await fake.settle()
        if "closed after" in lobby.text:
            break
        await asyncio.sleep(0.05)
    assert "closed after 5 minutes without activity" in lobby.text and not lobby.buttons()
    again = await fake.slash(world.bob, "suspense new", channel=world.channel)
    assert not again.ephemeral, "the channel is free again"


async def test_play_again_opens_a_lobby_with_the_same_seats_and_options(fake, world, bots,
                                                                        bot):
    d, result, button = await _finished_suspense_with_play_again(fake, world, bots)
    stranger = await fake.click(world.outsider, result, button)
    assert stranger.ephemeral and "Only the players of that game" in stranger.text
    answer = await fake.click(world.bob, result, button)
    assert not answer.ephemeral
    lobby = answer.message
    table = bot.tables.in_channel(world.channel.id)
    assert table.row.host_id == world.bob.id
    assert [s["name"] for s in table.seats] == ["bob", "🤖 Ada"]
    assert table.game_options["points_target"] == 2
    assert f"<@{world.alice.id}>" in lobby.content, "the other player is pinged"
    assert "Invited to play again" in lobby.text
    # alice pressed it too, a moment later: she joins the rematch (she was told "This
    # channel already has a lobby of Suspense" and left to find its Join)
    twice = await fake.click(world.alice, result, button)
    assert twice.ephemeral and "You joined bob's rematch lobby" in twice.text, twice.text
    assert [s["name"] for s in table.seats] == ["bob", "🤖 Ada", "alice"]
    await fake.settle()
    assert "Invited to play again" not in lobby.text
    assert f"<@{world.alice.id}>" in lobby.text, "the lobby shows her seat"
    again = await fake.click(world.alice, result, button)
    assert again.ephemeral and "already seated" in again.text, again.text
    await fake.click(world.bob, lobby, d.custom_id(lobby, "Start"))
    await fake.settle()
    assert d.bot.tables.in_channel(world.channel.id).playing
    assert re.search(r"has started with .*bob", lobby.text)


async def test_play_again_and_cancel_in_a_loop_pings_the_other_players_once(fake, world,
                                                                          bots, bot):
    """Attack: a player presses Play again, cancels the lobby, and presses it again, every
    command cooldown: each lobby pinged every other player of the game. They are pinged by
    the first one; later lobbies of the same game name them without a ping."""
    _, result, button = await _finished_suspense_with_play_again(fake, world, bots)
    for _ in range(3):
        answer = await fake.click(world.bob, result, button)
        assert not answer.ephemeral, answer.text
        assert f"<@{world.alice.id}>" in answer.message.content, "she is named"
        done = await fake.slash(world.bob, "suspense cancel", channel=world.channel)
        assert "Cancelled" in done.text, done.text
        await fake.settle()
    pinged = 0
    for call in fake.calls:
        body = (call.json or {}) if call.path.endswith("/callback") else {}
        data = body.get("data") or {}
        if f"<@{world.alice.id}>" in (data.get("content") or ""):
            allowed = data.get("allowed_mentions") or {}
            pinged += str(world.alice.id) in [str(u) for u in allowed.get("users") or []]
    assert pinged == 1, "pinged by the first lobby only"


async def test_history_button_pages_through_the_whole_game_even_after_it_ended(
        fake, world, bots, bot):
    d = TableDriver(fake, world, bots, "taboo")
    await d.open(world.alice, [world.bob], options="max_turns=24")
    table = d.table
    await d.play_to_end()
    history = await d.history(world.outsider)  # anyone may read it; only they see it
    numbered = [line for line in history.splitlines() if line.startswith("`")]
    assert len(numbered) == table.meta["history_len"] > 15, "every public line, in pages"
    assert numbered[0].startswith("`1.` The game begins")
    assert "Page 1 of" in history and "Taboo — history" in history
    board = d.boards()[-1]
    assert len([v for v in board.versions()[-1].components]) >= 1, "History stays at the end"
