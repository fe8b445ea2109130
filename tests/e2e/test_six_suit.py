"""Six Suit end to end through the fake Discord: whole games with humans and AI seats (no
leaks), the typed `/sixsuit` moves with their suggestions, refusals, free-time offers vetoed
and accepted by a human, teams chosen in the lobby, and the 12-player board within Discord's
limits.

The tests read the bot's table only to know who should act and which moves are legal; every
move is made the way a person would (slash commands, panel buttons), and the no-leak check
reads only what each user was shown.
"""

from __future__ import annotations

import asyncio
import random
import re

import discord
import pytest

from bot.storage import TableRow
from bot.tables.live import LiveTable
from bot.ui import render
from cogs.six_suit.cog import SixSuitUI
from engines import ENGINES
from engines.six_suit.cards import LABELS, SHARED
from engines.six_suit.rules import Consent, Discard, Play, Predict, Veto
from tests.e2e import screens
from tests.e2e.driver import CONFIRM, TableDriver, dm_updates, public_calls

pytestmark = pytest.mark.e2e

CMD = "sixsuit"
ENGINE = ENGINES["six_suit"]


def driver(fake, world, bots) -> TableDriver:
    return TableDriver(fake, world, bots, CMD)


# --------------------------------------------------------------------------- helpers
def mover(d: TableDriver):
    """(seat, user) of the human the game waits for."""
    table = d.table
    [seat] = table.engine.waiting_for(table.state)
    return seat, d.seat_user(seat)




async def ok(fake, world, d, user, command: str, args: dict | None = None):
    result = await fake.slash(user, f"{CMD} {command}", args or {}, channel=world.channel)
    assert result.ephemeral and "✅" in result.text, result.text
    await d.synced()  # the board shows the move (settle() alone can return early under load)
    d.assert_no_leaks()
    return result




async def predict_by_slash(fake, world, d, user) -> None:
    """Predict with values picked from the suggestions."""
    values = []
    for option in ("number", "colour", "shape"):
        choices = await fake.autocomplete(user, f"{CMD} predict", focused=option,
                                          channel=world.channel)
        assert len(choices) == 5
        values.append(random.Random(d.table.version).choice(choices)["value"])
    await ok(fake, world, d, user, "predict", dict(zip(("number", "colour", "shape"), values,
                                                       strict=True)))


def play_args(d: TableDriver, seat: int, action: Play) -> dict:
    player = "me" if action.target == seat else str(action.target + 1)
    return {"card": LABELS[action.card], "player": player, "pile": action.pile + 1}


def embed_chars(embed: dict) -> int:
    """Characters Discord counts towards the 6,000 per message."""
    total = len(embed.get("title") or "") + len(embed.get("description") or "")
    total += len((embed.get("footer") or {}).get("text") or "")
    total += len((embed.get("author") or {}).get("name") or "")
    for f in embed.get("fields") or []:
        total += len(f.get("name") or "") + len(f.get("value") or "")
    return total


def assert_within_limits(embeds: list[dict]) -> None:
    assert len(embeds) <= 10
    assert sum(embed_chars(e) for e in embeds) <= 6000
    for e in embeds:
        assert len(e.get("title") or "") <= 256
        assert len(e.get("description") or "") <= 4096
        assert len(e.get("fields") or []) <= 25
        for f in e.get("fields") or []:
            assert len(f["name"]) <= 256 and len(f["value"]) <= 1024


# --------------------------------------------------------------------------- whole games
async def test_five_seat_game_to_the_end_without_leaks(fake, world, bots, bot):
    """Issue: "An end-to-end game through the fake Discord with at least 5 seats, with the
    no-leak check" — three humans through the panel, two AI seats."""
    d = driver(fake, world, bots)
    await d.open(world.alice, [world.bob, world.carol], ai=2, options="max_rounds=4")
    assert len(d.table.seats) == 5
    for user in (world.alice, world.bob, world.carol):
        dms = fake.dms(user)
        assert dms and "Your Six Suit hand" in dms[0].text
    board = d.board()
    assert "Six Suit" in board.text and "To act" in board.text
    assert "Round 1" in board.text and "Free time" in board.text
    d.assert_no_leaks()
    moves = await d.play_to_end()
    assert moves > 0
    rows = []
    for _ in range(100):  # the result is stored and posted just after the last move
        await fake.settle()
        texts = [m.text for m in fake.channel_messages(world.channel)]
        rows = await bot.storage.leaderboard(world.guild.id, "six_suit")
        if rows and any("game over" in t for t in texts):
            break
        await asyncio.sleep(0.05)
    assert any("game over" in t and "🏆" in t for t in texts)
    assert {r.name for r in rows} == {"alice", "bob", "carol"}


