"""Hidden Rules end to end through the fake Discord: rule choice, plays with words, enforcing,
accepting and challenging, the time limit, referee mode, and a whole game with AI seats.

The tests read the bot's table only to know who should act and to predict a challenge's
verdict; every move is made the way a person would (slash commands, panel buttons, forms), and
the no-leak check reads only what each user was shown.
"""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.ui.names import escape_markdown
from engines.hidden_rules.decks import ACTIONS, TRIGGERS, broken
from engines.hidden_rules.rules import Play
from tests.e2e import screens
from tests.e2e.driver import TableDriver, dm_updates

pytestmark = pytest.mark.e2e

CMD = "hiddenrules"


def driver(fake, world, bots) -> TableDriver:
    return TableDriver(fake, world, bots, CMD)


def public_view(d: TableDriver) -> dict:
    return d.table.engine.view(d.table.state, None)


def rule_labels(d: TableDriver, holder: int) -> tuple[str, str]:
    s = d.table.state
    return TRIGGERS[s.rule_t[holder]].label, ACTIONS[s.rule_a[holder]].label


def seen_by(fake, user) -> str:
    return "\n".join(fake.visible_texts(user))


async def channel_text_with(fake, world, needle: str) -> str:
    """The channel's messages once `needle` shows (delivery runs just after a move)."""
    for _ in range(100):
        await fake.settle()
        text = "\n".join(m.text for m in fake.channel_messages(world.channel))
        if needle in text:
            return text
        await asyncio.sleep(0.05)
    raise AssertionError(f"{needle!r} never appeared in the channel")


async def ok(fake, world, user, command: str, args: dict | None = None):
    result = await fake.slash(user, f"{CMD} {command}", args or {}, channel=world.channel)
    assert result.ephemeral and "✅" in result.text, result.text
    await fake.settle()
    return result




async def keep_by_slash(fake, world, user) -> None:
    triggers = await fake.autocomplete(user, f"{CMD} keep", focused="trigger",
                                       channel=world.channel)
    actions = await fake.autocomplete(user, f"{CMD} keep", {"trigger": triggers[1]["value"]},
                                      focused="action", channel=world.channel)
    assert len(triggers) == 2 and len(actions) == 2
    assert triggers[1]["name"].startswith("T") and actions[0]["name"].startswith("A")
    await ok(fake, world, user, "keep", {"trigger": triggers[1]["value"],
                                         "action": actions[0]["value"]})


async def play_by_slash(fake, world, d, user, action: Play | None = None, say: str | None = None):
    """Play `action` (or the first suggested card) with `/hiddenrules play`, via autocomplete."""
    choices = await fake.autocomplete(user, f"{CMD} play", focused="card", channel=world.channel)
    assert choices, "a player to play is offered their hand"
    seat = d.table.seat_of(user.id)
    hand = d.table.engine.view(d.table.state, seat)["hand"]
    assert {c["name"].split(" ")[0] for c in choices} == set(hand)
    if action is None:
        pick = choices[0]
        ace_as = 11 if pick["name"].startswith("A") else None
    else:
        pick = next(c for c in choices if c["name"].split(" ")[0] == str(action.card))
        ace_as = action.ace_as or None
    args = {"card": pick["value"]}
    if ace_as:
        args["ace_as"] = ace_as
    if say:
        args["say"] = say
    return await ok(fake, world, user, "play", args)


async def enforce_by_slash(fake, world, user, holder_name: str, hint: str):
    players = await fake.autocomplete(user, f"{CMD} enforce", focused="player",
                                      channel=world.channel)
    assert len(players) == 1, players
    holders = await fake.autocomplete(user, f"{CMD} enforce", {"player": players[0]["value"]},
                                      focused="holder", channel=world.channel)
    # the three players' rules and, at a quiet table (the default), "unnecessary talking"
    assert len(holders) == 4 and "Unnecessary talking" in holders[-1]["name"], holders
    pick = next(h for h in holders if holder_name in h["name"])
    return await ok(fake, world, user, "enforce", {"player": players[0]["value"],
                                                    "holder": pick["value"], "hint": hint})


