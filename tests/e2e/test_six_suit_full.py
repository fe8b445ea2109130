"""Six Suit at its largest table (12 seats, three teams chosen in the lobby), played to the
end by people clicking through every screen; one player has closed DMs; the lobby shows
every option whole; nobody ever sees a card hidden from them."""

from __future__ import annotations

import pytest

from bot.tables.settings import describe_options
from tests.e2e import screens

pytestmark = pytest.mark.e2e


async def test_twelve_seats_play_six_suit_to_the_end(fake, world, bots, bot):
    seen = {}

    async def choose_teams(d, lobby):
        """Each person picks a team in the lobby's menu; the options are all there."""
        menu = next(c for c in lobby.buttons() if c.get("type") == 3
                    and c["custom_id"].startswith("lt:"))
        for i, user in enumerate(d.players):
            await fake.select(user, lobby, menu["custom_id"], [str(i % 3)])
        table = d.table
        options = table.engine.Options.model_validate(table.game_options)
        lines = describe_options(table.engine, options, table.table_settings)
        fields = [f for e in lobby.embeds for f in e.get("fields", [])
                  if "ptions" in f["name"]]
        seen["fields"] = fields
        shown = [line for f in fields for line in f["value"].split("\n")]
        assert shown == lines  # every option, none cut
        assert all(len(f["value"]) <= 1024 for f in fields)

    d = await screens.play_full_table(fake, world, bots, "sixsuit", "six_suit", humans=4,
                                      ai=8, options="teams=3 max_rounds=3",
                                      before_start=choose_teams)
    assert len(seen["fields"]) >= 2  # more options than one field holds
    result = screens.assert_game_over(fake, d)
    assert "🏆" in result or "Team" in result
