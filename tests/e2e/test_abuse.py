"""Issue 15, "Abuse limits": hostile display names, who may be pinged, spam, lobby caps,
results for humans an AI replaced, crafted option inputs.

Every assertion is about what people saw (messages, DMs, ephemeral replies, labels) or
about the requests the bot made (their `allowed_mentions`), as recorded by the fake.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Iterator

from bot.cooldowns import Cooldowns
from bot.tables.settings import SERVER_KEY
from bot.ui.names import NAME_LIMIT
from fakediscord import User
from fakediscord.text import iter_custom_ids
from tests.e2e.driver import TableDriver, pings

LONG = "L" * 45


def hostile_names(victim: User) -> list[str]:
    """Display names a hostile member could pick."""
    return [
        "[free nitro](https://example.com)",
        "**x** __y__ ~~z~~ ||s||",
        f"<@{victim.id}>",
        "@everyone @here",
        "```py\nboom``` `tick",
        "<#1> <:e:1> <t:1:R>",
        LONG,
        "zero\u200b\u200bwidth\u202eevil",
        "# Heading\n> quote\n- item",
    ]


# ---------------------------------------------------------------------------- what was shown
def markdown_parts(content: str, embeds: list[dict]) -> Iterator[str]:
    """Text Discord renders as markdown: content, embed titles, descriptions, fields."""
    if content:
        yield content
    for embed in embeds:
        for key in ("title", "description"):
            if embed.get(key):
                yield embed[key]
        for field in embed.get("fields") or []:
            yield field.get("name") or ""
            yield field.get("value") or ""


def plain_parts(embeds: list[dict], components: list[dict]) -> Iterator[str]:
    """Text Discord shows raw (no markdown): footers, authors, labels, options."""
    for embed in embeds:
        for key in ("footer", "author"):
            part = embed.get(key) or {}
            if part.get("text") or part.get("name"):
                yield part.get("text") or part.get("name")
    for comp in iter_custom_ids(components):
        if comp.get("label"):
            yield comp["label"]
        for option in comp.get("options") or []:
            yield option.get("label", "")


def shown_versions(fake, world, users: list[User]):
    """Every version of every message the channel, the players' DMs and their ephemeral
    replies ever showed."""
    messages = [*fake.channel_messages(world.channel, include_deleted=True),
                *fake.channel_messages(world.other_channel, include_deleted=True)]
    for user in users:
        messages += [*fake.dms(user), *fake.ephemerals(user)]
    for message in messages:
        yield from message.versions()


def assert_nothing_active(text: str, allowed_pings: set[int]) -> None:
    """No markdown or mention from a name is active in rendered text."""
    assert not re.search(r"(?<!\\)\]\(", text), f"masked link in {text!r}"
    for uid in re.findall(r"(?<!\\)<@!?(\d+)>", text):
        assert int(uid) in allowed_pings, f"mention of {uid} in {text!r}"
    assert not re.search(r"(?<![\\​])@(everyone|here)", text.replace("@\u200b", "")), text
    for raw in ("**x**", "__y__", "~~z~~", "||s||", "```py", "<#1>", "<:e:1>", "<t:1:R>"):
        assert not re.search(r"(?<!\\)" + re.escape(raw), text), f"{raw!r} active in {text!r}"
    assert not re.search(r"^(# Heading|> quote|- item)", text, re.M), text
    assert "\u202e" not in text and "\u200b\u200b" not in text
    assert "L" * (NAME_LIMIT + 1) not in text


def assert_allowed_mentions(fake, allowed: set[int]) -> int:
    """Every request that sends or edits a message states who may be pinged: nobody by
    default, or the users it names. Returns how many such requests there were."""
    checked = 0
    for call in fake.calls:
        if call.method not in ("POST", "PATCH") or not isinstance(call.json, dict):
            continue
        body = call.json
        if call.path.endswith("/callback"):
            if body.get("type") not in (4, 7):
                continue  # deferrals, forms and autocomplete carry no message
            body = body.get("data") or {}
        elif not re.search(r"/channels/\d+/messages(/\d+)?$|/webhooks/\d+/[^/]+", call.path):
            continue
        mentions = body.get("allowed_mentions")
        assert mentions is not None, f"{call} states no allowed_mentions: {body}"
        assert mentions.get("parse") == [], f"{call} may ping {mentions}"
        assert not mentions.get("roles") and not mentions.get("replied_user"), mentions
        users = {int(u) for u in mentions.get("users") or []}
        assert users <= allowed, f"{call} may ping {users - allowed}"
        named = {int(u) for u in re.findall(r"(?<!\\)<@!?(\d+)>", body.get("content") or "")}
        assert users <= named, f"{call} may ping {users - named}, whom it does not name"
        checked += 1
    return checked


# ---------------------------------------------------------------------------- the tests
async def test_hostile_names_are_shown_as_typed_and_ping_nobody(fake, world, bots):
    """Names with markdown, links, mentions, @everyone, code fences, 45 characters,
    zero-width and bidi characters and line breaks: everything each person saw shows them
    literally (escaped), bounded, on one line; every request says who may be pinged, and
    only the players it names as having to act are."""
    bot = await bots.start()
    names = hostile_names(world.alice)
    players = [fake.add_user(name) for name in names]
    for user in players:
        fake.add_member(world.guild, user)
    await fake.settle()
    await bot.storage.set_game_settings(world.guild.id, SERVER_KEY,
                                        {"leaderboard_min_games": 1})
    ids = {u.id for u in players}

    # a whole Suspense game with three of them
    suspense = TableDriver(fake, world, bots, "suspense")
    await suspense.open(players[0], players[1:3])
    await suspense.play_to_end()
    # a Taboo table with the other six, a few moves in
    taboo = TableDriver(fake, world, bots, "taboo")
    taboo.world = type(world)(**{**world.__dict__, "channel": world.other_channel})
    await taboo.open(players[3], players[4:9])
    for _ in range(6):
        seat = await taboo.next_human()
        if seat is None:
            break
        assert "✅" in await taboo.take_turn(taboo.seat_user(seat))
        await taboo.synced()
    await fake.slash(players[3], "taboo cancel", channel=world.other_channel)
    for user in players[:3]:
        await fake.slash(user, "stats", channel=world.channel)
        await fake.slash(user, "stats", {"user": players[0]}, channel=world.channel)
    # the finished game in /history and its replay, as the channel saw it and as a seat
    [played] = await bot.storage.recent_matches(world.guild.id, "suspense", limit=1)
    for user in players[:3]:
        await fake.slash(user, "history", channel=world.channel)
        opened = await fake.slash(user, "replay", {"game": played["id"]},
                                  channel=world.channel)
        for label in ("Next", "My view", "Last"):
            button = next(b for b in opened.message.buttons() if b.get("label") == label)
            await fake.click(user, opened.message, button["custom_id"])
    board = await fake.slash(players[1], "leaderboard", {"game": "suspense"},
                             channel=world.channel)
    await fake.settle()

    assert "\\[free nitro\\]" in board.text, board.text  # on the leaderboard, escaped
    shown = 0
    for version in shown_versions(fake, world, [*players, world.alice]):
        for text in markdown_parts(version.content, version.embeds):
            assert_nothing_active(text, ids)
            shown += 1
        for text in plain_parts(version.embeds, version.components):
            assert "\n" not in text and "L" * (NAME_LIMIT + 1) not in text
            assert "\\[" not in text and "\\*" not in text, f"escapes shown raw in {text!r}"
    everything = "\n".join(v.text for v in shown_versions(fake, world, players))
    for escaped in ("\\[free nitro\\]\\(https\\://example.co", "\\*\\*x\\*\\*",
                    f"\\<\\@{world.alice.id}\\>", "\\@\u200beveryone", "\\`\\`\\`py boom",
                    "\\<\\#1\\>", "L" * (NAME_LIMIT - 1) + "…", "zerowidthevil",
                    "\\# Heading \\> quote \\- item"):
        assert escaped in everything, f"{escaped!r} never shown"
    assert shown > 50
    assert not fake.dms(world.alice) and not fake.ephemerals(world.alice)
    assert assert_allowed_mentions(fake, ids) > 50


async def test_board_spam_by_a_non_player_costs_one_repost(fake, world, bots):
    """A non-player typing /suspense board 40 times in a second: one repost (two channel
    requests) and friendly ephemeral answers; the member's own cooldown says when."""
    await bots.start(command_cooldown=30)
    d = TableDriver(fake, world, bots, "suspense")
    await d.open(world.alice, [world.bob])
    since = fake.mark()
    answers = await asyncio.gather(*(fake.slash(world.outsider, "suspense board",
                                                channel=world.channel) for _ in range(40)))
    await fake.settle()
    assert all(a.ephemeral and len(a.text) < 200 for a in answers)
    assert sum("posted again below" in a.text for a in answers) == 1
    assert all("moment ago" in a.text for a in answers if "below" not in a.text)
    public = [c for c in fake.calls[since:] if "/channels/" in c.path]
    assert len(public) <= 2, public  # the new board and the old one's deletion
    # the table's window passes, the member's own cooldown still runs
    clock = [0.0]
    bots.current.cooldowns = cooldowns = Cooldowns(30, clock=lambda: clock[0])
    cooldowns.used(world.outsider.id, "board")
    clock[0] = 12.0
    again = await fake.slash(world.outsider, "suspense board", channel=world.channel)
    assert again.ephemeral and "try again in 18 s" in again.text
    other = await fake.slash(world.carol, "suspense board", channel=world.channel)
    assert "posted again below" in other.text


