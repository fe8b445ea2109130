"""Suspense end to end: lobby, clicks, slash commands, DMs, errors, restart, stats, config.

The table framework is generic; these tests prove it with Suspense as the first game.
"""

from __future__ import annotations

import asyncio

import pytest

from bot.ratings import ordinal, rating_text
from tests.e2e import screens
from tests.e2e.driver import TableDriver, dm_updates

pytestmark = pytest.mark.e2e


def driver(fake, world, bots) -> TableDriver:
    return TableDriver(fake, world, bots, "suspense")


async def test_lobby_buttons_and_one_table_per_channel(fake, world, bots, bot):
    result = await fake.slash(world.alice, "suspense new", channel=world.channel)
    lobby = result.message
    assert "lobby" in lobby.text and f"<@{world.alice.id}>" in lobby.text
    assert "points_target" in lobby.text
    d = driver(fake, world, bots)
    again = await fake.slash(world.bob, "suspense new", channel=world.channel)
    assert again.ephemeral and "already has" in again.text
    start = next(b for b in lobby.buttons() if b.get("label") == "Start")
    assert start.get("disabled"), "Start stays disabled until enough players sit"
    joined = await d.click(world.bob, lobby, "Join")
    assert f"<@{world.bob.id}>" in joined.message.text
    twice = await d.click(world.bob, lobby, "Join")
    assert twice.ephemeral and "already seated" in twice.text
    not_host = await d.click(world.bob, lobby, "Start")
    assert not_host.ephemeral and "Only the host" in not_host.text
    left = await d.click(world.bob, lobby, "Leave")
    assert f"<@{world.bob.id}>" not in left.message.text
    cancel = await d.click(world.carol, lobby, "Cancel")
    assert cancel.ephemeral and "Only the host or a moderator" in cancel.text
    by_mod = await d.click(world.mod, lobby, "Cancel")
    assert "lobby was cancelled" in by_mod.message.text and not by_mod.message.buttons()
    assert not bot.tables.live
    fresh = await fake.slash(world.bob, "suspense new", channel=world.channel)
    assert not fresh.ephemeral


async def test_full_three_player_game_by_clicks_with_an_ai(fake, world, bots, bot):
    d = driver(fake, world, bots)
    await d.open(world.alice, [world.bob], ai=1, options="points_target=3")
    table = d.table
    assert [s["name"] for s in table.seats][:2] == ["alice", "bob"] and table.seats[2]["ai"]
    # each human got their hand by DM at the start
    for user in (world.alice, world.bob):
        dms = fake.dms(user)
        assert dms and "Your Suspense hand" in dms[0].text
    board = d.board()
    assert "Suspense" in board.text and "To act" in board.text
    d.assert_no_leaks()
    moves = await d.play_to_end()
    assert moves > 0
    final = fake.channel_messages(world.channel)
    assert any("game over" in m.text for m in final)
    d.assert_no_leaks()
    rows = await bot.storage.leaderboard(world.guild.id, "suspense")
    assert {r.name for r in rows} == {"alice", "bob"}
    assert all(r.played == 1 for r in rows)


async def test_two_player_game_by_slash_commands(fake, world, bots, bot):
    d = driver(fake, world, bots)
    await d.open(world.alice, [world.bob], options="points_target=2")
    users = {world.alice.id: world.alice, world.bob.id: world.bob}
    for _ in range(400):
        table = d.table
        if table is None:
            break
        [seat] = table.engine.waiting_for(table.state)
        user = users[table.seats[seat]["user_id"]]
        hand = await fake.slash(user, "suspense hand", channel=world.channel)
        assert hand.ephemeral and "Your Suspense hand" in hand.text
        choices = await fake.autocomplete(user, "suspense play", focused="card",
                                          channel=world.channel)
        legal = table.engine.legal_actions(table.state, seat)
        kinds = {a.kind for a in legal}
        if "pass" in kinds and table.version % 3 == 0:
            result = await fake.slash(user, "suspense pass", channel=world.channel)
        else:
            assert choices, "a seat that must play is offered its cards"
            result = await fake.slash(user, "suspense play", {"card": choices[0]["value"]},
                                      channel=world.channel)
        assert result.ephemeral and "✅" in result.text, result.text
        await fake.settle()
        d.assert_no_leaks()
    assert d.table is None


