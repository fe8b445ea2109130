"""A player's living DM never shows something out of date (issue 16, "fewer notifications").

The DM is edited in place only when what it shows changes, and edits must stay cheap (they
count toward Discord's global limit), so it must not show the public table, which changes
on nearly every move: it showed Six Suit's piles and near-six-suit warnings, Taboo's "With
the row as it is now / Can capture" and missed Hidden Rules' "You are accused", stale in
20 of 117, 27 of 180 and 14 of 180 checks (review probes). The DM now carries the player's
own secrets and where the table is; **My hand** and the move panel, rendered on each click,
show the table too.
"""

from __future__ import annotations

import pytest

from bot.ui import render
from fakediscord.text import embed_texts
from tests.e2e.driver import TableDriver, dm_updates

# game: (command, options, what only the public table shows: never in a DM)
GAMES = {
    "six_suit": ("sixsuit", "max_rounds=5 free_time_rounds=1",
                 ("Your piles", "You are a ghost", "Your move")),
    "taboo": ("taboo", "max_turns=40",
              ("With the row as it is now", "Score if the game ended now", "You just drew")),
    "hidden_rules": ("hiddenrules", "target=2 max_turns=80", ("You are accused",)),
    "suit_taboo": ("suittaboo", "max_turns_per_round=60 max_rounds=3",
                   ("Your move", "unexposed", "**exposed**")),
    "suspense": ("suspense", "points_target=3", ("Your first turn",)),
}
MOVES = 25  # a synced state after each: about a second each under Discord's limits


def shown(embed: dict) -> str:
    """What an embed shows, apart from private news of the moment and the picture."""
    embed = dict(embed)
    embed.pop("image", None)
    embed["fields"] = [f for f in embed.get("fields", [])
                       if not f["name"].startswith("Just now")]
    return "\n".join(embed_texts(embed))


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_the_living_dm_shows_only_what_stays_true(fake, world, bots, game):
    command, options, public = GAMES[game]
    await bots.start()
    d = TableDriver(fake, world, bots, command)
    d.modal_text = lambda modal: "…"
    players = [world.alice, world.bob, world.carol]
    await d.open(players[0], players[1:], options=options)
    checks = moves = 0
    my_hand_seen = False
    while d.table is not None and moves < MOVES:
        moves += await d.play_to_end(pause_after=1, check_leaks_every=10**6)
        await d.synced()
        table = d.table
        if table is None:
            break
        for user in players:
            seat = table.seat_of(user.id)
            dms = fake.dms(user)
            if seat is None or not dms:
                continue
            [dm] = dms  # one living DM per player
            latest = dm.versions()[-1]
            text = "\n".join(t for embed in latest.embeds for t in embed_texts(embed))
            assert not [part for part in public if part in text], (game, user.name, text)
            fresh = render.private_embed(table, seat, with_table=False).to_dict()
            assert "\n".join(shown(e) for e in latest.embeds) == shown(fresh), \
                (game, user.name, moves)
            assert f"<#{table.row.channel_id}>" in dm.text  # where the table is
            checks += 1
        if not my_hand_seen:  # the public parts are where they are always fresh
            user = players[0]
            hand = await d.click(user, d.board(), "My hand")
            full = render.private_embed(table, table.seat_of(user.id)).to_dict()
            assert hand.ephemeral and shown(hand.message.embeds[0]) == shown(full)
            my_hand_seen = True
    assert checks >= 20, checks
    for user in players:
        for version in dm_updates(fake, user):
            text = "\n".join(t for embed in version.embeds for t in embed_texts(embed))
            assert not [part for part in public if part in text], (game, user.name, text)


@pytest.mark.parametrize("game", ["six_suit", "taboo", "hidden_rules"])
async def test_the_living_dms_picture_stays_true(fake, world, bots, game):
    """The DM's picture follows the same rule: the hand pictures of these games drew the
    piles, the row or the trick too; a DM's picture is drawn without them, so it is the
    picture of the DM's text, exactly as it would be drawn now."""
    command, options, _public = GAMES[game]
    bot = await bots.start(pictures=True)
    d = TableDriver(fake, world, bots, command)
    d.modal_text = lambda modal: "…"
    players = [world.alice, world.bob, world.carol]
    await d.open(players[0], players[1:], options=options)
    ui = bot.tables.uis[game]
    checks = moves = 0
    while d.table is not None and moves < 15:
        moves += await d.play_to_end(pause_after=1, check_leaks_every=10**6)
        await d.synced()
        table = d.table
        if table is None:
            break
        for user in players:
            seat = table.seat_of(user.id)
            [dm] = fake.dms(user)
            [attachment] = dm.attachments
            fresh = ui.hand_picture(table.engine.view(table.state, seat), table.names, seat,
                                    with_table=False)
            assert fake.upload_data(attachment) == fresh.data, (game, user.name, moves)
            checks += 1
    assert checks >= 15, checks