async def test_board_reposts_by_others_do_not_ping_the_player_to_move_again(fake, world,
                                                                             bots):
    """Attack: /<game> board every cooldown posts the board anew at the bottom, and each
    repost pinged the player whose turn it is again. The repost now names them without a
    ping; their turn's first board pinged them once."""
    await bots.start()
    d = TableDriver(fake, world, bots, "suspense")
    await d.open(world.alice, [world.bob])
    mover = d.seat_user(await d.next_human())
    await d.synced()
    before = pings(fake, mover, world.channel)
    assert before >= 1, "the turn's board pinged them"
    for _ in range(3):
        answer = await fake.slash(world.outsider, "suspense board", channel=world.channel)
        assert "posted again below" in answer.text, answer.text
        await fake.settle()
    assert f"<@{mover.id}>" in d.board().content, "the new board still names them"
    assert pings(fake, mover, world.channel) == before


async def test_a_leaderboard_asked_again_at_once_is_shown_only_to_the_asker(fake, world,
                                                                           bots):
    """/leaderboard posts in the channel, so several members repeating it could flood the
    channel: within the command cooldown a channel gets one public copy, and later askers
    see theirs ephemerally (still answered, nothing refused); another channel is apart."""
    bot = await bots.start(command_cooldown=10)
    clock = [0.0]
    bot.cooldowns = Cooldowns(10, clock=lambda: clock[0])
    first = await fake.slash(world.dave, "leaderboard", {"game": "taboo"}, channel=world.channel)
    assert not first.ephemeral and "Taboo leaderboard" in first.text
    again = await fake.slash(world.carol, "leaderboard", {"game": "taboo"},
                             channel=world.channel)
    assert again.ephemeral and "Only you see this copy" in again.text
    elsewhere = await fake.slash(world.carol, "leaderboard", {"game": "taboo"},
                                 channel=world.other_channel)
    assert not elsewhere.ephemeral
    clock[0] += 10
    later = await fake.slash(world.carol, "leaderboard", {"game": "taboo"},
                             channel=world.channel)
    assert not later.ephemeral and "Only you see" not in later.text