async def test_typed_card_names_and_illegal_moves(fake, world, bots, bot):
    d = driver(fake, world, bots)
    await d.open(world.alice, [world.bob])
    table = d.table
    [seat] = table.engine.waiting_for(table.state)
    mover = world.alice if table.seats[seat]["user_id"] == world.alice.id else world.bob
    other = world.bob if mover is world.alice else world.alice
    version = table.version
    # first turn of a match: must play, so pass and fold are refused
    # (they said "`Pass` isn't a legal move right now. Pick one of the suggestions", and
    # /suspense pass has none: a new player learnt nothing)
    for command in ("pass", "fold"):
        refused = await fake.slash(mover, f"suspense {command}", channel=world.channel)
        assert refused.ephemeral and "⚠️" in refused.text
        assert "first turn of a match must be a play" in refused.text, refused.text
        assert "suggestions" not in refused.text, refused.text
    out_of_turn = await fake.slash(other, "suspense fold", channel=world.channel)
    assert out_of_turn.ephemeral and "⚠️" in out_of_turn.text
    assert "not your turn" in out_of_turn.text, out_of_turn.text
    garbage = await fake.slash(mover, "suspense play", {"card": "ace of cups"},
                               channel=world.channel)
    assert garbage.ephemeral and "isn't a legal move" in garbage.text
    stale = await fake.slash(mover, "suspense play", {"card": f"{version - 1}.0"},
                             channel=world.channel)
    assert stale.ephemeral and "out of date" in stale.text
    # a crafted value from no suggestion ever offered (a version yet to come) is not called
    # out of date ("the game moved on": it had not)
    crafted = await fake.slash(mover, "suspense play", {"card": f"{version + 5}.0"},
                               channel=world.channel)
    assert crafted.ephemeral and "isn't a legal move" in crafted.text, crafted.text
    assert d.table.version == version  # nothing changed
    card = table.engine.legal_actions(table.state, seat)[0].card
    typed = await fake.slash(mover, "suspense play", {"card": card}, channel=world.channel)
    assert "✅" in typed.text and d.table.version == version + 1


async def test_out_of_turn_non_player_stale_and_double_clicks(fake, world, bots, bot):
    d = driver(fake, world, bots)
    await d.open(world.alice, [world.bob])
    table = d.table
    [seat] = table.engine.waiting_for(table.state)
    mover = world.alice if table.seats[seat]["user_id"] == world.alice.id else world.bob
    other = world.bob if mover is world.alice else world.alice
    board = d.board()
    nope = await d.click(other, board, "Take my turn")
    assert nope.ephemeral and "not your turn" in nope.text
    outsider = await d.click(world.outsider, board, "My hand")
    assert outsider.ephemeral and "not playing" in outsider.text
    outsider_turn = await d.click(world.outsider, board, "Take my turn")
    assert outsider_turn.ephemeral and "not playing" in outsider_turn.text
    hand = await d.click(mover, board, "My hand")
    assert hand.ephemeral and "Your Suspense hand" in hand.text
    # open the panel (a first turn must play, so it goes straight to the cards) and pick the
    # same card twice: the second pick is refused and changes nothing
    # the move passes the turn: the bot posts the board anew and deletes this one; if that
    # delete fails, the old board's buttons are merely stale
    # (by the channel or by the token that posted it)
    fake.fail_next("DELETE", rf"/messages/{board.id}$", status=403)
    panel = await d.click(mover, board, "Take my turn")
    [select] = [c for c in panel.message.buttons() if c.get("type") == 3]
    value = select["options"][0]["value"]
    version = d.table.version
    first, again = await asyncio.gather(
        fake.select(mover, panel.message, select["custom_id"], [value]),
        fake.select(mover, panel.message, select["custom_id"], [value]))
    assert d.table.version == version + 1  # exactly one move was made
    # the slower click is told the panel is out of date (in the panel itself or a reply)
    shown = [v.text for v in first.message.versions()] + [first.text, again.text]
    shown += [m.text for m in fake.ephemerals(mover)]
    assert any("out of date" in t for t in shown), shown
    await d.synced()  # the new board is out (settle() alone can return first)
    assert not board.deleted and d.board() is not board
    old_turn_button = await fake.click(mover, board, d.custom_id(board, "Take my turn"))
    assert old_turn_button.ephemeral and ("out of date" in old_turn_button.text
                                          or "not your turn" in old_turn_button.text)