async def test_twelve_players_board_stays_within_discord_limits(fake, world, bots, bot):
    """Issue: "the board must stay readable with 12 players (use several embeds or fields,
    and state whose turn and which turn of a chain it is)" — every version of the board
    message of a whole 12-seat game fits Discord's limits and shows all twelve players."""
    d = driver(fake, world, bots)
    await d.open(world.alice, [], ai=11, options="max_rounds=3 free_time_rounds=1")
    names = d.table.names
    assert len(names) == 12
    await d.play_to_end()
    # AI seats move faster than Discord lets a board be edited (5 per 5 s): the board
    # shows the game as it is about once a second, so fewer versions than moves
    versions = [v for v in d.board_versions() if v.embeds]
    assert len(versions) > 6
    for version in versions:
        assert_within_limits(version.embeds)
        if "To act" in version.text:  # in play: every seat is on the board
            for i, name in enumerate(names):
                assert f"{i + 1}. {name}" in version.text
            assert "Round" in version.text
            assert "▶️ Turn of" in version.text or "🔁" in version.text  # whose turn, chain
    d.assert_no_leaks()


def test_twelve_player_board_with_long_names_renders_within_limits():
    """The whole board message (the framework's header with a full log included) of random
    12-seat games, solo and in teams, with 32-character names: no embed is ever dropped."""
    ui = SixSuitUI()
    for teams, seed in ((0, 1), (3, 2), (6, 3)):
        names = [f"Player {i:02d} with a very long nam"[:32] for i in range(12)]
        row = TableRow(id=1, guild_id=1, channel_id=1, game="six_suit", status="playing",
                       host_id=1, seats=[{"user_id": 100 + i, "name": n, "ai": False}
                                         for i, n in enumerate(names)],
                       options={"game": {"teams": teams}, "table": {}}, state=None, version=1,
                       board_message_id=None)
        table = LiveTable(row=row, ui=ui)
        state = ENGINE.new_game(12, seed, {"teams": teams, "max_rounds": 6,
                                           "free_time_rounds": 1})
        rng = random.Random(seed)
        steps = 0
        while True:
            table.state = state
            body = ui.render_board(ENGINE.view(state, None), names)
            embeds = render.board_embeds(table)
            if ENGINE.outcome(state) is not None:  # the final picture goes with the result
                embeds = render.result_embeds(table, discord.Embed(description="result"))
            assert len(embeds) == 1 + len(body), "nothing dropped by the size guard"
            assert_within_limits([e.to_dict() for e in embeds])
            for seat in range(12):
                private = ui.render_private(ENGINE.view(state, seat), names, seat)
                assert len(private) <= 6000 and len(private.fields) <= 25
            if ENGINE.outcome(state) is not None:
                break
            [seat] = ENGINE.to_act(state)
            action = (ENGINE.ai_action(state, seat, rng) if rng.random() < 0.7
                      else rng.choice(ENGINE.legal_actions(state, seat)))
            step = ENGINE.apply(state, seat, action)
            table.add_log(list(step.events))
            state = step.state
            steps += 1
        assert steps > 36
        result = ui.render_result(ENGINE.outcome(state), ENGINE.view(state, None), names)
        assert "🏆" in result and len(result) <= 1024
        if teams:
            assert "Team 1" in result