async def enforce_by_panel(fake, d: TableDriver, user, holder_name: str, hint: str):
    """Take my turn → Enforce → Rule of … → the hint form."""
    result = await open_panel(d, user)
    top = next(b for b in result.message.buttons() if b["label"] == "Enforce")
    result = await fake.click(user, result.message, top["custom_id"])
    rules = [b for b in result.message.buttons() if b["label"].startswith("Rule of")]
    assert len(rules) == 3, result.message.buttons()
    pick = next(b for b in rules if b["label"] == f"Rule of {holder_name}")
    result = await fake.click(user, result.message, pick["custom_id"])
    assert result.modal is not None and result.modal.title.startswith("Enforce")
    # the bot routes the form's submission itself: discord.py keeps no copy of it (and no
    # 15-minute timeout task per form shown)
    assert not d.bot._connection._view_store._modals
    done = await fake.submit_modal(user, result.modal.custom_id, {"text": hint})
    assert done.ephemeral and "✅" in done.text, done.text
    await fake.settle()


def plays_of(d: TableDriver, seat: int) -> list[Play]:
    return [a for a in d.table.engine.legal_actions(d.table.state, seat) if isinstance(a, Play)]


def verdicts(d: TableDriver, seat: int, play: Play) -> dict[int, bool]:
    """For each other seat: would this play (saying nothing) break that seat's rule?"""
    s = d.table.state
    after = d.table.engine.apply(s, seat, play).state
    return {h: broken(s.rule_t[h], s.rule_a[h], after.last.ctx) for h in range(s.n) if h != seat}


async def open_panel(d: TableDriver, user):
    result = await d.click(user, d.board(), "Take my turn")
    assert result.ephemeral, result.text
    return result


