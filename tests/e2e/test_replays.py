"""`/history`, `/replay` and the export (issue 18), through the fake Discord: every button
of a replay, a player's own view, the JSON file, and the leak scan over all of it (nothing
shown at a step holds a card still hidden then from whoever looks)."""

from __future__ import annotations

import re

import pytest

from bot.replay.record import GameRecord, ReplayMismatch, replay
from bot.ui import replays as replays_ui
from tests.e2e.driver import TableDriver
from tests.e2e.replay_checks import (
    STEP,
    assert_every_step_hides_secrets,
    assert_export_hides_secrets,
    assert_shown_replays_hide_secrets,
)
from tests.e2e.test_replay_records import SHORT

pytestmark = pytest.mark.e2e


async def _finished(fake, world, bots, game: str, *, ai: int = 1):
    command, options = SHORT[game]
    d = TableDriver(fake, world, bots, command)
    await d.open(world.alice, [world.bob], ai=ai, options=options)
    table = d.table
    await d.play_to_end()
    [match] = await d.bot.storage.recent_matches(world.guild.id, limit=1)
    record = GameRecord.from_json(await d.bot.storage.match_record(match["id"]))
    return d, table, match["id"], replay(table.engine, record)


def _button(message, label: str) -> dict:
    return next(b for b in message.buttons() if b.get("label") == label)


def _step(text: str) -> tuple[int, int, str]:
    found = STEP.search(text)
    assert found, text[:300]
    return int(found[1]), int(found[2]), found[3]


async def _export(fake, user, message) -> tuple[object, bytes]:
    result = await fake.click(user, message, _button(message, "Export")["custom_id"])
    assert result.ephemeral and result.deferred
    [attachment] = result.message.attachments
    assert attachment["filename"].endswith(".json")
    return result, fake.upload_data(attachment)


@pytest.mark.parametrize("game", ["suit_taboo", "hidden_rules"])
async def test_a_replay_steps_through_the_game_as_the_channel_saw_it(fake, world, bots, bot,
                                                                    game, monkeypatch):
    d, table, match_id, again = await _finished(fake, world, bots, game)
    last = again.last
    # the result message offers the replay to anyone in the channel
    result = next(m for m in fake.channel_messages(world.channel) if "game over" in m.text)
    opened = await fake.click(world.outsider, result, _button(result, "Replay")["custom_id"])
    assert opened.ephemeral and "⚠️" not in opened.text
    screen = opened.message
    assert _step(screen.text) == (0, last, "the channel") and "The deal" in screen.text
    assert not any(b.get("label") == "My view" for b in screen.buttons()), "not a player"
    assert _button(screen, "First")["disabled"] and _button(screen, "Back")["disabled"]
    moves = {"Next": lambda k: k + 1, "Back": lambda k: k - 1, "10 on": lambda k: k + 10,
             "10 back": lambda k: k - 10, "First": lambda k: 0, "Last": lambda k: last}
    at = 0
    for label in ("Next", "Next", "10 on", "Back", "10 back", "Last", "First", "Last"):
        if _button(screen, label).get("disabled"):
            continue  # e.g. 10 on at the end of a short game
        clicked = await fake.click(world.outsider, screen, _button(screen, label)["custom_id"])
        assert clicked.type == 7, (label, clicked.text[:200])  # the same message, edited
        at = max(0, min(last, moves[label](at)))
        assert _step(screen.text) == (at, last, "the channel"), label
    assert "Game over" in screen.text and _button(screen, "Next")["disabled"]
    # the last step shows the recorded result
    outcome = table.engine.outcome(table.state)
    for seat in outcome.winners:
        assert f"🏆 **{table.names[seat]}**" in screen.text
    # a player steps through their own view too
    mine = await fake.slash(world.alice, "replay", {"game": match_id}, channel=world.channel)
    assert mine.ephemeral
    view = await fake.click(world.alice, mine.message, _button(mine.message, "My view")
                            ["custom_id"])
    assert _step(mine.message.text) == (0, last, "alice")
    assert "only you see it" in mine.message.text.lower()
    for _ in range(3):
        await fake.click(world.alice, mine.message, _button(mine.message, "Next")["custom_id"])
    await fake.click(world.alice, mine.message, _button(mine.message, "Last")["custom_id"])
    assert _step(mine.message.text)[0] == last
    back = await fake.click(world.alice, mine.message, _button(mine.message, "Channel view")
                            ["custom_id"])
    assert back.type == 7 and _step(mine.message.text) == (last, last, "the channel")
    assert view.type == 7
    # exports: the channel's record for anyone, a player's own view for that player
    _, public = await _export(fake, world.outsider, screen)
    doc = assert_export_hides_secrets(public, again, None)
    assert doc["seen_by"] == "the channel" and doc["match"] == match_id
    assert all("you" not in step for step in doc["steps"])
    assert doc["result"]["winners"] == [table.plain_names[s] for s in sorted(outcome.winners)]
    await fake.click(world.alice, mine.message, _button(mine.message, "My view")["custom_id"])
    _, private = await _export(fake, world.alice, mine.message)
    alice = table.seat_of(world.alice.id)
    doc = assert_export_hides_secrets(private, again, alice)
    assert all("you" in step for step in doc["steps"]) and doc["seen_by"].startswith("alice")
    # the leak scan: every replay screen each person saw, and every step rendered
    assert assert_shown_replays_hide_secrets(fake, world.outsider, again, None) >= 9
    assert assert_shown_replays_hide_secrets(fake, world.alice, again, alice) >= 6
    assert_every_step_hides_secrets(d.bot.tables.uis[game], again, match_id)
    # a file over Discord's upload limit (10 MiB) is not sent, and the player is told why
    monkeypatch.setattr(replays_ui, "export_json",
                        lambda *args, **kwargs: (b" " * (10 * 1024 * 1024 + 1), False))
    mark = fake.mark()
    refused = await fake.click(world.outsider, screen, _button(screen, "Export")["custom_id"])
    assert "too long to export" in refused.text and not refused.message.attachments
    assert not [c for c in fake.calls[mark:] if c.status and c.status >= 400]


