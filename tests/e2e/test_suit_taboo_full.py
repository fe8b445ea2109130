"""Suit Taboo at its largest table (5 seats, with the Wire roles), played to the end by
people clicking through every screen, each step of a cast included; one player has closed
DMs; nobody ever sees a card, role or doubt hidden from them."""

from __future__ import annotations

import pytest

from tests.e2e import screens

pytestmark = pytest.mark.e2e


async def test_five_seats_play_suit_taboo_to_the_end(fake, world, bots, bot):
    d = await screens.play_full_table(fake, world, bots, "suittaboo", "suit_taboo", humans=4,
                                      ai=1, options="wire=true", panel_steps=2)
    result = screens.assert_game_over(fake, d)
    assert "🏆" in result
