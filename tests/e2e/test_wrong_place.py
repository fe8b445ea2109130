"""Defence in depth: a click or form about a table counts only where the table is.

Discord sends a click only for a button the bot put on a message, but a modified client can
send any custom id from any channel. A crafted `t:{table}:join` from another server joined a
table, and `t:{table}:hand` showed its hand there. Every interaction acting on a table must
come from the table's server and from its lobby's channel or its game's channel; anything
else gets one friendly ephemeral refusal and changes nothing.
"""

from __future__ import annotations

from tests.e2e.driver import TableDriver


async def crafted(fake, user, message, custom_id: str, values: list[str] | None = None):
    """A click as a modified client could send it: any custom id, on any message."""
    comp = {"type": 2 if values is None else 3, "custom_id": custom_id}
    extra = {} if values is None else {"values": values}
    return await fake._component_interaction(user, message, comp, extra, None)


def refusal(result) -> str:
    """The one ephemeral answer a refused click got."""
    got = [result.text, *(f.text for f in result.followups)]
    assert len(got) == 1 and result.ephemeral, got
    assert got[0].startswith("⚠️") and "Something went wrong" not in got[0], got
    return got[0]


async def test_clicks_from_another_server_or_channel_change_nothing(fake, world, bots):
    await bots.start()
    elsewhere = fake.add_guild("Other Server")
    far = fake.add_channel(elsewhere, "elsewhere")
    stranger = fake.add_user("stranger")
    fake.add_member(elsewhere, stranger)
    for player in (world.alice, world.bob):  # the players are on both servers
        fake.add_member(elsewhere, player)
    d = TableDriver(fake, world, bots, "suspense")
    lobby = (await fake.slash(world.alice, "suspense new", {}, channel=world.channel)).message
    tid = int(d.custom_id(lobby, "Join").split(":")[1])
    d.table_id = tid
    far_message = await fake.send_as(stranger, far, "hello")
    near_message = await fake.send_as(world.carol, world.other_channel, "hi")

    # the lobby: joining, adding an AI or starting from elsewhere does nothing
    seats = list(d.table.seats)
    for user, message in ((stranger, far_message), (world.bob, far_message),
                          (world.carol, near_message)):
        for op in ("join", "ai", "start", "cancel"):
            text = refusal(await crafted(fake, user, message, f"t:{tid}:{op}"))
            assert "Joined" not in text
        refusal(await crafted(fake, user, message, f"lr:{tid}", ["0"]))
    assert d.table.seats == seats and not d.table.playing
    assert "another server" in refusal(await crafted(fake, stranger, far_message,
                                                     f"t:{tid}:join"))
    assert f"<#{world.channel.id}>" in refusal(await crafted(fake, world.carol, near_message,
                                                            f"t:{tid}:join"))

    # the game: a player's own hand, panel and moves only where the table is
    await d.click(world.bob, fake.messages[lobby.id], "Join")
    await d.click(world.alice, fake.messages[lobby.id], "Start")
    await d.synced()
    d.players = [world.alice, world.bob]
    version, state = d.table.version, d.table.row.state
    seat = await d.next_human()
    user = d.seat_user(seat)
    hand = d.table.ui.render_private(d.table.engine.view(d.table.state, seat),
                                     d.table.names, seat).description
    shown = []
    for message in (far_message, near_message):
        for custom_id, values in ((f"t:{tid}:hand", None), (f"t:{tid}:turn:{version}", None),
                                  (f"t:{tid}:act:{version}.0", None), (f"t:{tid}:quit", None),
                                  (f"t:{tid}:resign", None), (f"t:{tid}:hist", None),
                                  (f"ps:{tid}:{version}:", ["0"])):
            shown.append(refusal(await crafted(fake, user, message, custom_id, values)))
    assert not any(hand in text for text in shown)
    assert d.table.version == version and d.table.row.state == state
    assert d.table.seat_of(user.id) == seat  # "resign" from elsewhere did not resign

    # a click in a DM: the bot puts no table button there
    dm = fake.dms(user)[-1]
    refusal(await crafted(fake, user, dm, f"t:{tid}:hand"))
    assert d.table.version == version

    # where the table is, the same buttons work
    assert "✅" in await d.take_turn(user)