async def test_history_lists_filters_and_pages_the_servers_games(fake, world, bots, bot):
    _d, _table, match_id, _ = await _finished(fake, world, bots, "suspense", ai=0)
    storage = bot.storage
    # older games without records (as if from before replays): 9 more pages' worth of rows
    for i in range(9):
        row = await storage.create_table(guild_id=world.guild.id, channel_id=world.channel.id,
                                         game="taboo", host_id=world.carol.id,
                                         seats=[{"user_id": world.carol.id, "name": "carol"},
                                                {"user_id": world.dave.id, "name": "dave"}],
                                         options={})
        row.started_at = 1000.0 * i
        await storage.finish_table(row, scores={0: i, 1: 1}, winners={0 if i else 1},
                                   reason="r", finished_at=1000.0 * i + 600)
    first = await fake.slash(world.outsider, "history", channel=world.channel)
    assert first.ephemeral
    page = first.message
    text = page.text
    # the newest first: the real game is on page 2 (8 a page); dates as Discord timestamps
    assert "Page 1" in text and re.search(r"<t:\d+:f>", text) and "10 min" in text
    assert "**Taboo**" in text and "🏆 **carol**" in text
    older = await fake.click(world.outsider, page, _button(page, "Older")["custom_id"])
    assert older.type == 7 and "Page 2" in page.text
    assert f"`#{match_id}` **Suspense**" in page.text and "🎞️ replay" in page.text
    assert _button(page, "Older")["disabled"]
    await fake.click(world.outsider, page, _button(page, "Newer")["custom_id"])
    assert "Page 1" in page.text
    # filters: a game, a member
    only = await fake.slash(world.outsider, "history", {"game": "suspense"},
                            channel=world.channel)
    assert "Showing **Suspense**" in only.text and "**Taboo**" not in only.text
    assert f"`#{match_id}`" in only.text
    theirs = await fake.slash(world.outsider, "history", {"player": world.dave},
                              channel=world.channel)
    assert f"games of <@{world.dave.id}>" in theirs.text and "Suspense" not in theirs.text
    # the menu opens a replay of a game with a record
    menu = next(c for c in only.message.buttons() if c.get("type") == 3)
    assert [o["value"] for o in menu["options"]] == [str(match_id)]
    picked = await fake.select(world.outsider, only.message, menu["custom_id"], [str(match_id)])
    assert picked.ephemeral and _step(picked.text)[0] == 0
    # a game without a record says so; a made-up number too
    [old] = await storage.history_matches(world.guild.id, game="taboo", limit=1)
    none = await fake.slash(world.outsider, "replay", {"game": old["id"]}, channel=world.channel)
    assert none.ephemeral and "No replay is kept" in none.text
    unknown = await fake.slash(world.outsider, "replay", {"game": 999_999},
                               channel=world.channel)
    assert "⚠️" in unknown.text and "/history" in unknown.text
    choices = await fake.autocomplete(world.outsider, "replay", focused="game",
                                      channel=world.channel)
    assert [c["value"] for c in choices] == [match_id]


