"""The hard AI level in the real bot: its decisions run in the worker process (bot.ai_worker),
so a search never holds the event loop, and a whole game plays through."""

from __future__ import annotations

import pytest

from tests.e2e.driver import TableDriver

pytestmark = pytest.mark.e2e


async def test_hard_ai_seat_plays_a_whole_game_through_its_worker_process(fake, world, bots,
                                                                          bot):
    d = TableDriver(fake, world, bots, "taboo")
    await d.open(world.alice, [], ai=1, options="ai_level=hard max_turns=24")
    await d.play_to_end()
    worker = bot.tables.ai_worker
    assert worker.decisions > 0 and worker.fallbacks == 0
    assert d.table is None  # the game finished