async def test_play_again_from_another_server_is_refused(fake, world, bots):
    await bots.start()
    elsewhere = fake.add_guild("Other Server")
    far = fake.add_channel(elsewhere, "elsewhere")
    fake.add_member(elsewhere, world.alice)
    d = TableDriver(fake, world, bots, "suspense")
    await d.open(world.alice, [world.bob], options="points_target=2")
    await d.play_to_end()
    result = d.message_with("ra:")
    rematch = next(b["custom_id"] for b in result.buttons() if b["custom_id"].startswith("ra:"))
    far_message = await fake.send_as(world.alice, far, "hello")
    since = fake.mark()
    text = refusal(await crafted(fake, world.alice, far_message, rematch))
    assert "another server" in text or "not one of mine" in text
    assert not fake.calls_matching("POST", rf"/channels/{far.id}/messages", since=since)
    assert not [m for m in fake.channel_messages(far) if m.buttons()]
    # on its own message the button works
    answer = await fake.click(world.alice, result, rematch)
    assert any("join" in b["custom_id"] for b in answer.message.buttons())


async def test_a_command_in_the_wrong_channel_points_a_player_to_their_game(fake, world,
                                                                            bots):
    """`/suspense hand` typed in another channel told a player to start a new game there;
    it names the channel their game is in (only to a player of it, on its own server)."""
    await bots.start()
    d = TableDriver(fake, world, bots, "suspense")
    await d.open(world.alice, [world.bob])
    version = d.table.version
    for command in ("suspense hand", "suspense turn", "suspense board"):
        got = refusal(await fake.slash(world.alice, command, channel=world.other_channel))
        assert f"<#{world.channel.id}>" in got and "new" not in got, got
    stranger = refusal(await fake.slash(world.outsider, "suspense hand",
                                        channel=world.other_channel))
    assert "There's no Suspense table in this channel" in stranger, stranger
    other_game = refusal(await fake.slash(world.alice, "taboo hand",
                                          channel=world.other_channel))
    assert "There's no Taboo table" in other_game, other_game
    elsewhere = fake.add_guild("Other Server")
    far = fake.add_channel(elsewhere, "elsewhere")
    fake.add_member(elsewhere, world.alice)
    far_answer = refusal(await fake.slash(world.alice, "suspense hand", channel=far))
    assert str(world.channel.id) not in far_answer, far_answer
    assert d.table.version == version


async def test_a_crafted_history_page_is_refused_without_reading_the_history(fake, world,
                                                                              bots):
    """/history's page buttons carry the page number: a modified client's `hs:-:0:99999`
    made one click read every finished game of the server. A page button counts only on
    the message it was shown on; the real ones still page."""
    bot = await bots.start()
    for i in range(9):  # more than a page (8), so the page shows its pager
        row = await bot.storage.create_table(
            guild_id=world.guild.id, channel_id=world.channel.id, game="taboo",
            host_id=world.carol.id, seats=[{"user_id": world.carol.id, "name": "carol"},
                                           {"user_id": world.dave.id, "name": "dave"}],
            options={})
        row.started_at = 1000.0 * i
        await bot.storage.finish_table(row, scores={0: i, 1: 1}, winners={0},
                                       reason="r", finished_at=1000.0 * i + 600)
    result = await fake.slash(world.alice, "history", channel=world.channel)
    calls = []
    real = bot.storage.history_matches

    async def counted(*args, **kwargs):
        calls.append(kwargs)
        return await real(*args, **kwargs)

    bot.storage.history_matches = counted
    got = refusal(await crafted(fake, world.alice, result.message, "hs:-:0:99999"))
    assert "out of date" in got and not calls, (got, calls)
    newer = next(b for b in result.message.buttons() if b.get("label") == "Newer")
    shown = await crafted(fake, world.alice, result.message, newer["custom_id"])  # (disabled)
    assert "Finished games" in shown.text and calls