# --------------------------------------------------------------------------- tests
async def test_enforcement_accept_and_challenges_by_commands_and_panel(fake, world, bots, bot):
    d = driver(fake, world, bots)
    await d.open(world.alice, [world.bob, world.carol], options="turn_seconds=0 target=6 max_turns=50")
    users = [world.alice, world.bob, world.carol]
    assert [s["name"] for s in d.table.seats] == ["alice", "bob", "carol"]
    names = d.table.names
    board = d.board()
    assert "still choosing" in board.text and "Choosing secret rules" in board.text

    # rule choice: the hand shows the dealt triggers and actions; nothing else can be done yet
    hand = await fake.slash(world.alice, f"{CMD} hand", channel=world.channel)
    assert hand.ephemeral and "Choose your secret rule" in hand.text
    dealt = d.table.engine.view(d.table.state, 0)["dealt"]
    assert all(c["label"] in hand.text for c in dealt["triggers"] + dealt["actions"])
    assert "choosing" in await d.refused(world.alice, "play", {"card": "7h"})
    await keep_by_slash(fake, world, world.alice)
    again = await d.refused(world.alice, "keep", {"trigger": "1", "action": "1"})
    assert "already chosen" in again
    # bob keeps through the panel: trigger buttons, then action buttons
    panel = await open_panel(d, world.bob)
    labels = [b["label"] for b in panel.message.buttons() if b["label"] != "Back"]
    assert len(labels) == 2 and all(label.startswith("T") for label in labels), labels
    step = await fake.click(world.bob, panel.message, panel.message.buttons()[0]["custom_id"])
    actions = [b for b in step.message.buttons() if b["label"].startswith("A")]
    assert len(actions) == 2
    done = await fake.click(world.bob, step.message, actions[1]["custom_id"])
    assert "✅" in done.text and "Keep the rule" in done.text
    await d.synced()
    await keep_by_slash(fake, world, world.carol)
    for seat, user in enumerate(users):
        mine = d.table.engine.view(d.table.state, seat)["my_rule"]
        dm = fake.dms(user)[-1].text
        assert mine["trigger"]["label"] in dm and mine["action"]["label"] in dm
        shown = await fake.slash(user, f"{CMD} hand", channel=world.channel)
        assert "Your secret rule" in shown.text and mine["action"]["label"] in shown.text
    d.assert_no_leaks()

    # ---- a play with words, then an enforcement the accused accepts
    view = public_view(d)
    p1 = view["to_play"]
    e1 = (p1 + 1) % 3
    await d.refused(users[e1], "play", {"card": "7h"})
    await d.refused(users[e1], "enforce", {"player": names[p1], "holder": "x",
                                                          "hint": "no play yet"})
    await d.refused(users[p1], "play", {"card": "ace of cups"})
    turned_up = view["trick"]["cards"][0]["card"]
    assert "don't have" in await d.refused(users[p1], "play", {"card": turned_up})
    stale = await d.refused(users[p1], "play", {"card": f"{d.table.version - 1}.0"})
    assert "out of date" in stale
    await play_by_slash(fake, world, d, users[p1], say="hello there")
    view = public_view(d)
    played = view["window"]["card"]
    assert f"`{played}`" in d.board().text and "“hello there”" in d.board().text
    await d.refused(users[p1], "enforce", {"player": names[p1],
                                                          "holder": names[p1], "hint": "me"})
    wrong_player = await d.refused(users[e1], "enforce", {
        "player": names[e1], "holder": names[e1], "hint": "nope"})
    assert "last card played" in wrong_player
    await d.refused(users[e1], "accept")
    hand_before = view["hand_sizes"][p1]
    scores = list(view["scores"])
    await enforce_by_slash(fake, world, users[e1], "Your own rule", "Mind your manners")
    view = public_view(d)
    assert view["phase"] == "pending" and view["pending"]["hint"] == "Mind your manners"
    text = d.board().text
    assert "enforces their own rule" in text and "“Mind your manners”" in text
    assert f"{names[p1]}** must **Accept**" in text
    await d.refused(users[e1], "challenge")
    await d.refused(users[p1], "play", {"card": "7h"})
    accused_hand = await fake.slash(users[p1], f"{CMD} hand", channel=world.channel)
    assert "You are accused" in accused_hand.text
    # the accused's panel: exactly Accept and Challenge, as buttons only they see
    panel = await open_panel(d, users[p1])
    buttons = [b["label"] for b in panel.message.buttons()]
    assert len(buttons) == 2 and buttons[0].startswith("Accept") and \
        buttons[1].startswith("Challenge"), buttons
    nope = await d.click(users[e1], d.board(), "Take my turn")
    assert nope.ephemeral and "not your turn" in nope.text
    answer = await fake.click(users[p1], panel.message, panel.message.buttons()[0]["custom_id"])
    assert "✅ Accept" in answer.text
    await d.synced()  # the board after the move, its picture drawn (settle() can be early)
    view = public_view(d)
    scores[p1] -= 1
    assert view["scores"] == scores
    assert view["hand_sizes"][p1] == hand_before + 1, "the card went back to the hand"
    assert view["history"][-1]["result"] == "accepted"
    board_text = d.board().text
    assert "→ accepted" in board_text and f"{names[p1]} −1" in board_text
    assert f"**{names[p1]}** — −1 pt" in board_text
    d.assert_no_leaks()

    # ---- a challenge the enforcer wins (the rule was broken), then one the accused wins
    right_done = wrong_done = used_next = used_pass = False
    for _ in range(60):
        if right_done and wrong_done and used_next and used_pass:
            break
        view = public_view(d)
        seat = view["to_play"]
        if seat is None:
            starter = view["next_starter"]
            await ok(fake, world, users[starter], "next")
            used_next = True
            continue
        user = users[seat]
        if right_done and wrong_done:
            await play_by_slash(fake, world, d, user, say="nothing to see")
            window = public_view(d)["window"]
            idle = [p for p in window["may_enforce"] if p != public_view(d)["to_play"]
                    and p != public_view(d)["next_starter"]]
            if not used_pass and idle:
                await ok(fake, world, users[idle[0]], "pass")
                assert idle[0] not in public_view(d)["window"]["may_enforce"]
                free = next(line for line in d.board().text.splitlines()
                            if "Still free to" in line)
                assert names[idle[0]] not in free, free
                used_pass = True
            continue
        candidates = []
        for play in plays_of(d, seat):
            for holder, is_broken in verdicts(d, seat, play).items():
                candidates.append((play, holder, is_broken))
        want_right = not right_done
        pick = next(((p, h) for p, h, b in candidates if b == want_right), None)
        if pick is None:
            await play_by_slash(fake, world, d, user, say="nothing to see")
            continue
        play, holder = pick
        third = ({0, 1, 2} - {seat, holder}).pop()
        scores = list(view["scores"])
        trigger_label, action_label = rule_labels(d, holder)
        third_knew = d.table.state.knows_rule(third, holder)  # from an earlier challenge
        await play_by_slash(fake, world, d, user, play)
        if want_right:
            await enforce_by_slash(fake, world, users[holder], "Your own rule", "Think again")
        else:
            await enforce_by_panel(fake, d, users[holder], names[holder], "Think again")
        assert public_view(d)["pending"]["hint"] == "Think again"
        if want_right:
            panel = await open_panel(d, user)
            challenge = next(b for b in panel.message.buttons()
                             if b["label"].startswith("Challenge"))
            answer = await fake.click(user, panel.message, challenge["custom_id"])
            assert "✅ Challenge" in answer.text
            scores[holder] += 1
            scores[seat] -= 2  # lost the challenge and took the penalty
            right_done = True
        else:
            await ok(fake, world, user, "challenge")
            scores[holder] -= 1
            scores[seat] += 1
            wrong_done = True
        await d.synced()
        view = public_view(d)
        assert view["scores"] == [max(-10, x) for x in scores]
        record = view["history"][-1]
        assert record["result"] == ("right" if want_right else "wrong")
        assert record["enforcer"] == record["holder"] == holder and record["accused"] == seat
        verdict = "rule broken" if want_right else "not broken"
        assert verdict in d.board().text
        # the challenger was shown the rule privately; the third player and outsiders never
        dm_text = "\n".join(v.text for v in dm_updates(fake, user))
        assert trigger_label in dm_text and action_label in dm_text
        assert trigger_label in (await fake.slash(user, f"{CMD} hand",
                                                  channel=world.channel)).text
        for other in ([] if third_knew else [users[third]]) + [world.outsider]:
            assert trigger_label not in seen_by(fake, other)
            assert action_label not in seen_by(fake, other)
        d.assert_no_leaks()
        if not want_right:
            assert view["window"] is not None, "after a wrong enforcement others may still act"
            assert third in view["window"]["may_enforce"]
            if third in (view["to_play"], view["next_starter"]):
                text = await d.refused(users[third], "pass")
                assert "your turn" in text
    assert right_done and wrong_done and used_next and used_pass
    d.assert_no_leaks()

    # ---- the rest of the game through the panel (the 50-turn cap ends it at the latest)
    d.modal_text = lambda modal: "" if modal.title.startswith("Play") else "Check your words."
    await d.play_to_end(choose=lambda labels: 0)
    final = await channel_text_with(fake, world, "game over")
    assert "Everyone's secret rule" in final