async def test_one_member_can_hold_only_a_few_lobbies(fake, world, bots):
    """Lobbies per member are capped (server setting lobbies_per_member, default 3); the
    refusal says where the member's lobbies are; /new has a per-member cooldown."""
    bot = await bots.start(command_cooldown=10)
    clock = [0.0]
    bot.cooldowns = Cooldowns(10, clock=lambda: clock[0])
    channels = [world.channel, world.other_channel,
                *(fake.add_channel(world.guild, f"extra-{i}") for i in range(4))]
    await fake.settle()
    first = await fake.slash(world.dave, "suspense new", channel=channels[0])
    assert not first.ephemeral
    early = await fake.slash(world.dave, "taboo new", channel=channels[1])
    assert early.ephemeral and "try again in 10 s" in early.text
    clock[0] += 10
    assert not (await fake.slash(world.dave, "taboo new", channel=channels[1])).ephemeral
    clock[0] += 10
    assert not (await fake.slash(world.dave, "sixsuit new", channel=channels[2])).ephemeral
    clock[0] += 10
    fourth = await fake.slash(world.dave, "hiddenrules new", channel=channels[3])
    assert fourth.ephemeral and "at most 3" in fourth.text
    assert all(f"<#{c.id}>" in fourth.text for c in channels[:3])
    assert bot.tables.in_channel(channels[3].id) is None
    # another member is not affected; a moderator raises the cap
    assert not (await fake.slash(world.carol, "hiddenrules new", channel=channels[3])).ephemeral
    await fake.slash(world.mod, "config server", {"setting": "lobbies_per_member",
                                                  "value": "4"}, channel=channels[0])
    clock[0] += 10
    assert not (await fake.slash(world.dave, "taboo new", channel=channels[4])).ephemeral
    clock[0] += 10
    fifth = await fake.slash(world.dave, "taboo new", channel=channels[5])
    assert fifth.ephemeral and "at most 4" in fifth.text