async def test_closed_dms_fall_back_to_the_channel_without_the_secret(fake, world, bots, bot):
    closed = fake.add_user("closed", dm_open=False)
    fake.add_member(world.guild, closed)
    d = driver(fake, world, bots)
    await d.open(closed, [world.bob])
    notices = [m for m in fake.channel_messages(world.channel)
               if "can't send you direct messages" in m.text]
    assert len(notices) == 1 and f"<@{closed.id}>" in notices[0].text
    hand = await d.click(closed, d.board(), "My hand")
    assert hand.ephemeral and "Your Suspense hand" in hand.text
    d.players.append(closed)
    d.assert_no_leaks()
    seat = d.table.seat_of(closed.id)
    labels = d.table.engine.view(d.table.state, seat)["you"]["hand"]
    for notice in notices:
        assert not any(label in notice.text for label in labels)


async def test_restart_mid_game_continues_and_old_buttons_work(fake, world, bots, bot):
    d = driver(fake, world, bots)
    await d.open(world.alice, [world.bob], ai=1, options="points_target=2")
    for _ in range(3):
        table = d.table
        humans = [s for s in table.engine.waiting_for(table.state) if not table.is_ai(s)]
        if humans:
            await d.take_turn(d.seat_user(humans[0]))
            await fake.settle()
    before = d.table
    await bots.stop()  # AI seats may still have been moving: compare with what was saved last
    # the board the old process left (read after the stop: an AI move just before it may
    # have replaced, and deleted, the board shown a moment earlier)
    old_board = d.board()
    state_dump, version = before.row.state, before.version
    await bots.start()
    table = d.table
    assert table is not None and table.row.state == state_dump and table.version == version
    humans = [s for s in table.engine.waiting_for(table.state) if not table.is_ai(s)]
    user = d.seat_user(humans[0])
    answer = await fake.click(user, old_board, d.custom_id(old_board, "My hand"))
    assert answer.ephemeral and "Your Suspense hand" in answer.text
    await d.play_to_end()
    assert any("game over" in m.text for m in fake.channel_messages(world.channel))


async def test_turn_timer_plays_default_and_hands_seat_to_ai(fake, world, bots):
    await bots.start(turn_seconds=1, timer_tick=0.05)
    d = driver(fake, world, bots)
    await d.open(world.alice, [world.bob], options="turn_seconds=1 afk_turns=1")
    # open() waits for the latest board; on a busy machine the first one took over the 1 s
    # turn, the timer gave both seats to AI players, and they played the game out meanwhile
    if d.table is not None:
        version = d.table.version
        for _ in range(400):  # up to 20 s on a busy machine; it normally takes about 1 s
            await asyncio.sleep(0.05)
            if d.table is None or d.table.version > version:
                break
        assert d.table is None or d.table.version > version

    def channel_texts() -> str:
        # every version of the board counts: once both seats are AI the game may race ahead
        return "\n".join(v.text for m in fake.channel_messages(world.channel)
                         for v in m.versions())

    # The takeover notice goes out through the table's delivery task after the lock is
    # released, so it can follow the timed-out move by a moment: wait for what the channel
    # shows (up to 20 s on a busy machine) instead of for the wire to go quiet once.
    for _ in range(400):
        await fake.settle()
        if "An AI now plays" in channel_texts():
            break
        await asyncio.sleep(0.05)
    assert "An AI now plays" in channel_texts()
    assert "ran out of time" in await d.history()


async def test_config_needs_manage_server(fake, world, bots, bot):
    refused = await fake.slash(world.alice, "config set",
                               {"game": "suspense", "option": "points_target", "value": "8"},
                               channel=world.channel)
    assert refused.ephemeral and "Manage Server" in refused.text
    bad = await fake.slash(world.mod, "config set",
                           {"game": "suspense", "option": "points_target", "value": "99"},
                           channel=world.channel)
    assert bad.ephemeral and "points_target" in bad.text and "Nothing was changed" in bad.text
    ok = await fake.slash(world.mod, "config set",
                          {"game": "suspense", "option": "points_target", "value": "8"},
                          channel=world.channel)
    assert ok.ephemeral and "now **8**" in ok.text
    lobby = await fake.slash(world.alice, "suspense new", channel=world.channel)
    assert "points_target` = **8**" in lobby.text
    shown = await fake.slash(world.mod, "config show", {"game": "suspense"},
                             channel=world.channel)
    assert "**8**" in shown.text
    reset = await fake.slash(world.mod, "config reset", {"game": "suspense"},
                             channel=world.channel)
    assert "**6**" in reset.text