async def test_whole_game_with_humans_and_ai_seats_through_the_panel(fake, world, bots, bot):
    d = driver(fake, world, bots)
    rng = random.Random(11)
    words = ["", "", "seven of hearts", "please", "sorry", "up and over", "a cat", "nineteen",
             "YAWP", "have a nice day", "red", "spades"]
    d.modal_text = lambda modal: ("You forgot something." if modal.title.startswith("Enforce")
                                  else rng.choice(words))

    def choose(labels: list[str]) -> int:
        calm = [i for i, label in enumerate(labels) if label != "Enforce"]
        if calm and rng.random() < 0.85:
            return rng.choice(calm)
        return rng.randrange(len(labels))

    await d.open(world.alice, [world.bob], ai=2,
                 options="turn_seconds=0 target=2 max_turns=60")
    assert [s["ai"] for s in d.table.seats] == [False, False, True, True]
    for user in (world.alice, world.bob):
        assert "Choose your secret rule" in fake.dms(user)[0].text
    moves = await d.play_to_end(choose=choose)
    assert moves > 0
    await channel_text_with(fake, world, "game over")
    messages = fake.channel_messages(world.channel)
    versions = "\n".join(v.text for v in d.board_versions())
    assert "Current trick — total" in versions and "plays next" in versions
    result = next(m for m in messages if "game over" in m.text)
    assert "Everyone's secret rule" in result.text, "every rule is revealed at the end"
    assert any("game over" in m.text for m in messages)
    shown = fake.modals_shown(world.alice) + fake.modals_shown(world.bob)
    assert any(m.title.startswith("Play") for m in shown), "a play asks what you say"
    # the board's Recent lines and its History (under Discord's rate limits the board
    # follows the moves about once a second, so not every move's line is in a version)
    said = versions + "\n" + await d.history()
    assert any(f"“{w}”" in said for w in words if w), "what was said shows on the board"
    rows = await bot.storage.leaderboard(world.guild.id, "hidden_rules")
    assert {r.name for r in rows} == {"alice", "bob"}


