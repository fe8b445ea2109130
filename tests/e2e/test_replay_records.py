"""Every finished game keeps a record that replays to exactly the game that was played
(issue 18): a short game of each of the five, played by people through the panel with an
AI seat, its record read back from storage and replayed move by move; the leak scan over
every step of each (tests/e2e/replay_checks.py)."""

from __future__ import annotations

import asyncio

import pytest

from bot.replay.record import GameRecord, replay
from tests.e2e.driver import TableDriver
from tests.e2e.replay_checks import assert_every_step_hides_secrets, assert_export_hides_secrets

pytestmark = pytest.mark.e2e

SHORT = {  # whole games kept short by each game's own options (scripts.sample_transcript)
    "suspense": ("suspense", "points_target=2"),
    "suit_taboo": ("suittaboo", "max_turns_per_round=60 max_rounds=3"),
    "hidden_rules": ("hiddenrules", "target=1 max_turns=50"),
    "taboo": ("taboo", "max_turns=24"),
    "six_suit": ("sixsuit", "max_rounds=4 free_time_rounds=1"),
}

@pytest.mark.parametrize("game", sorted(SHORT))
async def test_a_finished_game_replays_to_its_recorded_result(fake, world, bots, bot, game):
    command, options = SHORT[game]
    d = TableDriver(fake, world, bots, command)
    await d.open(world.alice, [world.bob], ai=1, options=options)
    table = d.table
    await d.play_to_end()
    storage = d.bot.storage
    [match] = await storage.recent_matches(world.guild.id, limit=1)
    text = await storage.match_record(match["id"])
    assert text is not None, "no record kept"
    record = GameRecord.from_json(text)
    assert record.game == game and record.n_players == 3
    assert [s.get("user_id") for s in record.seats] == [s.get("user_id") for s in table.seats]
    assert any(e.get("by") == "ai" for e in record.entries), "the AI seat's moves are in it"
    again = replay(table.engine, record)
    final = again.frame(again.last).state
    # the very game: the final state as the bot held it, and the stored result
    assert table.engine.dump(final) == table.engine.dump(table.state)
    outcome = table.engine.outcome(final)
    assert {int(k): v for k, v in match["scores"].items()} == outcome.scores
    assert sorted(match["winners"]) == sorted(outcome.winners)
    assert again.last == record.moves == sum(1 for e in record.entries if "act" in e)
    # the leak scan: every step as the channel and as each seat, and the channel's export
    assert assert_every_step_hides_secrets(d.bot.tables.uis[game], again, match["id"]) > 0
    opened = await fake.slash(world.carol, "replay", {"game": match["id"]},
                              channel=world.channel)
    export = next(b for b in opened.message.buttons() if b.get("label") == "Export")
    exported = await fake.click(world.carol, opened.message, export["custom_id"])
    [attachment] = exported.message.attachments
    assert_export_hides_secrets(fake.upload_data(attachment), again, None)

async def test_the_record_goes_on_across_a_restart_and_keeps_who_left(fake, world, bots, bot):
    """Moves before and after a restart are all in the record; a player who left is kept as
    such, with the note the channel saw, and the AI's moves for them."""
    from tests.e2e import screens

    command, options = SHORT["taboo"]
    d = TableDriver(fake, world, bots, command)
    await d.open(world.alice, [world.bob, world.carol], options=options)
    await d.play_to_end(pause_after=3)
    await bots.restart()
    await d.play_to_end(pause_after=2)
    await screens.leave(fake, d, world.bob)
    table = d.table
    await d.play_to_end()
    [match] = await d.bot.storage.recent_matches(world.guild.id, limit=1)
    record = GameRecord.from_json(await d.bot.storage.match_record(match["id"]))
    assert record.format == 2, "the table kept the record format it began with"
    bob = next(i for i, s in enumerate(record.seats) if s.get("user_id") == world.bob.id)
    assert record.seats[bob].get("left") and record.seats[bob].get("ai")
    notes = [e["note"] for e in record.entries if "note" in e]
    assert notes == [f"🚪 {{P{bob}}} left the game; an AI plays their seat from now on."]
    again = replay(table.engine, record)
    assert table.engine.dump(again.state_at(again.last)) == table.engine.dump(table.state)
    frames = [again.frame(k) for k in range(again.last + 1)]
    after = next(f for f in frames if f.notes)
    assert all(f.by == "ai" for f in frames[after.index:] if f.seat == bob)
    # every step rebuilt from a checkpoint is the step replayed straight through
    for k in range(1, again.last + 1):
        assert table.engine.dump(frames[k].before) == table.engine.dump(frames[k - 1].state)


async def test_a_game_begun_before_moves_were_recorded_finishes_without_a_record(
        fake, world, bots, bot):
    """A game that was running when the bot was upgraded (its start is not in the move
    list) is recorded as a result as always, but keeps no replay rather than a wrong one."""
    command, options = SHORT["suspense"]
    d = TableDriver(fake, world, bots, command)
    await d.open(world.alice, [world.bob], options=options)
    await d.play_to_end(pause_after=1)
    await bots.stop()
    await bots.database.execute("UPDATE game_tables SET actions = ''")  # as an older version
    await bots.start()
    d.table.meta.pop("chain", None)
    await d.play_to_end()
    [match] = await d.bot.storage.recent_matches(world.guild.id, limit=1)
    assert match["winners"]
    assert await d.bot.storage.match_record(match["id"]) is None


async def test_records_older_than_the_retention_are_dropped_at_start(fake, world, bots, bot):
    import time

    storage = bot.storage
    ids = []
    for channel, age_days in ((1, 40), (2, 5)):
        row = await storage.create_table(guild_id=world.guild.id, channel_id=channel,
                                         game="taboo", host_id=1, seats=[], options={})
        ids.append(await storage.finish_table(row, scores={}, winners=(), reason="r",
                                              finished_at=time.time() - age_days * 86_400,
                                              record="{}"))
    bot = await bots.restart(replay_retention_days=30)
    for _ in range(100):
        if await bot.storage.match_record(ids[0]) is None:
            break
        await asyncio.sleep(0.02)
    assert await bot.storage.match_record(ids[0]) is None
    assert await bot.storage.match_record(ids[1]) == "{}"
    assert len(await bot.storage.recent_matches(world.guild.id)) == 2
