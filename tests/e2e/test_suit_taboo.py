"""Suit Taboo end to end through the fake Discord: panel games, every slash command, refusals,
the round-end reveal, Taboo on the Wire's accusation, and no hidden card ever shown."""

from __future__ import annotations

import pytest

from tests.e2e.driver import TableDriver

pytestmark = pytest.mark.e2e

SHORT = "max_reshuffles=0 max_turns_per_round=60"


def driver(fake, world, bots) -> TableDriver:
    return TableDriver(fake, world, bots, "suittaboo")


async def test_four_seats_humans_and_ai_play_a_whole_game_through_the_panel(fake, world, bots,
                                                                           bot):
    d = driver(fake, world, bots)
    await d.open(world.alice, [world.bob, world.carol], ai=1, options=SHORT)
    table = d.table
    assert len(table.seats) == 4 and table.seats[3]["ai"]
    for user in (world.alice, world.bob, world.carol):
        dms = fake.dms(user)
        assert dms and "Your role this round" in dms[0].text
    board = d.board()
    assert "History lines" in board.text and "Open cards" in board.text
    d.assert_no_leaks()
    moves = await d.play_to_end()
    assert moves > 0
    texts = board.version_texts()
    assert any("Round 1 reveal" in t for t in texts)
    assert any("game over" in m.text for m in fake.channel_messages(world.channel))