async def test_time_limit_costs_a_point_and_passes_the_turn(fake, world, bots):
    await bots.start(timer_tick=0.05)
    d = driver(fake, world, bots)
    await d.open(world.alice, [world.bob], options="turn_seconds=2 afk_turns=20")
    # nobody chooses a rule or plays: the timer keeps a rule for each, then costs the first
    # player to play a point and passes the turn without a card (2 s turns: with 1 s, a
    # loaded machine could starve this loop past the whole first turn and miss it)
    first: tuple[list[int], int] | None = None
    checked = False
    for _ in range(1200):  # normally 4-5 s; up to 60 s on a busy machine
        await asyncio.sleep(0.05)
        table = d.table
        if table is None:
            break
        view = table.engine.view(table.state, None)
        if view["phase"] != "play" or view["to_play"] is None:
            continue
        if view["turns"] == 0 and first is None:
            first = (list(view["scores"]), view["to_play"])
        elif view["turns"] == 1 and first is not None:
            scores, mover = first
            scores[mover] -= 1
            assert view["scores"] == scores
            assert view["to_play"] == 1 - mover
            assert len(view["trick"]["cards"]) == 1, "no card was played"
            checked = True
            break
    assert checked is True
    for _ in range(100):  # the board is delivered just after the move
        await asyncio.sleep(0.05)
        await fake.settle()
        texts = seen_by(fake, world.outsider)  # every version of the board
        if "ran out of time: −1 point" in texts:
            break
    assert "ran out of time: −1 point, turn passes" in texts + await d.history()
    assert "⏱️ 2 s per card" in texts


async def test_referee_takes_back_broken_plays(fake, world, bots, bot):
    d = driver(fake, world, bots)
    await d.open(world.alice, [], ai=2, options="turn_seconds=0 referee=true target=10")
    assert "referee on" in d.board().text

    def choose(labels: list[str]) -> int:
        """Alice says nothing and prefers a card that breaks some rule (she wants to see it)."""
        if "Play" in labels:
            return labels.index("Play")
        s = d.table.state
        for play in plays_of(d, 0):
            after = d.table.engine.apply(s, 0, play).state  # saying nothing
            label = f"{play.card} as {play.ace_as}" if play.ace_as else str(play.card)
            if label in labels and len(after.history) > len(s.history):
                return labels.index(label)  # the referee would take it back
        return 0

    seen_referee = False
    for _ in range(300):
        table = d.table
        assert table is not None, "the game ended before alice broke a rule"
        if any(r.result == "referee" and r.accused == 0 for r in table.state.history):
            seen_referee = True
            break
        humans = [s for s in table.engine.waiting_for(table.state) if not table.is_ai(s)]
        if not humans:
            await fake.settle()
            await asyncio.sleep(0.02)
            continue
        text = await d.take_turn(world.alice, choose)
        assert "✅" in text or "out of date" in text, text
        await fake.settle()
        d.assert_no_leaks()
    assert seen_referee
    await d.synced()
    record = next(r for r in reversed(public_view(d)["history"])
                  if r["result"] == "referee" and r["accused"] == 0)
    assert record["enforcer"] is None and record["changes"][0] == -1
    assert "Referee:" in seen_by(fake, world.outsider)
    holder_rule = rule_labels(d, record["holder"])
    if record["holder"] != 0:  # the AI's rule was shown to alice, privately
        dm_text = "\n".join(v.text for v in dm_updates(fake, world.alice))
        assert holder_rule[0] in dm_text
        assert holder_rule[0] not in seen_by(fake, world.outsider)
    d.assert_no_leaks()


