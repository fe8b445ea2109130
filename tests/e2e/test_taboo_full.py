"""Taboo at its largest table (6 seats: two decks), played to the end by people clicking
through every screen; one player has closed DMs; nobody sees a card hidden from them."""

from __future__ import annotations

import pytest

from tests.e2e import screens

pytestmark = pytest.mark.e2e


async def test_six_seats_play_taboo_to_the_end(fake, world, bots, bot):
    d = await screens.play_full_table(fake, world, bots, "taboo", "taboo", humans=4, ai=2)
    result = screens.assert_game_over(fake, d)
    assert "🏆" in result and "points pile" in result