async def test_stats_and_leaderboard_after_two_games(fake, world, bots, bot):
    for _ in range(2):
        d = driver(fake, world, bots)
        await d.open(world.alice, [world.bob], options="points_target=2")
        await d.play_to_end()
    board = await fake.slash(world.carol, "leaderboard", {"game": "suspense"},
                             channel=world.channel)
    # the default minimum, said plainly (not "… yet (the least to be listed)")
    assert "has finished the 3 games of Suspense it takes to be listed" in board.text
    await fake.slash(world.mod, "config server", {"setting": "leaderboard_min_games",
                                                  "value": "2"}, channel=world.channel)
    board = await fake.slash(world.carol, "leaderboard", {"game": "suspense"},
                             channel=world.channel)
    assert not board.ephemeral
    assert "alice" in board.text and "bob" in board.text and "in 2 games" in board.text
    for line in board.text.splitlines():  # no medal for someone who never won
        if "· 0 wins" in line:
            assert not any(medal in line for medal in "🥇🥈🥉"), line
    # ranked by rating (bot.ratings), highest first, as the stored ratings say
    stats = {u.name: (await bot.storage.player_stats(world.guild.id, u.id))[0]
             for u in (world.alice, world.bob)}
    ranked = sorted(stats, key=lambda n: -ordinal(stats[n].mu, stats[n].sigma))
    lines = [line for line in board.text.splitlines() if "**" in line]
    assert [next(n for n in ranked if f"**{n}**" in line) for line in lines] == ranked
    assert f"**{rating_text(stats[ranked[0]].mu, stats[ranked[0]].sigma)}**" in lines[0]
    assert "Ranked by rating" in board.text
    mine = await fake.slash(world.alice, "stats", channel=world.channel)
    assert mine.ephemeral and "2 played" in mine.text
    assert f"Rating **{rating_text(stats['alice'].mu, stats['alice'].sigma)}**" in mine.text
    assert "Last 2 games:" in mine.text and "(newest last) · rating" in mine.text
    theirs = await fake.slash(world.carol, "stats", {"user": world.bob}, channel=world.channel)
    assert "2 played" in theirs.text
    empty = await fake.slash(world.carol, "stats", channel=world.channel)
    assert "No finished games" in empty.text
    results = [m.text for m in fake.channel_messages(world.channel) if "game over" in m.text]
    assert len(results) == 2 and all("📈 Ratings: **" in text for text in results)
    # ratings off: ranked by wins and points, no rating shown anywhere
    await fake.slash(world.mod, "config server", {"setting": "ratings", "value": "off"},
                     channel=world.channel)
    board = await fake.slash(world.carol, "leaderboard", {"game": "suspense"},
                             channel=world.channel)
    assert "in 2 games" in board.text and "Ranked by rating" not in board.text
    rows = await bot.storage.leaderboard(world.guild.id, "suspense", min_games=2)
    lines = [line for line in board.text.splitlines() if "**" in line]
    assert [f"**{r.name}** — {r.wins} win" in line
            for r, line in zip(rows, lines, strict=True)] == [True, True]
    mine = await fake.slash(world.alice, "stats", channel=world.channel)
    assert "Rating" not in mine.text and "2 played" in mine.text


async def test_rules_summary_has_the_condition_table(fake, world, bot):
    """`/suspense rules` shows the quick start; **Full rules** lists the 13 conditions, once."""
    quick, text = await screens.full_rules(fake, world.alice, "suspense", world.channel)
    assert "Goal" in quick
    for label in ("❗", "⚪1", "⚫6"):
        assert text.count(f"`{label}`") == 1, label


async def test_restart_does_not_charge_the_downtime_to_the_player(fake, world, bots):
    import time

    await bots.start(turn_seconds=3, timer_tick=0.05)
    d = driver(fake, world, bots)
    await d.open(world.alice, [world.bob], options="turn_seconds=3")
    version = d.table.version
    await bots.stop()
    await asyncio.sleep(3.5)  # longer than the turn timer, while the bot is down
    restarted = time.time()
    await bots.start(turn_seconds=3, timer_tick=0.05)
    table = d.table
    assert table.version == version
    # a fresh full turn from the restart (not from now: a busy machine can take seconds to
    # start the bot), where the old deadline had passed while the bot was down
    assert table.meta["deadline"] >= restarted + 3 - 0.01
    texts = "\n".join(m.text for m in fake.channel_messages(world.channel))
    assert "ran out of time" not in texts