async def test_rules_summary_and_help(fake, world, bot):
    quick, text = await screens.full_rules(fake, world.alice, CMD, world.channel)
    assert "Hidden Rules" in quick and "21" in quick
    assert "Enforcing" in text and "Challenge" in text and "Unnecessary talking" in text
    helped = await fake.slash(world.alice, "help", channel=world.channel)
    assert "/hiddenrules new" in helped.text


def test_board_fits_discord_limits_with_five_players_and_long_texts():
    """Worst case: 5 long names, a 25-card trick with 200-character words, 10 enforcements
    with long hints, many names used, every rule revealed: still within Discord's limits."""
    from cogs.hidden_rules.cog import BOARD_BUDGET, HiddenRulesUI

    ui = HiddenRulesUI()
    engine = ui.engine
    state = engine.new_game(5, 5)
    for seat in range(5):
        state = engine.apply(state, seat, engine.legal_actions(state, seat)[0]).state
    view = engine.view(state, None)
    long = "x" * 199 + "!"
    view["trick"]["cards"] = [{"seat": i % 5, "card": "10♥", "value": -4, "say": long,
                               "turned_up": i == 0} for i in range(25)]
    record = {"enforcer": 1, "holder": 2, "accused": 3, "hint": long, "result": "right",
              "card": "Q♠", "total": -10, "say": long, "changes": [0, 1, -1, -2, 0]}
    view["history"] = [record] * 10
    view["enforcements"] = 40
    view["named"] = {"animals": ["hippopotamus"] * 60, "characters": ["sherlock holmes"] * 60}
    view["pending"] = {"enforcer": 1, "holder": 2, "hint": long, "accused": 3, "card": "Q♠"}
    names = [f"Player number {i} with a long name" for i in range(5)]
    for over in (False, True):
        if over:
            view["phase"] = "over"
            view["all_rules"] = [engine._rule_json(state, p) for p in range(5)]
            view["winners"] = [1]
        embeds = ui.render_board(view, names)
        assert 1 <= len(embeds) <= 9
        assert sum(len(e) for e in embeds) <= BOARD_BUDGET + 200
        for embed in embeds:
            assert len(embed.description or "") <= 4096 and len(embed.title or "") <= 256
            assert len(embed.fields) <= 25
            assert all(len(f.value) <= 1024 and len(f.name) <= 256 for f in embed.fields)
        text = "\n".join(e.description or "" for e in embeds)
        assert "Current trick" in embeds[0].title and (
            "the last" in embeds[0].title or "earlier cards" in text)
        if over:
            assert any(e.title == "Everyone's secret rule" for e in embeds)
    private = ui.render_private(engine.view(state, 0), names, 0)
    assert len(private) <= 6000 and "Your secret rule" in private.fields[0].name



async def test_the_quiet_table_counts_what_was_typed_and_escapes_it_only_for_display(
        fake, world, bots, bot):
    """RULINGS, unnecessary talking: "at most 3 parts, 100 characters". What a player said
    was markdown-escaped BEFORE the check, so an 88-character line full of `*`, `_` and `-`
    became 100+ and was refused. Now 100 typed characters pass, the game keeps them as typed,
    and the board and history show them escaped (no bold, no mention); 101 are refused with
    the count."""
    d = driver(fake, world, bots)
    await d.open(world.alice, [world.bob], options="turn_seconds=0 target=6 max_turns=60")
    for user in (world.alice, world.bob):
        await keep_by_slash(fake, world, user)
    users = {world.alice.id: world.alice, world.bob.id: world.bob}
    player = users[d.table.seats[public_view(d)["to_play"]]["user_id"]]
    words = "**no-one** __hears__ *this*-@everyone-"
    typed = (words * 3)[:100]
    assert len(typed) == 100 and len(escape_markdown(typed)) > 100
    too_long = typed + "x"
    refusal = await d.refused(player, "play", {"card": (await fake.autocomplete(
        player, f"{CMD} play", focused="card", channel=world.channel))[0]["value"],
        "say": too_long}, says="101 characters")
    assert "100 characters" in refusal
    await play_by_slash(fake, world, d, player, say=typed)
    said = public_view(d)["trick"]["cards"][-1]["say"]
    assert said == typed  # kept as typed: the rules check these very characters
    board = await channel_text_with(fake, world, "“\\*\\*no\\-one\\*\\*")
    assert "**no-one**" not in board and "@everyone" not in board
    history = await d.history(player)
    assert "\\*\\*no\\-one\\*\\*" in history and "@everyone" not in history