async def test_a_human_the_ai_replaced_gets_the_result(fake, world, bots):
    """Going idle does not dodge a loss: once an AI took alice's seat (time ran out) and
    finished the game, the match and her stats count that seat as hers, and the result
    says so."""
    bot = await bots.start(timer_tick=0.05)
    d = TableDriver(fake, world, bots, "suspense")
    await d.open(world.alice, [], ai=2, options="turn_seconds=1 afk_turns=1 points_target=2")
    for _ in range(600):  # the timer, then the AI seats play it out
        await asyncio.sleep(0.05)
        if d.table is None:
            break
    assert d.table is None, "the game did not finish"
    result = await d.result_posted()
    stats = await bot.storage.player_stats(world.guild.id, world.alice.id)
    assert [(s.game, s.played) for s in stats] == [("suspense", 1)]
    match = (await bot.storage.recent_matches(world.guild.id))[0]
    alice = next(p for p in match["players"] if p["user_id"] == world.alice.id)
    assert alice["replaced"]
    assert stats[0].wins == int(alice["seat"] in match["winners"])
    assert "An AI finished the game for alice" in result.text
    assert "counts as theirs" in result.text


CRAFTED = ["turn_seconds=on", "points_target=true", "x" * 6000, "turn_seconds=" + "5" * 5000,
           "turn_seconds=².0", "turn_seconds=²", "turn_seconds=٣", "turn_seconds=NaN",
           "turn_seconds=inf", "turn_seconds=-0.0", "turn_seconds=1e3", "shuffle_seats=1",
           "x" * 300 + "=1", "a=\"open", "points_target=" + "9" * 3000 + ".5"]