async def test_history_of_a_server_without_games_has_no_pager(fake, world, bots, bot):
    """With nothing (or one page) to show, /history has no Newer/Older buttons that could
    only be disabled; the filtered list of a game nobody played says so too."""
    empty = await fake.slash(world.outsider, "history", channel=world.channel)
    assert empty.ephemeral and "No finished games to show yet." in empty.text
    assert empty.message.buttons() == []
    only = await fake.slash(world.outsider, "history", {"game": "taboo"}, channel=world.channel)
    assert "Showing **Taboo**" in only.text and only.message.buttons() == []


async def test_a_record_that_does_not_replay_is_not_shown(fake, world, bots, bot):
    _d, table, match_id, again = await _finished(fake, world, bots, "taboo", ai=0)
    record = again.record
    changed = GameRecord.from_json(record.to_json())
    changed.seed += 1  # another deal: a move is not possible, or the game differs
    with pytest.raises(ReplayMismatch):
        replay(table.engine, changed)
    changed = GameRecord.from_json(record.to_json())
    changed.chain = "0" * 32
    with pytest.raises(ReplayMismatch, match="look the same"):
        replay(table.engine, changed)
    broken = GameRecord.from_json(record.to_json())
    broken.outcome = {**broken.outcome, "winners": [7]}
    with pytest.raises(ReplayMismatch, match="another result"):
        replay(table.engine, broken)
    async with bot.storage._write:  # the bot's own writes (its watchdog too) use it meanwhile
        await bot.storage._db.writer.execute(
            "UPDATE match_records SET record=? WHERE match_id=?", broken.to_json(), match_id)
    bot.replays._replays.clear()
    answer = await fake.slash(world.bob, "replay", {"game": match_id}, channel=world.channel)
    assert "can't be replayed faithfully" in answer.text and "another result" in answer.text
    assert "Move" not in answer.text


async def test_a_game_from_a_deleted_channel_is_left_to_its_players(fake, world, bots, bot):
    """Nobody can tell any more who could see a deleted channel: its games stay listed and
    replayable for their players only."""
    _d, _table, match_id, _ = await _finished(fake, world, bots, "suspense", ai=0)
    fake.delete_channel(world.channel)
    await fake.settle()
    outsider = await fake.slash(world.outsider, "replay", {"game": match_id},
                                channel=world.other_channel)
    assert outsider.ephemeral and "⚠️" in outsider.text and "Move" not in outsider.text
    listed = await fake.slash(world.outsider, "history", channel=world.other_channel)
    assert f"`#{match_id}`" not in listed.text
    player = await fake.slash(world.bob, "replay", {"game": match_id},
                              channel=world.other_channel)
    assert "Move 0 of" in player.text
    listed = await fake.slash(world.bob, "history", channel=world.other_channel)
    assert f"`#{match_id}`" in listed.text