# --------------------------------------------------------------------------- typed moves
async def test_predict_play_and_discard_by_slash_commands(fake, world, bots, bot):
    """Issue: "`/sixsuit predict number: colour: shape:`, `play card: player: pile:`
    (autocomplete only legal targets), `discard card:`" — suggestions are exactly the legal
    choices, refusals change nothing."""
    d = driver(fake, world, bots)
    await d.open(world.alice, [world.bob, world.carol], options="max_rounds=4")
    seat, user = mover(d)
    other = next(u for u in d.players if u is not user)

    # -- predict: only the player about to predict gets suggestions
    await d.note(other, "predict", "number", says="not your turn")
    numbers = await fake.autocomplete(user, f"{CMD} predict", focused="number",
                                      channel=world.channel)
    assert [c["value"] for c in numbers] == ["1", "2", "3", "4", "?"]
    colours = await fake.autocomplete(user, f"{CMD} predict", {"colour": "bl"},
                                      focused="colour", channel=world.channel)
    assert [c["value"] for c in colours] == ["blue", "black"]
    assert "⬛" in colours[1]["name"] and "wild" in colours[1]["name"]
    hand = d.table.engine.view(d.table.state, seat)["hand"]
    text = await d.refused(user, "play",
                         {"card": hand[0], "player": "me", "pile": 1})
    assert "First predict" in text
    text = await d.refused(user, "discard", {"card": hand[0]})
    assert "First predict" in text
    text = await d.refused(other, "predict",
                         {"number": "1", "colour": "red", "shape": "circle"})
    assert "not your turn" in text
    text = await d.refused(user, "predict",
                         {"number": "7", "colour": "red", "shape": "circle"})
    assert "No card has the number `7`: choose 1, 2, 3, 4 or ?" in text, text
    text = await d.refused(user, "predict",
                         {"number": "1", "colour": "pink", "shape": "circle"})
    assert "No card has the colour `pink`: choose red, yellow" in text, text
    # typed words and symbols work too
    await ok(fake, world, d, user, "predict", {"number": "three", "colour": "🟥",
                                               "shape": "triangle"})
    assert isinstance(d.table.state.prediction, list) and d.table.state.prediction == [2, 0, 2]
    assert "predicts 3 · red · triangle" in d.board().text
    text = await d.refused(user, "predict",
                         {"number": "1", "colour": "red", "shape": "circle"})
    assert "already predicted" in text

    # -- play: suggestions list only cards, players and piles that fit
    moves = d.legal(seat)
    plays = [a for a in moves if isinstance(a, Play)]
    assert plays, "with 18 piles on the table some card fits somewhere"
    cards = await fake.autocomplete(user, f"{CMD} play", focused="card", channel=world.channel)
    assert {c["value"] for c in cards} == {LABELS[a.card] for a in plays}
    await d.note(other, "play", "card", says="not your turn")
    card = plays[0].card
    for_card = [a for a in plays if a.card == card]
    players = await fake.autocomplete(user, f"{CMD} play", {"card": LABELS[card]},
                                      focused="player", channel=world.channel)
    assert {int(c["value"]) - 1 for c in players} == {a.target for a in for_card}
    target = min(a.target for a in for_card)
    piles = await fake.autocomplete(user, f"{CMD} play",
                                    {"card": LABELS[card], "player": str(target + 1)},
                                    focused="pile", channel=world.channel)
    fits = {a.pile + 1 for a in for_card if a.target == target}
    assert {c["value"] for c in piles} == fits
    assert all(c["name"].startswith("Pile ") and "cover" in c["name"] for c in piles)
    # refusals: a card not in hand, a pile it does not fit, nonsense
    view = d.table.engine.view(d.table.state, seat)
    # a card everyone can see (on a pile), so typing it reveals nothing
    missing = next(label for s in view["seats"] for label in s["piles"]
                   if label not in view["hand"])
    text = await d.refused(user, "play",
                         {"card": missing, "player": "me", "pile": 1})
    assert "isn't in your hand" in text
    unfit = next(((t, p) for t in range(3) for p in range(6)
                  if Play(card, t, p) not in moves), None)
    if unfit is not None:
        text = await d.refused(user, "play",
                             {"card": LABELS[card], "player": str(unfit[0] + 1),
                              "pile": unfit[1] + 1})
        assert "shares no" in text or "vetoed" in text
    text = await d.refused(user, "play",
                         {"card": "ace of spades", "player": "me", "pile": 1})
    assert "isn't a Six Suit card" in text
    text = await d.refused(user, "play",
                         {"card": LABELS[card], "player": "nobody here", "pile": 1})
    assert "isn't a player" in text
    version = d.table.version
    await ok(fake, world, d, user, "play",
             {"card": LABELS[card], "player": players[[int(c["value"]) - 1 for c in players]
                                                     .index(target)]["value"],
              "pile": piles[0]["value"]})
    assert d.table.version == version + 1
    assert LABELS[card] in d.board().text

    # -- finish whatever this turn became (an offer in free time, extra turns), then discard
    discarded = False
    for _ in range(40):
        table = d.table
        seat, user = mover(d)
        first = d.legal(seat)[0]
        if isinstance(first, Consent | Veto):
            await ok(fake, world, d, user, "consent")
        elif isinstance(first, Predict):
            await predict_by_slash(fake, world, d, user)
        elif discarded:
            break
        else:
            choices = await fake.autocomplete(user, f"{CMD} discard", focused="card",
                                              channel=world.channel)
            hand = table.engine.view(table.state, seat)["hand"]
            assert sorted(c["name"].split(" ")[0] for c in choices) == sorted(hand)
            before = len(table.engine.view(table.state, None)["discard"])
            await ok(fake, world, d, user, "discard", {"card": choices[0]["value"]})
            after = d.table.engine.view(d.table.state, None)["discard"]
            assert len(after) == before + 1 and after[-1] == choices[0]["name"].split(" ")[0]
            discarded = True
    assert discarded
    # a typed discard by words: "3 red triangle" style, for a card in hand
    for _ in range(10):
        seat, user = mover(d)
        if isinstance(d.legal(seat)[0], Predict):
            await predict_by_slash(fake, world, d, user)
            continue
        if not any(isinstance(a, Discard) for a in d.legal(seat)):
            break
        label = d.table.engine.view(d.table.state, seat)["hand"][0]
        from cogs.six_suit.cog import card_words

        await ok(fake, world, d, user, "discard", {"card": card_words(label)})
        assert d.table.engine.view(d.table.state, None)["discard"][-1] == label
        break