async def test_crafted_inputs_get_one_friendly_error(fake, world, bots, caplog):
    """Each crafted input: one short ephemeral error naming the problem, nothing changed,
    nothing logged as a failure, nothing huge echoed."""
    await bots.start()
    caplog.set_level(logging.WARNING)
    for options in CRAFTED:
        result = await fake.slash(world.alice, "suspense new", {"options": options},
                                  channel=world.channel)
        assert result.ephemeral and result.text.startswith("⚠️"), (options[:40], result.text)
        assert "Something went wrong" not in result.text
        assert len(result.text) < 400, result.text
        assert bots.current.tables.in_channel(world.channel.id) is None
    for value in ("on", "5" * 5000, "²", "NaN", "x" * 6000):
        result = await fake.slash(world.mod, "config set", {"game": "suspense",
                                                            "option": "points_target",
                                                            "value": value},
                                  channel=world.channel)
        assert result.ephemeral and "Nothing was changed" in result.text, result.text
        assert len(result.text) < 400
    # typed move values while playing
    d = TableDriver(fake, world, bots, "suspense")
    await d.open(world.alice, [world.bob])
    seat = await d.next_human()
    user = d.seat_user(seat)
    version = d.table.version
    for value in ("5" * 5000 + ".1", "².0", "1." + "٣", "x" * 6000, "`" * 50 + "@everyone"):
        result = await fake.slash(user, "suspense move", {"action": value},
                                  channel=world.channel)
        assert result.ephemeral and result.text.startswith("⚠️"), result.text
        assert len(result.text) < 400 and "Something went wrong" not in result.text
        assert d.table.version == version
    failures = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not failures, [r.getMessage() for r in failures]


async def test_what_a_player_says_is_shown_as_typed(fake, world, bots):
    """Hidden Rules: what a player says with a card is free text the whole table reads; a
    link, emphasis or mention in it is shown literally and pings nobody."""
    await bots.start()
    d = TableDriver(fake, world, bots, "hiddenrules")
    d.modal_text = lambda modal: "[free](https://e.com) **b** @everyone <@1>"
    await d.open(world.alice, [world.bob])
    for _ in range(10):
        seat = await d.next_human()
        if seat is None:
            break
        await d.take_turn(d.seat_user(seat))
        await d.synced()
    ids = {world.alice.id, world.bob.id}
    everything = []
    for version in shown_versions(fake, world, [world.alice, world.bob]):
        for text in markdown_parts(version.content, version.embeds):
            assert_nothing_active(text, ids)
            assert "**b**" not in text, text
            everything.append(text)
    assert any("\\[free\\]\\(https\\://e.com\\)" in t for t in everything)
    assert assert_allowed_mentions(fake, ids) > 5


async def test_join_and_leave_in_a_loop_is_slowed_down(fake, world, bots):
    """/leave in a lobby edits the lobby message through the channel: a member repeating
    Join and /leave waits out the cooldown between two leaves (and is told how long)."""
    bot = await bots.start(command_cooldown=10)
    clock = [0.0]
    bot.cooldowns = Cooldowns(10, clock=lambda: clock[0])
    lobby = (await fake.slash(world.alice, "suspense new", channel=world.channel)).message
    join = next(b["custom_id"] for b in lobby.buttons() if b.get("label") == "Join")
    await fake.click(world.bob, lobby, join)
    assert "You left" in (await fake.slash(world.bob, "suspense leave",
                                           channel=world.channel)).text
    await fake.click(world.bob, lobby, join)
    since = fake.mark()
    again = await fake.slash(world.bob, "suspense leave", channel=world.channel)
    assert again.ephemeral and "try again in 10 s" in again.text
    assert not [c for c in fake.calls[since:] if "/channels/" in c.path]
    assert bot.tables.in_channel(world.channel.id).seat_of(world.bob.id) is not None
    clock[0] += 10
    assert "You left" in (await fake.slash(world.bob, "suspense leave",
                                           channel=world.channel)).text


