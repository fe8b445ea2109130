"""One answer per interaction: a refused command gets exactly one accurate message.

A check that answered by itself and then returned False made discord.py raise CheckFailure,
and the error handler answered a second time (a member without Manage Server got two
error messages from `/config`)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.e2e


def answers(fake, user, result) -> list[str]:
    """Every message the user got for this one interaction (reply and followups)."""
    texts = [result.text] if result.message is not None else []
    return texts + [m.text for m in result.followups]


async def test_config_set_and_reset_by_a_member_are_refused_once(fake, world, bot):
    for command, options in (("config set", {"game": "suspense", "option": "points_target",
                                             "value": "8"}),
                             ("config reset", {"game": "taboo"})):
        before = len(fake.ephemerals(world.alice))
        result = await fake.slash(world.alice, command, options, channel=world.channel)
        await fake.settle()
        got = answers(fake, world.alice, result)
        assert len(got) == 1 and result.ephemeral, got
        assert "Manage Server" in got[0] and "/config show" in got[0], got
        assert len(fake.ephemerals(world.alice)) == before + 1
    assert await bot.storage.get_game_settings(world.guild.id, "suspense") == {}
    assert not fake.channel_messages(world.channel)


async def test_config_show_is_open_to_everyone_and_answers_once(fake, world, bot):
    await fake.slash(world.mod, "config set", {"game": "suspense", "option": "points_target",
                                               "value": "8"}, channel=world.channel)
    result = await fake.slash(world.alice, "config show", {"game": "suspense"},
                              channel=world.channel)
    await fake.settle()
    got = answers(fake, world.alice, result)
    assert len(got) == 1 and result.ephemeral, got
    assert "points_target" in got[0] and "**8**" in got[0] and "⚠️" not in got[0]


async def test_refusals_of_game_commands_answer_once(fake, world, bot):
    """A table command refused (no table, not a player) answers with one message."""
    for command in ("suspense hand", "suspense turn", "suspense board", "suspense cancel"):
        result = await fake.slash(world.alice, command, channel=world.channel)
        await fake.settle()
        got = answers(fake, world.alice, result)
        assert len(got) == 1 and "⚠️" in got[0] and "/suspense new" in got[0], (command, got)


async def test_a_failure_after_the_answer_sends_no_second_message(fake, world, bot,
                                                                  monkeypatch):
    """A bug that strikes after a command already answered is logged; the person keeps the
    one answer they got rather than a contradicting "nothing was changed"."""
    import sys

    from bot.ui import replies

    real_reply = replies.reply

    async def answer_then_fail(interaction, *args, **kwargs):
        await real_reply(interaction, *args, **kwargs)
        raise RuntimeError("after the answer")

    monkeypatch.setattr(sys.modules["cogs.help"], "reply", answer_then_fail)
    result = await fake.slash(world.alice, "help", channel=world.channel)
    await fake.settle()
    got = answers(fake, world.alice, result)
    assert len(got) == 1 and "help" in got[0].lower() and "went wrong" not in got[0], got


@pytest.mark.parametrize("slow", [0.0, 4.0])
async def test_a_move_whose_save_is_slow_is_acknowledged_first_then_confirmed(
        fake, world, bots, bot, slow):
    """A move is confirmed once it is saved, and a save waits for the disk: on a busy
    machine that took seconds and the click was answered after Discord's 3 s (the fake
    refuses a late answer, as Discord does). A save slower than ACK_AFTER has the click
    acknowledged first; the confirmation follows in the same panel once the move is
    durable. A fast save answers with the confirmation itself, in one call."""
    import asyncio

    from tests.e2e.driver import CONFIRM, TableDriver

    d = TableDriver(fake, world, bots, "suspense")
    await d.open(world.alice, [world.bob])
    service = bot.tables
    real = service._save

    async def slow_save(table, draft):
        await asyncio.sleep(slow)
        return await real(table, draft)

    service._save = slow_save
    seat = await d.next_human()
    version = d.table.version
    text = await d.take_turn(d.seat_user(seat))
    assert CONFIRM in text, text
    assert d.table.version == version + 1
    move = max(fake.interactions.values(), key=lambda p: p.dispatched_at)
    assert move.acked_at - move.dispatched_at < 3.0
    assert move.response_type == (6 if slow else 7)  # deferred update / the answer itself
    await d.synced()
    d.assert_no_leaks()