async def test_free_time_offers_vetoed_on_the_panel_and_accepted_by_command(
        fake, world, bots, bot):
    """Issue: "consent/veto buttons during free time" — the pile owner's Take my turn panel
    shows Consent and Veto; a vetoed card comes back (publicly known) and cannot be offered on
    that pile again this turn; `/sixsuit consent` lets an offer through."""
    d = driver(fake, world, bots)
    await d.open(world.alice, [world.bob, world.carol],
                 options="max_rounds=6 free_time_rounds=5")
    vetoed = consented = False
    for _ in range(60):
        if vetoed and consented:
            break
        seat, user = mover(d)
        moves = d.legal(seat)
        if isinstance(moves[0], Predict):
            await predict_by_slash(fake, world, d, user)
            continue
        if isinstance(moves[0], Consent | Veto):
            await ok(fake, world, d, user, "consent")
            continue
        offers = [a for a in moves if isinstance(a, Play) and a.target != seat]
        if not offers or (vetoed and consented):
            discard = next(a for a in moves if isinstance(a, Discard))
            await ok(fake, world, d, user, "discard", {"card": LABELS[discard.card]})
            continue
        offer = offers[0]
        owner = d.seat_user(offer.target)
        await ok(fake, world, d, user, "play", play_args(d, seat, offer))
        board = d.board()
        assert "Consent or veto" in board.text and LABELS[offer.card] in board.text
        notice = fake.channel_messages(world.channel)[-1]
        assert "your move" in notice.text and f"<@{owner.id}>" in notice.text
        # the offerer may not answer their own offer; nobody else may either
        assert "not your turn" in await d.refused(user, "consent")
        if not vetoed:
            panel = await d.click(owner, board, "Take my turn")
            labels = [b["label"] for b in panel.message.buttons()]
            assert len(labels) == 2
            assert labels[0].startswith("Consent") and labels[1].startswith("Veto")
            assert LABELS[offer.card] in labels[0]
            answer = await fake.click(owner, panel.message, panel.message.buttons()[1]
                                      ["custom_id"])
            assert "✅ Veto" in answer.text, answer.text
            await d.synced()
            d.assert_no_leaks()
            vetoed = True
            board = d.board()
            assert "Vetoed this turn" in board.text and "vetoes" in board.text
            assert d.table.engine.to_act(d.table.state) == {seat}
            # the card is back in the offerer's hand, shown to everyone
            assert LABELS[offer.card] in d.table.engine.view(d.table.state, None)[
                "seats"][seat]["known_hand"]
            text = await d.refused(user, "play", play_args(d, seat, offer))
            assert "already vetoed" in text
            assert "not your turn" in await d.refused(owner, "veto")
        else:
            await ok(fake, world, d, owner, "consent")
            consented = True
            top = d.table.engine.view(d.table.state, None)["seats"][offer.target]["piles"]
            assert top[offer.pile] == LABELS[offer.card]
    assert vetoed and consented