async def test_crafted_custom_ids_get_one_friendly_error_and_log_no_failure(
        fake, world, bots, caplog):
    """A modified client (or a message from an older version) can send a click whose custom
    id or menu value the bot never made: `t:1:act:abc` crashed with ValueError, was logged
    as a failure and answered "Something went wrong". Each gets one friendly ephemeral
    refusal, changes nothing and logs nothing as a failure."""
    await bots.start()
    caplog.set_level(logging.WARNING)
    d = TableDriver(fake, world, bots, "suspense")
    await d.open(world.alice, [world.bob])
    board = d.board()
    version, state = d.table.version, d.table.row.state
    tid = d.table_id
    crafted = [(f"t:{tid}:act:abc", None), (f"t:{tid}:act:1.²", None),
               (f"t:{tid}:turn:abc", None), (f"t:{tid}:pn:x:0", None),
               (f"t:{tid}:pn:{version}:a.b", None), (f"t:{tid}:pn:{version}:0:zz", None),
               (f"t:{tid}:hist:²", None), (f"lt:{tid}", ["abc"]), (f"lr:{tid}", ["²"]),
               (f"ps:{tid}:{version}:", ["page:x"])]
    for custom_id, values in crafted:
        comp = {"type": 2 if values is None else 3, "custom_id": custom_id}
        extra = {} if values is None else {"values": values}
        for user in (world.alice, world.outsider):
            result = await fake._component_interaction(user, board, comp, extra, None)
            got = [result.text, *(f.text for f in result.followups)]
            assert len(got) == 1 and result.ephemeral, (custom_id, got)
            assert got[0].startswith("⚠️") and "Something went wrong" not in got[0], \
                (custom_id, got)
    assert d.table.version == version and d.table.row.state == state
    failures = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not failures, [r.getMessage() for r in failures]


async def test_taboo_echoes_a_typed_card_short_and_in_a_code_span_it_cannot_break(
        fake, world, bots):
    """`/taboo play` and `/taboo place` quoted a typed card raw: 6,000 characters came back
    (cut at Discord's 2,000), and a backtick ended the code span early; an unreadable
    `take:` came back whole too, its markdown rendered."""
    from engines.taboo.rules import Capture, Place

    await bots.start()
    d = TableDriver(fake, world, bots, "taboo")
    await d.open(world.alice, [world.bob])
    tried: set[str] = set()
    for _ in range(200):
        if d.table is None or tried == {"play", "place"}:
            break
        seat = await d.next_human()
        user = d.seat_user(seat)
        kinds = {type(a) for a in d.legal(seat)}
        for command, kind in (("play", Capture), ("place", Place)):
            if kind not in kinds or command in tried:
                continue
            tried.add(command)
            version = d.table.version
            for card in ("x" * 6000, "``**7**`` [a](https://e.com) @everyone"):
                result = await fake.slash(user, f"taboo {command}", {"card": card},
                                          channel=world.channel)
                assert result.ephemeral and result.text.startswith("⚠️"), result.text
                assert len(result.text) < 400, (command, len(result.text))
                if "`" in card:  # the span shows the backticks as look-alikes, whole
                    assert "`ˋˋ**7**ˋˋ [a](https://e.com) @everyone`" in result.text, \
                        result.text
            if command == "play":  # a card that captures, with an unreadable take:
                capture = next(a for a in d.legal(seat) if isinstance(a, Capture))
                for take in ("x" * 6000, "7 + **b** `c`"):
                    result = await fake.slash(user, "taboo play",
                                              {"card": str(capture.card), "take": take},
                                              channel=world.channel)
                    assert result.ephemeral and result.text.startswith("⚠️"), result.text
                    assert len(result.text) < 400, len(result.text)
                    assert "**b**" not in result.text and "`c`" not in result.text, \
                        result.text
            assert d.table.version == version
        await d.take_turn(user)
        await d.synced()
    assert tried == {"play", "place"}, tried


async def test_two_players_with_the_same_display_name_are_told_apart(fake, world, bots):
    """Discord display names are not unique: two members called "Alex" at one table made
    every board line ("Alex — 0 pts", "Alex plays ⚪3") and every history line ambiguous.
    Each gets their seat number while the names clash."""
    await bots.start()
    first, second = fake.add_user("Alex"), fake.add_user("alex")
    for user in (first, second):
        fake.add_member(world.guild, user)
    d = TableDriver(fake, world, bots, "suspense")
    await d.open(first, [second], options="points_target=2")
    await d.play_to_end(pause_after=3)
    board = d.board_versions()[-1].text
    assert "**Alex \\(1\\)**" in board and "**alex \\(2\\)**" in board, board
    history = await d.history()
    assert "Alex \\(1\\) plays" in history and "alex \\(2\\) plays" in history, history


