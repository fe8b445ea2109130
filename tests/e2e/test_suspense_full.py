"""Suspense at its largest table (3 seats), played to the end by people clicking through
every screen: lobby, board, My hand, each step of Take my turn, rules, stats, leaderboard,
config; one player has closed DMs; nobody ever sees a card hidden from them."""

from __future__ import annotations

import pytest

from tests.e2e import screens

pytestmark = pytest.mark.e2e


async def test_three_people_play_suspense_to_the_end(fake, world, bots, bot):
    d = await screens.play_full_table(fake, world, bots, "suspense", "suspense", humans=3,
                                      panel_steps=0, options="points_target=3")
    result = screens.assert_game_over(fake, d)
    assert "🏆" in result