async def test_consent_and_veto_refused_without_an_offer(fake, world, bots, bot):
    d = driver(fake, world, bots)
    await d.open(world.alice, [world.bob])
    seat, user = mover(d)
    text = await d.refused(user, "veto")
    assert "no offer" in text
    text = await d.refused(user, "consent")
    assert "no offer" in text
    other = world.bob if user is world.alice else world.alice
    assert "not your turn" in await d.refused(other, "consent")
    # two players in free time: only their own piles, whatever fits elsewhere
    await predict_by_slash(fake, world, d, user)
    state = d.table.state
    other_seat = 1 - seat
    fits = [(card, pile) for card in state.hands[seat] for pile in range(6)
            if SHARED[card][state.tops[other_seat * 6 + pile]]]
    assert all(a.target == seat for a in d.legal(seat) if isinstance(a, Play))
    if fits:
        card, pile = fits[0]
        text = await d.refused(user, "play",
                             {"card": LABELS[card], "player": str(other_seat + 1),
                              "pile": pile + 1})
        assert "only play on your own piles" in text
    outsider = await fake.slash(world.outsider, f"{CMD} predict",
                                {"number": "1", "colour": "red", "shape": "circle"},
                                channel=world.channel)
    assert outsider.ephemeral and "not playing" in outsider.text


# --------------------------------------------------------------------------- teams
async def test_team_game_with_teams_chosen_in_the_lobby(fake, world, bots, bot):
    """Issue: "teams chosen in the lobby (option)" — `/sixsuit new options:teams=2`; players
    pick a team in the lobby's select; seats alternate teams; the board, the hand and the
    result show them."""
    d = driver(fake, world, bots)
    for user in (world.alice, world.bob, world.carol, world.outsider):
        d.earlier[user.id] = set(fake.visible_texts(user))
    result = await fake.slash(world.alice, f"{CMD} new", {"options": "teams=2 max_rounds=3"},
                              channel=world.channel)
    assert not result.ephemeral, result.text
    lobby = result.message
    d.table_id = int(re.search(r"t:(\d+):join", str(lobby.buttons())).group(1))
    d.players = [world.alice, world.bob, world.carol]
    team_select = f"lt:{d.table_id}"
    assert any(b["custom_id"] == team_select for b in lobby.buttons())
    for user in (world.bob, world.carol):
        await d.click(user, lobby, "Join")
    # alice and bob want Team 2, carol Team 1
    for user, team in ((world.alice, "1"), (world.bob, "1"), (world.carol, "0")):
        answer = await fake.select(user, lobby, team_select, [team])
        assert "⚠️" not in answer.text, answer.text
    lobby_text = fake.channel_messages(world.channel)[-1].text
    assert "Team 2" in lobby_text and "Team 1" in lobby_text
    start = await d.click(world.alice, lobby, "Start")  # 3 seats can't make 2 equal teams
    assert start.ephemeral and "equal teams" in start.text
    await d.click(world.alice, lobby, "Add AI")
    await d.click(world.alice, lobby, "Start")
    await d.synced()  # the first board and DMs are out (settle() can return before them)
    table = d.table
    teams = {s["name"]: i % 2 for i, s in enumerate(table.seats)}
    assert teams["alice"] == teams["bob"] == 1 and teams["carol"] == 0
    assert all(s["team"] == i % 2 for i, s in enumerate(table.seats))
    view = table.engine.view(table.state, None)
    assert view["teams"] == 2
    board = d.board()
    assert "Team 1 ·" in board.text and "Team 2 ·" in board.text and "Team scores" in board.text
    alice_dm = fake.dms(world.alice)[-1].text
    assert "Team 2" in alice_dm and "With bob" in alice_dm
    await d.play_to_end()
    for _ in range(100):
        await fake.settle()
        final = fake.channel_messages(world.channel)[-1].text
        if "game over" in final:
            break
        await asyncio.sleep(0.05)
    assert "game over" in final and "**Team 1**" in final and "**Team 2**" in final
    d.assert_no_leaks()