async def _to_a_human_card_an_ai_follows(fake, world, d: TableDriver, users, player: int,
                                         watcher: int, ai: int) -> None:
    """Drive the game by slash commands until `player` has just played a card, the AI seat
    `ai` is to play next and `watcher` may still enforce against it. AI seats may act on the
    last card at any time, so a command refused because the game moved on is tried anew."""
    last: AssertionError | None = None
    for _ in range(300):
        try:
            if await _step_towards(fake, world, d, users, player, watcher, ai):
                return
        except AssertionError as exc:  # refused: the game moved on meanwhile
            last = exc
        await asyncio.sleep(0.1)
    raise AssertionError("the AI never came to play right after a human") from last


async def _step_towards(fake, world, d: TableDriver, users, player: int, watcher: int,
                        ai: int) -> bool:
    """One move of _to_a_human_card_an_ai_follows; True once it is there."""
    s, engine = d.table.state, d.table.engine
    to_act = engine.to_act(s)
    if s.phase == "choose":
        for seat in sorted(to_act):
            if not d.table.is_ai(seat):
                await keep_by_slash(fake, world, users[seat])
    elif s.phase == "pending":
        if not d.table.is_ai(s.last.seat):
            await ok(fake, world, users[s.last.seat], "accept")
    elif s.to_play in (player, watcher):
        await play_by_slash(fake, world, d, users[s.to_play])
        return (s.to_play == player and d.table.state.to_play == ai
                and watcher in engine.to_act(d.table.state))
    elif s.to_play < 0 and not d.table.is_ai(s.next_starter()):
        await ok(fake, world, users[s.next_starter()], "next")
    else:
        for seat in (player, watcher):  # let the AI move now (no hold)
            if seat in engine.to_act(d.table.state):
                await ok(fake, world, users[seat], "pass")
    return False


async def test_an_ai_holds_its_card_while_a_human_may_enforce(fake, world, bots):
    """Attack of the clock: an AI seat played its card `AI_DELAY` (1.5 s) after the card
    before it, which closed the enforcement window on that card; a person needs a few
    clicks and a typed hint, so nobody could ever enforce against a card an AI followed.
    The AI now holds its move while a human may still enforce (`AI_HOLD_SECONDS`), longer
    once they open their panel, and moves as soon as they pass."""
    await bots.start(ai_delay=0.2, ai_hold_seconds=5.0)
    d = driver(fake, world, bots)
    users = [world.alice, world.bob, None]
    await d.open(world.alice, [world.bob], ai=1, options="turn_seconds=0 target=6 max_turns=200")
    assert [s["ai"] for s in d.table.seats] == [False, False, True]

    # bob plays, the AI is next, alice may enforce: she passes, and the AI plays at once
    await _to_a_human_card_an_ai_follows(fake, world, d, users, 1, 0, 2)
    version = d.table.version
    await asyncio.sleep(1.0)  # five times AI_DELAY
    assert d.table.version == version, "the AI held its card"
    start = asyncio.get_running_loop().time()
    await ok(fake, world, world.alice, "pass")
    # her pass, then the AI's card (or its enforcement against bob's card) at once, not
    # at the end of the hold (5 s from bob's card, over 3.5 s away when she passed)
    while d.table.version < version + 2:
        await asyncio.sleep(0.05)
        assert asyncio.get_running_loop().time() - start < 3.0, "no hold once she passed"
    if d.table.state.phase == "pending":
        await ok(fake, world, world.bob, "accept")

    # again; this time alice takes her time in the panel (past the 5 s hold) and enforces
    await _to_a_human_card_an_ai_follows(fake, world, d, users, 1, 0, 2)
    panel = await open_panel(d, world.alice)
    await asyncio.sleep(6.0)  # reading, then typing the hint: past the 5 s hold
    assert d.table.state.to_play == 2 and d.table.state.phase == "play", "the AI waited"
    top = next(b for b in panel.message.buttons() if b["label"] == "Enforce")
    step = await fake.click(world.alice, panel.message, top["custom_id"])
    pick = next(b for b in step.message.buttons() if b["label"] == "Rule of bob")
    form = await fake.click(world.alice, step.message, pick["custom_id"])
    done = await fake.submit_modal(world.alice, form.modal.custom_id, {"text": "a heart"})
    assert done.ephemeral and "✅" in done.text, done.text
    await fake.settle()
    assert d.table.state.phase == "pending"
    assert "alice enforces bob's rule" in await d.history()


