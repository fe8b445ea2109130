"""Six Suit end to end through the fake Discord."""

from __future__ import annotations

import pytest

from tests.e2e.driver import TableDriver

pytestmark = pytest.mark.e2e

CMD = "sixsuit"


def driver(fake, world, bots) -> TableDriver:
    return TableDriver(fake, world, bots, CMD)


async def test_five_seat_game_to_the_end_without_leaks(fake, world, bots, bot):
    d = driver(fake, world, bots)
    await d.open(world.alice, [world.bob, world.carol], ai=2, options="max_rounds=4")
    moves = await d.play_to_end()
    assert moves > 0