async def test_a_member_named_like_an_ai_seat_is_not_shown_as_one(fake, world, bots):
    """AI seats are the only names with 🤖 in front ("🤖 Ada"). A member who called
    themself "🤖 Ada" sat at the table as a second "🤖 Ada" (told apart only by seat
    numbers), or, with no AI seated, passed for one: every board, line and result showed
    an AI where a person played (found playing as new users)."""
    await bots.start()
    fake_ai = fake.add_user("🤖 Ada")
    fake.add_member(world.guild, fake_ai)
    d = TableDriver(fake, world, bots, "suspense")
    await d.open(world.alice, [fake_ai], ai=1, options="points_target=2")
    names = [seat["name"] for seat in d.table.seats]
    assert names == ["alice", "Ada", "🤖 Ada"], names
    board = d.board().text
    assert board.count("🤖 Ada") == 1 and "**Ada**" in board, board


async def test_options_typed_with_spaces_around_the_equals_sign_are_read(fake, world, bots):
    """`points_target = 4` was refused with "`points_target` should look like
    `name=value`": the player had written just that, with spaces (found playing as new
    users)."""
    await bots.start()
    result = await fake.slash(world.alice, "suspense new",
                              {"options": "points_target = 4  turn_seconds= 120"},
                              channel=world.channel)
    assert not result.ephemeral, result.text
    assert "`points_target` = **4**" in result.text and "`turn_seconds` = **120**" in \
        result.text, result.text


async def test_an_option_given_twice_is_refused_naming_it(fake, world, bots):
    """`points_target=3 points_target=4` opened a lobby with 4, the 3 silently dropped (found
    playing as a new user): it is refused, naming the option and both values, and no lobby
    opens; spelled in another case or with spaces around `=` it is the same option."""
    await bots.start()
    before = len(fake.channel_messages(world.channel))
    for options in ("points_target=3 points_target=4", "Points_Target = 3, points_target=3"):
        result = await fake.slash(world.alice, "suspense new", {"options": options},
                                  channel=world.channel)
        assert result.ephemeral and result.text.startswith("⚠️"), result.text
        assert "`points_target` is given twice" in result.text, result.text
        assert "give each option once" in result.text, result.text
        assert bots.current.tables.in_channel(world.channel.id) is None
    assert "(`3` and `4`)" in (await fake.slash(
        world.alice, "suspense new", {"options": "points_target=3 turn_seconds=60 "
                                                 "points_target=4"},
        channel=world.channel)).text
    assert len(fake.channel_messages(world.channel)) == before, "no lobby was posted"
    # once each, the same options open the lobby
    result = await fake.slash(world.alice, "suspense new", {"options": "points_target=4"},
                              channel=world.channel)
    assert not result.ephemeral and "`points_target` = **4**" in result.text, result.text


async def test_crafted_pile_numbers_get_one_friendly_error(fake, world, bots, caplog):
    """`pile:` is 0–6 in the command's definition, but "this validation is client-side
    only" (application-commands.mdx, Autocomplete): a crafted 7 or −7 raised IndexError
    ("Something went wrong") and −1 read as pile 5 of the player's (`piles[-2]`), which
    gave a wrong reason. Any number but 1–6 is refused saying piles are 1–6, nothing
    changed, nothing logged as a failure."""
    from engines.six_suit.cards import LABELS
    from engines.six_suit.rules import Play
    from tests.e2e.test_notes import _predict

    await bots.start()
    caplog.set_level(logging.WARNING)
    d = TableDriver(fake, world, bots, "sixsuit")
    await d.open(world.alice, [world.bob, world.carol], options="max_rounds=4")
    seat = await d.next_human()
    user = d.seat_user(seat)
    play = next(iter(await _predict(d, user, seat) or [Play(0, seat, 0)]))
    for pile in (7, 100, -1, -6, -7, 2**53 - 1, -(2**53 - 1)):
        text = await d.refused(user, "play", {"card": LABELS[play.card],
                                              "player": str(play.target + 1), "pile": pile},
                               says="piles are numbered 1–6")
        assert "Something went wrong" not in text and len(text) < 200, text
    failures = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not failures, [r.getMessage() for r in failures]