async def test_while_an_ai_holds_its_card_the_other_ai_seats_may_enforce(fake, world, bots):
    """Any player may enforce: an AI seat to play next used to move before the other AI
    seats had their say on the last card. While it holds for a human, they have it."""
    await bots.start(ai_delay=0.1, ai_hold_seconds=5.0)
    d = driver(fake, world, bots)
    users = [world.alice, world.bob, None, None]
    await d.open(world.alice, [world.bob], ai=2, options="turn_seconds=0 target=6 max_turns=200")
    await _to_a_human_card_an_ai_follows(fake, world, d, users, 1, 0, 2)
    for _ in range(60):
        s = d.table.state
        if s.phase == "pending" or 3 not in d.table.engine.to_act(s):
            break
        await asyncio.sleep(0.05)
    s = d.table.state
    assert s.phase == "pending" or 3 not in d.table.engine.to_act(s), "seat 3 had its say"
    assert s.to_play == 2 or s.phase == "pending", "the AI to play still holds"


async def test_during_an_accusation_the_board_marks_the_accused_as_acting_now(fake, world,
                                                                             bots, bot):
    """While the accused decides (Accept or Challenge), the scores marked the *next* player
    with ▶️, and a new player read it as that player's turn (found playing as a new user):
    ▶️ is on the accused, who answers now; the next player is named as playing after that,
    on the scores, in the trick's lines and in the board's picture; once answered, ▶️ is
    on the player whose turn it is again."""
    d = driver(fake, world, bots)
    await d.open(world.alice, [world.bob, world.carol], options="turn_seconds=0 target=6")
    users = [world.alice, world.bob, world.carol]
    for user in users:
        await keep_by_slash(fake, world, user)
    await d.synced()
    names = d.table.plain_names
    accused = public_view(d)["to_play"]
    await play_by_slash(fake, world, d, users[accused])
    await d.synced()
    after = public_view(d)["to_play"]
    enforcer = next(s for s in public_view(d)["window"]["may_enforce"])
    await enforce_by_slash(fake, world, users[enforcer], "Your own rule", "Say please")
    await d.synced()
    assert public_view(d)["phase"] == "pending"
    text = d.board().text
    marked = [line for line in text.split("\n") if "▶️" in line]
    assert len(marked) == 1 and f"**{names[accused]}**" in marked[0], marked
    assert "⚖️" in marked[0] and "answers now" in marked[0], marked
    [next_line] = [line for line in text.split("\n")
                   if f"**{names[after]}** —" in line]
    assert "▶️" not in next_line and "plays after that" in next_line, next_line
    assert f"Then **{names[after]}** plays." in text
    [picture] = d.board().attachments  # its alt text says what its title shows
    assert (f"Now: {names[accused]} to accept or challenge, then {names[after]} plays."
            in picture.get("description", "")), picture
    # answered: the turn is the next player's again, marked as usual
    panel = await open_panel(d, users[accused])
    await fake.click(users[accused], panel.message, panel.message.buttons()[0]["custom_id"])
    await d.synced()
    text = d.board().text
    marked = [line for line in text.split("\n") if "▶️" in line]
    now = public_view(d)["to_play"]
    assert len(marked) == 1 and f"**{names[now]}**" in marked[0], marked
    assert "answers now" not in text and "plays after that" not in text