# --------------------------------------------------------------------------- odds and ends
async def test_rules_and_hand(fake, world, bots, bot):
    quick, text = await screens.full_rules(fake, world.alice, CMD, world.channel)
    assert "six suit" in quick  # the quick start comes first
    assert "Six suit" in text and "Free time" in text
    assert "/sixsuit play card: player: pile:" in text
    d = driver(fake, world, bots)
    await d.open(world.alice, [world.bob])
    hand = await fake.slash(world.bob, f"{CMD} hand", channel=world.channel)
    assert hand.ephemeral and "Your Six Suit hand" in hand.text
    seat = d.table.seat_of(world.bob.id)
    [card] = d.table.engine.view(d.table.state, seat)["hand"]
    assert card in hand.text
    d.assert_no_leaks()


async def test_the_board_follows_the_turn_with_a_ping_in_at_most_two_public_calls(
        fake, world, bots, bot):
    """Delivery: when the turn passes to someone else the board is posted anew at the bottom
    of the channel with a mention (a ping needs a new message) and the old board is deleted;
    while the same person still acts (Six Suit's predict-then-play turn) it is edited in
    place. Either way a move costs at most two public calls, and a DM goes to exactly the
    players whose DM would show something new: their hand changed (issue: benchmarks
    goals). A DM shows no piles (they are the table's), so a card played on someone's pile
    costs no DM edit."""
    d = driver(fake, world, bots)
    await d.open(world.alice, [world.bob])
    humans = (world.alice, world.bob)

    def private_parts() -> dict[int, list]:
        table, engine = d.table, d.table.engine
        return {user.id: engine.view(table.state, table.seat_of(user.id))["hand"]
                for user in humans}

    seen = {"reposted": 0, "edited": 0}
    for _ in range(6):
        before = d.board()
        parts = private_parts()
        dms = {user.id: len(dm_updates(fake, user)) for user in humans}
        waiting = d.table.engine.waiting_for(d.table.state)
        _, user = mover(d)
        mark = fake.mark()
        assert CONFIRM in await d.take_turn(user)
        await d.synced()
        public = public_calls(fake, world.channel, mark)  # channel or the move's token
        now = d.table.engine.waiting_for(d.table.state)
        board = d.board()
        if now != waiting:
            assert [c.method for c in public] == ["POST", "DELETE"], [c.route for c in public]
            assert before.deleted and board is not before
            assert fake.channel_messages(world.channel)[-1] is board
            [next_seat] = now
            assert board.content.startswith(f"🎯 <@{d.seat_user(next_seat).id}>, it's your move")
            # the player to act is pinged (their /notify is the default, `channel`)
            mentions = public[0].json["allowed_mentions"]
            assert [int(u) for u in mentions["users"]] == [d.seat_user(next_seat).id]
            assert mentions["parse"] == []
            seen["reposted"] += 1
        else:
            assert [c.method for c in public] == ["PATCH"], [c.route for c in public]
            assert board is before and f"<@{user.id}>" in board.content
            seen["edited"] += 1
        after = private_parts()
        changed = {uid for uid in parts if parts[uid] != after[uid]}
        assert {user.id for user in humans
                if len(dm_updates(fake, user)) > dms[user.id]} == changed
        assert all(len(dm_updates(fake, user)) - dms[user.id] <= 1 for user in humans)
    assert seen["reposted"] and seen["edited"], seen
