"""Hidden Rules at its largest table (5 seats), played to the end by people clicking through
every screen, the text forms (what you say with a play, an enforcement's hint) included; one
player has closed DMs; nobody ever sees a card or a secret rule hidden from them."""

from __future__ import annotations

import pytest

from tests.e2e import screens

pytestmark = pytest.mark.e2e


async def test_five_seats_play_hidden_rules_to_the_end(fake, world, bots, bot):
    d = await screens.play_full_table(fake, world, bots, "hiddenrules", "hidden_rules",
                                      humans=4, ai=1, options="target=2")
    result = screens.assert_game_over(fake, d)
    assert "🏆" in result
    forms = [m for user in d.players for m in fake.modals_shown(user)]
    assert forms, "no text form was opened"