async def test_dms_only_when_a_players_private_view_changes(fake, world, bots, bot):
    d = driver(fake, world, bots)
    await d.open(world.alice, [world.bob], options="points_target=2")
    start = {u.name: len(dm_updates(fake, u)) for u in (world.alice, world.bob)}
    table = d.table
    [seat] = table.engine.waiting_for(table.state)
    mover = d.seat_user(seat)
    other = world.bob if mover is world.alice else world.alice
    await d.take_turn(mover)
    await d.synced()
    # the mover's hand changed; the other player's private view did not
    assert len(dm_updates(fake, mover)) == start[mover.name] + 1
    assert len(dm_updates(fake, other)) == start[other.name]


async def test_moderators_can_stop_hosts_changing_options(fake, world, bots, bot):
    await fake.slash(world.mod, "config set", {"game": "suspense", "option": "host_options",
                                               "value": "off"}, channel=world.channel)
    refused = await fake.slash(world.alice, "suspense new", {"options": "points_target=2"},
                               channel=world.channel)
    assert refused.ephemeral and "moderators" in refused.text
    plain = await fake.slash(world.alice, "suspense new", channel=world.channel)
    assert not plain.ephemeral and "points_target` = **6**" in plain.text


async def test_a_rate_limited_or_failing_dm_is_retried_not_called_closed(fake, world, bots,
                                                                        bot):
    """Only a 403 means closed DMs. A DM that keeps failing for another reason (here five
    server errors, more than discord.py's own retries) is sent again later, and the channel
    is never told that the player's DMs are closed."""
    dm = fake.dm_channel(world.bob)
    fake.fail_next("POST", rf"/channels/{dm.id}/messages", status=500, times=5)
    fake.fail_next("POST", rf"/channels/{dm.id}/messages", status=429, times=3)
    d = driver(fake, world, bots)
    await d.open(world.alice, [world.bob])
    for _ in range(200):
        if fake.dms(world.bob):
            break
        await asyncio.sleep(0.05)
    assert fake.dms(world.bob) and "Your Suspense hand" in fake.dms(world.bob)[0].text
    texts = "\n".join(m.text for m in fake.channel_messages(world.channel))
    assert "can't send you direct messages" not in texts


async def test_a_fold_that_ends_the_match_labels_the_next_deal(fake, world, bots, bot):
    """After a fold that ended the match, the folder's confirmation showed the NEXT match's
    hand as "🤫 Your hand: …", as if it were the hand just folded. The next deal now says
    which match it is for; the confirmation holds the folder's own new hand and, only for
    the new dealer, the secret card — never another player's cards."""
    d = driver(fake, world, bots)
    await d.open(world.alice, [world.bob], options="points_target=6")
    users = {world.alice.id: world.alice, world.bob.id: world.bob}
    engine = d.table.engine
    for _ in range(60):
        table = d.table
        [seat] = engine.waiting_for(table.state)
        user = users[table.seats[seat]["user_id"]]
        legal = list(engine.legal_actions(table.state, seat))

        def ends_match(action, state=table.state, seat=seat):
            events = engine.apply(state, seat, action).events
            return any(e.kind == "match_start" for e in events)

        fold = next((a for a in legal if a.kind == "fold" and ends_match(a)), None)
        if fold is not None:
            match = table.state.match_no
            result = await fake.slash(user, "suspense fold", channel=world.channel)
            await fake.settle()
            state = d.table.state
            lines = result.text.splitlines()
            assert lines[0] == "✅ Fold", result.text
            mine = " ".join(engine.view(state, seat)["you"]["hand"])
            assert f"🤫 Your hand for match {match + 1}: {mine}" in lines, result.text
            assert not any(line.startswith("🤫 Your hand: ") for line in lines)
            other = " ".join(engine.view(state, 1 - seat)["you"]["hand"])
            assert other not in result.text
            secret = any("secret card of match" in line for line in lines)
            assert secret == (state.dealer == seat), result.text
            d.assert_no_leaks()
            return
        # otherwise move on without ending the match: a pass or a play that keeps it going
        keep = [a for a in legal if not ends_match(a)] or legal
        action = next((a for a in keep if a.kind == "pass"), keep[0])
        value = f"{table.version}.{legal.index(action)}"
        result = await fake.slash(user, "suspense move", {"action": value},
                                  channel=world.channel)
        assert "✅" in result.text, result.text
        await fake.settle()
    raise AssertionError("no fold ever ended a match")
